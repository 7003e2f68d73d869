"""The outbox: a message is written with the change that causes it (none when it rolls back),
sent once whoever delivers it how often, kept for the sweep when the broker is down or the mail
server refuses, given up after a few attempts until someone tries it again; the operator's page
lists what waits and tries it again."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.db import transaction
from django.utils import timezone

from outbox import services, tasks
from outbox.models import Message
from tests.brokers import CLOSED, broker_at

pytestmark = pytest.mark.django_db


def write(subject: str = "Bonjour", **options) -> Message:
    return services.enqueue(Message.Kind.HOLD_READY, ["b@example.org", " a@example.org ", "", "a@example.org"],
                            subject, "Le jeu vous attend.", language="fr", **options)


@pytest.fixture
def swept_at_once(settings):
    settings.LUDOLOG_OUTBOX_SWEEP_GRACE_SECONDS = 0


def test_a_message_is_written_with_its_change_and_sent_once_it_commits(celery_eager, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        with transaction.atomic():
            message = write()
            assert mail.outbox == []  # nothing goes before the change is committed
    sent, = mail.outbox
    assert (sent.to, sent.subject, sent.body) == (["a@example.org", "b@example.org"], "Bonjour", "Le jeu vous attend.")
    message.refresh_from_db()
    assert message.sent_at is not None and message.attempts == 1 and message.last_error == ""
    assert message.body == "Le jeu vous attend."  # an ordinary message is kept whole


def test_a_change_rolled_back_leaves_no_message(celery_eager, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuntimeError):
        with transaction.atomic():
            write()
            raise RuntimeError("the change fails")
    assert not Message.objects.exists() and mail.outbox == []


def test_no_address_writes_nothing():
    assert services.enqueue(Message.Kind.OVERDUE, ["", "  "], "s", "b") is None
    assert not Message.objects.exists()


def test_a_message_delivered_again_is_not_sent_again(celery_eager, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        message = write()
    assert services.deliver(message.pk) is False
    tasks.deliver_message.delay(message.pk)
    tasks.sweep.delay()
    assert len(mail.outbox) == 1


def test_a_broker_that_is_down_fails_nothing_and_the_sweep_sends_the_message_once(
        django_capture_on_commit_callbacks, swept_at_once, caplog):
    with broker_at(CLOSED), django_capture_on_commit_callbacks(execute=True):
        message = write()  # asking the broker fails on commit: logged, not raised
    assert "the outbox sweep will deliver it" in caplog.text
    message.refresh_from_db()
    assert message.sent_at is None and message.attempts == 0 and mail.outbox == []
    assert services.sweep() == 1
    assert services.sweep() == 0
    assert len(mail.outbox) == 1
    message.refresh_from_db()
    assert message.sent_at is not None


def test_the_sweep_leaves_a_fresh_message_to_its_own_task(settings):
    settings.LUDOLOG_OUTBOX_SWEEP_GRACE_SECONDS = 30
    with broker_at(CLOSED):
        message = write()
    assert services.sweep() == 0
    assert services.sweep(now=timezone.now() + dt.timedelta(seconds=31)) == 1
    assert Message.objects.get(pk=message.pk).sent_at is not None


def test_a_mail_server_that_refuses_counts_attempts_until_given_up_then_retry_starts_over(
        settings, swept_at_once, django_capture_on_commit_callbacks, celery_eager):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", 9, 1  # nothing listens there
    settings.LUDOLOG_OUTBOX_MAX_ATTEMPTS = 2
    with django_capture_on_commit_callbacks(execute=True):
        message = write()  # its own task: attempt 1
    assert services.sweep() == 0  # attempt 2
    assert services.sweep() == 0  # given up: not tried
    message.refresh_from_db()
    assert message.attempts == 2 and message.sent_at is None and "ConnectionRefusedError" in message.last_error
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    with django_capture_on_commit_callbacks(execute=True):
        assert services.retry(message) is True
    message.refresh_from_db()
    assert message.sent_at is not None and message.attempts == 1 and len(mail.outbox) == 1
    assert services.retry(message) is False  # sent: nothing to try


def test_the_body_of_a_key_is_blanked_once_sent(celery_eager, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        message = write("Invitation", blank_once_sent=True)
    assert mail.outbox[0].body == "Le jeu vous attend."
    message.refresh_from_db()
    assert message.body == "" and message.subject == "Invitation" and message.sent_at is not None
    assert message.recipient_list == ["a@example.org", "b@example.org"]


# The operator's page

def test_the_operator_sees_what_waits_and_tries_it_again(client, django_user_model, django_capture_on_commit_callbacks,
                                                         celery_eager):
    with broker_at(CLOSED):
        waiting = write("Une réservation vous attend")
    Message.objects.filter(pk=waiting.pk).update(attempts=1, last_error="SMTPServerDisconnected: gone")
    operator = django_user_model.objects.create_superuser("operator", password="x")
    client.force_login(operator)
    page = client.get("/outbox/").content.decode()
    assert "Une réservation vous attend" in page and "SMTPServerDisconnected: gone" in page
    assert f'action="/outbox/{waiting.pk}/retry/"' in page and "/admin/" not in page
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(f"/outbox/{waiting.pk}/retry/")
    assert answer.status_code == 302 and answer["Location"] == "/outbox/"
    assert Message.objects.get(pk=waiting.pk).sent_at is not None and len(mail.outbox) == 1
    assert 'data-testid="outbox-empty"' in client.get("/outbox/").content.decode()


def test_only_the_operator_reads_the_outbox(client, django_user_model):
    from accounts.roles import Role
    from tests.factories import give_role

    with broker_at(CLOSED):
        waiting = write()
    client.force_login(give_role(django_user_model.objects.create_user("librarian"), Role.LIBRARIAN))
    assert client.get("/outbox/").status_code == 403
    assert client.post(f"/outbox/{waiting.pk}/retry/").status_code == 403
    client.logout()
    assert client.get("/outbox/").status_code == 302  # to the login page


def test_the_beat_sweeps_the_outbox(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["outbox-sweep"]
    assert entry["task"] == "outbox.sweep" == tasks.sweep.name
    assert entry["schedule"] == settings.LUDOLOG_OUTBOX_SWEEP_SECONDS


def test_the_admin_lists_the_messages_and_tries_the_unsent_again(client, django_user_model,
                                                                 django_capture_on_commit_callbacks, celery_eager):
    with broker_at(CLOSED):
        waiting = write("Une réservation vous attend")
    client.force_login(django_user_model.objects.create_superuser("operator", password="x"))
    assert "Une réservation vous attend" in client.get("/admin/outbox/message/").content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post("/admin/outbox/message/", {"action": "retry", "_selected_action": [waiting.pk]})
    assert answer.status_code == 302
    assert Message.objects.get(pk=waiting.pk).sent_at is not None and len(mail.outbox) == 1
