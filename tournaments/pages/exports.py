"""The tournaments' files: standings CSV, a round's pairing sheet, a table's score sheet."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from .. import exports, selectors
from ..models import Round
from .views import _may_see, _not_a_member, _tournament


def _file(content: bytes, content_type: str, name: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
def standings_csv(request: HttpRequest, pk: int) -> HttpResponse:
    if not _may_see(request):
        return _not_a_member(request)
    tournament = _tournament(request, pk)
    return _file(exports.standings_csv(tournament, selectors.standing_rows(tournament)), "text/csv; charset=utf-8",
                 f"tournament-{tournament.pk}-standings.csv")


@login_required
def standings_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    if not _may_see(request):
        return _not_a_member(request)
    tournament = _tournament(request, pk)
    return _file(exports.standings_pdf(tournament, selectors.standing_rows(tournament),
                                       selectors.last_round_number(tournament)), "application/pdf",
                 f"tournament-{tournament.pk}-standings.pdf")


@login_required
def pairing_pdf(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    if not _may_see(request):
        return _not_a_member(request)
    tournament = _tournament(request, pk)
    drawn = get_object_or_404(Round, tournament=tournament, number=number)
    return _file(exports.pairing_pdf(tournament, drawn, selectors.tables_of(drawn)), "application/pdf",
                 f"tournament-{tournament.pk}-round-{number}.pdf")


@login_required
def score_sheet_pdf(request: HttpRequest, pk: int, number: int, table: int) -> HttpResponse:
    if not _may_see(request):
        return _not_a_member(request)
    tournament = _tournament(request, pk)
    drawn = get_object_or_404(Round, tournament=tournament, number=number)
    found = next((view for view in selectors.tables_of(drawn) if view.number == table), None)
    if found is None:
        raise Http404
    return _file(exports.score_sheet_pdf(tournament, drawn, found), "application/pdf",
                 f"tournament-{tournament.pk}-round-{number}-table-{table}.pdf")
