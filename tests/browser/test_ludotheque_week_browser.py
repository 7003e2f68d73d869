"""A week at the ludothèque on phones (390×844), in French (issue 39), as its people do it:

- the librarian writes the opening hours (14:00–18:00 on the six days before today) on the hours
  page; the week's openings are on the calendar (the daily task puts them there each morning:
  here it is asked for the six days at once);
- a desk volunteer counts each opening's arrivals at the door in taps; at the fourth the Wi-Fi
  is down: the taps wait on the phone and are caught up when it is back, each stored once; each
  session's page and the yearly report show the counts;
- the librarian plans tonight's games evening with 4 places; three visitors register on the
  public page (2 + 2 places, then 1 place on the waiting list); the first is checked in, the
  second cancels, the third gets the freed place (and is told by mail) and is checked in;
- a household whose membership ended three weeks ago is refused a game at the desk, in words;
  the librarian lends it anyway, saying why (the override is noted), then takes its membership.

Screenshots: week-door-offline-390-fr.png, week-event-390-fr.png, week-desk-refused-390-fr.png,
week-desk-paid-390-fr.png, week-report-390-fr.png."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from decimal import Decimal
from pathlib import Path

import pytest
from django.db.models import Sum
from django.utils import timezone

from accounts.models import Organisation
from accounts.roles import Role
from agenda import services as agenda
from agenda.models import DoorCount, Registration, Session
from games.models import CatalogueRecord, Copy
from loans.models import CopyEvent, HouseholdEvent, Tariff
from outbox.models import Message
from tests.factories import give_role, make_household, the_library

from .recorder_driver import PHONE, assert_no_sideways_scroll, logged_in_page

pytestmark = pytest.mark.django_db(transaction=True)

WAITING = "n => document.querySelector('[data-testid=door-status]').dataset.waiting === String(n)"
TAPS = [
    # each opening's arrivals, in taps: (public, taps)
    [("family", 2), ("adult", 2), ("child_3_5", 1), ("child_6_11", 2)],
    [("family", 1), ("adult", 1), ("child_0_2", 1)],
    [("family", 3), ("adult", 3), ("child_6_11", 3), ("senior", 1)],
    [("family", 1), ("adult", 2), ("child_12_17", 1)],  # counted offline
    [("adult", 1)],
    [("family", 2), ("adult", 2), ("child_3_5", 2)],
]
"""Hand-counted: 5 + 2 + 7 + 3 + 1 + 4 = 22 persons (families apart), 9 families."""
PERSONS = [5, 2, 7, 3, 1, 4]
OFFLINE = 3


@pytest.fixture
def ludotheque(django_user_model):
    library = the_library()
    Organisation.objects.filter(pk=library.pk).update(town="Lille", language="fr")
    librarian = give_role(django_user_model.objects.create_user("bibliothecaire"), Role.LIBRARIAN)
    volunteer = give_role(django_user_model.objects.create_user("benevole"), Role.DESK)
    Tariff.objects.bulk_create([
        Tariff(organisation=library, name="Adhésion Lille", kind="resident", amount=Decimal("15.00")),
        Tariff(organisation=library, name="Hors commune", kind="non_resident", per="person", amount=Decimal("8.00"))])
    dixit = CatalogueRecord.objects.create(title="Dixit")
    Copy.objects.create(record=dixit, barcode="LUD-DX-0001", organisation=library)
    today = timezone.localdate()
    lapsed = make_household("Famille Roux", town="Lille", membership_starts=today - dt.timedelta(days=385),
                            membership_ends=today - dt.timedelta(days=21))
    return library, librarian, volunteer, lapsed


def _local_now() -> dt.datetime:
    return timezone.localtime()


@pytest.mark.slow(seconds=40)
def test_a_week_of_openings_an_evening_and_a_lapsed_household(browser, live_server, artifacts: Path, ludotheque):
    library, librarian, volunteer, lapsed = ludotheque
    today = timezone.localdate()
    week = [today - dt.timedelta(days=days) for days in range(6, 0, -1)]
    url = live_server.url

    # The librarian's opening hours: one line a weekday, from the first day of the week.
    page = logged_in_page(browser, live_server, librarian, viewport=PHONE, locale="fr-FR")
    page.goto(f"{url}/agenda/hours/")
    for day in week:
        if not page.locator("#id_weekday").is_visible():  # folded away once there are hours
            page.get_by_test_id("hours-form").locator("xpath=..").locator("summary").click()
        page.select_option("#id_weekday", str(day.weekday()))
        page.fill("#id_starts", "14:00")
        page.fill("#id_ends", "18:00")
        page.fill("#id_valid_from", week[0].isoformat())
        page.fill("#id_label", "Accueil tout public")
        with page.expect_navigation():
            page.get_by_test_id("hours-save").click()
        assert page.get_by_test_id("refusal").count() == 0, page.get_by_test_id("refusal").inner_text()
    assert page.get_by_test_id("hours").locator("li").count() == 6
    assert_no_sideways_scroll(page)
    agenda.generate_openings(library, week[0], week[-1])  # the daily task, each morning of the week
    openings = list(Session.objects.filter(organisation=library, kind=Session.Kind.OPENING,
                                           starts_at__date__lt=today).order_by("starts_at"))
    assert [timezone.localtime(session.starts_at).date() for session in openings] == week

    # The desk volunteer counts each opening at the door, the fourth offline.
    door = logged_in_page(browser, live_server, volunteer, viewport=PHONE, locale="fr-FR")
    for index, (session, taps) in enumerate(zip(openings, TAPS)):
        door.goto(f"{url}/agenda/sessions/{session.pk}/door/")
        if index == OFFLINE:
            door.context.set_offline(True)
        for public, times in taps:
            for _ in range(times):
                door.click(f'[data-testid="tap-{public}"]')
        if index == OFFLINE:
            door.wait_for_function(WAITING, arg=sum(times for _public, times in taps))
            assert door.get_by_test_id("door-persons").inner_text() == str(PERSONS[index])
            assert not DoorCount.objects.filter(session=session).exists(), "nothing reached the server yet"
            door.screenshot(path=str(artifacts / "week-door-offline-390-fr.png"), full_page=True)
            assert_no_sideways_scroll(door)
            door.context.set_offline(False)
        door.wait_for_function(WAITING, arg=0, timeout=20_000)
    for session, taps in zip(openings, TAPS):
        stored = dict(DoorCount.objects.filter(session=session).values_list("public").annotate(n=Sum("delta"))
                      .values_list("public", "n"))
        assert stored == dict(taps), session
    assert DoorCount.objects.count() == sum(times for taps in TAPS for _public, times in taps)  # each tap once
    assert door.script_errors == []  # type: ignore[attr-defined]

    # Each session's page shows its counts.
    page.goto(f"{url}/agenda/sessions/{openings[OFFLINE].pk}/")
    assert page.get_by_test_id("total-adult").inner_text() == "2"
    assert page.get_by_test_id("total-child_12_17").inner_text() == "1"

    # Tonight's games evening, 4 places, people register.
    now = _local_now()
    starts = max(now - dt.timedelta(minutes=30), now.replace(hour=0, minute=0, second=0, microsecond=0))
    ends = min(now + dt.timedelta(hours=2), now.replace(hour=23, minute=59, second=0, microsecond=0))
    page.goto(f"{url}/agenda/sessions/new/?kind=event")
    page.fill("#id_title", "Soirée jeux")
    page.fill("#id_day", today.isoformat())
    page.fill("#id_starts", starts.strftime("%H:%M"))
    page.fill("#id_ends", ends.strftime("%H:%M"))
    page.fill("#id_capacity", "4")
    page.check("#id_registration")
    with page.expect_navigation():
        page.get_by_test_id("session-save").click()
    evening = Session.objects.get(kind=Session.Kind.EVENT)
    assert (evening.capacity, evening.registration) == (4, True)

    visitor = browser.new_context(viewport=PHONE, locale="fr-FR").new_page()
    answers = []
    for name, email, places in (("Alice Martin", "alice@example.org", 2), ("Bruno Petit", "bruno@example.org", 2),
                                ("Chloé Durand", "chloe@example.org", 1)):
        visitor.goto(f"{url}/organisations/{library.slug}/sessions/{evening.pk}/register/")
        visitor.fill("#id_name", name)
        visitor.fill("#id_email", email)
        visitor.fill("#id_places", str(places))
        with visitor.expect_navigation():
            visitor.get_by_test_id("register-submit").click()
        answer = visitor.get_by_test_id("registration-answer")
        answers.append((answer.get_attribute("data-status"), answer.inner_text()))
    assert [status for status, _words in answers] == ["registered", "registered", "waiting"]
    assert "liste d’attente" in answers[2][1] and "position 1" in answers[2][1], answers[2][1]
    assert_no_sideways_scroll(visitor)
    visitor.context.close()

    page.goto(f"{url}/agenda/sessions/{evening.pk}/")
    assert page.get_by_test_id("waiting-list").inner_text().startswith("Chloé Durand")

    def registration_line(name: str):
        return page.get_by_test_id("registration").filter(has_text=name)

    with page.expect_navigation():
        registration_line("Alice Martin").get_by_test_id("check-in").click()
    with page.expect_navigation():
        registration_line("Bruno Petit").get_by_role("button", name="Annuler").click()
    assert page.get_by_test_id("waiting-list").count() == 0
    with page.expect_navigation():
        registration_line("Chloé Durand").get_by_test_id("check-in").click()
    places = Counter()
    for registration in Registration.objects.filter(session=evening):
        places[(registration.status, registration.checked_in_at is not None)] += registration.places
    assert places == {("registered", True): 3, ("cancelled", False): 2}
    told, = Message.objects.filter(recipients="chloe@example.org")
    assert "Soirée jeux" in told.body and told.language == "fr"
    page.screenshot(path=str(artifacts / "week-event-390-fr.png"), full_page=True)
    assert_no_sideways_scroll(page)

    # The lapsed household at the desk: refused in words, lent anyway, its membership taken.
    page.goto(f"{url}/desk/households/{lapsed.card_number}/")
    page.fill("#copy", "LUD-DX-0001")
    with page.expect_navigation():
        page.get_by_test_id("desk-lend-copy").click()
    refusal = page.get_by_test_id("desk-refusal")
    assert refusal.get_attribute("data-reason") == "membership_expired"
    assert "adhésion" in refusal.inner_text().lower(), refusal.inner_text()
    assert not CopyEvent.objects.filter(type="lent").exists()
    page.screenshot(path=str(artifacts / "week-desk-refused-390-fr.png"), full_page=True)
    assert_no_sideways_scroll(page)
    page.fill("#override_reason", "Renouvelle son adhésion aujourd’hui")
    with page.expect_navigation():
        page.get_by_test_id("desk-lend-anyway").click()
    lent = CopyEvent.objects.get(type="lent")
    assert lent.payload["override"] == "membership_expired" and lent.household_id == lapsed.pk
    override = HouseholdEvent.objects.get(household=lapsed, type="lending_override")
    assert override.payload["reason"] == "Renouvelle son adhésion aujourd’hui" and override.recorded_by == librarian

    if not page.get_by_test_id("membership-pay").is_visible():
        page.locator('[data-testid="take-membership"] summary').click()
    assert page.locator('[data-testid="membership-tariff"] option:checked').inner_text().startswith("Adhésion Lille")
    page.select_option('[data-testid="membership-method"]', "card")
    with page.expect_navigation():
        page.get_by_test_id("membership-pay").click()
    paid = HouseholdEvent.objects.get(household=lapsed, type="membership_paid")
    assert (paid.amount, paid.payload["method"], paid.payload["starts"]) == (Decimal("15.00"), "card",
                                                                             today.isoformat())
    lapsed.refresh_from_db()
    assert lapsed.membership_starts == today and lapsed.membership_ends > today and lapsed.fee_paid
    page.screenshot(path=str(artifacts / "week-desk-paid-390-fr.png"), full_page=True)
    assert_no_sideways_scroll(page)

    # The year's report counts the week (by the month each opening started in).
    by_year: dict[int, Counter] = {}
    for day, persons in zip(week, PERSONS):
        by_year.setdefault(day.year, Counter())[f"{day.year}-{day.month:02d}"] += persons
    for year, months in by_year.items():
        page.goto(f"{url}/reports/{year}/")
        bars = {row.get_attribute("data-key"): row.locator(".bar-figure").inner_text()
                for row in page.locator("#attendance-by-month .bar-row").all()}
        for month, persons in months.items():
            assert bars[month] == str(persons), (month, bars)
    page.goto(f"{url}/reports/{today.year}/")
    assert page.get_by_test_id("report-overrides").inner_text() == "1"
    page.screenshot(path=str(artifacts / "week-report-390-fr.png"), full_page=True)
    assert_no_sideways_scroll(page)
    assert page.script_errors == []  # type: ignore[attr-defined]
    page.context.close()
    door.context.close()
