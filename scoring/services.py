"""Final scores from the events: replayed through the engine, never taken on the client's word."""

from __future__ import annotations

from django.db import transaction

from games.registry import RESULT, FinalScore
from records import replay
from records.models import Event, GameRecord

from .models import SeatResult


def shared_ranks(scores: list[int]) -> list[int]:
    """Competition ranking: tied scores share a rank, the next rank skips (1, 1, 3)."""
    return [1 + sum(other > score for other in scores) for score in scores]


def final_scores(record: GameRecord) -> list[FinalScore]:
    if record.result_only:
        event = Event.objects.get(record=record, type=RESULT)
        lines = sorted(event.payload["scores"], key=lambda line: line["seat"])
        computed = shared_ranks([line["score"] for line in lines])
        return [
            FinalScore(seat=line["seat"], score=line["score"], rank=line.get("rank", rank))
            for line, rank in zip(lines, computed)
        ]
    engine = replay.engine_for(record)
    state, _seq = replay.state_at(record)
    if not engine.is_over(state):
        raise ValueError(f"record {record.pk} is not over: no final scores yet")
    return engine.final_scores(state)


@transaction.atomic
def store_results(record: GameRecord) -> list[SeatResult]:
    """Write one result per seat; running it again leaves the same rows."""
    seats = {seat.seat_order: seat for seat in record.seats.all()}
    rows = []
    for final in final_scores(record):
        seat = seats[final.seat]
        row, _created = SeatResult.objects.update_or_create(
            record=record,
            seat=seat,
            defaults={
                "player_id": seat.player_id,
                "score": final.score,
                "rank": final.rank,
                "breakdown": dict(final.breakdown),
                "ruleset_version": record.ruleset_version,
            },
        )
        rows.append(row)
    return rows
