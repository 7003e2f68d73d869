"""Each game's recorder mid-game and at its end, on a phone (390×844) and a laptop (1280×800), as a
scorekeeper sees them: screenshots under tests/artifacts/ (``recorder-<game>-mid-<width>.png``,
``recorder-<game>-end-<width>.png``), and what must hold on each (no sideways scroll, every tap
target large enough and uncovered, the end screen naming the winner once).

The positions come from a seeded game the engine plays at random, appended through the service
(recording them by taps is the other browser tests' subject)."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.registry import get_engine
from records.models import GameRecord
from records.services import SeatSpec, append_event, start_game

from .recorder_driver import LAPTOP, PHONE, assert_no_sideways_scroll, assert_tap_targets, logged_in_page

pytestmark = pytest.mark.django_db(transaction=True)

GAMES = ("hunters-gatherers", "carcassonne", "carcassonne-maps", "stone-age")


@pytest.mark.slow(seconds=12)
@pytest.mark.parametrize("game", GAMES)
def test_each_games_recorder_mid_game_and_at_its_end(browser, live_server, keeper, artifacts: Path, game):
    record = start_game(game_slug=game, seats=[SeatSpec("Ada"), SeatSpec("Bastien")], seed=7, created_by=keeper)
    events = get_engine(game).random_game(2, 7)
    middle = len(events) // 2
    for index, (kind, payload) in enumerate(events[:middle]):
        append_event(record, index, kind, dict(payload), recorded_by=keeper)
    pages = {name: logged_in_page(browser, live_server, keeper, viewport=size)
             for name, size in (("390", PHONE), ("1280", LAPTOP))}
    for width, page in pages.items():
        page.goto(f"{live_server.url}/scorekeeping/{record.pk}/")
        page.locator("#tray > *").first.wait_for()
        page.wait_for_function("window.LudologRecorder && window.LudologRecorder.game")
        assert_no_sideways_scroll(page)
        assert_tap_targets(page)
        page.screenshot(path=str(artifacts / f"recorder-{game}-mid-{width}.png"))
    for index, (kind, payload) in enumerate(events[middle:], start=middle):
        append_event(record, index, kind, dict(payload), recorded_by=keeper, hold_end=True)
    append_event(record, len(events), "end_game", {"reason": "complete"}, recorded_by=keeper)
    record.refresh_from_db()
    assert record.status == GameRecord.Status.FINISHED
    for width, page in pages.items():
        # A fresh tab: the mid-game one may be following the record's end on its own, and a goto
        # then meets its navigation (net::ERR_ABORTED, seen once in a full run).
        errors = page.script_errors
        page.context.close()
        page = logged_in_page(browser, live_server, keeper, viewport=PHONE if width == "390" else LAPTOP)
        assert errors == []
        page.goto(f"{live_server.url}/scorekeeping/{record.pk}/")
        screen = page.locator('[data-testid="end-screen"]')
        screen.wait_for()
        text = screen.inner_text()
        assert text.count("The game is over.") == 1, text
        assert page.locator('[data-testid="winners"]').inner_text().strip(), "the end screen names the winner"
        assert_no_sideways_scroll(page)
        page.screenshot(path=str(artifacts / f"recorder-{game}-end-{width}.png"), full_page=True)
        assert page.script_errors == []
