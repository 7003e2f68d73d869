"""Carcassonne with Inns & Cathedrals and Traders & Builders recorded by taps on a phone: the
large meeple, the builder and the pig are figure targets like the meeple, and the builder's
second tile is simply the same player's next move."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from games.registry import get_engine
from records.models import Event
from records.services import SeatSpec, start_game

from .recorder_driver import (
    assert_no_sideways_scroll, assert_tap_targets, logged_in_page, post_to_the_table, shown_totals,
)
from .taps import lay_tile, record_game

pytestmark = pytest.mark.django_db(transaction=True)

SETUP = {"expansions": ["inns_cathedrals", "traders_builders"]}


def test_the_expansions_figures_by_taps(browser, live_server, artifacts: Path):
    keeper = get_user_model().objects.create_user("keeper")
    engine = get_engine("carcassonne")
    record = start_game(game_slug="carcassonne", seats=[SeatSpec("Ada"), SeatSpec("Bastien")], seed=3,
                        setup=SETUP, created_by=keeper)
    events = engine.demo_game(2, 3, record.setup)  # the simple player puts every kind of figure
    wanted = {"big", "builder", "pig"}
    last = next(index for index in range(len(events))
                if wanted <= {kind for _type, payload in events[:index + 1] for kind in payload})
    page = logged_in_page(browser, live_server, keeper)
    page.goto(f"{live_server.url}/scorekeeping/{record.pk}/")
    screenshot = artifacts / "recorder-carcassonne-builder-390.png"
    def tap(seq: int, kind: str, payload: dict) -> int:
        figure = next((k for k in ("big", "builder", "pig") if k in payload), None)

        def offered(page, figure=figure):
            """The expansion's figure is a target like the meeple, big enough for a thumb."""
            assert page.locator(f'[data-testid="figure"][data-kinds~="{figure}"]').count() >= 1
            assert_tap_targets(page)
            assert_no_sideways_scroll(page)
            if figure == "builder" and not screenshot.exists():
                page.screenshot(path=str(screenshot), full_page=True)

        return lay_tile(page, "carcassonne", kind, payload, pick=False, before_confirm=offered if figure else None)

    # Up to the last kind of figure first put: each kind of figure by taps, the moves between posted.
    record_game(page, "carcassonne", events[:last + 1], tap, first=4, between=post_to_the_table(live_server, record, keeper))
    stored = [(e.type, e.payload) for e in Event.objects.filter(record=record).order_by("seq")]
    assert stored == [(kind, dict(payload)) for kind, payload in events[:last + 1]]
    state = engine.new_state(2, 3, record.setup)
    for kind, payload in stored:
        engine.apply(state, kind, payload)
    assert shown_totals(page) == engine.totals(state)
    assert page.script_errors == []
