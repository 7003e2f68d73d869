"""Player pages: who plays, their results, statistics, ratings and scores over time."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import formats
from django.utils.translation import gettext

from scoring import selectors
from scoring.models import PlayerStatistics

from .history import CHART_COLOURS, game_name

PAGE_SIZE = 50


def player_list(request: HttpRequest) -> HttpResponse:
    """Everyone the reader may know of, with their figures over the games the reader may see."""
    players = selectors.visible_players(request.user).order_by("display_name")
    page = Paginator(players, PAGE_SIZE).get_page(request.GET.get("page"))
    overall = {
        row.player_id: row
        for row in selectors.player_statistics_seen_by(request.user, selectors.player_statistics(request.user).filter(
            game_slug=PlayerStatistics.ALL_GAMES, player__in=[player.pk for player in page]
        ))
    }
    rows = [{"player": player, "stats": overall.get(player.pk)} for player in page]
    return render(request, "players/list.html", {"page": page, "rows": rows})


def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """One player's results, statistics and ratings, from the games the reader may see."""
    player = get_object_or_404(selectors.visible_players(request.user), pk=pk)
    results = list(
        selectors.visible_results(request.user).filter(player=player)
        .select_related("record")
        .order_by("record__played_on", "record_id")
    )
    statistics = [
        {"row": row, "game": game_name(row.game_slug) if row.game_slug else gettext("All games")}
        for row in selectors.player_statistics_seen_by(
            request.user, selectors.player_statistics(request.user).filter(player=player).order_by("game_slug")
        )
    ]
    ratings = [
        {"row": row, "game": game_name(row.game_slug)}
        for row in selectors.ratings_seen_by(
            request.user, selectors.ratings(request.user).filter(player=player, club__isnull=True)
        )
    ]
    series: dict[str, list] = {}
    for number, result in enumerate(results, start=1):
        series.setdefault(result.record.game_slug, []).append([number, result.score])
    chart = {
        "x_label": gettext("Game number (oldest first)"),
        "y_label": gettext("Score"),
        "series": [
            {"label": game_name(slug), "colour": CHART_COLOURS[index % len(CHART_COLOURS)], "points": points}
            for index, (slug, points) in enumerate(series.items())
        ],
        "x_ticks": [
            [number, formats.date_format(result.record.played_on, "SHORT_DATE_FORMAT")]
            for number, result in enumerate(results, start=1)
        ][:: max(1, len(results) // 6)],
    }
    context = {
        "player": player,
        "statistics": statistics,
        "ratings": ratings,
        "results": [{"result": r, "game": game_name(r.record.game_slug)} for r in reversed(results)],
        "chart": chart,
    }
    return render(request, "players/detail.html", context)
