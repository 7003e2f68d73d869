"""No page scrolls sideways, on a laptop (1280×800) or a phone (390×844), on the demo data; the
screenshots a reviewer looks at are saved in tests/artifacts/."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from games.models import CatalogueRecord
from records.models import GameRecord, Player
from scoring.models import League

from .recorder_driver import LAPTOP, PHONE, logged_in_page, page_width

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def demo():
    call_command("load_demo", "--games", "2", "--stone-age-games", "1", "--carcassonne-games", "1", "--maps-games", "1", stdout=io.StringIO())
    return get_user_model().objects.get(username="admin")


def pages() -> dict[str, str]:
    """Every kind of page, by a name for its screenshot."""
    found = {
        "home": "/", "catalogue": "/catalogue/", "catalogue-search": "/catalogue/?q=carcassonne&players=2",
        "catalogue-record": f"/catalogue/{CatalogueRecord.objects.filter(engine_slug='hunters-gatherers').first().pk}/",
        "games": "/games/", "players": "/players/", "leagues": "/leagues/",
        "league": f"/leagues/{League.objects.first().pk}/",
        "player": f"/players/{Player.objects.filter(seats__isnull=False).first().pk}/",
        "scorekeeping": "/scorekeeping/",
    }
    for game in ("hunters-gatherers", "carcassonne", "stone-age", "carcassonne-maps"):
        record = GameRecord.objects.filter(game_slug=game, status=GameRecord.Status.FINISHED).first()
        last = record.events.count()
        found[f"game-{game}"] = f"/games/{record.pk}/"
        found[f"replay-end-{game}"] = f"/games/{record.pk}/replay/?at={last}"
    return found


SCREENSHOTS = {"home", "catalogue-record", "player", "replay-end-hunters-gatherers", "replay-end-carcassonne",
               "replay-end-stone-age", "replay-end-carcassonne-maps", "scorekeeping", "league"}


VIEWS = [(LAPTOP, "en-US"), (PHONE, "en-US"), (PHONE, "fr-FR")]
"""French at phone width too: its longer words pushed the league page's facts past the edge."""


@pytest.mark.slow(seconds=40)
def test_no_page_scrolls_sideways(browser, live_server, demo, artifacts: Path):
    """Each width and language in turn on the one demo (loading it is half the time of a view)."""
    wide, errors = [], []
    for viewport, locale in VIEWS:
        page = logged_in_page(browser, live_server, demo, viewport=viewport, locale=locale)
        suffix = "" if locale == "en-US" else "-" + locale[:2]
        for name, path in pages().items():
            page.goto(live_server.url + path)  # its stylesheets and images loaded
            # No page fetches anything once loaded (a replay at its last step prefetches no next one):
            # the fonts are what may still change its width.
            page.evaluate("() => document.fonts.ready.then(() => true)")
            width = page_width(page)
            if width > viewport["width"]:
                wide.append(f"{name} ({path}) at {viewport['width']}{suffix}: {width} px")
            if name in SCREENSHOTS:
                page.screenshot(path=str(artifacts / f"page-{name}-{viewport['width']}{suffix}.png"), full_page=True)
        errors += [f"{viewport['width']}{suffix}: {error}" for error in page.script_errors]
        page.context.close()
    assert wide == [], f"pages wider than the screen: {wide}"
    assert errors == []
