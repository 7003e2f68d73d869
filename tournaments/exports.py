"""A tournament out of the site: its standings as CSV, a round's pairing sheet and a table's
score sheet as A4 PDFs, in the organisation's language whatever the reader's (they are pinned
up in the club's room). The patterns are ``scoring.exports``' for a league: UTF-8 with a byte
order mark so that Excel reads the accents, numbers plain in the CSV, fpdf2 with the DejaVu Sans
the copy labels ship (``games.labels``) for French and Czech letters."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from importlib import resources
from typing import Any

from django.template.defaultfilters import floatformat
from django.utils import translation
from django.utils.translation import gettext

from games.labels import FONT_FAMILY, FONT_FILES, printable

from .models import Round, Tournament
from .selectors import StandingRow, TableView

BYTE_ORDER_MARK = "\ufeff"
PAGE_MARGIN = 15.0


def language_of(tournament: Tournament) -> str:
    return tournament.organisation.language


def standings_csv(tournament: Tournament, rows: Sequence[StandingRow]) -> bytes:
    """A heading row in the organisation's language, then a row a player: rank, name, points
    (a dot for decimals), tables played, each tie-breaker, and the round they dropped out after."""
    with translation.override(language_of(tournament)):
        words = tie_breaker_words()
        out = io.StringIO()
        writer = csv.writer(out)
        names = list(tournament.tiebreakers)
        final = [gettext("Place at the final table")] if tournament.has_final else []
        writer.writerow([gettext("Rank"), gettext("Player"), gettext("Points"), gettext("Tables"),
                         *[words.get(name, name) for name in names], gettext("Dropped out after round"), *final])
        for row in rows:
            writer.writerow([row.rank, row.entrant.player.display_name, floatformat(row.line.points, "-2u"),
                             row.line.played, *[floatformat(row.line.tiebreaks[name], "-3u") for name in names],
                             row.entrant.dropped_after_round if row.entrant.dropped_after_round is not None else "",
                             *([row.final_place or ""] if tournament.has_final else [])])
    return (BYTE_ORDER_MARK + out.getvalue()).encode("utf-8")


def tie_breaker_words() -> dict[str, str]:
    return {"opponents_points": gettext("Opponents' points"), "score_ratio": gettext("Score ratio to the winner"),
            "head_to_head": gettext("Head to head")}


def _pdf(title: str) -> Any:
    from fpdf import FPDF

    pdf = FPDF(orientation="portrait", unit="mm", format="A4")
    pdf.set_margins(PAGE_MARGIN, PAGE_MARGIN, PAGE_MARGIN)
    pdf.set_auto_page_break(True, margin=PAGE_MARGIN)
    pdf.set_title(printable(title))
    pdf.set_creator("Ludolog")
    for style, file_name in FONT_FILES.items():
        pdf.add_font(FONT_FAMILY, style, str(resources.files("games").joinpath("fonts", file_name)))
    pdf.add_page()
    return pdf


def _heading(pdf: Any, tournament: Tournament, subtitle: str, round_number: int | None = None) -> None:
    """The club, the tournament and its game (a round's sheet: the game that round plays), the subtitle."""
    pdf.set_font(FONT_FAMILY, "B", 15)
    pdf.multi_cell(0, 8, printable(tournament.organisation.name), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(FONT_FAMILY, "B", 13)
    played = tournament.game_of_round(round_number) if round_number is not None else tournament.game
    game = f" — {played.title}" if played else ""
    pdf.multi_cell(0, 7, printable(tournament.name + game), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(FONT_FAMILY, "", 12)
    pdf.cell(0, 7, printable(subtitle), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(3)


def pairing_pdf(tournament: Tournament, drawn: Round, tables: Sequence[TableView]) -> bytes:
    """Every table of the round with its players in seat order (seat 1 plays first)."""
    from fpdf import FontFace

    with translation.override(language_of(tournament)):
        round_words = (gettext("Final table") if tournament.is_final(drawn.number)
                       else gettext("Round %(number)s") % {"number": drawn.number})
        pdf = _pdf(f"{tournament.name} — {round_words}")
        _heading(pdf, tournament, round_words, drawn.number)
        pdf.set_font(FONT_FAMILY, "", 11)
        with pdf.table(col_widths=(30, 20, 130), text_align=("LEFT", "RIGHT", "LEFT"), line_height=7,
                       headings_style=FontFace(emphasis="BOLD", fill_color=(230, 230, 230)),
                       borders_layout="HORIZONTAL_LINES", repeat_headings=1) as sheet:
            heading = sheet.row()
            for words in (gettext("Table"), gettext("Seat"), gettext("Player")):
                heading.cell(printable(words))
            for table in tables:
                for seat in table.seats:
                    line = sheet.row()
                    line.cell(str(table.number) if seat.position == 0 else "")
                    line.cell(str(seat.position + 1))
                    line.cell(printable(seat.entrant.player.display_name))
        return bytes(pdf.output())


def standings_pdf(tournament: Tournament, rows: Sequence[StandingRow], rounds_drawn: int) -> bytes:
    """The standings as A4: rank, player, points, tables played, then each tie-breaker; a player
    who dropped out is marked with the round they left after."""
    from fpdf import FontFace

    with translation.override(language_of(tournament)):
        words = tie_breaker_words()
        names = list(tournament.tiebreakers)
        subtitle = gettext("Standings after round %(number)s") % {"number": rounds_drawn}
        pdf = _pdf(f"{tournament.name} — {subtitle}")
        _heading(pdf, tournament, subtitle)
        if tournament.has_final and any(row.final_place for row in rows):
            pdf.set_font(FONT_FAMILY, "", 10)
            pdf.multi_cell(0, 6, printable(gettext("The finalists come first, by their places at the final table; "
                                                   "then everyone else by the rounds before the final.")),
                           new_x="LMARGIN", new_y="NEXT")
        if not rows:
            pdf.cell(0, 7, printable(gettext("No table has a result yet.")), new_x="LMARGIN", new_y="NEXT")
            return bytes(pdf.output())
        pdf.set_font(FONT_FAMILY, "", 9)
        widths = (14, 60, 18, 16, *[72 / max(len(names), 1)] * len(names))
        with pdf.table(col_widths=widths, text_align=("RIGHT", "LEFT", *["RIGHT"] * (2 + len(names))),
                       line_height=6, headings_style=FontFace(emphasis="BOLD", fill_color=(230, 230, 230)),
                       borders_layout="HORIZONTAL_LINES", repeat_headings=1) as sheet:
            heading = sheet.row()
            for text in (gettext("Rank"), gettext("Player"), gettext("Points"), gettext("Tables"),
                         *[words.get(name, name) for name in names]):
                heading.cell(printable(text))
            for row in rows:
                line = sheet.row()
                name = row.entrant.player.display_name
                if row.entrant.dropped_after_round is not None:
                    name += " " + gettext("(dropped out after round %(round)s)") % {
                        "round": row.entrant.dropped_after_round}
                if row.final_place:
                    name += " " + gettext("(final table: place %(place)s)") % {"place": row.final_place}
                for text in (str(row.rank), name, floatformat(row.line.points, "-2"), str(row.line.played),
                             *[floatformat(row.line.tiebreaks[n], "-2") for n in names]):
                    line.cell(printable(text))
        return bytes(pdf.output())


SCORE_BOXES = 6
"""Empty boxes a player's line has on a score sheet, for the scores a game adds up."""


def score_sheet_pdf(tournament: Tournament, drawn: Round, table: TableView) -> bytes:
    """One table's sheet: its players in seat order, a row of empty boxes each for the scores,
    a box for the total and one for the place, and a line for the players' signatures."""
    with translation.override(language_of(tournament)):
        subtitle = (gettext("Final table") if tournament.is_final(drawn.number)
                    else gettext("Round %(number)s, table %(table)s") % {"number": drawn.number, "table": table.number})
        pdf = _pdf(f"{tournament.name} — {subtitle}")
        _heading(pdf, tournament, subtitle, drawn.number)
        pdf.set_font(FONT_FAMILY, "B", 10)
        name_width, box, height = 55.0, 13.0, 14.0
        pdf.cell(10, 8, printable(gettext("Seat")), border=1, align="C")
        pdf.cell(name_width, 8, printable(gettext("Player")), border=1)
        for number in range(1, SCORE_BOXES + 1):
            pdf.cell(box, 8, str(number), border=1, align="C")
        pdf.cell(18, 8, printable(gettext("Total")), border=1, align="C")
        pdf.cell(19, 8, printable(gettext("Place")), border=1, align="C", new_x="LMARGIN", new_y="NEXT")
        pdf.set_font(FONT_FAMILY, "", 12)
        for seat in table.seats:
            pdf.cell(10, height, str(seat.position + 1), border=1, align="C")
            pdf.cell(name_width, height, printable(seat.entrant.player.display_name), border=1)
            for _box in range(SCORE_BOXES):
                pdf.cell(box, height, "", border=1)
            pdf.cell(18, height, "", border=1)
            pdf.cell(19, height, "", border=1, new_x="LMARGIN", new_y="NEXT")
        pdf.ln(8)
        pdf.set_font(FONT_FAMILY, "", 10)
        pdf.multi_cell(0, 6, printable(gettext("Seat 1 plays first. Signatures of the players:")),
                       new_x="LMARGIN", new_y="NEXT")
        return bytes(pdf.output())
