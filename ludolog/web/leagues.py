"""League pages: the seasons, each with its standings table, rating chart and games."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from accounts.current import current_organisation
from accounts.roles import Action, can
from accounts.scoping import in_organisation
from records.selectors import only_visible, visible_records
from scoring import exports, rulings, selectors, standings
from scoring.models import Club, League, Standing

from .games import game_name
from .charts import CHART_COLOURS, thinned
from .history import with_seats_and_results

RECENT_GAMES = 20


def league_list(request: HttpRequest) -> HttpResponse:
    leagues = [
        {"league": league, "games": [game_name(slug) for slug in league.game_slugs]}
        for league in in_organisation(selectors.leagues(), current_organisation(request)).prefetch_related("memberships")
    ]
    return render(request, "leagues/list.html", {"leagues": leagues})


def _league_and_table(request: HttpRequest, pk: int) -> tuple[League, list[Standing]]:
    """The league and its table as the reader may see it: the page's and its files' one read."""
    league = get_object_or_404(selectors.leagues(), pk=pk)
    return league, list(selectors.league_standings(request.user, league))


def league_detail(request: HttpRequest, pk: int) -> HttpResponse:
    # The table, the chart and the games: the league's games the reader may see.
    league, table = _league_and_table(request, pk)
    members = {line.player_id for line in table}
    # The members' ratings after each of the league's games (not after every other game they
    # played in the club meanwhile: the chart grows with the league, not with the club).
    changes = selectors.rating_history(request.user).filter(
        club=league.club, player_id__in=members, record_id__in=standings.league_records(league).values("pk")
    )
    series: dict[int, dict] = {}
    for change in selectors.rating_history_seen_by(request.user, changes):
        line = series.setdefault(change.player_id, {"label": change.player.display_name, "points": []})
        line["points"].append([(change.played_on - league.starts_on).days, round(change.ordinal, 2)])
    chart = {
        "x_axis": "date",
        "x_origin": league.starts_on.isoformat(),
        "x_range": [0, (league.ends_on - league.starts_on).days],
        "x_label": gettext("Date"),
        "y_label": gettext("Elo rating") if league.club.rating_system == Club.RatingSystem.ELO else gettext("Rating (μ − 3σ)"),
        "series": [
            dict(line, points=thinned(line["points"]), colour=CHART_COLOURS[index % len(CHART_COLOURS)])
            for index, line in enumerate(series.values())
        ],
    }
    games = with_seats_and_results(
        only_visible(standings.league_records(league), request.user)
    ).order_by("-played_on", "-pk")[:RECENT_GAMES]
    awaiting = with_seats_and_results(selectors.awaiting_approval(request.user, league))[:RECENT_GAMES]
    ruled_out = with_seats_and_results(only_visible(standings.ruled_out(league), request.user)).order_by(
        "-played_on", "-pk")[:RECENT_GAMES]
    context = {
        "league": league,
        "may_rule": standings.may_rule(request.user, league),
        "may_edit": league.club.organisation is not None and can(request.user, Action.RUN_LEAGUES,
                                                                 league.club.organisation),
        "points_rows": _points_rows(league),
        "awaiting": [_game_line(record) for record in awaiting],
        "ruled_out": [_game_line(record) for record in ruled_out],
        "games_allowed": [game_name(slug) for slug in league.game_slugs],
        "table": table,
        "standings_columns": exports.STANDINGS_COLUMNS,
        "standings_rows": exports.page_rows(table),
        "chart": chart,
        "games": [_game_line(record) for record in games],
        "ruling_impacts": [{"ruling": ruling, "changes": changes}
                           for ruling, changes in selectors.ruling_impacts(request.user, league, RECENT_GAMES)],
    }
    return render(request, "leagues/detail.html", context)


def league_standings_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """The page's standings as CSV, in the organisation's language."""
    league, table = _league_and_table(request, pk)
    answer = HttpResponse(exports.standings_csv(league, table), content_type="text/csv; charset=utf-8")
    answer["Content-Disposition"] = f'attachment; filename="{exports.file_stem(league)}.csv"'
    return answer


def league_standings_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    """The page's standings as a PDF to print, in the organisation's language."""
    league, table = _league_and_table(request, pk)
    answer = HttpResponse(exports.standings_pdf(league, table, timezone.localdate()), content_type="application/pdf")
    answer["Content-Disposition"] = f'inline; filename="{exports.file_stem(league)}.pdf"'
    return answer


def _points_rows(league) -> list[tuple[int, list]]:
    """The points by place at each table size, for a league ranked by points."""
    if league.scoring_system != league.ScoringSystem.POINTS:
        return []
    return sorted((int(size), points) for size, points in (league.points_table or {}).items() if size.isdigit())


def _game_line(record) -> dict:
    return {"record": record, "game": game_name(record.game_slug), "results": list(record.results.all()),
            "seats": [seat.player.display_name for seat in record.seats.all()]}


@login_required
@require_POST
def league_rule(request: HttpRequest, pk: int) -> HttpResponse:
    """An organiser's button on the league page: count a friendly game, or rule a game out."""
    league = get_object_or_404(selectors.leagues(), pk=pk)
    if not standings.may_rule(request.user, league):
        raise PermissionDenied
    record_id = request.POST.get("record", "")
    record = None
    if record_id.isascii() and record_id.isdigit() and len(record_id) < 19:
        record = visible_records(request.user).filter(pk=int(record_id)).first()
    if record is None:
        raise Http404
    counts = request.POST.get("counts") == "1"
    try:
        rulings.rule(league, record, counts=counts, reason=request.POST.get("reason", "")[:500], by=request.user)
    except rulings.NotALeagueGame:
        messages.error(request, gettext("Game #%(id)s does not fit this league: no ruling changes that.")
                       % {"id": record.pk})
    else:
        messages.success(request, (gettext("Game #%(id)s now counts for the league.") if counts
                                   else gettext("Game #%(id)s no longer counts for the league.")) % {"id": record.pk})
    return redirect("league-detail", pk=league.pk)
