"""The club's statistics pages: what BG Stats users ask of a club's history, from every game the
reader may see. The club's page: plays per game and per month, the H-index of the club, the most
active players, first-player advantage, the copies played most. A game's page: its score
distribution, win rate by seat order for each number of players, its players' win rates, its
ratings with their uncertainty, its copies.

Each chart is a row of bars drawn in SVG with its figure written beside it, so that a phone
without JavaScript and a screen reader read the same numbers. The figures come from the stored
projections less the games hidden from the reader (:mod:`scoring.selectors`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext, ngettext

from accounts.current import scope_of
from scoring import figures, selectors
from scoring.models import GameStatistics, PlayerStatistics

from .games import game_name

GAMES_CHARTED = 20
"""Games with a bar on the club's page; every game is in the table below it."""
PLAYERS_SHOWN = 15
COPIES_SHOWN = 15
MONTHS_SHOWN = 12
ADVANTAGE_MIN_GAMES = 10
"""A first-player advantage from fewer games at one table size says more about luck than order."""
GAME_PLAYERS_SHOWN = 20
RATINGS_SHOWN = 20


@dataclass(frozen=True)
class Bar:
    """One bar of a chart: its label, its length (0–100 % of the longest), the figure written
    beside it, and where the label leads; ``mark`` draws a reference line (a fair share); ``key``
    names the bar for programs (``data-key``: a month as ``2026-03``, an age group's code)."""

    label: str
    width: float
    figure: str
    url: str = ""
    note: str = ""
    mark: float | None = None
    key: str = ""


def bars(items: list[tuple[str, float, str]], *, scale: float | None = None, urls: list[str] | None = None,
         notes: list[str] | None = None, mark: float | None = None, keys: list[str] | None = None) -> list[Bar]:
    """Bars for (label, value, figure as written) items, scaled to ``scale`` or the largest value."""
    top = scale if scale is not None else max((value for _label, value, _figure in items), default=0)
    return [
        Bar(label, round(100 * value / top, 2) if top else 0.0, figure, (urls or [])[index] if urls else "",
            (notes or [])[index] if notes else "", None if mark is None else round(100 * mark / top, 2),
            (keys or [])[index] if keys else "")
        for index, (label, value, figure) in enumerate(items)
    ]


def percent(rate: float) -> str:
    return f"{formats.number_format(round(100 * rate), 0)} %"


def choose_first(request: HttpRequest) -> HttpResponse:
    return render(request, "choose_organisation.html", {})


def club_statistics(request: HttpRequest) -> HttpResponse:
    user = request.user
    organisation, shown = scope_of(request)
    if not shown:
        return choose_first(request)
    games = selectors.games_played(user, organisation)
    players, player_count = selectors.most_active_players(user, PLAYERS_SHOWN, organisation)
    today = timezone.localdate()
    since = _months_before(date(today.year, today.month, 1), MONTHS_SHOWN - 1)
    months = selectors.plays_by_month(user, since, organisation)
    copies = selectors.most_played_copies(user, COPIES_SHOWN, organisation=organisation)
    names = {row.game_slug: game_name(row.game_slug, row.title) for row in games}
    game_url = {row.game_slug: reverse("game-statistics", args=[row.game_slug]) for row in games}
    charted = games[:GAMES_CHARTED]
    month_list = [_months_before(since, -step) for step in range(MONTHS_SHOWN)]
    context = {
        "plays": sum(row.games for row in games),
        "titles": len(games),
        "player_count": player_count,
        "h_index": figures.h_index_of(row.games for row in games),
        "games": [_game_line(row, names[row.game_slug], game_url[row.game_slug]) for row in games],
        "games_chart": bars([(names[row.game_slug], row.games, str(row.games)) for row in charted],
                            urls=[game_url[row.game_slug] for row in charted]),
        "months_chart": bars([(formats.date_format(month, "YEAR_MONTH_FORMAT"), months.get(month, 0),
                               str(months.get(month, 0))) for month in month_list]),
        "players_chart": bars(
            [(tally.player.display_name, tally.win_rate, percent(tally.win_rate)) for tally in players], scale=1.0,
            urls=[reverse("player-detail", args=[tally.player.pk]) for tally in players],
            notes=[games_and_wins(tally.games, tally.wins) for tally in players],
        ),
        "advantage_chart": _advantage_bars(games, names, game_url),
        "copies_chart": bars(
            [(f"{copy.record.title} · {copy.barcode}", plays, str(plays)) for copy, plays in copies],
            urls=[reverse("catalogue:record", args=[copy.record_id]) for copy, _plays in copies],
            notes=[copy.shelf_location for copy, _plays in copies],
        ),
    }
    return render(request, "statistics/club.html", context)


def _months_before(first_day: date, months: int) -> date:
    """The first day of the month ``months`` before ``first_day``'s (after it, when negative).

    >>> _months_before(date(2026, 12, 1), 11), _months_before(date(2026, 1, 1), 1), _months_before(date(2025, 12, 1), -1)
    (datetime.date(2026, 1, 1), datetime.date(2025, 12, 1), datetime.date(2026, 1, 1))
    """
    index = first_day.year * 12 + first_day.month - 1 - months
    return date(index // 12, index % 12 + 1, 1)


def games_and_wins(games: int, wins: int) -> str:
    return ngettext("won %(wins)s of %(games)s game", "won %(wins)s of %(games)s games", games) % {
        "wins": wins, "games": games}


def _game_line(row: GameStatistics, name: str, url: str) -> dict:
    """A line of the table of every game, its figures written out here: a club plays hundreds of
    games, and the template's tags per line cost more than the figures."""
    seat = _first_seat(row)
    return {
        "slug": row.game_slug, "name": name, "url": url, "games": row.games,
        "winning": "—" if row.average_winning_score is None else formats.number_format(row.average_winning_score, 1),
        "first_seat": percent(seat["rate"]) if seat else "—",
        "first_seat_note": ngettext("%(count)s player", "%(count)s players", seat["players"]) % {
            "count": seat["players"]} if seat else "",
    }


def _first_seat(row: GameStatistics) -> dict | None:
    """The first player's win rate at the game's most played table size, beside the fair share."""
    if not row.player_counts:
        return None
    players, games = max(row.player_counts.items(), key=lambda item: (item[1], -int(item[0])))
    if int(players) < 2:
        return None
    rate = row.seat_advantage.get(players, {}).get("0", 0.0)
    return {"players": int(players), "games": games, "rate": rate, "fair": 1 / int(players)}


def _advantage_bars(games: list[GameStatistics], names: dict[str, str], urls: dict[str, str]) -> list[Bar]:
    shown = [(row, seat) for row in games if (seat := _first_seat(row)) and seat["games"] >= ADVANTAGE_MIN_GAMES]
    return [
        Bar(names[row.game_slug], round(100 * seat["rate"], 2), percent(seat["rate"]), urls[row.game_slug],
            ngettext("%(players)s players, %(games)s game", "%(players)s players, %(games)s games", seat["games"])
            % {"players": seat["players"], "games": seat["games"]}, round(100 * seat["fair"], 2))
        for row, seat in shown[:GAMES_CHARTED]
    ]


def game_statistics(request: HttpRequest, slug: str) -> HttpResponse:
    user = request.user
    organisation, shown = scope_of(request)
    if not shown:
        return choose_first(request)
    row = next(iter(selectors.game_statistics_seen_by(
        user, selectors.game_statistics(user, organisation).filter(game_slug=slug), organisation)), None)
    if row is None:
        raise Http404(gettext("No game the reader may see has these statistics."))
    name = game_name(row.game_slug, row.title)
    players = selectors.game_players(user, slug, GAME_PLAYERS_SHOWN, organisation)
    club = getattr(organisation, "club", None) if organisation is not None else None
    ratings = selectors.game_ratings(user, slug, RATINGS_SHOWN, club)
    copies = selectors.most_played_copies(user, COPIES_SHOWN, game_slug=slug, organisation=organisation)
    distribution = list(row.score_distribution.items())
    context = {
        "row": row,
        "name": name,
        "catalogue_record": selectors.catalogue_record_of(slug),
        "scores_chart": bars([(band.replace("-", "–", 1) if not band.startswith("-") else band, seats, str(seats))
                              for band, seats in distribution]),
        "seat_charts": [
            {"players": int(count), "games": row.player_counts.get(count, 0), "chart_id": f"seat-chart-{count}",
             "bars": bars([(_seat_label(int(order)), rate, percent(rate)) for order, rate in sorted(
                 rates.items(), key=lambda item: int(item[0]))], scale=1.0, mark=1 / int(count),
                 notes=[ngettext("%(wins)s win", "%(wins)s wins", wins) % {"wins": wins} for wins in
                        (round(rate * row.player_counts.get(count, 0)) for _order, rate in sorted(
                            rates.items(), key=lambda item: int(item[0])))])}
            for count, rates in sorted(row.seat_advantage.items(), key=lambda item: int(item[0])) if int(count) >= 2
        ],
        "players_chart": bars(
            [(line.player.display_name, line.win_rate, percent(line.win_rate)) for line in players], scale=1.0,
            urls=[reverse("player-detail", args=[line.player_id]) for line in players],
            notes=[games_and_wins(line.games, line.wins) for line in players],
        ),
        "players": players,
        "ratings": ratings,
        "copies_chart": bars(
            [(f"{copy.record.title} · {copy.barcode}", plays, str(plays)) for copy, plays in copies],
            urls=[reverse("catalogue:record", args=[copy.record_id]) for copy, _plays in copies],
            notes=[copy.shelf_location for copy, _plays in copies],
        ),
        "all_games": PlayerStatistics.ALL_GAMES,
    }
    return render(request, "statistics/game.html", context)


def _seat_label(order: int) -> str:
    """0 → "1st player" … as the rules say who plays first, second …"""
    return {0: gettext("1st player"), 1: gettext("2nd player"), 2: gettext("3rd player")}.get(
        order, gettext("%(place)sth player") % {"place": order + 1})
