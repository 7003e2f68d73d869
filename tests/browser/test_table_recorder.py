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

from games.registry import get_engine
from records import replay
from records.models import Event, GameRecord
from records.services import append_event
from tests.factories import new_record

from .recorder_driver import (
    LAPTOP, assert_no_sideways_scroll, assert_tap_targets, logged_in_page, post_to_the_table, shown_totals,
)
from .table_games import unseeded_stone_age_action
from .taps import end_the_game, lay_tile, record_game, stone_age_action, wait_stored

pytestmark = pytest.mark.django_db(transaction=True)


def replayed_totals(record: GameRecord) -> list[int]:
    """The scores the stored events give, replayed from the start through the engine."""
    engine = get_engine(record.game_slug)
    state, _seq = replay.state_at(record, use_snapshots=False)
    return [score["total"] for score in engine.view(state)["scores"]]


def stored(record: GameRecord) -> list[tuple[str, dict]]:
    return [(e.type, e.payload) for e in Event.objects.filter(record=record).order_by("seq")]


def spot_chosen(page) -> None:
    """Checked with the tile laid on its spot, the board zoomed on its figure targets."""
    assert_no_sideways_scroll(page)
    assert_tap_targets(page)


def record_tile_game(page, live_server, record: GameRecord, events, *, pick: bool, screenshot: Path | None = None,
                     first: int = 8) -> list[int]:
    """The whole game recorded, its first ``first`` moves and every sort of move by taps
    (``taps.record_game``), checked on the way: no sideways scroll, tap targets, a screenshot."""
    assert_tap_targets(page)

    def tap(seq: int, kind: str, payload: dict) -> int:
        check = spot_chosen if seq == first // 2 and kind == "place_tile" else None
        taps = lay_tile(page, record.game_slug, kind, payload, pick=pick, before_confirm=check)
        if seq in (1, first):
            wait_stored(page, seq)
            assert_no_sideways_scroll(page)
            if screenshot is not None and seq == first:
                page.screenshot(path=str(screenshot))
        return taps

    return record_game(page, record.game_slug, events, tap, first=first,
                       between=post_to_the_table(live_server, record, record.created_by))


def expected_payloads(engine, events, seed):
    """The payloads as the store keeps them (a seeded record's tile named, as replays need)."""
    state = engine.new_state(2, seed)
    return [(kind, engine.apply(state, kind, payload)) for kind, payload in events]


@pytest.mark.slow(seconds=19)
def test_a_seeded_carcassonne_game_recorded_by_taps_in_french(browser, live_server, keeper, artifacts: Path):
    record = new_record("carcassonne", keeper, seed=41)
    engine = get_engine("carcassonne")
    events = engine.random_game(2, 41)
    page = logged_in_page(browser, live_server, keeper, locale="fr-FR")
    page.goto(f"{live_server.url}/scorekeeping/{record.pk}/")
    assert "Tuile tirée par Ludolog" in page.locator("#tray").inner_text()
    assert page.locator('[data-testid="tile-choice"]').count() == 0, "a seeded record shows the tile drawn, no picker"
    taps = record_tile_game(page, live_server, record, events, pick=False, screenshot=artifacts / "recorder-carcassonne-seeded-390.png")

    assert stored(record) == expected_payloads(engine, events, 41)
    end_the_game(page)
    record.refresh_from_db()
    assert record.status == GameRecord.Status.FINISHED
    assert shown_totals(page) == replayed_totals(record) == [s.score for s in engine.final_scores(
        replay.state_at(record, use_snapshots=False)[0])]
    assert "La partie est terminée." in page.locator('[data-testid="end-screen"]').inner_text()
    assert max(taps) <= 6 and sorted(taps)[len(taps) // 2] <= 3
    assert page.script_errors == []
    page.screenshot(path=str(artifacts / "recorder-carcassonne-end-390.png"), full_page=True)


@pytest.mark.slow(seconds=23)
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
    page.locator('[data-testid="reset-filters"]').click()
    assert choices.count() == 24

    taps = record_tile_game(page, live_server, record, events, pick=True)

    assert stored(record) == [(kind, dict(payload)) for kind, payload in events]
    assert shown_totals(page) == replayed_totals(record)
    assert sorted(taps)[len(taps) // 2] <= 4
    assert page.script_errors == []


@pytest.mark.slow(seconds=25)
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
    page.locator('[data-testid="reset-filters"]').click()
    taps = record_tile_game(page, live_server, record, events, pick=True, screenshot=artifacts / "recorder-hunters-gatherers-390.png")

    assert stored(record) == [(kind, dict(payload)) for kind, payload in events]
    assert shown_totals(page) == replayed_totals(record)
    lines = page.locator("#lines").inner_text()
    assert "Ada" in lines and "Bastien" in lines
    assert page.script_errors == []
    assert sorted(taps)[len(taps) // 2] <= 4


@pytest.mark.slow(seconds=70)
def test_a_stone_age_game_recorded_by_taps(browser, live_server, keeper, artifacts: Path):
    record = new_record("stone-age", keeper, seed=3)
    engine = get_engine("stone-age")
    events = engine.random_game(2, 3)
    page = logged_in_page(browser, live_server, keeper)
    page.goto(f"{live_server.url}/scorekeeping/{record.pk}/")
    shots: list[str] = []

    def dice_entered(page) -> None:
        assert_no_sideways_scroll(page)
        assert_tap_targets(page)
        page.screenshot(path=str(artifacts / "recorder-stone-age-390.png"))
        shots.append("dice")

    rolled_by_ludolog = []

    def tap(seq: int, kind: str, payload: dict) -> int:
        wants_shot = not shots and kind == "resolve" and payload.get("dice") and seq > 20
        # Once, Ludolog rolls for the table: a seeded record's dice are the seed's, the same
        # the engine's own game rolled.
        roll = not rolled_by_ludolog and kind == "resolve" and payload["location"] == "forest"
        if roll:
            rolled_by_ludolog.append(seq)
        return stone_age_action(page, kind, payload, dice_entered if wants_shot else None, let_ludolog_roll=roll)

    # A round by taps (its placements, resolutions and feeding), every sort of action the game
    # holds and the last; the stretches between posted to the table's endpoint.
    record_game(page, "stone-age", events, tap, first=24, between=post_to_the_table(live_server, record, keeper))
    assert shots and rolled_by_ludolog
    state = engine.new_state(2, 3)
    assert stored(record) == [(kind, engine.apply(state, kind, payload)) for kind, payload in events]
    end_the_game(page)
    record.refresh_from_db()
    assert record.status == GameRecord.Status.FINISHED
    assert shown_totals(page) == replayed_totals(record)
    assert page.script_errors == []
    page.screenshot(path=str(artifacts / "recorder-stone-age-end-390.png"), full_page=True)


def test_moves_recorded_offline_wait_on_the_phone_and_are_stored_once_each_in_order(browser, live_server, keeper):
    record = new_record("carcassonne", keeper)
    events = get_engine("carcassonne").random_game(2, 5)
    page = logged_in_page(browser, live_server, keeper)
    page.goto(f"{live_server.url}/scorekeeping/{record.pk}/")
    for seq in (1, 2):
        lay_tile(page, "carcassonne", *events[seq - 1], pick=True)
        wait_stored(page, seq)

    page.context.set_offline(True)
    pending = page.locator('[data-testid="pending"]')
    for count in (1, 2, 3):
        lay_tile(page, "carcassonne", *events[count + 1], pick=True)
        page.wait_for_function("n => document.querySelector('[data-testid=pending]').dataset.count === String(n)", arg=count)
    assert "3" in pending.inner_text() and pending.is_visible()
    assert "No connection" in page.locator("#connection").inner_text()
    assert page.locator("g.pending-tile").count() == 3, "the moves waiting are drawn on the board"
    assert Event.objects.filter(record=record).count() == 2, "nothing reached the server"
    queued = page.evaluate("JSON.parse(localStorage.getItem('ludolog:queue:%d'))" % record.pk)
    assert [item["expected_seq"] for item in queued] == [2, 3, 4]
    assert len({item["key"] for item in queued}) == 3, "each action keeps its own idempotency key"
    assert_no_sideways_scroll(page)

    page.context.set_offline(False)
    wait_stored(page, 5)
    assert stored(record) == [(kind, dict(payload)) for kind, payload in events[:5]]
    assert list(Event.objects.filter(record=record).values_list("idempotency_key", flat=True))[2:] == \
        [item["key"] for item in queued]
    assert pending.is_hidden()
    assert page.evaluate("localStorage.getItem('ludolog:queue:%d')" % record.pk) is None
    assert page.script_errors == []


def test_an_answer_lost_on_the_way_back_is_sent_again_and_stored_once(browser, live_server, keeper):
    """The server stores the move but the phone never hears back: the retry carries the same
    idempotency key, so the store returns the event it has instead of storing it twice."""
    record = new_record("carcassonne", keeper, seed=12)
    events = get_engine("carcassonne").random_game(2, 12)
    page = logged_in_page(browser, live_server, keeper)
    page.goto(f"{live_server.url}/scorekeeping/{record.pk}/")
    lost = []

    def lose_the_answer(route):
        if route.request.method == "POST" and not lost:
            route.fetch()          # the server gets it and stores it…
            lost.append(route.request.post_data)
            route.abort()          # …but the answer never arrives
        else:
            route.continue_()

    page.route(f"**/scorekeeping/{record.pk}/table/", lose_the_answer)
    lay_tile(page, "carcassonne", *events[0], pick=False)
    page.wait_for_function("() => window.LudologRecorder.online === false")
    assert Event.objects.filter(record=record).count() == 1
    wait_stored(page, 1)  # the retry goes out on its own a few seconds later
    assert Event.objects.filter(record=record).count() == 1
    assert json.loads(lost[0])["idempotency_key"] == Event.objects.get(record=record).idempotency_key
    lay_tile(page, "carcassonne", *events[1], pick=False)
    wait_stored(page, 2)
    assert [e.seq for e in Event.objects.filter(record=record)] == [1, 2]


def test_two_phones_see_each_others_moves_and_a_stale_phone_is_told_and_stores_nothing(browser, live_server, keeper):
    player = get_user_model().objects.create_user("bastien", password="bastien-pw-123456")
    record = new_record("hunters-gatherers", keeper, seed=9)
    record.seats.get(seat_order=1).player.__class__.objects.filter(display_name="Bastien").update(user=player)
    events = get_engine("hunters-gatherers").random_game(2, 9)
    first = logged_in_page(browser, live_server, keeper)
    second = logged_in_page(browser, live_server, player)
    first.goto(f"{live_server.url}/scorekeeping/{record.pk}/")
    second.goto(f"{live_server.url}/scorekeeping/{record.pk}/")

    lay_tile(first, "hunters-gatherers", *events[0], pick=False)
    wait_stored(first, 1)
    wait_stored(second, 1)  # the second phone asks every few seconds and shows the new position
    laid = events[0][1]
    assert second.locator(f'#board g.tile.last-placed[data-x="{laid["x"]}"][data-y="{laid["y"]}"]').count() == 1
    assert "Recorded on another phone" in second.locator("#recorder-message").inner_text()

    # The second phone stops hearing about new moves (its questions get lost) while the first records.
    second.route("**/table/?known=*", lambda route: route.abort())
    lay_tile(first, "hunters-gatherers", *events[1], pick=False)
    wait_stored(first, 2)
    stale_tile = events[1][1]["tile"]
    assert second.evaluate("window.LudologRecorder.table.options.drawn") == stale_tile
    spot = second.locator('[data-testid="spot"]').first
    spot.click()
    second.locator('[data-testid="confirm"]').click()
    second.wait_for_function("() => document.querySelector('#recorder-message').textContent.includes('Another phone')")
    wait_stored(second, 2)
    assert Event.objects.filter(record=record).count() == 2
    assert stored(record)[1][1]["tile"] == stale_tile, "the first phone's move stands"
    assert second.evaluate("window.LudologRecorder.table.options.drawn") == first.evaluate(
        "window.LudologRecorder.table.options.drawn"), "the stale phone now shows the game as recorded"


def test_undo_asks_first_then_records_an_undo_event(browser, live_server, keeper):
    record = new_record("stone-age", keeper, seed=2)
    events = get_engine("stone-age").random_game(2, 2)
    page = logged_in_page(browser, live_server, keeper)
    page.goto(f"{live_server.url}/scorekeeping/{record.pk}/")
    stone_age_action(page, *events[0])
    wait_stored(page, 1)
    page.locator('[data-testid="undo"]').click()
    dialog = page.locator("#undo-dialog")
    assert dialog.is_visible() and "Take back the last move?" in dialog.inner_text()
    dialog.get_by_role("button", name="Keep it").click()
    assert Event.objects.filter(record=record).count() == 1
    page.locator('[data-testid="undo"]').click()
    page.locator('[data-testid="undo-yes"]').click()
    wait_stored(page, 2)
    assert [e.type for e in Event.objects.filter(record=record)] == [events[0][0], "undo"]
    assert "takes back the last move" in page.locator("#lines li.latest").inner_text()
    # The same first action can be recorded again.
    stone_age_action(page, *events[0])
    wait_stored(page, 3)


def test_the_recorder_on_a_laptop(browser, live_server, keeper, artifacts: Path):
    record = new_record("hunters-gatherers", keeper, players=4, seed=3)
    events = get_engine("hunters-gatherers").random_game(4, 3)
    # A board of a dozen tiles to zoom on (the taps that lay them are the phone tests').
    for seq, (kind, payload) in enumerate(events[:12], start=1):
        append_event(record, seq - 1, kind, dict(payload), recorded_by=keeper)
    page = logged_in_page(browser, live_server, keeper, viewport=LAPTOP)
    page.goto(f"{live_server.url}/scorekeeping/{record.pk}/")
    wait_stored(page, 12)
    board = page.locator("#board svg")
    before = float(board.get_attribute("width"))
    page.locator("#board-viewport").hover()
    page.keyboard.down("Control")  # a trackpad's pinch arrives as ctrl+wheel
    page.mouse.wheel(0, -300)
    page.keyboard.up("Control")
    page.wait_for_function("w => Number(document.querySelector('#board svg').getAttribute('width')) > w", arg=before)
    page.locator('[data-zoom="fit"]').click()
    # The zoom buttons are a strip above the board: none lies over a square.
    board_box, strip = page.locator("#board-viewport").bounding_box(), page.locator(".zoom-controls").bounding_box()
    assert strip["y"] + strip["height"] <= board_box["y"] + 1, (board_box, strip)
    page.locator('[data-testid="spot"]').first.click()
    assert_no_sideways_scroll(page)
    assert_tap_targets(page)
    # The chosen square, the last tile laid and the legal squares differ in shape, not only colour.
    shapes = page.evaluate("""() => ({
        legal: [...document.querySelectorAll('[data-testid="spot"]:not(.chosen)')].map(spot =>
            getComputedStyle(spot.querySelector('.spot-edge')).strokeDasharray !== 'none'
            && getComputedStyle(spot.querySelector('.spot-mark')).display !== 'none'),
        chosen: [...document.querySelectorAll('.ghost')].map(ghost =>
            getComputedStyle(ghost.querySelector('.ghost-outline')).strokeDasharray === 'none'
            && ghost.querySelector('.ghost-inner') !== null),
        last: document.querySelectorAll('#board .last-placed-mark').length })""")
    assert shapes["legal"] and all(shapes["legal"]), shapes
    assert shapes["chosen"] == [True] and shapes["last"] == 1, shapes
    page.screenshot(path=str(artifacts / "recorder-hunters-gatherers-1280.png"))


@pytest.mark.slow(seconds=14)
def test_an_unseeded_stone_age_game_names_what_is_turned_up_from_lists_of_what_is_left(browser, live_server, keeper,
                                                                                       artifacts: Path):
    import random

    record = new_record("stone-age", keeper, players=3)
    engine = get_engine("stone-age")
    state = engine.new_state(3, None)
    rng = random.Random(14)
    page = logged_in_page(browser, live_server, keeper)
    page.goto(f"{live_server.url}/scorekeeping/{record.pk}/")
    assert "Which cards were turned up?" in page.locator("#tray").inner_text()
    events = []
    while state.round < 4 and not engine.is_over(state):
        kind, payload = unseeded_stone_age_action(engine, state, rng)
        engine.apply(state, kind, payload)
        events.append((kind, payload))
    filtered = []

    def tap(seq: int, kind: str, payload: dict) -> int:
        if kind == "reveal" and not filtered:
            page.locator('.filters-row .chip:has-text("food")').click()
            assert all("food" in text for text in
                       page.locator('.choices.cards [data-testid="choice"] .sub').all_inner_texts()), "the filter keeps food cards"
            page.screenshot(path=str(artifacts / "recorder-stone-age-reveal-390.png"))
            page.locator(".filters-row .chip").first.click()
            filtered.append(seq)
        return stone_age_action(page, kind, payload)

    # What is turned up is told by taps at the start of each round; the first round's moves, every
    # sort of move and the last by taps too, the others posted to the table's endpoint.
    reveal_seqs = frozenset(seq for seq, (kind, _payload) in enumerate(events, start=1) if kind == "reveal")
    record_game(page, "stone-age", events, tap, first=10, also=reveal_seqs, between=post_to_the_table(live_server, record, keeper))
    reveals = len(reveal_seqs)
    assert reveals >= 2, "the game turned up cards again after the first round"
    assert stored(record)[0][0] == "reveal"
    assert shown_totals(page) == replayed_totals(record) == [s["total"] for s in engine.view(state)["scores"]]
    assert page.script_errors == []
