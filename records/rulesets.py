"""Moving records to another ruleset, with a report: what a club does when the rules it judges
its games by change (a reading corrected, a variant adopted), without rewriting history.

Each record is replayed event by event under its current rules and under the target ones side
by side, and comes out as one of:

- ``identical``: every position and the scores are the same;
- ``changed``: every event is still legal, but positions or scores differ (the scores before
  and after, seat by seat);
- ``illegal``: an event is refused under the target rules (its seq and the engine's reason), or
  the game would end at another point; such a record stays where it is;
- ``unchanged``: it is already judged by the target rules.

Moving writes one :class:`~records.models.RulesetMove` per identical or changed record (the
events and the record itself are never edited); the effective ruleset is the latest move's
(:func:`records.replay.ruleset_of`), and the results of a finished record are worked out again
once the move is committed (:data:`records.signals.ruleset_moved`).
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from games.registry import UNDO, EngineAdapter, PayloadError, get_engine

from . import replay
from .errors import RecordError
from .models import Event, GameRecord, RulesetMove
from .signals import ruleset_moved

IDENTICAL, CHANGED, ILLEGAL, UNCHANGED = "identical", "changed", "illegal", "unchanged"
OUTCOMES = (IDENTICAL, CHANGED, ILLEGAL, UNCHANGED)
RULES_KEYS = ("ruleset", "variants", "options")
"""What a position says about the rules it was judged by, left out when positions are compared."""


class UnknownRuleset(RecordError):
    reason = "unknown_ruleset"
    status_code = 400


@dataclass(frozen=True)
class RecordReport:
    record_id: int
    players: tuple[str, ...]
    from_version: str
    to_version: str
    outcome: str
    scores_before: tuple[int, ...] = ()
    scores_after: tuple[int, ...] = ()
    seq: int | None = None
    """The first event refused (``illegal``), or the first whose position differs (``changed``)."""
    reason: str = ""
    detail: str = ""


@dataclass
class MigrationReport:
    game: str
    to_version: str
    variants: tuple[str, ...]
    dry_run: bool
    records: list[RecordReport] = field(default_factory=list)
    moved: int = 0

    @property
    def counts(self) -> dict[str, int]:
        counted = Counter(report.outcome for report in self.records)
        return {outcome: counted.get(outcome, 0) for outcome in OUTCOMES}

    def as_csv(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(["record", "players", "from", "to", "outcome", "scores before", "scores after", "seq",
                         "reason", "detail"])
        for r in self.records:
            writer.writerow([r.record_id, " / ".join(r.players), r.from_version, r.to_version, r.outcome,
                             " / ".join(map(str, r.scores_before)), " / ".join(map(str, r.scores_after)),
                             "" if r.seq is None else r.seq, r.reason, r.detail])
        return out.getvalue()


def target_ruleset(engine: EngineAdapter, wanted: str) -> str:
    """``wanted`` as a ruleset version: the version itself or its short key (``2``)."""
    if wanted in engine.rulesets:
        return wanted
    for version, info in engine.rulesets.items():
        if info.key == wanted:
            return version
    known = ", ".join(f"{info.key} ({version})" for version, info in engine.rulesets.items())
    raise UnknownRuleset(f"{engine.name} has no ruleset {wanted!r}; it has {known}", field="to")


def _comparable(view: Mapping[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in view.items() if key not in RULES_KEYS}


def _apply(engine: EngineAdapter, state: Any, kind: str, payload: Any) -> None:
    if kind == UNDO:
        engine.undo(state)
    else:
        engine.apply(state, kind, payload, validate=False)


def compare(record: GameRecord, to_version: str, to_setup: Mapping[str, Any]) -> RecordReport:
    """Replay ``record`` under its rules and under ``to_version``/``to_setup`` side by side."""
    engine = replay.engine_for(record)
    players = tuple(seat.player.display_name for seat in record.seats.select_related("player"))
    from_version, from_setup = replay.ruleset_of(record), replay.setup_of(record)
    report = {"record_id": record.pk, "players": players, "from_version": from_version, "to_version": to_version}
    if (from_version, dict(from_setup)) == (to_version, dict(to_setup)):
        return RecordReport(**report, outcome=UNCHANGED)
    current = replay.initial_state(record, engine)
    target = engine.new_state(len(players), record.seed, to_setup, to_version)
    differs_at: int | None = None
    for seq, kind, payload in Event.objects.filter(record=record).order_by("seq").values_list("seq", "type", "payload"):
        _apply(engine, current, kind, payload)
        try:
            _apply(engine, target, kind, payload)
        except engine.refusals as error:
            return RecordReport(**report, outcome=ILLEGAL, seq=seq, reason=str(getattr(error, "reason", "refused")),
                                detail=str(getattr(error, "message", error)),
                                scores_before=tuple(engine.totals(current)))
        if differs_at is None and _comparable(engine.view(current)) != _comparable(engine.view(target)):
            differs_at = seq
    before, after = tuple(engine.totals(current)), tuple(engine.totals(target))
    if engine.is_over(current) != engine.is_over(target):
        return RecordReport(**report, outcome=ILLEGAL, seq=differs_at, reason="ends_differently",
                            detail="the game would not end where it ended" if engine.is_over(current)
                            else "the game would have ended before its last event",
                            scores_before=before, scores_after=after)
    outcome = IDENTICAL if differs_at is None and before == after else CHANGED
    return RecordReport(**report, outcome=outcome, scores_before=before, scores_after=after,
                        seq=differs_at if outcome == CHANGED else None)


def migrate_ruleset(
    game: str,
    to: str,
    *,
    variants: Sequence[str] | None = None,
    dry_run: bool = False,
    record_ids: Iterable[int] | None = None,
    moved_by: AbstractBaseUser | None = None,
) -> MigrationReport:
    """Report (and unless ``dry_run``, move) every record of ``game`` with an engine, or those of
    ``record_ids``, to the ruleset ``to`` (a version or its key); ``variants`` replaces the
    records' variants (``None`` keeps each record's own)."""
    engine = get_engine(game)
    if engine is None:
        raise UnknownRuleset(f"no rules engine replays {game!r}", field="game")
    to_version = target_ruleset(engine, to)
    records = GameRecord.objects.filter(game_slug=game, result_only=False).order_by("pk")
    if record_ids is not None:
        records = records.filter(pk__in=list(record_ids))
    report = MigrationReport(game, to_version, tuple(variants or ()), dry_run)
    moves: list[tuple[GameRecord, RecordReport, dict[str, Any]]] = []
    for record in records:
        setup = dict(replay.setup_of(record))
        if variants is not None:
            setup["variants"] = list(variants)
        try:
            setup = engine.prepare_setup(record.seats.count(), record.seed, setup, to_version)
        except PayloadError as error:
            report.records.append(RecordReport(
                record.pk, tuple(s.player.display_name for s in record.seats.select_related("player")),
                replay.ruleset_of(record), to_version, ILLEGAL, reason="invalid_setup", detail=error.message))
            continue
        line = compare(record, to_version, setup)
        report.records.append(line)
        if line.outcome in (IDENTICAL, CHANGED):
            moves.append((record, line, setup))
    if not dry_run and moves:
        with transaction.atomic():
            for record, line, setup in moves:
                RulesetMove.objects.create(
                    record=record, from_version=line.from_version, to_version=to_version,
                    from_setup=replay.setup_of(record), to_setup=setup, outcome=line.outcome,
                    scores_before=list(line.scores_before), scores_after=list(line.scores_after), moved_by=moved_by)
                if record.status == GameRecord.Status.FINISHED:
                    transaction.on_commit(lambda pk=record.pk: ruleset_moved.send(sender=GameRecord, record_id=pk))
        report.moved = len(moves)
    return report
