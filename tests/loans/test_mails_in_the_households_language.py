"""What the daily jobs tell a household is written in the household's language: the overdue
reminder and the reserved game's mail, in French, Dutch and Czech, with dates and amounts as
that language writes them, and no English word or notation left (``tests.languages``)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.utils import formats, translation

from loans import services
from loans.models import Household, Notification
from tests.clock import held_on
from tests.factories import make_copies, make_household
from tests.languages import english_only_words, offending

pytestmark = pytest.mark.django_db
FAR = dt.date(2099, 12, 31)
TODAY = dt.date(2026, 12, 7)  # the clock is held on it: a reminder is dated when it is made
LENT = TODAY - dt.timedelta(days=26)  # due five days ago
LANGUAGES = ["fr", "nl", "cs"]


@pytest.fixture(autouse=True)
def clock_held_on_today():
    with held_on(TODAY):
        yield


def household_in(language: str, name: str) -> Household:
    household = make_household(name, membership_ends=FAR, email=f"{name.lower()}@example.org")
    Household.objects.filter(pk=household.pk).update(language=language)
    household.refresh_from_db()
    return household


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_overdue_reminder_and_its_mail_are_in_the_households_language(
    record, desk_user, django_capture_on_commit_callbacks, celery_eager, language,
):
    copy, = make_copies(record, 1, prefix=f"LATE-{language}")
    late = household_in(language, "Retard")
    services.lend(copy, late, desk_user, today=LENT)
    with translation.override("en"), django_capture_on_commit_callbacks(execute=True):
        assert services.remind_overdue(today=TODAY) == 1  # the job runs in the site's language
    told = Notification.objects.get(household=late, kind=Notification.Kind.OVERDUE)
    with translation.override(language):
        due = formats.date_format(LENT + dt.timedelta(days=21))
        fees = formats.number_format(1, 2)  # 5 days late at 0.20 a day
    assert due in told.text and fees in told.text
    sent, = mail.outbox
    names = {"retard", "carcassonne", "la", "prèhistoire", "ludothèque", "des", "tests", "late"}  # "late": the barcode
    english = english_only_words(language)
    assert offending(f"{sent.subject} {sent.body}", english, names) == []
    assert sent.body == told.text


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_reserved_games_mail_is_in_the_households_language(
    record, desk_user, django_capture_on_commit_callbacks, celery_eager, language,
):
    only, = make_copies(record, 1, prefix=f"HOLD-{language}")
    borrower = make_household("Petit", membership_ends=FAR)
    waiting = household_in(language, "Dubois")
    services.lend(only, borrower, desk_user)
    services.place_hold(record, waiting, desk_user)
    with translation.override("en"), django_capture_on_commit_callbacks(execute=True):
        services.return_copy(only, desk_user)
    sent, = mail.outbox
    names = {"dubois", "carcassonne", "la", "prèhistoire", "ludothèque", "des", "tests", "hold"}  # "hold": the barcode
    assert offending(f"{sent.subject} {sent.body}", english_only_words(language), names) == []
    with translation.override(language):
        kept_until = formats.date_format(TODAY + dt.timedelta(days=7))  # the library's default hold_days
    assert kept_until in sent.body
