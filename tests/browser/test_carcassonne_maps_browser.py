"""Carcassonne Maps – Benelux with the Map-Chips in the browser: a seeded record recorded
by taps on a phone, taking chips and paying one for an island's face-up tile, and its replay
stepped through with the map under the tiles, on a phone and a laptop."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from games.registry import get_engine
from records.models import Event
from records.services import SeatSpec, start_game

from .recorder_driver import (
    LAPTOP, PHONE, assert_no_sideways_scroll, assert_tap_targets, logged_in_page, post_to_the_table,
)
from .taps import lay_tile, record_game, wait_stored

pytestmark = pytest.mark.django_db(transaction=True)

MAPS = "carcassonne-maps"


@pytest.mark.slow(seconds=20)
def test_recording_a_map_chips_game_by_taps_and_paying_a_chip(browser, live_server, artifacts: Path):
    keeper = get_user_model().objects.create_user("keeper")
    engine = get_engine(MAPS)
    record = start_game(game_slug=MAPS, seats=[SeatSpec("Ada"), SeatSpec("Bastien"), SeatSpec("Chloé")], seed=7,
                        created_by=keeper)
    events = engine.demo_game(3, 7, record.setup)
    paying = next(index for index, (_kind, payload) in enumerate(events) if "island" in payload)
    page = logged_in_page(browser, live_server, keeper, viewport=PHONE)
    page.goto(f"{live_server.url}/scorekeeping/{record.pk}/")
    assert page.locator("svg.carcassonne-maps").count() == 1 and "Approximate map" in page.content()
    drew_instead = False

    def tap(seq: int, kind: str, payload: dict) -> int:
        nonlocal drew_instead
        if seq == paying + 1:
            island = page.locator(f'[data-testid="island"][data-colour="{payload["island"]}"]'
                                  f'[data-stack="{payload["stack"]}"]')
            assert island.is_visible() and island.get_attribute("data-tile") == payload["tile"]
            assert_tap_targets(page)
            assert_no_sideways_scroll(page)
            page.screenshot(path=str(artifacts / "recorder-carcassonne-maps-island-390.png"), full_page=True)
        if kind == "draw_tile" and not drew_instead:
            # The drawn tile stays face down while a chip could pay for an island tile: no
            # tile in hand; an island looked at, then "draw face down instead" records the draw.
            assert page.locator("g.ghost").count() == 0 and page.locator(".hand").count() == 0
            page.locator('[data-testid="island"]').first.click()
            page.locator('[data-testid="draw-instead"]').click()
            drew_instead = True
            taps = 2
        else:
            taps = lay_tile(page, MAPS, kind, payload, pick=False)
        if kind == "draw_tile":
            wait_stored(page, seq)
            assert page.locator('[data-testid="island"]').count() == 0, "no island once the tile is drawn"
            assert page.locator(".hand").count() == 1
        return taps

    # Up to the first chip paid: the first moves and every sort of move by taps, the paying one.
    record_game(page, MAPS, events[:paying + 1], tap, first=6, between=post_to_the_table(live_server, record, keeper))
    assert drew_instead, "the game drew face down while it could pay"
    stored = [(e.type, e.payload) for e in Event.objects.filter(record=record).order_by("seq")]
    assert stored == [(kind, dict(payload)) for kind, payload in events[:paying + 1]]
    assert "paying a" in page.locator("main").inner_text(), "the last move said in words"
    assert page.script_errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1280", "390"])
def test_stepping_through_a_map_chips_replay(browser, live_server, artifacts: Path, viewport):
    from records.files import import_document, simulate_document

    document = simulate_document(MAPS, 3, 7, player="heuristic")
    record = import_document(document)
    chip_step = next(e["seq"] for e in document["events"] if "chip" in e["payload"])
    page = logged_in_page(browser, live_server, get_user_model().objects.create_user("reader"), viewport=viewport)
    page.goto(f"{live_server.url}/games/{record.pk}/replay/?at={chip_step - 1}")
    page.locator("#step-next").click()
    page.wait_for_function("at => new URLSearchParams(location.search).get('at') === String(at)", arg=chip_step)
    page.wait_for_function("at => document.querySelector('svg.carcassonne-maps').dataset.at === String(at)",
                           arg=chip_step)
    assert "Chip taken" in page.locator("li.current").inner_text()
    assert page.locator("svg.carcassonne-maps [data-kind='wave']").count() == 3
    assert_no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / f"replay-carcassonne-maps-{viewport['width']}.png"), full_page=True)
    page.keyboard.press("End")
    page.wait_for_function("last => document.querySelector('svg.carcassonne-maps').dataset.at === String(last)",
                           arg=len(document["events"]))
    assert page.script_errors == []  # type: ignore[attr-defined]


def test_a_table_without_a_seed_says_what_each_chip_shows_and_what_the_island_turns_up(browser, live_server):
    keeper = get_user_model().objects.create_user("keeper")
    engine = get_engine(MAPS)
    dealt = engine.prepare_setup(2, 11, {})
    table = engine.engine.setup_from_dict(dealt["table"]).table().to_dict()
    record = start_game(game_slug=MAPS, seats=[SeatSpec("Ada"), SeatSpec("Bastien")], created_by=keeper,
                        setup={"table": table})
    assert record.seed is None
    # The table's game, as a seed would have dealt it; a table records no draw (the tile drawn
    # is picked once drawn).
    events = [(k, p) for k, p in engine.random_game(2, 11, dealt) if k != "draw_tile"]
    chip = next(i for i, (_k, p) in enumerate(events) if "chip" in p)
    reveal = next((i for i, (_k, p) in enumerate(events) if "reveal" in p), None)
    last = max(chip, reveal or 0)
    assert last < 70, "a short game to record by taps"
    page = logged_in_page(browser, live_server, keeper, viewport=PHONE)
    page.goto(f"{live_server.url}/scorekeeping/{record.pk}/")
    def tap(seq: int, kind: str, payload: dict) -> int:
        if seq == chip + 1:
            def chip_asked(page, payload=payload):
                page.locator('[data-testid="confirm"]').click()
                assert page.locator('[data-testid="chip"]').count() >= 2, "the chip's faces are asked"
                assert_tap_targets(page)
                page.locator('[data-testid="cancel-ask"]').click()
            return lay_tile(page, MAPS, kind, payload, pick=True, before_confirm=chip_asked)
        return lay_tile(page, MAPS, kind, payload, pick=not payload.get("island"))

    # The first chip turned over and the first tile an island turns up by taps, and every sort of move.
    record_game(page, MAPS, events[:last + 1], tap, first=6, also=frozenset({chip + 1}),
                between=post_to_the_table(live_server, record, keeper))
    stored = [(e.type, e.payload) for e in Event.objects.filter(record=record).order_by("seq")]
    assert stored == [(kind, dict(payload)) for kind, payload in events[:last + 1]]
    assert page.script_errors == []  # type: ignore[attr-defined]
