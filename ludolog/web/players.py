"""Player pages: who plays, their results, statistics, ratings and scores over time."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import formats
from django.utils.translation import gettext

from records.models import Player
from scoring import selectors
from scoring.models import PlayerStatistics, SeatResult

from .history import CHART_COLOURS, game_name

PAGE_SIZE = 50


def player_list(request: HttpRequest) -> HttpResponse:
    overall = {
        row.player_id: row
        for row in selectors.player_statistics().filter(game_slug=PlayerStatistics.ALL_GAMES)
    }
    page = Paginator(Player.objects.order_by("display_name"), PAGE_SIZE).get_page(request.GET.get("page"))
    rows = [{"player": player, "stats": overall.get(player.pk)} for player in page]
    return render(request, "players/list.html", {"page": page, "rows": rows})


def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=pk)
    results = list(
        SeatResult.objects.filter(player=player, record__in=selectors.visible_records(request.user))
        .select_related("record")
        .order_by("record__played_on", "record_id")
    )
    statistics = [
        {"row": row, "game": game_name(row.game_slug) if row.game_slug else gettext("All games")}
        for row in selectors.player_statistics().filter(player=player).order_by("game_slug")
    ]
    ratings = [
        {"row": row, "game": game_name(row.game_slug)}
        for row in selectors.ratings().filter(player=player, club__isnull=True)
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
