"""Statistics projections: players, games, catalogue records and copies.

Each refresh recomputes its keys from the committed results (``SeatResult``, ``ScoredRecord``),
under a lock per key: no bookmark into the event table, so nothing committed late is skipped,
and the incremental rows equal a rebuild from scratch by construction.

Players' and games' figures are kept twice over: over every game of the installation
(``organisation`` empty), and over each organisation's games (its club's and library's pages
read those). A record's figures count in both: the installation's and its organisation's.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Count, F, Max, Min, QuerySet, Sum

from records.models import GameRecord, Seat

from . import locks
from .models import CatalogueUsage, CopyUsage, GameStatistics, PlayerStatistics, ScoredRecord, SeatResult

SCORE_BAND = 10
LITERAL_IDS = 5000


def _player_rows(player_id: int, results: list[dict[str, Any]], organisation: int | None = None) -> list[PlayerStatistics]:
    by_game: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in results:
        by_game[row["record__game_slug"]].append(row)
    groups = {PlayerStatistics.ALL_GAMES: results, **by_game}
    rows = []
    for slug, lines in groups.items():
        games = len(lines)
        wins = sum(1 for line in lines if line["rank"] == 1)
        sources: dict[str, int] = defaultdict(int)
        for line in lines:
            for source, points in (line["breakdown"] or {}).items():
                sources[source] += points
        # Over every game, only counts: a score averaged across games of different scales
        # (Stone Age ~150, Carcassonne ~60) says nothing.
        per_game = slug != PlayerStatistics.ALL_GAMES
        scores = [line["score"] for line in lines if line["score"] is not None]  # some results give places only
        rows.append(PlayerStatistics(
            organisation_id=organisation, player_id=player_id, game_slug=slug, games=games, wins=wins, win_rate=round(wins / games, 6),
            average_score=round(sum(scores) / len(scores), 6) if per_game and scores else None,
            best_score=max(scores) if per_game and scores else None,
            average_by_source={source: round(total / games, 6) for source, total in sorted(sources.items())}
            if per_game else {},
        ))
    return rows


def _results_by_player(player_ids: Iterable[int] | None,
                       organisation: int | None = None) -> dict[int, list[dict[str, Any]]]:
    results = SeatResult.objects.all() if organisation is None else SeatResult.objects.filter(
        record__organisation=organisation)
    if player_ids is not None:
        results = results.filter(player__in=list(player_ids))
    by_player: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for row in results.values("player_id", "score", "rank", "breakdown", "record__game_slug").order_by("pk"):
        by_player[row["player_id"]].append(row)
    return by_player


def refresh_players(player_ids: Iterable[int], organisation: int | None = None) -> None:
    """The players' figures over the installation's games, and over ``organisation``'s (the
    organisation of the record that changed them) when one is given."""
    player_ids = sorted(set(player_ids))
    with transaction.atomic():
        for player_id in player_ids:
            locks.hold(f"player:{player_id}")
        for scope in [None] if organisation is None else [None, organisation]:
            by_player = _results_by_player(player_ids, scope)
            PlayerStatistics.objects.of(scope).filter(player__in=player_ids).delete()
            PlayerStatistics.objects.bulk_create(
                [row for player_id in player_ids for row in _player_rows(player_id, by_player.get(player_id, []), scope)]
            )


@dataclass
class GameTally:
    """The additive figures of some records of one game: what a :class:`GameStatistics` row's
    averages and rates are made of, so that two tallies subtract (a reader's figures are the
    stored ones less the games hidden from them)."""

    games: int = 0
    player_counts: Counter[str] = field(default_factory=Counter)
    winning_total: int = 0
    winning_scores: int = 0
    duration_total: int = 0
    timed_games: int = 0
    bands: Counter[str] = field(default_factory=Counter)
    seat_wins: Counter[tuple[str, str]] = field(default_factory=Counter)
    """Wins per (number of players, seat order); that seat's plays are ``player_counts[players]``."""

    def __sub__(self, other: GameTally) -> GameTally:
        def less(mine: Counter, theirs: Counter) -> Counter:
            left = Counter(mine)
            left.subtract(theirs)
            return +left  # the keys left at zero go

        return GameTally(
            self.games - other.games, less(self.player_counts, other.player_counts),
            self.winning_total - other.winning_total, self.winning_scores - other.winning_scores,
            self.duration_total - other.duration_total, self.timed_games - other.timed_games,
            less(self.bands, other.bands), less(self.seat_wins, other.seat_wins),
        )

    @classmethod
    def of_row(cls, row: GameStatistics) -> GameTally:
        counts = Counter({players: int(games) for players, games in row.player_counts.items()})
        return cls(
            games=row.games, player_counts=counts,
            winning_total=row.winning_total, winning_scores=row.winning_scores,
            duration_total=row.duration_total, timed_games=row.timed_games,
            bands=Counter({band: int(seats) for band, seats in row.score_distribution.items()}),
            # Rates are kept to six decimals: times the plays (far fewer than a million) they round
            # back to the exact wins.
            seat_wins=Counter({(players, order): round(rate * counts[players])
                               for players, rates in row.seat_advantage.items() for order, rate in rates.items()}),
        )

    def row(self, slug: str, title: str = "") -> GameStatistics:
        advantage: dict[str, dict[str, float]] = defaultdict(dict)
        for players in sorted(self.player_counts, key=int):
            for order in range(int(players)):
                wins = self.seat_wins.get((players, str(order)), 0)
                advantage[players][str(order)] = round(wins / self.player_counts[players], 6)
        return GameStatistics(
            game_slug=slug, title=title, games=self.games,
            average_winning_score=round(self.winning_total / self.winning_scores, 6) if self.winning_scores else None,
            winning_scores=self.winning_scores, winning_total=self.winning_total,
            average_duration_seconds=round(self.duration_total / self.timed_games, 3) if self.timed_games else None,
            timed_games=self.timed_games, duration_total=self.duration_total,
            score_distribution={band: self.bands[band] for band in sorted(self.bands, key=lambda b: int(b[:b.index("-", 1)]))},
            seat_advantage=dict(advantage),
            player_counts={players: self.player_counts[players] for players in sorted(self.player_counts, key=int)},
        )


def _band(low: int) -> str:
    return f"{low}-{low + SCORE_BAND - 1}"


def game_tallies(scored: QuerySet[ScoredRecord]) -> dict[str, GameTally]:
    """Per game, the tally of the given scored records: their summaries, then their seats' results
    by record id (an index look-up each), added up here. No join of every seat to every record:
    the few games hidden from a reader are tallied without a pass over the whole store."""
    tallies: dict[str, GameTally] = defaultdict(GameTally)
    about: dict[int, tuple[GameTally, str]] = {}
    for record_id, slug, players, winning, duration in scored.order_by().values_list(
        "record_id", "game_slug", "players", "winning_score", "duration_seconds"
    ):
        tally = tallies[slug]
        tally.games += 1
        tally.player_counts[str(players)] += 1
        if winning is not None:
            tally.winning_total += winning
            tally.winning_scores += 1
        if duration is not None:
            tally.duration_total += duration
            tally.timed_games += 1
        about[record_id] = (tally, str(players))
    if not about:
        return {}
    # A literal list of ids reads each record's seats by the index; past a few thousand the
    # planner does better with the subquery.
    ids = list(about) if len(about) <= LITERAL_IDS else scored.values("record")
    # The seats' orders read apart: joined, the planner hashes every seat of the store.
    orders = dict(Seat.objects.filter(record__in=ids).order_by().values_list("pk", "seat_order"))
    for record_id, seat_id, score, rank in SeatResult.objects.filter(record__in=ids).order_by().values_list(
        "record_id", "seat_id", "score", "rank"
    ):
        tally, players = about[record_id]
        seat_order = orders[seat_id]
        if score is not None:  # a result by places only has no score to band
            # Bands as SQL's integer division made them: toward zero (-5 is in 0–9).
            tally.bands[_band(int(score / SCORE_BAND) * SCORE_BAND)] += 1
        if rank == 1:
            tally.seat_wins[(players, str(seat_order))] += 1
    return dict(tallies)


def game_titles(scored: QuerySet[ScoredRecord]) -> dict[str, str]:
    """Per game, the catalogue's title its records name (the first in alphabetical order)."""
    return {row["game_slug"]: row["title"] for row in scored.exclude(catalogue_record=None).order_by()
            .values("game_slug").annotate(title=Min("catalogue_record__title"))}


def game_row(slug: str, records: QuerySet[GameRecord] | None = None, organisation: int | None = None) -> GameStatistics:
    """A game's figures (an unsaved row) over its scored records, or over ``records`` only, or
    over ``organisation``'s only."""
    scored = ScoredRecord.objects.filter(game_slug=slug)
    if records is not None:
        scored = scored.filter(record__in=records)
    if organisation is not None:
        scored = scored.filter(organisation=organisation)
    tally = game_tallies(scored).get(slug, GameTally())
    row = tally.row(slug, game_titles(scored).get(slug, ""))
    row.organisation_id = organisation
    return row


def game_rows_without(rows: Iterable[GameStatistics], hidden: QuerySet[GameRecord]) -> list[GameStatistics]:
    """The rows' figures less the given (hidden) records' games: unsaved rows where that changes
    a row, a game left with no games dropped. Costs a pass over the hidden records only."""
    rows = list(rows)
    # The hidden records' ids first (a small index): the scored rows are then read by key.
    hidden_ids = list(hidden.order_by().values_list("pk", flat=True)[:LITERAL_IDS + 1])
    scored = ScoredRecord.objects.filter(record__in=hidden_ids if len(hidden_ids) <= LITERAL_IDS else hidden.values("pk"))
    if len(rows) < 10:
        scored = scored.filter(game_slug__in=[row.game_slug for row in rows])
    taken = game_tallies(scored)
    seen = []
    for row in rows:
        if row.game_slug in taken:
            less = (GameTally.of_row(row) - taken[row.game_slug]).row(row.game_slug, row.title)
            less.organisation_id = row.organisation_id
            row = less
        if row.games:
            seen.append(row)
    return seen


def refresh_game(slug: str, organisation: int | None = None) -> None:
    """Recompute one game's figures over the installation's games, and over ``organisation``'s
    when one is given (call inside a transaction holding ``game:<slug>``)."""
    for scope in [None] if organisation is None else [None, organisation]:
        GameStatistics.objects.of(scope).filter(game_slug=slug).delete()
        scored = ScoredRecord.objects.filter(game_slug=slug)
        if (scored if scope is None else scored.filter(organisation=scope)).exists():
            game_row(slug, organisation=scope).save()


def refresh_usage(catalogue_ids: Iterable[int], copy_ids: Iterable[int]) -> None:
    catalogue_ids, copy_ids = sorted(set(catalogue_ids)), sorted(set(copy_ids))
    with transaction.atomic():
        for pk in catalogue_ids:
            locks.hold(f"catalogue:{pk}")
        for pk in copy_ids:
            locks.hold(f"copy:{pk}")
        _write_usage(CatalogueUsage, "catalogue_record", catalogue_ids)
        _write_usage(CopyUsage, "copy", copy_ids)


def _write_usage(model, field: str, ids: list[int] | None) -> None:
    summaries = ScoredRecord.objects.filter(**{f"{field}__isnull": False})
    existing = model.objects.all()
    if ids is not None:
        summaries = summaries.filter(**{f"{field}__in": ids})
        existing = existing.filter(**{f"{field}__in": ids})
    existing.delete()
    rows = summaries.values(field).annotate(times=Count("pk"), last=Max("played_on")).order_by(field)
    model.objects.bulk_create(
        [model(**{f"{field}_id": row[field]}, times_played=row["times"], last_played=row["last"]) for row in rows]
    )


@transaction.atomic
def rebuild() -> None:
    """Drop every statistics row and compute them all again from the results."""
    locks.hold("statistics:rebuild")
    PlayerStatistics.objects.all().delete()
    GameStatistics.objects.all().delete()
    organisations = list(ScoredRecord.objects.exclude(organisation=None).values_list("organisation", flat=True)
                         .distinct().order_by("organisation"))
    for scope in [None, *organisations]:
        by_player = _results_by_player(None, scope)
        PlayerStatistics.objects.bulk_create(
            [row for player_id in sorted(by_player) for row in _player_rows(player_id, by_player[player_id], scope)],
            batch_size=2000,
        )
        scored = ScoredRecord.objects.all() if scope is None else ScoredRecord.objects.filter(organisation=scope)
        for slug in scored.values_list("game_slug", flat=True).distinct().order_by("game_slug"):
            game_row(slug, organisation=scope).save()
    _write_usage(CatalogueUsage, "catalogue_record", None)
    _write_usage(CopyUsage, "copy", None)
