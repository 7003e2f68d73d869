"""Final scores from the events: replayed through the engine, never taken on the client's word.

The scoring pipeline of one finished record: results (one transaction), then the projections
that depend on them, then the ``ScoredRecord`` marker with the record's own figures. Every step
recomputes from committed rows, so running it twice, or after a crash half-way, leaves the same
rows. A record whose scoring fails for a reason of its own is marked ``UnscorableRecord`` (with
the reason and the number of failures) and never holds up the others; a success clears the mark.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, InterfaceError, OperationalError, transaction
from django.db.models import F, Max, Min
from django.utils import timezone

from games.engines.ranks import competition_ranks
from games.registry import RESULT, FinalScore
from records.services import CORRECTION
from records import replay
from records.selectors import catalogue_record_played
from records.models import Event, GameRecord, RulesetMove

from . import impact, locks, ratings, standings, statistics
from .models import (
    Club, League, LeagueRuling, Rating, ResultImpact, RulesetMoveImpact, RulingImpact, ScoredRecord, SeatResult,
    UnscorableRecord,
)

logger = logging.getLogger(__name__)


def shared_ranks(scores: list[int], tiebreaks: list[float] | None = None) -> list[int]:
    """Competition ranking (:func:`games.engines.ranks.competition_ranks`, the engines' too):
    tied players share a rank, the next rank skips (1, 1, 3).

    A tie-break value, when the game has one (Stone Age's resources), separates equal scores.
    """
    return competition_ranks(list(zip(scores, tiebreaks or [0] * len(scores))))


def ranks_as_told(lines: Sequence[tuple[int, bool]], *, lowest_wins: bool = False) -> list[int]:
    """The rank of each ``(score, won)`` seat of a result told by a table or a play log: the
    players said to have won share first place, the others follow by score (highest first, or
    lowest when the lowest wins); equal scores share a rank.

    >>> ranks_as_told([(30, False), (42, False), (42, False)]), ranks_as_told([(12, False), (20, True)], lowest_wins=True)
    ([3, 1, 1], [2, 1])
    """
    return competition_ranks([(1 if won else 0, -score if lowest_wins else score) for score, won in lines])


class StoredAction(NamedTuple):
    """An event as a replay needs it (plain tuples: building model instances cost a tenth of a replay)."""

    type: str
    payload: dict[str, Any]


COOPERATIVE_RANKS = {"won": 1, "lost": 2}
"""A cooperative game's places: all first when the players won together; all second when the
game beat them (nobody came first)."""


def _result_only_scores(event: StoredAction) -> list[FinalScore]:
    """The seats' results as the result event tells them: its places where it gives them, else
    ranked by score; a cooperative game's seats all share the outcome's place."""
    lines = sorted(event.payload["scores"], key=lambda line: line["seat"])
    if "cooperative" in event.payload:
        together = COOPERATIVE_RANKS[event.payload["cooperative"]]
        return [FinalScore(seat=line["seat"], score=line.get("score"), rank=together) for line in lines]
    if any("score" not in line for line in lines):  # places only (checked: every line has one)
        return [FinalScore(seat=line["seat"], score=line.get("score"), rank=line["rank"]) for line in lines]
    computed = shared_ranks([line["score"] for line in lines], [line.get("tiebreak", 0) for line in lines])
    return [
        FinalScore(seat=line["seat"], score=line["score"], rank=line.get("rank", rank))
        for line, rank in zip(lines, computed)
    ]


def _replayed_scores(record: GameRecord, events: Iterable[StoredAction]) -> list[FinalScore]:
    """Replay from the first event (snapshots are a cache: a score is never read off one)."""
    engine = replay.engine_for(record)
    state = replay.apply_events(engine, replay.initial_state(record, engine), events)
    if not engine.is_over(state):
        raise ValueError(f"record {record.pk} is not over: no final scores yet")
    return engine.final_scores(state)


def _final_scores(record: GameRecord, events: list[StoredAction]) -> list[FinalScore]:
    if record.result_only:
        # The latest result stands: a correction is a new event, never an edit of the first.
        result = next((e for e in reversed(events) if e.type in (RESULT, CORRECTION)), None)
        if result is None:
            raise ValueError(f"result-only record {record.pk} has no result event")
        return _result_only_scores(result)
    return _replayed_scores(record, events)


def _events_of(records: Sequence[GameRecord]) -> dict[int, list[StoredAction]]:
    by_record: dict[int, list[StoredAction]] = defaultdict(list)
    events = Event.objects.filter(record__in=[r.pk for r in records]).order_by("record_id", "seq")
    for record_id, type, payload in events.values_list("record_id", "type", "payload"):
        by_record[record_id].append(StoredAction(type, payload))
    return by_record


def final_scores_of(records: Sequence[GameRecord]) -> dict[int, list[FinalScore]]:
    """The final scores of many records, their events read in one query."""
    by_record = _events_of(records)
    return {record.pk: _final_scores(record, by_record[record.pk]) for record in records}


def final_scores_each(records: Sequence[GameRecord]) -> tuple[dict[int, list[FinalScore]], dict[int, str]]:
    """Like :func:`final_scores_of`, one record at a time: the scores of those that replay, and
    why each other one does not (a record's fault never stops the others)."""
    by_record = _events_of(records)
    finals: dict[int, list[FinalScore]] = {}
    failures: dict[int, str] = {}
    for record in records:
        try:
            finals[record.pk] = _final_scores(record, by_record[record.pk])
        except Exception as error:
            if not is_record_fault(error):
                raise
            failures[record.pk] = describe(error)
    return finals, failures


def final_scores(record: GameRecord) -> list[FinalScore]:
    return final_scores_of([record])[record.pk]


def _ruleset_version(record: GameRecord) -> str:
    """The ruleset the result was worked out under: the record's effective one."""
    if record.result_only:
        return record.ruleset_version
    return replay.ruleset_of(record)


@dataclass(frozen=True)
class ResultChange:
    record_id: int
    seat_order: int
    player_id: int
    score_before: int | None
    rank_before: int | None
    score_after: int
    rank_after: int


def write_results(records: Sequence[GameRecord], finals: dict[int, list[FinalScore]]) -> list[ResultChange]:
    """Upsert one result per seat; returns the seats whose score or rank changed (new ones too)."""
    before = {
        (row.record_id, row.seat_id): row
        for row in SeatResult.objects.filter(record__in=[r.pk for r in records])
    }
    rows: list[SeatResult] = []
    changes: list[ResultChange] = []
    for record in records:
        seats = {seat.seat_order: seat for seat in record.seats.all()}
        version = _ruleset_version(record)
        for final in finals[record.pk]:
            seat = seats[final.seat]
            rows.append(SeatResult(
                record_id=record.pk, seat=seat, player_id=seat.player_id, score=final.score, rank=final.rank,
                breakdown=dict(final.breakdown), ruleset_version=version, computed_at=timezone.now(),
            ))
            old = before.get((record.pk, seat.pk))
            if old is None or (old.score, old.rank) != (final.score, final.rank):
                changes.append(ResultChange(
                    record.pk, final.seat, seat.player_id,
                    old.score if old else None, old.rank if old else None, final.score, final.rank,
                ))
    SeatResult.objects.bulk_create(
        rows, update_conflicts=True, unique_fields=["seat"],
        update_fields=["score", "rank", "breakdown", "ruleset_version", "computed_at", "player"],
    )
    return changes


@transaction.atomic
def store_results(record: GameRecord) -> list[SeatResult]:
    """Write one result per seat; running it again leaves the same rows."""
    write_results([record], {record.pk: final_scores(record)})
    return list(SeatResult.objects.filter(record=record).order_by("seat__seat_order"))


def summaries_of(records: Sequence[GameRecord]) -> list[ScoredRecord]:
    """Each record's own figures: players, winning score, duration, which box was played."""
    ids = [r.pk for r in records]
    spans = {
        row["record_id"]: row
        for row in Event.objects.filter(record__in=ids).values("record_id")
        .annotate(first=Min("recorded_at"), last=Max("recorded_at"))
    }
    winning = {
        row["record_id"]: row["best"]
        # The winners' best score (the highest score wins only in some games; a shared win, two).
        for row in SeatResult.objects.filter(record__in=ids, rank=1).values("record_id").annotate(best=Max("score"))
    }
    summaries = []
    for record in records:
        duration = _duration_seconds(record, spans.get(record.pk))
        catalogue_id = catalogue_record_played(record)
        summaries.append(ScoredRecord(
            record_id=record.pk, game_slug=record.game_slug, played_on=record.played_on,
            players=len(record.seats.all()), winning_score=winning.get(record.pk), duration_seconds=duration,
            catalogue_record_id=catalogue_id, copy_id=record.copy_id, ruleset_version=_ruleset_version(record),
            organisation_id=record.organisation_id, scored_at=timezone.now(),
        ))
    return summaries


def _duration_seconds(record: GameRecord, span: dict[str, Any] | None) -> int | None:
    """How long the game took: as the table said (a logged duration, or when play started and
    ended), else from the first to the last move recorded."""
    if record.duration_minutes:
        return record.duration_minutes * 60
    if record.play_started_at and record.play_ended_at and record.play_ended_at > record.play_started_at:
        return int((record.play_ended_at - record.play_started_at).total_seconds())
    if span and not record.result_only and span["last"] > span["first"]:
        return int((span["last"] - span["first"]).total_seconds())
    return None


def write_summaries(records: Sequence[GameRecord]) -> None:
    ScoredRecord.objects.bulk_create(
        summaries_of(records), update_conflicts=True, unique_fields=["record"],
        update_fields=[
            "game_slug", "played_on", "players", "winning_score", "duration_seconds", "catalogue_record",
            "copy", "ruleset_version", "scored_at", "organisation",
        ],
    )


def finished_record(record_id: int) -> GameRecord | None:
    record = (
        GameRecord.objects.select_related("copy").prefetch_related("seats").filter(pk=record_id).first()
    )
    if record is None or record.status != GameRecord.Status.FINISHED:
        return None
    return record


def before_correction(record: GameRecord) -> tuple[int | None, impact.Snapshot]:
    """The seq of the record's last event when it is a correction whose impact is not kept yet,
    with the projections as they stand (before it is scored); else ``(None, {})``."""
    last = Event.objects.filter(record=record).order_by("-seq").values_list("seq", "type").first()
    if last is None or last[1] != CORRECTION or ResultImpact.objects.filter(record=record, seq=last[0]).exists():
        return None, {}
    return last[0], impact.snapshot(record)


def before_ruleset_move(record: GameRecord) -> tuple[int | None, impact.Snapshot]:
    """The id of the record's latest ruleset move when what it moved is not kept yet, with the
    projections as they stand (before the record is scored by the new rules); else ``(None, {})``."""
    move = (RulesetMove.objects.filter(record=record).order_by("-pk").values_list("pk", flat=True).first())
    if move is None or RulesetMoveImpact.objects.filter(move_id=move).exists():
        return None, {}
    return move, impact.snapshot(record)


def keep_ruleset_move_impact(record: GameRecord, move_id: int, before: impact.Snapshot) -> RulesetMoveImpact:
    found, _created = RulesetMoveImpact.objects.get_or_create(
        move_id=move_id, defaults={"changes": impact.changes(before, impact.snapshot(record))})
    return found


def keep_impact(record: GameRecord, seq: int, before: impact.Snapshot) -> ResultImpact:
    """What the correction at ``seq`` moved, kept once (scoring again keeps the first)."""
    found, _created = ResultImpact.objects.get_or_create(
        record=record, seq=seq, defaults={"changes": impact.changes(before, impact.snapshot(record))})
    return found


def update_projections(record: GameRecord) -> None:
    """Everything that depends on a record's results, then the marker that it was scored."""
    player_ids = [seat.player_id for seat in record.seats.all()]
    statistics.refresh_players(player_ids, record.organisation_id)
    for league in standings.leagues_of(record):
        standings.refresh(league)
    for club_id in ratings.scopes_of(record):
        ratings.recompute(record.game_slug, club_id, since=record.played_on)
    with transaction.atomic():
        locks.hold(f"game:{record.game_slug}")
        write_summaries([record])
        statistics.refresh_game(record.game_slug, record.organisation_id)
        summary = ScoredRecord.objects.get(pk=record.pk)
        statistics.refresh_usage(
            [summary.catalogue_record_id] if summary.catalogue_record_id else [],
            [summary.copy_id] if summary.copy_id else [],
        )


def refresh_league(league_id: int, club_id: int) -> None:
    """After a league's members, dates, games or points changed (or it was deleted): its standings,
    then its club's ratings, which count the games of the club's leagues, replayed from scratch
    (the games that now count, or no longer do, may be of any date)."""
    league = League.objects.filter(pk=league_id).first()
    # The rulings made since the last refresh: what this one moves is theirs (CoGs' impact).
    pending = list(LeagueRuling.objects.filter(league=league, impact__isnull=True).select_related("record")
                   .order_by("pk")) if league is not None else []
    ruled_games = {ruling.record.game_slug for ruling in pending}
    before = impact.league_snapshot(league, ruled_games) if pending else {}
    if league is not None:
        standings.refresh(league)
    if Club.objects.filter(pk=club_id).exists():
        slugs = set(Rating.objects.filter(club_id=club_id).values_list("game_slug", flat=True))
        slugs |= set(ScoredRecord.objects.values_list("game_slug", flat=True).distinct())
        for slug in sorted(slugs):
            ratings.recompute(slug, club_id)
    if pending:
        moved = impact.changes(before, impact.league_snapshot(league, ruled_games))
        RulingImpact.objects.bulk_create([RulingImpact(ruling=ruling, changes=moved) for ruling in pending],
                                         ignore_conflicts=True)


def refresh_after_merge(player_id: int, record_ids: list[int]) -> None:
    """A player took over a duplicate's games: their statistics, standings and ratings again."""
    statistics.refresh_players([player_id])
    for organisation in (GameRecord.objects.filter(pk__in=record_ids).exclude(organisation=None)
                         .values_list("organisation", flat=True).distinct()):
        statistics.refresh_players([player_id], organisation)
    for league in League.objects.filter(memberships__player_id=player_id).distinct():
        standings.refresh(league)
    for (slug, club_id), first in sorted(ratings.affected_scopes(record_ids).items(), key=str):
        ratings.recompute(slug, club_id, since=first)


def unscored_record_ids(*, grace: timedelta | None = None, limit: int | None = None) -> list[int]:
    """Finished records that no pipeline completed for, oldest first.

    Found by the missing ``ScoredRecord`` row, not by an id bookmark: a record whose transaction
    committed after a higher id was scored is still found. ``grace`` leaves alone records that
    finished a moment ago, whose task is probably in flight; records that already failed
    ``LUDOLOG_SCORING_MAX_ATTEMPTS`` times are left alone for good (``recompute`` tries them).
    """
    grace = grace if grace is not None else timedelta(seconds=settings.LUDOLOG_SWEEP_GRACE_SECONDS)
    records = GameRecord.objects.filter(status=GameRecord.Status.FINISHED, scored__isnull=True).exclude(
        unscorable__attempts__gte=settings.LUDOLOG_SCORING_MAX_ATTEMPTS
    )
    if grace > timedelta(0):
        cutoff = timezone.now() - grace
        records = records.annotate(last_event=Max("events__recorded_at")).filter(last_event__lte=cutoff)
    ids = records.order_by("pk").values_list("pk", flat=True)
    return list(ids[:limit] if limit else ids)


# Failures that say nothing about the record being scored (the database is away, a lock timed
# out): the task is retried and the record is not marked. Anything else (the engine raising on
# the events, a score the projections cannot hold) is the record's own.
TRANSIENT_ERRORS: tuple[type[BaseException], ...] = (OperationalError, InterfaceError)


def describe(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}".strip()[:2000]


def is_record_fault(error: BaseException) -> bool:
    return not isinstance(error, TRANSIENT_ERRORS)


def mark_unscorable(record_id: int, reason: str) -> None:
    """Count one more failed attempt at scoring the record, with its reason."""
    now = timezone.now()
    fields = {"reason": reason, "attempts": F("attempts") + 1, "last_failed_at": now}
    if UnscorableRecord.objects.filter(pk=record_id).update(**fields):
        return
    try:
        with transaction.atomic():
            UnscorableRecord.objects.create(record_id=record_id, reason=reason, first_failed_at=now, last_failed_at=now)
    except IntegrityError:  # another task marked it first
        UnscorableRecord.objects.filter(pk=record_id).update(**fields)


def clear_unscorable(record_ids: Iterable[int]) -> None:
    """The records were scored: whatever failed before no longer does."""
    UnscorableRecord.objects.filter(pk__in=list(record_ids)).delete()


def note_scoring_failure(record_id: int, error: BaseException) -> bool:
    """Mark the record unscorable when the error is its own (True); a transient error is left to
    the caller to retry (False)."""
    if not is_record_fault(error):
        return False
    reason = describe(error)
    logger.warning("record %s could not be scored: %s", record_id, reason)
    mark_unscorable(record_id, reason)
    return True


def _write_scored(records: Sequence[GameRecord], finals: dict[int, list[FinalScore]]) -> list[ResultChange]:
    changes = write_results(records, finals)
    write_summaries(records)
    return changes


def write_each(records: Sequence[GameRecord], finals: dict[int, list[FinalScore]]) -> tuple[list[ResultChange], dict[int, str]]:
    """Write every record's results at once; should that fail for a record's sake (a score the
    column cannot hold), again one record at a time, setting aside those that fail."""
    try:
        with transaction.atomic():
            return _write_scored(records, finals), {}
    except Exception as error:
        if not is_record_fault(error):
            raise
    changes: list[ResultChange] = []
    failures: dict[int, str] = {}
    for record in records:
        try:
            with transaction.atomic():
                changes += _write_scored([record], finals)
        except Exception as error:
            if not is_record_fault(error):
                raise
            failures[record.pk] = describe(error)
    return changes, failures
