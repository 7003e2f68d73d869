"""A household told that a game it reserved is waiting is told by mail too: at the household's
address and its members' accounts' addresses, once (a task run again sends nothing more), never
to a household without an address; the mail says what the desk's notice says."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail

from accounts.models import Organisation
from loans import services, tasks
from loans.models import Member, Notification
from outbox import tasks as outbox_tasks
from outbox.models import Message
from tests.factories import make_copies, make_household, the_library

pytestmark = pytest.mark.django_db
FAR = dt.date(2099, 12, 31)


def test_the_household_waiting_is_mailed_once_when_the_game_comes_back(
    record, desk_user, django_user_model, django_capture_on_commit_callbacks, celery_eager,
):
    Organisation.objects.filter(pk=the_library().pk).update(name="Ludothèque des Quatre Vents")
    only = make_copies(record, 1, prefix="MAIL")[0]
    borrower = make_household("Petit", membership_ends=FAR)
    waiting = make_household("Dubois", membership_ends=FAR, email="dubois@example.org")
    parent = django_user_model.objects.create_user("paul", email="paul.dubois@example.org")
    Member.objects.create(household=waiting, display_name="Paul Dubois", user=parent)
    Member.objects.create(household=waiting, display_name="Léa Dubois")  # no account: no address
    services.lend(only, borrower, desk_user)
    services.place_hold(record, waiting, desk_user)
    with django_capture_on_commit_callbacks(execute=True):
        services.return_copy(only, desk_user)
    sent, = mail.outbox
    assert sent.to == ["dubois@example.org", "paul.dubois@example.org"]
    assert sent.subject == "Ludothèque des Quatre Vents: a game you reserved is waiting for you"
    told = Notification.objects.get(household=waiting)
    assert sent.body == told.text and only.barcode in sent.body
    assert told.emailed_at is not None and told.emailed_to == "dubois@example.org, paul.dubois@example.org"
    message = Message.objects.get()
    assert message.about == told and message.sent_at is not None
    outbox_tasks.deliver_message.delay(message.pk)  # delivered again: nothing more is sent
    tasks.email_notification.delay(told.pk)  # an earlier version's task for it: nothing more either
    assert len(mail.outbox) == 1 and Message.objects.count() == 1


def test_a_household_without_an_address_is_told_at_the_desk_only(
    record, desk_user, django_capture_on_commit_callbacks, celery_eager,
):
    only = make_copies(record, 1, prefix="NOMAIL")[0]
    waiting = make_household("Sans", membership_ends=FAR)
    with django_capture_on_commit_callbacks(execute=True):
        services.place_hold(record, waiting, desk_user)  # on the shelves: set aside at once
    assert mail.outbox == []
    told = Notification.objects.get(household=waiting)
    assert told.emailed_at is None and only.barcode in told.text
    assert not Message.objects.exists()


def test_an_earlier_versions_task_puts_its_notification_in_the_outbox(
    record, desk_user, django_capture_on_commit_callbacks, celery_eager,
):
    waiting = make_household("Avant", membership_ends=FAR, email="avant@example.org")
    told = Notification.objects.create(household=waiting, text="Un jeu vous attend.")  # no message: written before
    with django_capture_on_commit_callbacks(execute=True):
        tasks.email_notification.delay(told.pk)
    sent, = mail.outbox
    assert sent.to == ["avant@example.org"] and sent.body == "Un jeu vous attend."
    told.refresh_from_db()
    assert told.emailed_at is not None


def test_the_household_is_told_in_its_language(record, desk_user, django_user_model,
                                                django_capture_on_commit_callbacks, celery_eager):
    from accounts.models import Person

    Organisation.objects.filter(pk=the_library().pk).update(language="en")
    waiting = make_household("Leroy", membership_ends=FAR, email="leroy@example.org")
    parent = django_user_model.objects.create_user("anne", email="anne@example.org")
    Person.objects.create(user=parent, language="fr")
    Member.objects.create(household=waiting, display_name="Anne Leroy", user=parent)
    make_copies(record, 1, prefix="LANG")
    with django_capture_on_commit_callbacks(execute=True):
        services.place_hold(record, waiting, desk_user)  # the desk works in English
    sent, = mail.outbox
    assert "vous attend" in sent.subject and "vous attend" in sent.body, (sent.subject, sent.body)
    assert Message.objects.get().language == "fr"
