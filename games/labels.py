"""Copy labels to print on sticker sheets: each label the game's title, the shelf mark, the
barcode, and a QR code that opens the copy's page at the desk. And member cards, ten to an A4
sheet of business cards: the library's name, the household's, its card number in words and as a
Code 39 barcode (what a desk's keyboard-wedge scanner reads), and a QR code that opens the
household at the desk (``{base_url}/desk/households/{card}/``, :func:`household_desk_url`).

Pure: plain values in, the PDF's bytes out; no Django, no app (an import-linter contract says
so). The desk page's address is the contract with the desk: ``{base_url}/desk/copies/{barcode}/``,
the barcode URL-quoted (:func:`desk_url`).

The QR codes are PNG images (segno, error correction M, eight pixels a module, the four-module
quiet zone inside the image), so a PDF reader or a test can take them out and read them; a
printer draws them as crisp as vector squares, PDF images being drawn without smoothing.

The text is set in DejaVu Sans cut down to Latin-1, Latin Extended-A (œ, Œ, ł, ő…) and the common
punctuation (’ « » – — …), shipped in ``games/fonts/`` (about 60 kB, its licence beside it), so a
label prints the same on any machine whatever fonts it has. It was cut with fontTools, which
fpdf2 installs::

    pyftsubset DejaVuSans.ttf --no-hinting --layout-features=kern,liga \\
      --unicodes=U+0020-007E,U+00A0-017F,U+0192,U+02C6,U+02C7,U+02D8-02DD,U+2010-2027,U+2030-203A,U+2044,U+20AC,U+2122,U+2212

A character outside it prints as its letter without the accent where it has one (ǎ → a) and as
``?`` otherwise (:func:`printable`).

"""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING
from urllib.parse import quote

if TYPE_CHECKING:
    from fpdf import FPDF

# fpdf, fontTools and segno are imported where a sheet is drawn: this module is imported with the
# catalogue's services by every process that starts Django (each Celery worker, each manage.py
# command), and they took a fifth of a second of each start.

FONT_FAMILY = "DejaVuSans"
FONT_FILES = {"": "DejaVuSans-Latin.ttf", "B": "DejaVuSans-Bold-Latin.ttf"}
QR_ERROR_CORRECTION = "m"
QR_PIXELS_PER_MODULE = 8
ELLIPSIS = "…"


@dataclass(frozen=True)
class LabelData:
    """What one label shows: a copy's title, shelf mark and barcode."""

    title: str
    shelf_mark: str
    barcode: str


@dataclass(frozen=True)
class SheetLayout:
    """A sheet of stickers, in millimetres: the page, the grid of labels, and the blank kept
    inside each label (printers do not print to the paper's edge, and a sticker cut a little off
    should not cut the text)."""

    name: str
    page_width: float
    page_height: float
    columns: int
    rows: int
    label_width: float
    label_height: float
    left: float
    top: float
    column_gap: float = 0.0
    row_gap: float = 0.0
    padding_x: float = 5.0
    padding_y: float = 3.5

    @property
    def per_page(self) -> int:
        return self.columns * self.rows

    def origin(self, index: int) -> tuple[float, float]:
        """The top-left corner of the label at ``index`` on its page, row by row.

        >>> A4_3x8.origin(0), A4_3x8.origin(4), A4_3x8.origin(23)
        ((0.0, 0.5), (70.0, 37.5), (140.0, 259.5))
        """
        row, column = divmod(index % self.per_page, self.columns)
        return (self.left + column * (self.label_width + self.column_gap),
                self.top + row * (self.label_height + self.row_gap))


A4_3x8 = SheetLayout(name="A4, 3 × 8 labels of 70 × 37 mm", page_width=210, page_height=297, columns=3, rows=8,
                     label_width=70, label_height=37, left=0, top=0.5)
"""The common A4 sheet of 24 stickers, edge to edge across the page, half a millimetre at the top
and the bottom."""


def desk_url(base_url: str, barcode: str) -> str:
    """The address of a copy's desk page, which its QR code opens.

    >>> desk_url("https://ludo.example/", "LUD 12/b")
    'https://ludo.example/desk/copies/LUD%2012%2Fb/'
    """
    return f"{base_url.rstrip('/')}/desk/copies/{quote(barcode, safe='')}/"


def label_sheet(copies: Sequence[LabelData], *, base_url: str, layout: SheetLayout = A4_3x8,
                skip: int = 0) -> bytes:
    """The PDF of the copies' labels, ``layout.per_page`` a page, in the order given; ``skip``
    leaves that many labels blank at the start of the first page (a sheet already partly used)."""
    if not copies:
        raise ValueError("no copy to label")
    return _sheet(layout, skip, "Ludolog labels", [
        lambda pdf, x, y, copy=copy: _draw_label(pdf, layout, x, y, copy, desk_url(base_url, copy.barcode))
        for copy in copies])


@dataclass(frozen=True)
class MemberCardData:
    """What a member card shows: whose card it is and its number. ``heading`` (the library's name)
    and ``caption`` ("Member card", in the library's language) are the caller's words."""

    household: str
    card_number: str
    heading: str
    caption: str


A4_BUSINESS_CARDS_2x5 = SheetLayout(
    name="A4, 2 × 5 cards of 85 × 54 mm", page_width=210, page_height=297, columns=2, rows=5,
    label_width=85, label_height=54, left=15, top=13.5, column_gap=10, padding_x=5, padding_y=4.5)
"""The common A4 sheet of ten business cards (85 × 54 mm, the size of a bank card)."""

CODE39_CHARACTERS = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-. $/+%")


def household_desk_url(base_url: str, card_number: str) -> str:
    """The address of a household at the desk, which its member card's QR code opens.

    >>> household_desk_url("https://ludo.example", "M-0042")
    'https://ludo.example/desk/households/M-0042/'
    """
    return f"{base_url.rstrip('/')}/desk/households/{quote(card_number, safe='')}/"


def member_card_sheet(cards: Sequence[MemberCardData], *, base_url: str,
                      layout: SheetLayout = A4_BUSINESS_CARDS_2x5, skip: int = 0) -> bytes:
    """The PDF of the member cards, ``layout.per_page`` a page; ``skip`` as for the labels."""
    if not cards:
        raise ValueError("no member card to print")
    return _sheet(layout, skip, "Ludolog member cards", [
        lambda pdf, x, y, card=card: _draw_member_card(pdf, layout, x, y, card,
                                                       household_desk_url(base_url, card.card_number))
        for card in cards])


def _sheet(layout: SheetLayout, skip: int, title: str, drawings: Sequence) -> bytes:
    """A PDF of sheets of ``layout``, each of ``drawings`` (``draw(pdf, x, y)``) in the next place."""
    if not 0 <= skip < layout.per_page:
        raise ValueError(f"skip must be from 0 to {layout.per_page - 1}")
    from fpdf import FPDF

    pdf = FPDF(orientation="portrait", unit="mm", format=(layout.page_width, layout.page_height))
    pdf.set_auto_page_break(False)
    pdf.set_margins(0, 0, 0)
    pdf.set_title(title)
    pdf.set_creator("Ludolog")
    for style, file_name in FONT_FILES.items():
        pdf.add_font(FONT_FAMILY, style, str(_font_path(file_name)))
    for position, draw in enumerate(drawings, start=skip):
        if position % layout.per_page == 0 or position == skip:
            pdf.add_page()
        draw(pdf, *layout.origin(position))
    return bytes(pdf.output())


def qr_png(data: str) -> bytes:
    """The QR code of ``data`` as a black-and-white PNG, quiet zone included."""
    import segno

    buffer = io.BytesIO()
    segno.make_qr(data, error=QR_ERROR_CORRECTION, boost_error=False).save(
        buffer, kind="png", scale=QR_PIXELS_PER_MODULE, border=4)
    return buffer.getvalue()


def printable(text: str) -> str:
    """``text`` with the characters the labels' font lacks replaced: by their letter without its
    accent where that is in the font, by ``?`` otherwise.

    >>> printable("Carcassonne à la préhistoire — Œuvre, Łódź, Ǎ, 囲碁")
    'Carcassonne à la préhistoire — Œuvre, Łódź, A, ??'
    """
    covered = _covered_characters()
    if all(character in covered for character in text):
        return text
    kept = []
    for character in unicodedata.normalize("NFC", text):
        if character in covered:
            kept.append(character)
            continue
        bare = "".join(part for part in unicodedata.normalize("NFKD", character) if not unicodedata.combining(part))
        kept.append(bare if bare and all(part in covered for part in bare) else "?")
    return "".join(kept)


def fitted_lines(text: str, width: float, max_lines: int, measure) -> list[str]:
    """``text`` wrapped at spaces into at most ``max_lines`` lines no wider than ``width`` by
    ``measure``; a word too long for a line is cut, and text left over ends the last line with an
    ellipsis.

    >>> fitted_lines("Carcassonne à la préhistoire", 16, 2, len)
    ['Carcassonne à la', 'préhistoire']
    >>> fitted_lines("Les Aventuriers du Rail : Europe", 12, 2, len)
    ['Les', 'Aventuriers…']
    """
    lines: list[str] = []
    words = text.split()
    while words and len(lines) < max_lines:
        line = words.pop(0)
        while measure(line) > width:  # a word longer than the line: cut it where it must be cut
            cut = len(line) - 1
            while cut > 1 and measure(line[:cut]) > width:
                cut -= 1
            words.insert(0, line[cut:])
            line = line[:cut]
        while words and measure(f"{line} {words[0]}") <= width:
            line = f"{line} {words.pop(0)}"
        lines.append(line)
    if words:
        last = lines[-1]
        while last and measure(last + ELLIPSIS) > width:
            last = last[:-1].rstrip()
        lines[-1] = last + ELLIPSIS
    return lines


def _draw_label(pdf: FPDF, layout: SheetLayout, x: float, y: float, copy: LabelData, url: str) -> None:
    qr_size = layout.label_height - 2 * layout.padding_y
    qr_x = x + layout.label_width - layout.padding_x - qr_size
    # The quiet zone is white already: the text may come up to the image's edge.
    pdf.image(io.BytesIO(qr_png(url)), x=qr_x, y=y + layout.padding_y, w=qr_size, h=qr_size)
    text_x = x + layout.padding_x
    text_width = qr_x - text_x
    top, bottom = y + layout.padding_y, y + layout.label_height - layout.padding_y

    pdf.set_font(FONT_FAMILY, "B", 9)
    title_lines = fitted_lines(printable(copy.title), text_width, 3, pdf.get_string_width)
    cursor = top
    for line in title_lines:
        pdf.set_xy(text_x, cursor)
        pdf.cell(text_width, 3.9, line)
        cursor += 3.9

    pdf.set_font(FONT_FAMILY, "", 8)
    shelf_lines = fitted_lines(printable(copy.shelf_mark), text_width, 2, pdf.get_string_width)
    cursor = max(cursor + 1.2, bottom - 4.6 - 3.5 * len(shelf_lines))
    for line in shelf_lines:
        pdf.set_xy(text_x, cursor)
        pdf.cell(text_width, 3.5, line)
        cursor += 3.5

    pdf.set_font(FONT_FAMILY, "B", 10)
    barcode = (fitted_lines(printable(copy.barcode), text_width, 1, pdf.get_string_width) or [""])[0]
    pdf.set_xy(text_x, bottom - 4.4)
    pdf.cell(text_width, 4.4, barcode)


def _draw_member_card(pdf: FPDF, layout: SheetLayout, x: float, y: float, card: MemberCardData, url: str) -> None:
    # Cut guides: business-card sheets are often plain paper cut by hand.
    pdf.set_draw_color(200)
    pdf.set_line_width(0.1)
    pdf.rect(x, y, layout.label_width, layout.label_height)
    left, top = x + layout.padding_x, y + layout.padding_y
    qr_size = 27.0
    qr_x = x + layout.label_width - layout.padding_x - qr_size
    pdf.image(io.BytesIO(qr_png(url)), x=qr_x, y=top, w=qr_size, h=qr_size)
    text_width = qr_x - left - 1

    pdf.set_font(FONT_FAMILY, "B", 9)
    cursor = top
    for line in fitted_lines(printable(card.heading), text_width, 2, pdf.get_string_width):
        pdf.set_xy(left, cursor)
        pdf.cell(text_width, 4, line)
        cursor += 4
    pdf.set_font(FONT_FAMILY, "", 8)
    pdf.set_xy(left, cursor + 0.5)
    pdf.cell(text_width, 3.6, fitted_lines(printable(card.caption), text_width, 1, pdf.get_string_width)[0])
    pdf.set_font(FONT_FAMILY, "B", 11)
    cursor += 6
    for line in fitted_lines(printable(card.household), text_width, 2, pdf.get_string_width):
        pdf.set_xy(left, cursor)
        pdf.cell(text_width, 5, line)
        cursor += 5

    bottom = y + layout.label_height - layout.padding_y
    pdf.set_font(FONT_FAMILY, "B", 10)
    pdf.set_xy(left, bottom - 4.4)
    pdf.cell(layout.label_width - 2 * layout.padding_x, 4.4, printable(card.card_number))
    if set(card.card_number) <= CODE39_CHARACTERS:
        # fpdf2 takes the wide bar's width (a narrow bar is a third): a character is 16 narrow
        # widths. A narrow bar of 0.3 mm reads well; narrower only when the number is long.
        width = layout.label_width - 2 * layout.padding_x
        wide = min(0.9, width * 3 / (16 * (len(card.card_number) + 2)))
        pdf.set_fill_color(0)
        pdf.code39(f"*{card.card_number}*", x=left, y=bottom - 16, w=wide, h=10)


def _font_path(file_name: str):
    return resources.files("games").joinpath("fonts", file_name)


@cache
def _covered_characters() -> frozenset[str]:
    """The characters both of the labels' fonts draw."""
    from fontTools.ttLib import TTFont

    covered = None
    for file_name in FONT_FILES.values():
        with _font_path(file_name).open("rb") as font_file:
            characters = {chr(point) for point in TTFont(font_file).getBestCmap()}
        covered = characters if covered is None else covered & characters
    return frozenset(covered or ())
