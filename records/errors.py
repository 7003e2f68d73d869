"""Domain errors of the event store; the API turns each into an HTTP answer with a reason code."""

from __future__ import annotations


class RecordError(Exception):
    """Base: every subclass carries a stable ``reason`` and the HTTP status it maps to."""

    reason = "record_error"
    status_code = 400

    def __init__(self, message: str, **details: object) -> None:
        super().__init__(message)
        self.message = message
        self.details = details


class SeqConflict(RecordError):
    reason = "seq_conflict"
    status_code = 409


class InvalidSetup(RecordError):
    """A set-up the game's rules refuse (a chip next to a start square, an unknown expansion):
    ``field`` names the part, ``setup.<key>``."""

    reason = "invalid_setup"
    status_code = 400


class TooManySeats(RecordError):
    """More seats than the record can give a result to."""

    reason = "too_many_seats"
    status_code = 400


class RecordClosed(RecordError):
    reason = "record_closed"
    status_code = 409


class IdempotencyKeyReused(RecordError):
    reason = "idempotency_key_reused"
    status_code = 409


class PlayersCannotMerge(RecordError):
    """Two players who sat at the same table are two people: they cannot be one."""

    reason = "players_cannot_merge"
    status_code = 409


class RecordTampered(RecordError):
    """The record failed verification (``verify_events``, records.integrity): its stored events,
    header or moves no longer match what was recorded. It is neither replayed nor shown until
    someone who runs the site has looked at it; ``problems`` says what was found."""

    reason = "record_tampered"
    status_code = 409

    @classmethod
    def of(cls, record_id: int, problems: list[str]) -> RecordTampered:
        return cls(f"record {record_id} failed its integrity check: its stored events, header or moves no longer "
                   "match what was recorded; it is not shown until the site's operators have repaired it",
                   problems=problems)
