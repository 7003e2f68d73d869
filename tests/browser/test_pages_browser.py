"""The reading pages on a laptop (1280×800) and a phone (390×844): the home page, the players,
a player, the games and a game. None scrolls sideways (a wide table scrolls inside itself), the
charts are drawn, and the home and player pages are saved to tests/artifacts/ (home-<width>.png,
player-<width>.png) for a reviewer to look at, as a member who has played sees them."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from records.models import GameRecord, Player

from .recorder_driver import LAPTOP, PHONE, assert_no_sideways_scroll, logged_in_page

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def member(celery_eager):
    """The demo club, small, with one of its players linked to a login. Its games are scored in
    this process (with a broker configured, as in CI, they would wait for a worker), so that the
    player's page has results and rating charts to draw."""
    call_command("load_demo", "--games", "4", "--stone-age-games", "2", "--carcassonne-games", "2", "--maps-games", "0",
                 stdout=io.StringIO())
    user = get_user_model().objects.create_user("alice-login")
    player = Player.objects.filter(seats__record__game_slug="stone-age").distinct().order_by("display_name").first()
    player.user = user
    player.save(update_fields=["user"])
    return user


def test_the_pages_fit_the_screen(browser, live_server, artifacts, member):
    """Both widths on the one demo (loading it takes longer than reading the pages)."""
    for viewport in (LAPTOP, PHONE):
        the_pages_fit(browser, live_server, artifacts, member, viewport)


def the_pages_fit(browser, live_server, artifacts, member, viewport) -> None:
    width = viewport["width"]
    player = member.player
    record = GameRecord.objects.filter(game_slug="stone-age", status=GameRecord.Status.FINISHED).first()
    page = logged_in_page(browser, live_server, member, viewport=viewport)
    try:
        for name, url in [("home", "/"), ("players", "/players/"), ("player", f"/players/{player.pk}/"),
                          ("games", "/games/"), ("game", f"/games/{record.pk}/")]:
            page.goto(live_server.url + url)
            assert page.locator("h1").count() == 1, url
            if name == "player":
                page.wait_for_function("() => document.querySelectorAll('figure.chart svg').length > 0")
                assert page.locator("figure.chart svg").count() == page.locator("figure.chart").count()
            assert_no_sideways_scroll(page)
            if name in ("home", "player"):
                page.screenshot(path=str(artifacts / f"{name}-{width}.png"), full_page=True)
        assert page.script_errors == []  # type: ignore[attr-defined]

        page.goto(live_server.url + "/")
        assert page.locator("#my-games li").count() > 0, "the member's own games"
        button = page.locator("a.record-button").bounding_box()
        assert button["height"] >= 44 and button["y"] < viewport["height"], "Record a game, big and in sight"
        page.goto(live_server.url + f"/games/{record.pk}/")
        fold = page.locator("details.technical:not(.expert)")
        assert not fold.evaluate("node => node.open")
        fold.locator("summary").click()
        assert fold.locator("code").first.is_visible()
        # The wide score table scrolls inside its frame, the page does not.
        frame = page.locator(".table-scroll").first
        assert frame.evaluate("node => node.scrollWidth <= node.clientWidth || getComputedStyle(node).overflowX == 'auto'")
        assert_no_sideways_scroll(page)
    finally:
        page.context.close()
