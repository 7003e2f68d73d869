"""Pebbles, the tests' toy game, recorded by taps in Chromium: the shared recorder and the
recorder of games whose turn is a choice (``recorder-choices.js``) serve a game they have never
heard of, to its end."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from records.models import Event, GameRecord
from records.services import SeatSpec, start_game
from tests.toy_game import SLUG, registered

from .recorder_driver import assert_no_sideways_scroll, assert_tap_targets, logged_in_page, shown_totals
from .taps import wait_stored

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_toy_game_recorded_by_taps_to_its_end(browser, live_server, artifacts: Path):
    with registered():
        keeper = get_user_model().objects.create_user("keeper")
        record = start_game(game_slug=SLUG, seats=[SeatSpec("Ada"), SeatSpec("Bo")], created_by=keeper)
        page = logged_in_page(browser, live_server, keeper)
        page.goto(f"{live_server.url}/scorekeeping/{record.pk}/")
        for seq, count in enumerate((2, 2, 2, 1), start=1):
            choices = page.locator('[data-testid="choice"]')
            assert choices.all_inner_texts() == (["Take 1", "Take 2"] if seq < 4 else ["Take 1"])
            assert page.locator('[data-testid="confirm"]').is_disabled()
            choices.nth(count - 1).click()
            assert_tap_targets(page)
            assert_no_sideways_scroll(page)
            if seq == 2:
                page.screenshot(path=str(artifacts / "recorder-toy-game-390.png"), full_page=True)
            page.locator('[data-testid="confirm"]').click()
            wait_stored(page, seq)
            assert page.locator("#board svg .pebble").count() == 7 - [2, 4, 6, 7][seq - 1]
        assert shown_totals(page) == [4, 6]
        page.get_by_text("End the game and score it?").wait_for()
        with page.expect_navigation():
            page.locator('[data-testid="end-confirm"]').click()
        page.get_by_text("The game is over.").first.wait_for()
        assert [(e.type, e.payload) for e in Event.objects.filter(record=record).order_by("seq")] == [
            ("take", {"count": 2}), ("take", {"count": 2}), ("take", {"count": 2}), ("take", {"count": 1}),
            ("end_game", {"reason": "complete"})]
        assert GameRecord.objects.get(pk=record.pk).status == GameRecord.Status.FINISHED
        assert page.script_errors == []
        page.context.close()
