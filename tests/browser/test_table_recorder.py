"""Recording at the table: whole games recorded by taps on a phone (390×844), no notation typed.

Each game follows a complete game the engine plays at random (``random_game``): the test taps
what a scorekeeper would tap to record each of its actions, then checks that the stored events
replay, through the engine, to the scores the page shows. Screenshots of each recorder land in
tests/artifacts/.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from games.registry import get_engine
from records import replay
from records.models import Event, GameRecord
from records.services import SeatSpec, start_game

from .recorder_driver import (
    LAPTOP, PHONE, assert_no_sideways_scroll, lay_tile, logged_in_page, shown_totals, stone_age_action, wait_stored,
)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def keeper():
    return get_user_model().objects.create_user("keeper", password="keeper-pw-123456")


def new_record(game: str, keeper, *, players: int = 2, seed: int | None = None) -> GameRecord:
    names = ["Ada", "Bastien", "Chloé", "Di", "Elif"][:players]
    return start_game(game_slug=game, seats=[SeatSpec(name) for name in names], seed=seed, created_by=keeper)


def replayed_totals(record: GameRecord) -> list[int]:
    """The scores the stored events give, replayed from the start through the engine."""
    engine = get_engine(record.game_slug)
    state, _seq = replay.state_at(record, use_snapshots=False)
    return [score["total"] for score in engine.view(state)["scores"]]


def stored(record: GameRecord) -> list[tuple[str, dict]]:
    return [(e.type, e.payload) for e in Event.objects.filter(record=record).order_by("seq")]


def record_tile_game(page, record: GameRecord, events, *, pick: bool, screenshot: Path | None = None) -> list[int]:
    taps = []
    for seq, (kind, payload) in enumerate(events, start=1):
        taps.append(lay_tile(page, record.game_slug, kind, payload, pick=pick))
        wait_stored(page, seq)
        if seq in (1, len(events) // 2) :
            assert_no_sideways_scroll(page)
        if screenshot is not None and seq == len(events) // 2:
            page.screenshot(path=str(screenshot))
    return taps


def expected_payloads(engine, events, seed):
    """The payloads as the store keeps them (a seeded record's tile named, as replays need)."""
    state = engine.new_state(2, seed)
    return [(kind, engine.apply(state, kind, payload)) for kind, payload in events]


def test_a_seeded_carcassonne_game_recorded_by_taps_in_french(browser, live_server, keeper, artifacts: Path):
    record = new_record("carcassonne", keeper, seed=41)
    engine = get_engine("carcassonne")
    events = engine.random_game(2, 41)
    page = logged_in_page(browser, live_server, keeper, locale="fr-FR")
    page.goto(f"{live_server.url}/scorekeeping/{record.pk}/")
    assert "Tuile tirée par Ludolog" in page.locator("#tray").inner_text()
    assert page.locator('[data-testid="tile-choice"]').count() == 0, "a seeded record shows the tile drawn, no picker"
    taps = record_tile_game(page, record, events, pick=False, screenshot=artifacts / "recorder-carcassonne-seeded-390.png")

    assert stored(record) == expected_payloads(engine, events, 41)
    record.refresh_from_db()
    assert record.status == GameRecord.Status.FINISHED
    assert shown_totals(page) == replayed_totals(record) == [s.score for s in engine.final_scores(
        replay.state_at(record, use_snapshots=False)[0])]
    assert "La partie est terminée." in page.locator("#to-play").inner_text()
    assert max(taps) <= 6 and sorted(taps)[len(taps) // 2] <= 3
    assert page.script_errors == []
    page.screenshot(path=str(artifacts / "recorder-carcassonne-end-390.png"), full_page=True)


def test_an_unseeded_carcassonne_game_recorded_through_the_tile_picker(browser, live_server, keeper, artifacts: Path):
    record = new_record("carcassonne", keeper, players=3)
    engine = get_engine("carcassonne")
    events = engine.random_game(3, 8)
    page = logged_in_page(browser, live_server, keeper)
    page.goto(f"{live_server.url}/scorekeeping/{record.pk}/")
    # The picker: every tile type left with how many; filters narrow it to what is on the tile.
    choices = page.locator('[data-testid="tile-choice"]')
    assert choices.count() == 24
    assert page.locator('[data-testid="tile-choice"][data-tile="D"] .badge').inner_text() == "×3", \
        "four D tiles, one of them the start tile"
    page.locator('[data-filter="cloister"]').click()
    assert sorted(choices.evaluate_all("nodes => nodes.map(n => n.dataset.tile)")) == ["A", "B"]
    page.locator('[data-filter="road"]').click()
    assert choices.evaluate_all("nodes => nodes.map(n => n.dataset.tile)") == ["A"]
    assert_no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / "recorder-carcassonne-picker-390.png"))
    page.locator(".filters-row .chip").first.click()  # "All"
    assert choices.count() == 24

    taps = record_tile_game(page, record, events, pick=True)

    assert stored(record) == [(kind, dict(payload)) for kind, payload in events]
    assert shown_totals(page) == replayed_totals(record)
    assert sorted(taps)[len(taps) // 2] <= 4
    assert page.script_errors == []


def test_a_hunters_and_gatherers_game_recorded_by_taps_with_its_bonus_tiles(browser, live_server, keeper, artifacts: Path):
    record = new_record("hunters-gatherers", keeper, players=2)
    engine = get_engine("hunters-gatherers")
    events = engine.random_game(2, 4)
    bonus = [payload["tile"] for _kind, payload in events if payload["tile"].startswith("B")]
    assert bonus, "the game chosen earns bonus tiles"
    page = logged_in_page(browser, live_server, keeper)
    page.goto(f"{live_server.url}/scorekeeping/{record.pk}/")
    page.locator('[data-filter="mammoth"]').click()
    mammoths = page.locator('[data-testid="tile-choice"]').evaluate_all("nodes => nodes.map(n => n.dataset.tile)")
    assert mammoths and all(
        any(f.get("mammoths") for f in engine.tile_records()[tile]["features"]) for tile in mammoths)
    page.locator(".filters-row .chip").first.click()
    taps = record_tile_game(page, record, events, pick=True, screenshot=artifacts / "recorder-hunters-gatherers-390.png")

    assert stored(record) == [(kind, dict(payload)) for kind, payload in events]
    assert shown_totals(page) == replayed_totals(record)
    lines = page.locator("#lines").inner_text()
    assert "Ada" in lines and "Bastien" in lines
    assert page.script_errors == []
    assert sorted(taps)[len(taps) // 2] <= 4


def test_a_stone_age_game_recorded_by_taps(browser, live_server, keeper, artifacts: Path):
    record = new_record("stone-age", keeper, seed=3)
    engine = get_engine("stone-age")
    events = engine.random_game(2, 3)
    page = logged_in_page(browser, live_server, keeper)
    page.goto(f"{live_server.url}/scorekeeping/{record.pk}/")
    shots: list[str] = []

    def dice_entered(page) -> None:
        assert_no_sideways_scroll(page)
        page.screenshot(path=str(artifacts / "recorder-stone-age-390.png"))
        shots.append("dice")

    for seq, (kind, payload) in enumerate(events, start=1):
        wants_shot = not shots and kind == "resolve" and payload.get("dice") and seq > 20
        stone_age_action(page, kind, payload, dice_entered if wants_shot else None)
        wait_stored(page, seq)
    assert shots
    state = engine.new_state(2, 3)
    assert stored(record) == [(kind, engine.apply(state, kind, payload)) for kind, payload in events]
    record.refresh_from_db()
    assert record.status == GameRecord.Status.FINISHED
    assert shown_totals(page) == replayed_totals(record)
    assert page.script_errors == []
    page.screenshot(path=str(artifacts / "recorder-stone-age-end-390.png"), full_page=True)
