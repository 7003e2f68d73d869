"""Carcassonne Maps – Benelux at a real table, on a phone (390×844): the table's set-up entered on
the start page (the start squares, the other start square's tile, the 20 chips tapped on the map,
the island stacks' face-up tiles picked from pictures), then a whole 2-player game recorded by
taps with the table's own tiles and chips (each tile picked as drawn, each chip's face entered as
it is turned over, each tile an island turns up entered as it shows) to the end screen.
Screenshots of the start page's set-up and of the recorder mid-game, phone and laptop, in
tests/artifacts/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from games.registry import get_engine
from records.models import Event, GameRecord
from tests.factories import club_with_league

from .recorder_driver import (
    LAPTOP, PHONE, assert_no_sideways_scroll, assert_tap_targets, logged_in_page, post_to_the_table,
)
from .table_games import physical_tile_game
from .taps import end_the_game, lay_tile, record_game

pytestmark = pytest.mark.django_db(transaction=True)

MAPS = "carcassonne-maps"
SEED = 11
"""The table is the one this seed would have set up, and the game its random game: what the
scorekeeper enters is known in advance."""


@pytest.fixture
def keeper(keeper) -> Any:
    """The scorekeeper (``tests/conftest.py``), of a club whose league has Ada and Bastien (their
    chips on the start page)."""
    club_with_league("Club", "2026", ["Ada", "Bastien"])
    return keeper


def the_table() -> tuple[dict[str, Any], list[tuple[str, dict[str, Any]]]]:
    """What the table shows, and the game played on it (a table records no draw: it picks the
    tile once drawn)."""
    setup, events = physical_tile_game(get_engine(MAPS), MAPS, 2, SEED)
    return setup["table"], events


def set_the_table_up(page: Any, table: dict[str, Any]) -> None:
    """The start page, by taps: the game, the players, the start squares, the chips on the map,
    the tiles face up."""
    page.locator(f'input[name="game"][value="{MAPS}"]').check()
    for name in ("Ada", "Bastien"):
        page.locator(f'#member-chips button[data-name="{name}"]').click()
    assert not page.locator('input[name="ludolog_draws"]').is_checked()
    for start in table["start_squares"]:
        page.locator(f'input[name="setup-{MAPS}-start_squares"][value="{start}"]').check()
    page.locator('[data-testid="setup-tile"][data-start-tile]').click()
    page.locator(f'.tile-pick-grid [data-testid="setup-tile-choice"][data-tile="{table["start_tiles"][1]["tile"]}"]').click()
    for x, y in table["chip_squares"]:
        square = page.locator(f'svg.maps-table-map rect.square[data-x="{x}"][data-y="{y}"]')
        assert square.get_attribute("data-testid") == "chip-square", f"({x},{y}) takes a chip"
        square.click()
        assert square.get_attribute("aria-pressed") == "true"
    for face_up in table["island_face_up"]:
        page.locator(f'[data-testid="setup-tile"][data-colour="{face_up["colour"]}"]'
                     f'[data-stack="{face_up["stack"]}"]').click()
        page.locator(f'.tile-pick-grid [data-testid="setup-tile-choice"][data-tile="{face_up["tile"]}"]').click()
    assert page.locator(".chip-count").inner_text().endswith("20 of 20")


def assert_map_squares_tappable(page: Any) -> None:
    """Each square a chip may go on is at least 44 px both ways on screen."""
    smallest = page.evaluate("""() => Math.min(...Array.from(
        document.querySelectorAll('svg.maps-table-map rect.square.may-chip')).map(r => {
            const box = r.getBoundingClientRect(); return Math.min(box.width, box.height); }))""")
    assert smallest >= 44, f"a chip square is {smallest:.0f} px"


@pytest.mark.slow(seconds=240)
def test_a_whole_maps_game_at_a_table_from_the_start_page_to_the_end_screen(browser, live_server, keeper,
                                                                            artifacts: Path):
    table, events = the_table()
    page = logged_in_page(browser, live_server, keeper, viewport=PHONE)
    page.goto(f"{live_server.url}/scorekeeping/")
    set_the_table_up(page, table)
    assert_map_squares_tappable(page)
    assert_no_sideways_scroll(page)
    page.locator(".maps-table-scroll").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "start-maps-table-390.png"), full_page=True)
    with page.expect_navigation():
        page.locator("button.start-button").click()
    record = GameRecord.objects.get()
    assert record.seed is None and record.setup["table"]["chip_squares"] == table["chip_squares"]
    assert [f["tile"] for f in record.setup["table"]["island_face_up"]] == [f["tile"] for f in table["island_face_up"]]

    chips = reveals = 0
    # Mid-game, a tile picked from the pile and about to be laid: looked at, phone and laptop.
    middle = next(seq for seq, (kind, payload) in enumerate(events, start=1)
                  if seq >= len(events) // 2 and kind == "place_tile" and not payload.get("island"))

    def mid_game(page: Any, spot: Any) -> None:
        assert_tap_targets(page)
        assert_no_sideways_scroll(page)
        page.screenshot(path=str(artifacts / "recorder-maps-table-390.png"), full_page=True)
        laptop = logged_in_page(browser, live_server, keeper, viewport=LAPTOP)
        laptop.goto(f"{live_server.url}/scorekeeping/{record.pk}/")
        laptop.locator(f'[data-testid="tile-choice"][data-tile="{events[middle - 1][1]["tile"]}"]').click()
        laptop.locator('[data-testid="spot"]').first.wait_for()
        assert_no_sideways_scroll(laptop)
        laptop.screenshot(path=str(artifacts / "recorder-maps-table-1280.png"), full_page=True)
        laptop.context.close()

    def tap(seq: int, kind: str, payload: dict) -> int:
        nonlocal chips, reveals
        if payload.get("island"):
            # Only what the table shows: the stack's face-up tile, paid with a chip.
            island = page.locator(f'[data-testid="island"][data-colour="{payload["island"]}"]'
                                  f'[data-stack="{payload["stack"]}"]')
            assert island.get_attribute("data-tile") == payload["tile"]
        chips += "chip" in payload
        reveals += "reveal" in payload
        taps = lay_tile(page, MAPS, kind, payload, pick=not payload.get("island"),
                        before_spot=mid_game if seq == middle else None)
        if seq == len(events):
            page.locator('[data-testid="end-confirm"]').wait_for()
        return taps

    # The first moves, every sort of move, the middle one and the last by taps.
    record_game(page, MAPS, events, tap, first=10, also=frozenset({middle}),
                between=post_to_the_table(live_server, record, keeper))
    # The last tile: the page asks whether to end the game and score it.
    page.locator('[data-testid="end-confirm"]').wait_for()
    end_the_game(page)
    assert chips > 0 and reveals > 0, "chips turned over and tiles turned up were entered"
    stored = [(e.type, e.payload) for e in Event.objects.filter(record=record).order_by("seq")]
    assert stored[:-1] == [(kind, dict(payload)) for kind, payload in events]
    assert stored[-1] == ("end_game", {"reason": "complete"})
    record.refresh_from_db()
    assert record.status == GameRecord.Status.FINISHED
    assert page.locator('[data-testid="winners"]').inner_text()
    assert page.script_errors == []  # type: ignore[attr-defined]


@pytest.mark.slow(seconds=20)
def test_the_table_set_up_on_a_laptop_and_in_french(browser, live_server, keeper, artifacts: Path):
    table, _events = the_table()
    page = logged_in_page(browser, live_server, keeper, viewport=LAPTOP)
    page.goto(f"{live_server.url}/scorekeeping/")
    set_the_table_up(page, table)
    assert_map_squares_tappable(page)
    assert_no_sideways_scroll(page)
    page.locator(".maps-table-scroll").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "start-maps-table-1280.png"), full_page=True)
    # "Ludolog draws and rolls" on: Ludolog lays the chips and stacks out, nothing to enter.
    page.locator('input[name="ludolog_draws"]').check()
    assert not page.locator(".maps-table-scroll").is_visible()
    page.context.close()
    french = logged_in_page(browser, live_server, keeper, viewport=PHONE, locale="fr-FR")
    french.goto(f"{live_server.url}/scorekeeping/")
    french.locator(f'input[name="game"][value="{MAPS}"]').check()
    text = french.locator("fieldset.setup-choices[data-game='carcassonne-maps']").inner_text()
    for words in ("Où se trouvent les jetons", "Jetons marqués\u00a0: 0 sur 20", "Tuile face visible, île violette, pile 1"):
        assert words in text, words
    french.locator(f'#member-chips button[data-name="Ada"]').click()
    french.locator(f'#member-chips button[data-name="Bastien"]').click()
    with french.expect_navigation():
        french.locator("button.start-button").click()
    assert "Cochez les deux cases de départ utilisées à la table." in french.locator("main").inner_text()
    assert not GameRecord.objects.exists()
    assert_no_sideways_scroll(french)
    french.screenshot(path=str(artifacts / "start-maps-table-refused-fr-390.png"), full_page=True)
    assert french.script_errors == []  # type: ignore[attr-defined]
