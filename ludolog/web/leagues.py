"""League pages: the seasons, each with its standings table, rating chart and games."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext

from records.selectors import only_visible
from scoring import selectors, standings

from .games import game_name
from .history import CHART_COLOURS, thinned, with_seats_and_results

RECENT_GAMES = 20


def league_list(request: HttpRequest) -> HttpResponse:
    leagues = [
        {"league": league, "games": [game_name(slug) for slug in league.game_slugs]}
        for league in selectors.leagues().prefetch_related("memberships")
    ]
    return render(request, "leagues/list.html", {"leagues": leagues})


def league_detail(request: HttpRequest, pk: int) -> HttpResponse:
    league = get_object_or_404(selectors.leagues(), pk=pk)
    # The table, the chart and the games: the league's games the reader may see.
    table = list(selectors.league_standings(request.user, league))
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
        "y_label": gettext("Rating (μ − 3σ)"),
        "series": [
            dict(line, points=thinned(line["points"]), colour=CHART_COLOURS[index % len(CHART_COLOURS)])
            for index, line in enumerate(series.values())
        ],
    }
    games = with_seats_and_results(
        only_visible(standings.league_records(league), request.user)
    ).order_by("-played_on", "-pk")[:RECENT_GAMES]
    context = {
        "league": league,
        "games_allowed": [game_name(slug) for slug in league.game_slugs],
        "table": table,
        "chart": chart,
        "games": [
            {"record": record, "game": game_name(record.game_slug), "results": list(record.results.all())}
            for record in games
        ],
    }
    return render(request, "leagues/detail.html", context)
