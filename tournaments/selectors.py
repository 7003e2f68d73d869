"""The tournaments' reads: rounds, tables with their seats, reasons and results, and standings."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from accounts.models import Organisation
from accounts.roles import Action, can
from games.models import CatalogueRecord
from games.registry import EngineAdapter, get_engine
from games.selectors import game_slug_for
from records.models import GameRecord
from records.selectors import ended_short_of_a_tile
from scoring import selectors as scoring_selectors

from . import placements
from .models import Entrant, Round, Seat, TableRecording, TableResult, Tournament


def sees_tournaments(user: Any, organisation: Organisation | None) -> bool:
    """Who sees an organisation's tournaments (pages, files and API alike): its organisers, and
    its members who record games."""
    return organisation is not None and (can(user, Action.RUN_LEAGUES, organisation)
                                         or can(user, Action.RECORD_GAMES, organisation))


def tournaments_of(organisation: Organisation | None) -> list[Tournament]:
    if organisation is None:
        return []
    return list(Tournament.objects.filter(organisation=organisation).select_related("game"))


def game_of_round(drawn: Round) -> CatalogueRecord | None:
    """The game the round's tables play: the tournament's, or its rotation's turn."""
    return drawn.tournament.game_of_round(drawn.number)


def engine_of_round(drawn: Round) -> EngineAdapter | None:
    """The rules engine of the round's game, when it has one: its tables may be recorded move by move."""
    game = game_of_round(drawn)
    return get_engine(game.engine_slug) if game is not None and game.engine_slug else None


def recording_of(drawn: Round, table_number: int) -> TableRecording | None:
    return drawn.recordings.filter(table_number=table_number).select_related("game_record").first()


IN_PROGRESS, FINISHED, ABANDONED, ENDED_EARLY = "in_progress", "finished", "abandoned", "ended_early"


def recording_state(recording: TableRecording) -> str:
    """Where a table's recorded game stands: in progress, finished (its result is the table's),
    abandoned, or ended early (short of a tile: not the table's result)."""
    record = recording.game_record
    if record.status == GameRecord.Status.IN_PROGRESS:
        return IN_PROGRESS
    if record.status == GameRecord.Status.ABANDONED:
        return ABANDONED
    if GameRecord.objects.filter(pk=record.pk).filter(ended_short_of_a_tile()).exists():
        return ENDED_EARLY
    return FINISHED


def last_round(tournament: Tournament) -> Round | None:
    return tournament.rounds.order_by("-number").first()


def last_round_number(tournament: Tournament) -> int:
    found = last_round(tournament)
    return found.number if found else 0


def latest_results(rounds: Any) -> dict[tuple[int, int], TableResult]:
    """Each table's result as it stands (the last correction), by (round id, table number)."""
    found: dict[tuple[int, int], TableResult] = {}
    for result in TableResult.objects.filter(round__in=rounds).order_by("pk"):
        found[(result.round_id, result.table_number)] = result
    return found


def result_of(drawn: Round, table_number: int) -> TableResult | None:
    return drawn.results.filter(table_number=table_number).order_by("-pk").first()


def tables_without_result(drawn: Round) -> list[int]:
    tables = set(drawn.seats.values_list("table_number", flat=True))
    done = set(drawn.results.values_list("table_number", flat=True))
    return sorted(tables - done)


def past_tables(tournament: Tournament) -> list[list[list[int]]]:
    """Every round's tables, each its entrants in seat order (``pairing.history_of``'s rounds)."""
    rounds: dict[int, dict[int, list[int]]] = {}
    for seat in Seat.objects.filter(round__tournament=tournament).order_by("round__number", "table_number", "position"):
        rounds.setdefault(seat.round_id, {}).setdefault(seat.table_number, []).append(seat.entrant_id)
    return [list(tables.values()) for tables in rounds.values()]


def table_results(tournament: Tournament, *, final: bool = False) -> list[placements.TableResult]:
    """Each entered table's result, as ``placements`` scores it (entrant ids as players): the
    Swiss (or round robin) rounds', or with ``final`` the final table's alone."""
    rounds = tournament.rounds.all()
    if tournament.has_final:
        final_number = tournament.rounds_planned + 1
        rounds = rounds.filter(number=final_number) if final else rounds.exclude(number=final_number)
    elif final:
        return []
    seats: dict[tuple[int, int], list[int]] = {}
    for seat in Seat.objects.filter(round__in=rounds).order_by("round_id", "table_number", "position"):
        seats.setdefault((seat.round_id, seat.table_number), []).append(seat.entrant_id)
    results = []
    for key, result in latest_results(rounds).items():
        players = tuple(seats.get(key, ()))
        if result.scores is not None:
            results.append(placements.TableResult(players, scores=tuple(result.scores), lowest_wins=result.lowest_wins))
        else:
            results.append(placements.TableResult(players, places=tuple(result.places)))
    return results


def standings(tournament: Tournament) -> list[placements.StandingLine]:
    """The standings of the rounds before any final table (the final ranks its players apart:
    :func:`standing_rows`)."""
    return placements.standings(table_results(tournament), tournament.settings())


@dataclass
class StandingRow:
    line: placements.StandingLine
    entrant: Entrant
    final_place: int | None = None
    finalist: bool = False
    overall_rank: int | None = None

    @property
    def rank(self) -> int:
        return self.overall_rank if self.overall_rank is not None else self.line.rank


def standing_rows(tournament: Tournament) -> list[StandingRow]:
    """The standings as the pages and files show them: once a final table's result is in, its
    players first by their places there (``placements.final_standings``), then the others."""
    entrants = {entrant.pk: entrant for entrant in tournament.entrants.select_related("player")}
    lines = standings(tournament)
    final = table_results(tournament, final=True)
    if final:
        return [StandingRow(row.line, entrants[row.line.player], row.final_place, row.final_place is not None,
                            row.rank) for row in placements.final_standings(lines, final[0])]
    finalists = set(Seat.objects.filter(round__tournament=tournament, round__number=tournament.rounds_planned + 1)
                    .values_list("entrant_id", flat=True)) if tournament.has_final else set()
    return [StandingRow(line, entrants[line.player], finalist=line.player in finalists) for line in lines]


@dataclass(frozen=True)
class FirstPlayerFigure:
    """The club's measured first-seat advantage for a game at a table size: the first seat's win
    ``rate`` over ``games`` games, the ``fair`` share (1 / size), and the compensation it suggests
    in placement points, (rate − fair) × the winner's points (none below 0)."""

    game: str
    table_size: int
    games: int
    rate: float
    fair: float
    suggested: Decimal

    @property
    def rate_percent(self) -> int:
        return round(100 * self.rate)

    @property
    def fair_percent(self) -> int:
        return round(100 * self.fair)


def first_player_figure(user: Any, organisation: Organisation | None, game: CatalogueRecord | None,
                        table_size: int, winner_points: int) -> FirstPlayerFigure | None:
    """The figure beside the compensation setting, from the organisation's game statistics as
    ``user`` may see them (scoring's selectors: games hidden from the reader left out). None
    without a game; ``games`` 0 when the club has no game of it at that size yet."""
    if game is None:
        return None
    fair = 1 / table_size
    slug = game_slug_for(game)
    rows = scoring_selectors.game_statistics_seen_by(
        user, scoring_selectors.game_statistics(user, organisation).filter(game_slug=slug), organisation)
    row = rows[0] if rows else None
    games = int(row.player_counts.get(str(table_size), 0)) if row else 0
    if not games:
        return FirstPlayerFigure(game.title, table_size, 0, 0.0, fair, Decimal(0))
    rate = float(row.seat_advantage.get(str(table_size), {}).get("0", 0.0))
    suggested = Decimal(str(max(0.0, (rate - fair) * winner_points))).quantize(Decimal("0.01"))
    return FirstPlayerFigure(game.title, table_size, games, rate, fair, suggested)


@dataclass
class TableView:
    number: int
    seats: list[Seat] = field(default_factory=list)
    why: list[dict[str, Any]] = field(default_factory=list)
    result: TableResult | None = None
    recording: TableRecording | None = None

    @property
    def seats_with_results(self) -> list[tuple[Seat, Any, Any]]:
        """(seat, place, score) for each seat; place and score None before a result."""
        if self.result is None:
            return [(seat, None, None) for seat in self.seats]
        scores = self.result.scores or [None] * len(self.seats)
        return list(zip(self.seats, self.result.places, scores))


def tables_of(drawn: Round) -> list[TableView]:
    tables: dict[int, TableView] = {}
    for seat in drawn.seats.select_related("entrant__player").order_by("table_number", "position"):
        tables.setdefault(seat.table_number, TableView(seat.table_number)).seats.append(seat)
    results = latest_results([drawn])
    recordings = {recording.table_number: recording
                  for recording in drawn.recordings.select_related("game_record")}
    for table in tables.values():
        table.why = list(drawn.why.get(str(table.number), []))
        table.result = results.get((drawn.pk, table.number))
        table.recording = recordings.get(table.number)
    return list(tables.values())
