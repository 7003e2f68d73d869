"""A broker that is down delays the desk's mail and fails nothing (issue 37): a hold that sets a
copy aside answers 201 once, its notification waits in the outbox, and it is mailed once when the
broker is back: by the beat's sweep run in-process (any database), and through a redis-server of
the test's own, stopped while the desk works and started again, to a real Celery worker that the
sweep task reaches through it (PostgreSQL and Redis)."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import pytest
from django.core import mail

from loans.models import Hold, Notification
from outbox import services as outbox
from outbox.models import Message
from outbox.tasks import sweep
from tests.brokers import CLOSED, broker_at
from tests.factories import database_url_for_other_processes, make_household
from tests.brokers import OwnRedis
from tests.workers import wait_for, worker_process

FAR = dt.date(2099, 12, 31)


def hold(desk_api, record, household):
    return desk_api.post("/api/loans/holds/", {"record": record.pk, "household": household.card_number}, format="json")


@pytest.fixture
def waiting(db):
    return make_household("Dubois", membership_ends=FAR, email="dubois@example.org")


@pytest.mark.django_db(transaction=True)
def test_a_hold_placed_while_the_broker_is_down_answers_201_and_is_mailed_once_by_the_sweep(
        desk_api, record, copies, waiting, settings):
    settings.LUDOLOG_OUTBOX_SWEEP_GRACE_SECONDS = 0
    with broker_at(CLOSED):
        answer = hold(desk_api, record, waiting)  # on the shelves: set aside at once, the household told
        assert answer.status_code == 201, answer.content
        again = hold(desk_api, record, waiting)
        assert (again.status_code, again.json()["reason"]) == (409, "hold_already_placed")
    told = Notification.objects.get(household=waiting)
    message = Message.objects.get()
    assert message.about == told and message.sent_at is None and message.recipient_list == ["dubois@example.org"]
    assert mail.outbox == []
    assert outbox.sweep() == 1 and outbox.sweep() == 0  # the broker back, the beat's sweep runs
    sent, = mail.outbox
    assert sent.body == told.text and sent.to == ["dubois@example.org"]
    told.refresh_from_db()
    assert told.emailed_at is not None and told.emailed_to == "dubois@example.org"


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.slow(seconds=10)
@pytest.mark.django_db(transaction=True)
def test_with_a_real_redis_stopped_then_started_a_real_worker_mails_the_hold_once(
        desk_api, record, copies, waiting, tmp_path):
    broker = OwnRedis(tmp_path)
    broker.start()
    mailbox = tmp_path / "mail"
    mailbox.mkdir()
    try:
        with broker_at(broker.url):
            broker.kill()  # Redis dies while the desk works
            answer = hold(desk_api, record, waiting)
            assert answer.status_code == 201, answer.content
            assert Hold.objects.get().status == Hold.Status.READY
            message = Message.objects.get()
            assert message.sent_at is None and message.kind == Message.Kind.HOLD_READY
            broker.start()  # the same port: the broker is back
            env = {**os.environ, "DATABASE_URL": database_url_for_other_processes(), "CELERY_BROKER_URL": broker.url,
                   "CELERY_RESULT_BACKEND": broker.url, "LUDOLOG_OUTBOX_SWEEP_GRACE_SECONDS": "0",
                   "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
                   "EMAIL_FILE_PATH": str(mailbox)}
            with open(tmp_path / "worker.log", "w") as log, worker_process("celery", env=env, output=log):
                sweep.delay()  # what the beat sends every LUDOLOG_OUTBOX_SWEEP_SECONDS
                wait_for(lambda: Message.objects.filter(sent_at__isnull=False).exists(), timeout=60,
                         what="the worker to mail the hold's notification")
                sweep.delay()  # swept again: nothing more
                outbox.ask_broker(message.pk)  # and its own task arriving late: nothing more
                wait_for(lambda: broker_queue_empty(broker), timeout=30, what="the worker to take both tasks")
    finally:
        broker.stop()
    mails = [path.read_text() for path in Path(mailbox).iterdir()]
    assert len(mails) == 1 and "To: dubois@example.org" in mails[0], (tmp_path / "worker.log").read_text()
    assert Notification.objects.get().emailed_at is not None


def broker_queue_empty(broker: OwnRedis) -> bool:
    import redis

    client = redis.Redis.from_url(broker.url)
    return client.llen("celery") == 0 and client.zcard("unacked_index") == 0
