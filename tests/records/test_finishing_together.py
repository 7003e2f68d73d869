"""Records finished together (a bulk import, ``records.services.finishing_together``) are announced
once the transaction commits, as one batch: every one checkpointed and scored, as one record
finished alone is; nothing announced when the transaction rolls back."""

from __future__ import annotations

import pytest
from django.db import transaction

from records.models import GameRecord, RecordCheckpoint
from records.services import SeatSpec, append_event, finishing_together, start_game
from records.signals import record_finished, records_finished
from scoring.models import SeatResult

pytestmark = pytest.mark.django_db(transaction=True)


def logged(score: int) -> GameRecord:
    record = start_game(game_slug="azul", seats=[SeatSpec("Ada"), SeatSpec("Bastien")], result_only=True)
    append_event(record, 0, "result", {"scores": [{"seat": 0, "score": score}, {"seat": 1, "score": 10}]})
    return record


def test_records_finished_together_are_checkpointed_and_scored_once_committed(celery_eager):
    one_by_one, together = [], []
    record_finished.connect(lambda sender, record_id, **kw: one_by_one.append(record_id), weak=False, dispatch_uid="t1")
    records_finished.connect(lambda sender, record_ids, **kw: together.append(record_ids), weak=False, dispatch_uid="t2")
    try:
        with transaction.atomic(), finishing_together() as gathered:
            records = [logged(score) for score in (30, 5, 12)]
            assert gathered == [r.pk for r in records] and together == []
    finally:
        record_finished.disconnect(dispatch_uid="t1")
        records_finished.disconnect(dispatch_uid="t2")
    ids = [r.pk for r in records]
    assert one_by_one == [] and together == [ids]
    assert set(RecordCheckpoint.objects.filter(record__in=ids).values_list("record_id", "last_seq")) == {
        (pk, 1) for pk in ids}
    assert sorted(SeatResult.objects.filter(record__in=ids, rank=1).values_list("score", flat=True)) == [10, 12, 30]
    assert SeatResult.objects.filter(record__in=ids).count() == 6


def test_nothing_is_announced_when_the_transaction_rolls_back():
    together = []
    records_finished.connect(lambda sender, record_ids, **kw: together.append(record_ids), weak=False, dispatch_uid="t3")
    try:
        with pytest.raises(RuntimeError), transaction.atomic(), finishing_together():
            logged(30)
            raise RuntimeError("the import is refused")
    finally:
        records_finished.disconnect(dispatch_uid="t3")
    assert together == [] and not GameRecord.objects.exists()
