"""Writes to the event store. Every event goes through :func:`append_event`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Max

from .errors import IdempotencyKeyReused, RecordClosed, SeqConflict
from .models import Event, GameRecord, Player, Seat


@dataclass(frozen=True)
class SeatSpec:
    player_name: str
    colour: str = ""


def last_seq(record: GameRecord) -> int:
    return Event.objects.filter(record=record).aggregate(last=Max("seq"))["last"] or 0


@transaction.atomic
def start_game(
    *,
    game_slug: str,
    seats: Sequence[SeatSpec],
    created_by: AbstractBaseUser | None = None,
    **fields: Any,
) -> GameRecord:
    """Create a record with its seats (players are found or created by display name)."""
    record = GameRecord.objects.create(game_slug=game_slug, created_by=created_by, **fields)
    for order, seat in enumerate(seats):
        player, _created = Player.objects.get_or_create(display_name=seat.player_name)
        Seat.objects.create(record=record, player=player, seat_order=order, colour=seat.colour)
    if created_by is not None:
        record.scorekeepers.add(created_by)
    return record


def append_event(
    record: GameRecord,
    expected_seq: int,
    type: str,
    payload: dict[str, Any],
    *,
    recorded_by: AbstractBaseUser | None = None,
    idempotency_key: str | None = None,
) -> Event:
    """Append one event at ``expected_seq + 1``; never overwrite, never leave a gap.

    Optimistic concurrency: the caller says which seq it last saw. If another writer took the
    next place first, :class:`SeqConflict` carries the current last seq. A retry with the same
    idempotency key returns the event already stored instead of writing it twice.
    """
    if idempotency_key:
        existing = _find_retry(record, idempotency_key, type, payload)
        if existing is not None:
            return existing
    if record.status != GameRecord.Status.IN_PROGRESS:
        raise RecordClosed(f"the record is {record.status}: no more events", status=record.status)
    current = last_seq(record)
    if expected_seq != current:
        raise SeqConflict(
            f"expected_seq is {expected_seq} but the last event is {current}", current_seq=current
        )
    try:
        with transaction.atomic():
            return Event.objects.create(
                record=record,
                seq=expected_seq + 1,
                type=type,
                payload=payload,
                recorded_by=recorded_by,
                idempotency_key=idempotency_key or None,
            )
    except IntegrityError:
        # Another writer committed between our read and our insert: either it took the seq,
        # or it was the same client retrying with the same key.
        if idempotency_key:
            existing = _find_retry(record, idempotency_key, type, payload)
            if existing is not None:
                return existing
        current = last_seq(record)
        raise SeqConflict(
            f"another event took seq {expected_seq + 1}; the last event is now {current}",
            current_seq=current,
        ) from None


def _find_retry(record: GameRecord, key: str, type: str, payload: dict[str, Any]) -> Event | None:
    existing = Event.objects.filter(record=record, idempotency_key=key).first()
    if existing is not None and (existing.type != type or existing.payload != payload):
        raise IdempotencyKeyReused(
            f"idempotency key {key!r} was already used for a different event (seq {existing.seq})",
            seq=existing.seq,
        )
    return existing
