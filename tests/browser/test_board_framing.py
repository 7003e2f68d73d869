"""The recorder's board on a phone (390×844): it frames the squares the tile in hand may go to,
says how many lie off screen and where, shows the whole board on request, and lays the figure
targets on the tile being laid without overlap and without hiding its neighbours.

Each position comes from a game the engine plays at random, appended through the service (the
taps themselves are the other browser tests' subject); the page is then read as a phone shows it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from games.registry import get_engine
from records.services import SeatSpec, append_event, start_game

from .recorder_driver import SQUARE_PX, TAP_TARGET_PX, assert_no_sideways_scroll, assert_tap_targets, logged_in_page
from .taps import put_figure

pytestmark = pytest.mark.django_db(transaction=True)

# Where the page's squares lie against its board frame, read as the scorekeeper sees them.
SQUARES_IN_VIEW = """() => {
    const frame = document.getElementById('board-viewport').getBoundingClientRect();
    const squares = [...document.querySelectorAll('[data-testid="spot"]')].map(spot => {
        const box = spot.getBoundingClientRect();
        return {x: +spot.dataset.x, y: +spot.dataset.y, size: box.width,
                inView: box.left >= frame.left - 1 && box.top >= frame.top - 1
                        && box.right <= frame.right + 1 && box.bottom <= frame.bottom + 1};
    });
    const markers = [...document.querySelectorAll('[data-testid="offscreen"]')].map(m =>
        ({side: m.dataset.side, count: Number(m.textContent.replace(/[^0-9]/g, ''))}));
    return {squares, markers};
}"""


def played(game: str, keeper, seed: int, moves: int, players: int = 2):
    """A seeded record with the first ``moves`` events of the engine's random game."""
    names = ["Ada", "Bastien", "Chloé", "Di"][:players]
    record = start_game(game_slug=game, seats=[SeatSpec(n) for n in names], seed=seed, created_by=keeper)
    events = get_engine(game).random_game(players, seed)
    for index, (kind, payload) in enumerate(events[:moves]):
        append_event(record, index, kind, dict(payload), recorded_by=keeper)
    return record, events


def open_recorder(browser, live_server, keeper, record):
    page = logged_in_page(browser, live_server, keeper)
    page.goto(f"{live_server.url}/scorekeeping/{record.pk}/")
    page.locator('[data-testid="spot"]').first.wait_for()
    return page


@pytest.mark.slow(seconds=25)
@pytest.mark.parametrize("game, seed", [("hunters-gatherers", 5), ("carcassonne", 6)])
def test_the_board_frames_the_squares_the_tile_may_go_to(browser, live_server, keeper, artifacts: Path, game, seed):
    """Early, mid and late in a game: every square is in the frame, or the tiles are at their
    smallest tappable size and the strip counts each one left out, by side; a marker's tap brings
    its squares in; "Whole board" shows all of the board."""
    record, events = played(game, keeper, seed, 0)
    page = None
    done = 0
    for moves in (2, 30, 56):
        for index in range(done, moves):
            kind, payload = events[index]
            append_event(record, index, kind, dict(payload), recorded_by=keeper)
        done = moves
        if page is None:
            page = open_recorder(browser, live_server, keeper, record)
        else:
            page.reload()
            page.locator('[data-testid="spot"]').first.wait_for()
        seen = page.evaluate(SQUARES_IN_VIEW)
        squares, markers = seen["squares"], seen["markers"]
        out = [s for s in squares if not s["inView"]]
        assert min(s["size"] for s in squares) >= SQUARE_PX - 0.5
        assert sum(m["count"] for m in markers) == len(out), (moves, markers, len(out))
        if out:
            # Left out only because all of them would not fit at a tappable size.
            assert min(s["size"] for s in squares) < SQUARE_PX + 1, (moves, squares[0]["size"])
            side = markers[0]["side"]
            page.locator(f'[data-testid="offscreen"][data-side="{side}"]').click()
            after = page.evaluate(SQUARES_IN_VIEW)
            wanted = {(s["x"], s["y"]) for s in out}
            assert any(s["inView"] for s in after["squares"] if (s["x"], s["y"]) in wanted), side
        assert_tap_targets(page)
        assert_no_sideways_scroll(page)
        page.screenshot(path=str(artifacts / f"recorder-framing-{game}-{moves}-390.png"))
    page.locator('[data-testid="whole-board"]').click()
    fits = page.evaluate("""() => {
        const frame = document.getElementById('board-viewport');
        const board = frame.querySelector('svg');
        return {board: [+board.getAttribute('width'), +board.getAttribute('height')],
                frame: [frame.clientWidth, frame.clientHeight]};
    }""")
    assert fits["board"][0] <= fits["frame"][0] + 1 and fits["board"][1] <= fits["frame"][1] + 1, fits
    page.screenshot(path=str(artifacts / f"recorder-whole-board-{game}-390.png"))


def first_move_with_many_features(engine, events, least: int) -> int:
    """The index of the first tile laid whose chosen rotation offers figures on ``least`` features."""
    state = engine.new_state(2, 5)
    for index, (kind, payload) in enumerate(events):
        if kind == "place_tile":
            options = engine.options(state)
            spot = next((s for s in options.get("spots", []) if (s["x"], s["y"]) == (payload["x"], payload["y"])), None)
            rotation = spot and next(r for r in spot["rotations"] if r["rotation"] == payload["rotation"])
            if rotation and len({f["feature"] for f in rotation["figures"]}) >= least:
                return index
        engine.apply(state, kind, payload)
    raise AssertionError(f"no tile offers figures on {least} features")


@pytest.mark.slow(seconds=15)
def test_figure_targets_lie_on_the_tile_apart_and_the_neighbours_stay_in_sight(browser, live_server, keeper,
                                                                               artifacts: Path):
    engine = get_engine("hunters-gatherers")
    events = engine.random_game(2, 5)
    index = first_move_with_many_features(engine, events, 5)
    record, _ = played("hunters-gatherers", keeper, 5, index)
    page = open_recorder(browser, live_server, keeper, record)
    payload = events[index][1]
    page.locator(f'[data-testid="spot"][data-x="{payload["x"]}"][data-y="{payload["y"]}"]').click()
    ghost = page.locator("g.ghost")
    for _turn in range(4):
        if int(ghost.get_attribute("data-rotation")) == payload["rotation"]:
            break
        page.locator('[data-testid="rotate"]').click()
    seen = page.evaluate("""() => {
        const frame = document.getElementById('board-viewport').getBoundingClientRect();
        const tile = document.querySelector('g.ghost .ghost-outline').getBoundingClientRect();
        const targets = [...document.querySelectorAll('[data-testid="figure"]')].map(t => {
            const b = t.querySelector('circle').getBoundingClientRect();
            return {x: b.left + b.width / 2, y: b.top + b.height / 2, size: Math.min(b.width, b.height),
                    kinds: t.dataset.kinds, feature: t.dataset.feature};
        });
        return {frame: [frame.left, frame.top, frame.right, frame.bottom],
                tile: [tile.left, tile.top, tile.right, tile.bottom], targets};
    }""")
    targets = seen["targets"]
    assert len(targets) >= 5
    assert len({t["feature"] for t in targets}) == len(targets), "one target a feature"
    for number, one in enumerate(targets):
        assert one["size"] >= TAP_TARGET_PX - 0.5, one
        left, top, right, bottom = seen["tile"]
        assert left - 1 <= one["x"] <= right + 1 and top - 1 <= one["y"] <= bottom + 1, "on the tile"
        for other in targets[number + 1:]:
            gap = ((one["x"] - other["x"]) ** 2 + (one["y"] - other["y"]) ** 2) ** 0.5
            assert gap >= (one["size"] + other["size"]) / 2 - 0.5, (one, other)
    # The tile is large enough for its targets, yet a band of its neighbours stays in sight.
    left, top, right, bottom = seen["tile"]
    size = right - left
    frame = seen["frame"]
    assert size <= 0.65 * min(frame[2] - frame[0], frame[3] - frame[1]), size
    for side in ((left - frame[0]), (frame[2] - right), (top - frame[1]), (frame[3] - bottom)):
        assert side >= 0.15 * size, (seen["tile"], frame)
    assert_tap_targets(page)  # none covered: the figure targets, the squares, the strip and the bar
    several = [t for t in targets if len(t["kinds"].split()) > 1]
    if several:  # a feature taking several kinds: the kind is asked after its target
        kinds = several[0]["kinds"].split()
        put_figure(page, int(several[0]["feature"]), kinds[-1])
        chosen = page.locator(f'[data-testid="figure"][data-feature="{several[0]["feature"]}"]')
        assert chosen.get_attribute("aria-pressed") == "true"
        assert page.locator('[data-testid="figure-kinds"]').is_hidden()
    page.screenshot(path=str(artifacts / "recorder-figures-in-context-390.png"))
    assert page.script_errors == []
