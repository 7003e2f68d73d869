"""The report as files to send: a CSV (one table: section, figure, key, value; UTF-8 with a byte
order mark, so that Excel reads the accents) and a PDF (fpdf2: the organisation's name and the
year, every figure as a table, the month figures drawn as bars too), both in the organisation's
language.

The PDF's text is set in the DejaVu Sans the copy labels ship (``games/fonts``: Latin-1 and
Latin Extended-A, so French and Czech letters print), through :func:`games.labels.printable`.
"""

from __future__ import annotations

import csv
import io
from importlib import resources

from django.utils import translation
from django.utils.translation import gettext

from games.labels import FONT_FAMILY, FONT_FILES, printable

from .sections import YearReport
from .tables import Table, report_tables

BYTE_ORDER_MARK = "\ufeff"


def report_csv(report: YearReport) -> bytes:
    """The report as CSV rows: section, figure, key, value (headers in the organisation's language)."""
    with translation.override(report.language):
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow([gettext("section"), gettext("figure"), gettext("key"), gettext("value")])
        for table in report_tables(report):
            for key, value in table.rows:
                writer.writerow([table.section, table.title, key, value])
    return (BYTE_ORDER_MARK + out.getvalue()).encode("utf-8")


PAGE_MARGIN = 15.0
KEY_WIDTH = 130.0
VALUE_WIDTH = 50.0
LINE = 6.0
CHART_HEIGHT = 32.0


def report_pdf(report: YearReport) -> bytes:
    """The report as an A4 PDF in the organisation's language."""
    from fpdf import FPDF

    with translation.override(report.language):
        title = gettext("Yearly report %(year)s") % {"year": report.year}
        pdf = FPDF(orientation="portrait", unit="mm", format="A4")
        pdf.set_margins(PAGE_MARGIN, PAGE_MARGIN, PAGE_MARGIN)
        pdf.set_auto_page_break(True, margin=PAGE_MARGIN)
        pdf.set_title(printable(f"{report.organisation_name} — {title}"))
        pdf.set_creator("Ludolog")
        for style, file_name in FONT_FILES.items():
            pdf.add_font(FONT_FAMILY, style, str(resources.files("games").joinpath("fonts", file_name)))
        pdf.add_page()
        pdf.set_font(FONT_FAMILY, "B", 16)
        pdf.multi_cell(0, 9, printable(report.organisation_name), new_x="LMARGIN", new_y="NEXT")
        pdf.set_font(FONT_FAMILY, "", 13)
        pdf.cell(0, 8, printable(title), new_x="LMARGIN", new_y="NEXT")
        section = ""
        for table in report_tables(report):
            if table.section != section:
                section = table.section
                pdf.ln(3)
                _keep_together(pdf, 2 * LINE + 3)
                pdf.set_font(FONT_FAMILY, "B", 13)
                pdf.cell(0, 8, printable(section), new_x="LMARGIN", new_y="NEXT")
            _table(pdf, table)
        return bytes(pdf.output())


def _keep_together(pdf, height: float) -> None:
    if pdf.get_y() + height > pdf.h - PAGE_MARGIN:
        pdf.add_page()


def _table(pdf, table: Table) -> None:
    """A figure: its title and value on one line, or its title over its rows (a month figure: its
    bars, when any is above zero, over a grid of the months and their figures)."""
    if len(table.rows) == 1 and not table.rows[0][0]:
        _keep_together(pdf, LINE)
        pdf.set_font(FONT_FAMILY, "", 10)
        pdf.cell(KEY_WIDTH, LINE, printable(table.title), border="B")
        pdf.set_font(FONT_FAMILY, "B", 10)
        pdf.cell(VALUE_WIDTH, LINE, table.rows[0][1], border="B", align="R", new_x="LMARGIN", new_y="NEXT")
        return
    drawn = table.by_month and any(float(value or 0) for _key, value in table.rows)
    _keep_together(pdf, LINE * 3 + (CHART_HEIGHT if drawn else 0))
    pdf.ln(1)
    pdf.set_font(FONT_FAMILY, "B", 10)
    pdf.cell(0, LINE, printable(table.title), new_x="LMARGIN", new_y="NEXT")
    if table.by_month:
        if drawn:
            _month_bars(pdf, table)
        _month_grid(pdf, table)
        return
    pdf.set_font(FONT_FAMILY, "", 9)
    if not table.rows:
        pdf.cell(0, LINE, printable(gettext("Nothing to show yet.")), new_x="LMARGIN", new_y="NEXT")
    for key, value in table.rows:
        _keep_together(pdf, LINE)
        pdf.cell(KEY_WIDTH, LINE, printable(key), border="B")
        pdf.cell(VALUE_WIDTH, LINE, value, border="B", align="R", new_x="LMARGIN", new_y="NEXT")


def _slot(table: Table) -> float:
    return (KEY_WIDTH + VALUE_WIDTH) / max(len(table.rows), 1)


def _month_bars(pdf, table: Table) -> None:
    """A bar a month, as high as its figure beside the year's highest, on a base line."""
    values = [float(value or 0) for _key, value in table.rows]
    top = max(values)
    slot = _slot(table)
    base = pdf.get_y() + CHART_HEIGHT
    pdf.set_fill_color(60, 110, 160)
    for index, value in enumerate(values):
        height = (CHART_HEIGHT - 2) * value / top
        if height:
            pdf.rect(PAGE_MARGIN + index * slot + slot * 0.15, base - height, slot * 0.7, height, style="F")
    pdf.line(PAGE_MARGIN, base, PAGE_MARGIN + slot * len(values), base)
    pdf.set_xy(PAGE_MARGIN, base)


def _month_grid(pdf, table: Table) -> None:
    """The months (their number) on one row, their figures on the next, each under its bar."""
    slot = _slot(table)
    pdf.set_font(FONT_FAMILY, "", 8)
    for key, _value in table.rows:
        pdf.cell(slot, LINE - 1, key[5:], align="C")
    pdf.ln(LINE - 1)
    pdf.set_font(FONT_FAMILY, "B", 9)
    for _key, value in table.rows:
        pdf.cell(slot, LINE, value, border="T", align="C")
    pdf.ln(LINE)
