"""The pages a Dutch or a Czech reader uses most, on a phone (390×844), in their language: the
recorder at the table, the replay, a catalogue record, the loans desk and the account page, as
the demo's librarian sees them. Each is saved to tests/artifacts/ (``<page>-<language>-390.png``)
for a reviewer to look at; the test holds that the page is in the reader's language (its
``lang``, its heading in the language's own words) and fits the screen."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from games.models import CatalogueRecord
from records.models import GameRecord
from tests.factories import new_record

from .recorder_driver import PHONE, assert_no_sideways_scroll, logged_in_page

pytestmark = pytest.mark.django_db(transaction=True)

HEADINGS = {
    # The words each page's heading or first landmark says in the language (from its catalogue).
    "nl": {"record": "Carcassonne – Jagers en Verzamelaars", "desk": "Uitleenbalie"},
    "cs": {"record": "Carcassonne – Lovci a sběrači", "desk": "Výpůjční pult"},
}


@pytest.fixture
def librarian(celery_eager):
    call_command("load_demo", "--games", "2", "--stone-age-games", "1", "--carcassonne-games", "0",
                 "--maps-games", "0", stdout=io.StringIO())
    call_command("load_demo_loans", stdout=io.StringIO())
    return get_user_model().objects.get(username="bibliothecaire")


@pytest.mark.slow(seconds=30)
def test_the_most_used_pages_in_dutch_and_czech_on_a_phone(browser, live_server, artifacts, librarian):
    """Both languages on the one demo (loading it takes longer than reading the pages)."""
    finished = GameRecord.objects.filter(game_slug="stone-age", status=GameRecord.Status.FINISHED).first()
    playing = new_record("stone-age", librarian, players=3, seed=7)
    hunters = CatalogueRecord.objects.get(engine_slug="hunters-gatherers")
    for language in ("nl", "cs"):
        page = logged_in_page(browser, live_server, librarian, viewport=PHONE, locale=language)
        try:
            for name, url in [("recorder", f"/scorekeeping/{playing.pk}/"), ("replay", f"/games/{finished.pk}/replay/?at=5"),
                              ("record", f"/catalogue/{hunters.pk}/"), ("desk", "/desk/"), ("account", "/account/")]:
                page.goto(live_server.url + url)
                assert page.locator("html").get_attribute("lang") == language, url
                heading = HEADINGS[language].get(name)
                if heading:
                    assert heading in page.locator("h1").inner_text(), (url, page.locator("h1").inner_text())
                assert_no_sideways_scroll(page)
                page.screenshot(path=str(artifacts / f"{name}-{language}-390.png"), full_page=name != "replay")
            assert page.script_errors == [], language  # type: ignore[attr-defined]
        finally:
            page.context.close()
