"""The door counter on a phone (390×844), in French: arrivals counted in taps, an "oops" taken
back, a tap whose answer is lost on the way back (sent again, stored once), then the Wi-Fi drops:
the taps wait on the phone, the totals include them, and once back online they are caught up,
each stored once. A game played on site is tallied by its title. Screenshots:
door-counter-390-fr.png, door-counter-offline-390-fr.png, agenda-session-390-fr.png."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from django.db.models import Sum
from django.utils import timezone

from agenda.models import DoorCount, PlayTally, Session
from games.models import CatalogueRecord, Copy
from tests.factories import the_library

from .recorder_driver import PHONE, assert_no_sideways_scroll, logged_in_page

pytestmark = pytest.mark.django_db(transaction=True)

WAITING = "n => document.querySelector('[data-testid=door-status]').dataset.waiting === String(n)"


def totals(session: Session) -> dict[str, int]:
    return dict(DoorCount.objects.filter(session=session).values_list("public").annotate(n=Sum("delta"))
                .values_list("public", "n"))


@pytest.mark.slow(seconds=12)
def test_counting_at_the_door_offline_and_catching_up(browser, live_server, artifacts: Path, desk_user):
    now = timezone.now()
    session = Session.objects.create(organisation=the_library(), kind="opening", title="Accueil tout public",
                                     starts_at=now - dt.timedelta(hours=1), ends_at=now + dt.timedelta(hours=3))
    dixit = CatalogueRecord.objects.create(title="Dixit")
    Copy.objects.create(record=dixit, barcode="LUD-DX-1", organisation=the_library())
    page = logged_in_page(browser, live_server, desk_user, viewport=PHONE, locale="fr-FR")
    page.goto(f"{live_server.url}/agenda/sessions/{session.pk}/door/")

    for public in ("family", "child_3_5", "adult", "adult"):
        page.click(f'[data-testid="tap-{public}"]')
    page.click('[data-testid="undo-adult"]')  # oops: one adult too many
    page.wait_for_function(WAITING, arg=0)
    assert totals(session) == {"family": 1, "child_3_5": 1, "adult": 1}

    # The server stores the next tap but its answer is lost: the phone sends it again, same key.
    lost: list[str] = []

    def lose_the_answer(route):
        if not lost:
            route.fetch()
            lost.append(route.request.post_data or "")
            route.abort()
        else:
            route.continue_()

    page.route("**/counts/", lose_the_answer)
    page.click('[data-testid="tap-child_6_11"]')
    page.wait_for_function(WAITING, arg=0, timeout=15_000)
    page.unroute("**/counts/")
    assert lost and totals(session)["child_6_11"] == 1

    page.fill('[data-testid="play-title"]', "Dixit")
    page.click('[data-testid="play-add"]')
    page.wait_for_function(WAITING, arg=0)
    page.screenshot(path=str(artifacts / "door-counter-390-fr.png"), full_page=True)

    page.context.set_offline(True)
    for public in ("family", "adult", "adult"):
        page.click(f'[data-testid="tap-{public}"]')
    page.wait_for_function(WAITING, arg=3)
    assert page.locator('[data-testid="door-total-adult"]').inner_text() == "3", "the totals add what waits"
    assert page.locator('[data-testid="door-persons"]').inner_text() == "5"
    assert page.locator('[data-testid="door-status"]').is_visible()
    assert totals(session)["adult"] == 1, "nothing reached the server"
    page.screenshot(path=str(artifacts / "door-counter-offline-390-fr.png"), full_page=True)
    assert_no_sideways_scroll(page)

    page.context.set_offline(False)
    page.wait_for_function(WAITING, arg=0, timeout=15_000)
    assert totals(session) == {"family": 2, "child_3_5": 1, "child_6_11": 1, "adult": 3}
    assert DoorCount.objects.filter(session=session).count() == 9  # each tap once, the lost one too
    assert PlayTally.objects.get().record == dixit
    assert page.locator('[data-testid="door-status"]').is_hidden()
    assert page.evaluate(f"localStorage.getItem('ludolog:door:{session.pk}')") is None
    assert page.script_errors == []  # type: ignore[attr-defined]

    page.goto(f"{live_server.url}/agenda/sessions/{session.pk}/")
    assert page.locator('[data-testid="total-adult"]').inner_text() == "3"
    page.screenshot(path=str(artifacts / "agenda-session-390-fr.png"), full_page=True)
    assert_no_sideways_scroll(page)
    page.context.close()
