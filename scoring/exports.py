"""A league's standings as a table of columns, and out of the site as CSV and PDF.

The columns are defined once (:data:`STANDINGS_COLUMNS`): the league page lays them out as its
table, the CSV writes them as rows and the PDF prints them, each in its own way of writing a
number (:func:`shown` for a person, :func:`plain` for a spreadsheet). The rows are always those
of :func:`scoring.selectors.league_standings` for the reader, so that a file shows exactly what
the page shows to the same person: no second query path, no private game let through.

The files are in the organisation's language (the league's club's organisation; the site's
default for a club without one), whatever the reader's: they are posted on the club's board
and sent to its members. The CSV is UTF-8 with a byte order mark, so that Excel reads the
accents; the PDF (fpdf2) sets its text in the DejaVu Sans the copy labels ship
(``games/fonts``, French and Czech letters) through :func:`games.labels.printable`.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from importlib import resources

from django.conf import settings
from django.template.defaultfilters import floatformat
from django.utils import formats, translation
from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy as _, pgettext_lazy

from games.labels import FONT_FAMILY, FONT_FILES, printable

from .models import League, Standing

BYTE_ORDER_MARK = "\ufeff"
NOTHING = "—"
"""What a person reads in a cell with no figure (an unranked player's position)."""


@dataclass(frozen=True)
class Column:
    """One column of the standings: its heading, how to read its figure from a row, and the
    decimals a person reads as Django's ``floatformat`` takes them (``"-1"``: one, none when the
    figure is whole; ``None``: a whole number or a word, written as it is)."""

    key: str
    heading: Promise
    value: Callable[[Standing], object]
    decimals: str | None = None
    number: bool = True


STANDINGS_COLUMNS: tuple[Column, ...] = (
    Column("position", _("Position"), lambda row: row.position),
    Column("player", _("Player"), lambda row: row.player.display_name, number=False),
    # "Games" alone is the catalogue's word (French "Jeux"): here, the games played ("Parties").
    Column("games", pgettext_lazy("standings column", "Games"), lambda row: row.games),
    Column("wins", _("Wins"), lambda row: row.wins),
    Column("points", _("Points"), lambda row: row.points, decimals="-1"),
    Column("average_rank", _("Average rank"), lambda row: row.average_rank, decimals="2"),
    Column("average_score", _("Average score"), lambda row: row.average_score, decimals="1"),
)


def shown(column: Column, row: Standing) -> str:
    """The cell as a person reads it, in the active language (``2,33`` in French), rounded as
    the page always rounded it."""
    value = column.value(row)
    if value is None:
        return NOTHING
    return str(value) if column.decimals is None else floatformat(value, column.decimals)


def plain(column: Column, row: Standing) -> str:
    """The cell as a spreadsheet reads it: digits and a dot, nothing for no figure."""
    value = column.value(row)
    if value is None:
        return ""
    # "u": floatformat's own rounding, never the language's decimal comma.
    return str(value) if column.decimals is None else floatformat(value, column.decimals + "u")


@dataclass(frozen=True)
class Cell:
    column: Column
    text: str


def page_rows(table: Sequence[Standing]) -> list[tuple[Standing, list[Cell]]]:
    """The rows of the league page's table: each standing with its cells as a person reads them."""
    return [(row, [Cell(column, shown(column, row)) for column in STANDINGS_COLUMNS]) for row in table]


def language_of(league: League) -> str:
    """The language of the league's files: its club's organisation's, else the site's default."""
    organisation = league.club.organisation
    return organisation.language if organisation is not None else settings.LANGUAGE_CODE


def organisation_name(league: League) -> str:
    organisation = league.club.organisation
    return organisation.name if organisation is not None else league.club.name


def file_stem(league: League) -> str:
    """``standings-<league id>``: the file's name stays ASCII whatever the league's name."""
    return f"standings-{league.pk}"


def standings_csv(league: League, table: Sequence[Standing]) -> bytes:
    """The standings as CSV: a heading row in the organisation's language, then a row a player,
    numbers plain."""
    with translation.override(language_of(league)):
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow([str(column.heading) for column in STANDINGS_COLUMNS])
        for row in table:
            writer.writerow([plain(column, row) for column in STANDINGS_COLUMNS])
    return (BYTE_ORDER_MARK + out.getvalue()).encode("utf-8")


PAGE_MARGIN = 15.0
COLUMN_WIDTHS = (17, 53, 18, 20, 20, 25, 27)
"""Millimetres, in the order of :data:`STANDINGS_COLUMNS`: 180, the width of A4 inside its margins."""
LINE = 7.0


def standings_pdf(league: League, table: Sequence[Standing], printed_on: date) -> bytes:
    """The standings as an A4 PDF in the organisation's language: the organisation's name, the
    league and its season, the day it was printed, then the table, its heading row repeated on
    every page; each page numbered."""
    from fpdf import FPDF, FontFace

    with translation.override(language_of(league)):
        season = gettext("Season from %(first)s to %(last)s") % {
            "first": formats.date_format(league.starts_on, "DATE_FORMAT"),
            "last": formats.date_format(league.ends_on, "DATE_FORMAT")}
        ranked_by = gettext("Standings by %(system)s") % {"system": league.get_scoring_system_display()}
        printed = gettext("Printed on %(day)s") % {"day": formats.date_format(printed_on, "DATE_FORMAT")}
        page_words = gettext("Page %(number)s of %(total)s")

        class StandingsPDF(FPDF):
            def footer(self) -> None:
                self.set_y(-PAGE_MARGIN + 4)
                self.set_font(FONT_FAMILY, "", 8)
                self.cell(0, 5, printable(page_words % {"number": self.page_no(), "total": "{nb}"}), align="C")

        pdf = StandingsPDF(orientation="portrait", unit="mm", format="A4")
        pdf.set_margins(PAGE_MARGIN, PAGE_MARGIN, PAGE_MARGIN)
        pdf.set_auto_page_break(True, margin=PAGE_MARGIN + 5)
        pdf.set_title(printable(f"{organisation_name(league)} — {league.name}"))
        pdf.set_creator("Ludolog")
        for style, file_name in FONT_FILES.items():
            pdf.add_font(FONT_FAMILY, style, str(resources.files("games").joinpath("fonts", file_name)))
        pdf.add_page()
        pdf.set_font(FONT_FAMILY, "B", 16)
        pdf.multi_cell(0, 9, printable(organisation_name(league)), new_x="LMARGIN", new_y="NEXT")
        pdf.set_font(FONT_FAMILY, "B", 13)
        pdf.multi_cell(0, 8, printable(league.name), new_x="LMARGIN", new_y="NEXT")
        pdf.set_font(FONT_FAMILY, "", 10)
        pdf.cell(0, 6, printable(season), new_x="LMARGIN", new_y="NEXT")
        pdf.cell(0, 6, printable(ranked_by), new_x="LMARGIN", new_y="NEXT")
        pdf.cell(0, 6, printable(printed), new_x="LMARGIN", new_y="NEXT")
        pdf.ln(4)
        if not table:
            pdf.cell(0, LINE, printable(gettext("No game counted for this league yet.")), new_x="LMARGIN", new_y="NEXT")
            return bytes(pdf.output())
        pdf.set_font(FONT_FAMILY, "", 9)
        alignment = tuple("RIGHT" if column.number else "LEFT" for column in STANDINGS_COLUMNS)
        with pdf.table(col_widths=COLUMN_WIDTHS, text_align=alignment, line_height=LINE - 1.5,
                       headings_style=FontFace(emphasis="BOLD", fill_color=(230, 230, 230)),
                       borders_layout="HORIZONTAL_LINES", repeat_headings=1) as sheet:
            heading = sheet.row()
            for column in STANDINGS_COLUMNS:
                heading.cell(printable(str(column.heading)))
            for row in table:
                line = sheet.row()
                for column in STANDINGS_COLUMNS:
                    line.cell(printable(shown(column, row)))
        pdf.ln(3)
        pdf.set_font(FONT_FAMILY, "", 8)
        pdf.multi_cell(0, 4, printable(gettext(
            "Players without a position have not yet played the games needed to be ranked.")))
        return bytes(pdf.output())
