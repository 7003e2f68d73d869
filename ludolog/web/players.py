"""Player pages: who plays what, their results, statistics and ratings, game by game.

Scores are compared within one game only: a Stone Age score (around 150) and a Carcassonne score
(around 60) have no common scale, so no page averages scores across games. Counts (games, wins)
add up across games; ratings are per game too.
"""

from __future__ import annotations

from collections import defaultdict

from django.core.paginator import Paginator
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import formats
from django.utils.translation import gettext

from accounts.current import current_organisation
from accounts.scoping import in_organisation
from records.models import Player
from scoring import figures, selectors
from scoring.models import PlayerStatistics

from . import statistics as charts
from .games import game_name, source_label
from .charts import CHART_COLOURS, thinned
from .history import sources_in_order

PAGE_SIZE = 50
GAMES_PAGE_SIZE = 20
"""Games a player's page shows at a time (their statistics, charts and ratings): a club's
imported history gives one a hundred games, a page 45,000 pixels tall on a phone."""
HEAD_TO_HEAD_SHOWN = 20
"""The opponents met most often; the rest are a click away on the games list."""


def player_list(request: HttpRequest) -> HttpResponse:
    """Everyone the reader may know of, a page at a time by name, with one table per game of their
    figures over the games the reader may see; those with no finished game yet listed apart."""
    user = request.user
    players = in_organisation(selectors.visible_players(user), current_organisation(request))
    page = Paginator(players.order_by("display_name"), PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    on_page = list(page)
    rows = selectors.player_statistics_seen_by(user, selectors.player_statistics(user).filter(
        player__in=[player.pk for player in on_page]
    ).exclude(game_slug=PlayerStatistics.ALL_GAMES).order_by("player__display_name"))
    by_game: dict[str, list[PlayerStatistics]] = defaultdict(list)
    for row in rows:
        by_game[row.game_slug].append(row)
    about = {
        row.game_slug: row for row in selectors.game_statistics_seen_by(
            user, selectors.game_statistics(user).filter(game_slug__in=list(by_game))
        )
    }
    games = sorted(
        ({"slug": slug, "name": game_name(slug), "rows": lines, "about": about.get(slug)}
         for slug, lines in by_game.items()),
        key=lambda game: (-(game["about"].games if game["about"] else 0), game["name"]),
    )
    played = {row.player_id for row in rows}
    context = {
        "page": page,
        "games": games,
        "not_yet": [player for player in on_page if player.pk not in played],
    }
    return render(request, "players/list.html", context)


def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """One player's results, statistics and ratings, game by game, from the games the reader may see."""
    user = request.user
    player = get_object_or_404(selectors.visible_players(user), pk=pk)
    # A player of many years has thousands of results: a page of them at a time.
    results = Paginator(
        selectors.visible_results(user).filter(player=player).select_related("record")
        .annotate(players=Count("record__seats")).order_by("-record__played_on", "-record_id"),
        PAGE_SIZE,
    ).get_page(request.GET.get("page"))
    rows = selectors.player_statistics_seen_by(user, selectors.player_statistics(user).filter(player=player))
    overall = next((row for row in rows if row.game_slug == PlayerStatistics.ALL_GAMES), None)
    games_page = Paginator(sorted(
        (row for row in rows if row.game_slug != PlayerStatistics.ALL_GAMES),
        key=lambda row: (-row.games, game_name(row.game_slug)),
    ), GAMES_PAGE_SIZE).get_page(request.GET.get("games"))
    per_game = list(games_page)
    ratings = {
        row.game_slug: row
        for row in selectors.ratings_seen_by(user, selectors.ratings(user).filter(player=player, club__isnull=True))
    }
    history: dict[str, list] = defaultdict(list)
    for change in selectors.rating_history_seen_by(
        user, selectors.rating_history(user).filter(player=player, club__isnull=True)
    ):
        history[change.game_slug].append(change)
    rated = [row.game_slug for row in per_game if history.get(row.game_slug)]
    chart = {
        "x_axis": "number",
        "x_label": gettext("Games played"),
        "y_label": gettext("Rating"),
        "series": [
            {
                "label": game_name(slug),
                "colour": CHART_COLOURS[index % len(CHART_COLOURS)],
                "points": [
                    [number, round(change.ordinal, 2), gettext("%(date)s: rank %(rank)s, rating %(rating)s") % {
                        "date": formats.date_format(change.played_on, "SHORT_DATE_FORMAT"),
                        "rank": change.rank, "rating": formats.number_format(round(change.ordinal, 2), 2),
                    }]
                    for number, change in thinned(list(enumerate(history[slug], start=1)))
                ],
                "start": [0, round(history[slug][0].mu_before - 3 * history[slug][0].sigma_before, 2),
                          gettext("Before the first game")],
            }
            for index, slug in enumerate(rated)
        ],
    }
    context = {
        "player": player,
        "overall": overall,
        "statistics": [
            {
                "row": row,
                "game": game_name(row.game_slug),
                "sources": [
                    {"label": source_label(row.game_slug, source), "points": row.average_by_source[source]}
                    for source in sources_in_order(row.game_slug, [row.average_by_source])
                ],
            }
            for row in per_game
        ],
        "ratings": [
            {"row": ratings[row.game_slug], "game": game_name(row.game_slug)}
            for row in per_game if row.game_slug in ratings
        ],
        "rating_charts": [
            {"index": index, "game": game_name(slug), "chart_id": f"rating-chart-{slug}"} for index, slug in enumerate(rated)
        ],
        "rating_chart": chart,
        "win_rate_chart": charts.bars(
            [(game_name(row.game_slug), row.win_rate, charts.percent(row.win_rate)) for row in per_game], scale=1.0,
            urls=[reverse("game-statistics", args=[row.game_slug]) for row in per_game],
            notes=[charts.games_and_wins(row.games, row.wins) for row in per_game]),
        "results": [{"result": result, "game": game_name(result.record.game_slug)} for result in results],
        "results_page": results,
        "games_page": games_page,
        "games_query": f"page={results.number}" if results.number > 1 else "",
        "results_query": f"games={games_page.number}" if games_page.number > 1 else "",
        **_figures(user, player),
    }
    return render(request, "players/detail.html", context)


def _figures(user, player: Player) -> dict:
    """Head-to-head records, H-index and streaks, from the games the reader may see."""
    games = selectors.played_games(user, player)
    if not games:
        return {}
    opponents = selectors.visible_players(user).in_bulk([line.opponent_id for line in figures.head_to_head(games, player.pk)])
    return {
        "head_to_head": [
            {"line": line, "opponent": opponents[line.opponent_id]}
            for line in figures.head_to_head(games, player.pk) if line.opponent_id in opponents
        ][:HEAD_TO_HEAD_SHOWN],
        "h_index": figures.h_index(games, player.pk),
        "streaks": figures.streaks(games, player.pk),
    }
