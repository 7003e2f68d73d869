"""Two desks, or sixteen, lending the same copy at the same moment: one loan is stored, the others
are told the copy is no longer there (409)."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from django.db import connection
from rest_framework.test import APIClient

from games.models import CatalogueRecord, Copy
from loans.models import CopyEvent, CopyState

from tests.factories import make_household, the_library

DESKS = 16


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_sixteen_desks_lending_one_copy_at_once_store_one_loan(desk_user):
    record = CatalogueRecord.objects.create(title="Carcassonne")
    copy = Copy.objects.create(organisation=the_library(), record=record, barcode="RACE-1")
    households = [make_household(f"Household {n}", membership_ends=dt.date(2099, 12, 31)) for n in range(DESKS)]
    start = threading.Barrier(DESKS)
    answers: list[tuple[int, str | None]] = []

    def desk(card: str) -> None:
        api = APIClient()
        api.force_authenticate(desk_user)
        try:
            start.wait()
            answer = api.post("/api/loans/lend/", {"copy": copy.barcode, "household": card}, format="json")
            answers.append((answer.status_code, answer.json().get("reason")))
        finally:
            connection.close()  # each thread has its own connection: closed, not left to the flush

    threads = [threading.Thread(target=desk, args=(h.card_number,)) for h in households]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert len(answers) == DESKS
    assert sorted(code for code, _reason in answers) == [201] + [409] * (DESKS - 1)
    assert {reason for code, reason in answers if code == 409} <= {"copy_not_available", "copy_changed"}
    assert CopyEvent.objects.filter(copy=copy, type="lent").count() == 1
    assert CopyEvent.objects.filter(copy=copy).count() == 1
    assert CopyState.objects.get(copy=copy).status == "on_loan"
