"""Taps on the table recorder, as a scorekeeper makes them, through the documented test
attributes (docs/recording.md, "Test contract"). Each function records one action and returns how
many taps it took; none types notation. Pure Playwright (no Django): the browser tests and
``bench/bench_table_recording.py`` both drive the recorder with these."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

RESOURCES = ("wood", "clay", "stone", "gold")


def wait_stored(page: Any, seq: int) -> None:
    """Until the page shows the position after event ``seq`` with nothing left to send."""
    page.wait_for_function(
        "seq => window.LudologRecorder && window.LudologRecorder.table.seq === seq"
        " && window.LudologRecorder.queue.length === 0 && !window.LudologRecorder.sending", arg=seq)


def figure_of(game: str, payload: Mapping[str, Any]) -> tuple[int, str] | None:
    if game in ("carcassonne", "carcassonne-maps"):
        # The meeple, or one of the expansions' figures (Inns & Cathedrals, Traders & Builders).
        named = [(int(payload[kind]), kind) for kind in ("meeple", "big", "builder", "pig") if payload.get(kind) is not None]
        return named[0] if named else None
    return None if payload.get("figure") is None else (int(payload["feature"]), str(payload["figure"]))


def lay_tile(page: Any, game: str, kind: str, payload: Mapping[str, Any], *, pick: bool,
             before_confirm: Any = None, before_spot: Any = None) -> int:
    """One tile-game move by taps: pick the tile (a record without a seed), tap its spot, turn it
    to the rotation wanted, tap the figure's target, confirm. Returns the taps.
    ``before_spot(page, spot)``, if given, is called with the spot's locator before it is tapped
    (as the screen shows it then: Playwright's tap scrolls it into view)."""
    taps = 0
    if kind == "draw_tile":  # Carcassonne Maps, seeded: draw face down rather than pay for an island tile
        page.locator('[data-testid="draw-face-down"]').click()
        return 1
    if payload.get("island"):  # Carcassonne Maps: a chip pays for an island's face-up tile
        page.locator(f'[data-testid="island"][data-colour="{payload["island"]}"][data-stack="{payload["stack"]}"]').click()
        taps += 1
    elif pick:
        page.locator(f'[data-testid="tile-choice"][data-tile="{payload["tile"]}"]').click()
        taps += 1
    if kind == "discard_tile":
        page.locator('[data-testid="discard"]').click()
        return taps + 1
    spot = page.locator(f'[data-testid="spot"][data-x="{payload["x"]}"][data-y="{payload["y"]}"]')
    if before_spot is not None:
        spot.wait_for(state="attached")
        before_spot(page, spot)
    spot.click()
    taps += 1
    ghost = page.locator("g.ghost")
    for _turn in range(4):
        if int(ghost.get_attribute("data-rotation")) == payload["rotation"]:
            break
        page.locator('[data-testid="rotate"]').click()
        taps += 1
    else:
        raise AssertionError(f"the rotate control never reached {payload['rotation']}°")
    figure = figure_of(game, payload)
    if figure is not None:
        taps += put_figure(page, *figure)
    return taps + confirm(page, payload, before_confirm)


def put_figure(page: Any, feature: int, kind: str) -> int:
    """Tap the feature's target; where it takes more than one kind of figure, then the kind in the
    choice the page shows. The taps it took."""
    target = page.locator(f'[data-testid="figure"][data-feature="{feature}"]')
    kinds = (target.get_attribute("data-kinds") or "").split()
    assert kind in kinds, f"no {kind} offered on feature {feature} (offered: {kinds})"
    target.click()
    if len(kinds) == 1:
        return 1
    page.locator(f'[data-testid="figure-kind"][data-kind="{kind}"]').click()
    return 2


def end_the_game(page: Any) -> int:
    """After the move the rules end the game with: "end the game and score it", tapped, and the
    end screen the page then shows. The taps it took."""
    with page.expect_navigation():
        page.locator('[data-testid="end-confirm"]').click()
    page.locator('[data-testid="end-screen"]').wait_for()
    return 1


def confirm(page: Any, payload: Mapping[str, Any], before_confirm: Any = None) -> int:
    """Tap Confirm (after ``before_confirm(page)``, if given), then what the page asks after it;
    the taps it took."""
    if before_confirm is not None:
        before_confirm(page)
    page.locator('[data-testid="confirm"]').click()
    taps = 1
    # Carcassonne Maps at a table without a seed: what the chip shows, which tile the island turns up.
    for field, testid in (("chip", "chip"), ("reveal", "reveal")):
        answer = page.locator(f'[data-testid="{testid}"][data-{field if field == "chip" else "tile"}="{payload.get(field)}"]')
        if payload.get(field) and answer.count():
            answer.click()
            taps += 1
    return taps


def pay_choice(pay: Mapping[str, int]) -> str:
    return "pay=" + ",".join(f"{r}:{pay[r]}" for r in RESOURCES if pay.get(r))


def _pay(page: Any, pay: Mapping[str, int]) -> int:
    """Tap the payment: its button when the page lists the ways to pay, else the counters."""
    button = page.locator(f'[data-testid="choice"][data-choice="{pay_choice(pay)}"]')
    if button.count():
        button.click()
        return 1
    taps = 0
    for resource in RESOURCES:
        for _ in range(int(pay.get(resource, 0))):
            page.locator(f'[data-testid="pay"][data-resource="{resource}"] [data-step="+1"]').click()
            taps += 1
    assert taps, f"no way to pay {dict(pay)} on the page"
    return taps


def _dice(page: Any, dice: list[int]) -> int:
    pad = page.locator('[data-testid="dice"]')
    for face in dice:
        pad.locator(f'[data-die="{face}"]').click()
    return len(dice)


def stone_age_action(page: Any, kind: str, payload: Mapping[str, Any], before_confirm: Any = None, *,
                     let_ludolog_roll: bool = False) -> int:
    """One Stone Age action by taps, in the order the page asks: the place, then the people or
    the payment, the dice, the tools, the picks or the resources chosen; confirm."""
    taps = 0
    if kind == "place":
        page.locator(f'[data-testid="place"][data-place="{payload["location"]}"]').click()
        counts = page.locator('[data-testid="count"]')
        if counts.count() > 1:
            page.locator(f'[data-testid="count"][data-count="{payload.get("people", 1)}"]').click()
            taps += 1
        taps += 1
    elif kind == "resolve":
        page.locator(f'[data-testid="place"][data-place="{payload["location"]}"]').click()
        taps += 1
        if payload.get("decline"):
            page.locator('[data-testid="choice"][data-choice="decline"]').click()
            taps += 1
        if payload.get("pay"):
            taps += _pay(page, payload["pay"])
        if payload.get("dice") and let_ludolog_roll:
            page.locator('[data-testid="choice"][data-choice="roll"]').click()
            taps += 1
        elif payload.get("dice"):
            taps += _dice(page, list(payload["dice"]))
        for slot in payload.get("tools", []):
            page.locator(f'[data-testid="tool"][data-slot="{slot}"]').click()
            taps += 1
        for value in payload.get("one_time", []):
            page.locator(f'[data-testid="tool"][data-one-time="{value}"][aria-pressed="false"]').first.click()
            taps += 1
        for face in payload.get("picks", []):
            page.locator(f'[data-testid="choice"][data-choice="pick={face}"]').click()
            taps += 1
        if payload.get("choose"):
            choose = ",".join(f"{r}:{payload['choose'][r]}" for r in RESOURCES if payload["choose"].get(r))
            page.locator(f'[data-testid="choice"][data-choice="choose={choose}"]').click()
            taps += 1
        if payload.get("drawn") and page.locator(f'[data-testid="choice"][data-choice="drawn={payload["drawn"]}"]').count():
            page.locator(f'[data-testid="choice"][data-choice="drawn={payload["drawn"]}"]').click()
            taps += 1
    elif kind == "feed":
        if payload.get("starve"):
            page.locator('[data-testid="choice"][data-choice="starve"]').click()
            taps += 1
        else:
            taps += _pay(page, payload["pay"])
    elif kind == "reveal":
        for card in payload.get("cards", []):
            page.locator(f'[data-testid="choice"][data-choice="card={card}"]').click()
            taps += 1
        for stack, building in payload.get("buildings", {}).items():
            page.locator(f'[data-testid="choice"][data-choice="{stack}={building}"]').click()
            taps += 1
    else:
        raise AssertionError(f"no taps for {kind}")
    return taps + confirm(page, payload, before_confirm)



def record_by_the_page(page: Any, events: list[tuple[str, Mapping[str, Any]]], last_seq: int) -> None:
    """Record ``events`` through the recorder's own entry point, ``LudologRecorder.record`` (what
    every tap ends in: the queue, its idempotency keys, the posts one at a time), all queued at
    once, and wait until the last, event ``last_seq``, is stored."""
    page.evaluate("events => events.forEach(([kind, payload]) => window.LudologRecorder.record(kind, payload))",
                  [[kind, dict(payload)] for kind, payload in events])
    wait_stored(page, last_seq)


def sort_of_action(game: str, kind: str, payload: Mapping[str, Any]) -> tuple[Any, ...]:
    """What taps an action takes, as far as recording it by taps once proves the rest alike: the
    kind, the place (Stone Age) and which parts the payload has; the figure a tile takes, a bonus
    tile, an island paid for (the tile games)."""
    if game == "stone-age":
        place = str(payload.get("location", "")).rstrip("0123456789")
        return kind, place, tuple(sorted(key for key in payload if key not in ("seat", "location", "people")))
    figure = figure_of(game, payload)
    return (kind, figure[1] if figure else None, str(payload.get("tile", "")).startswith("B"),
            bool(payload.get("island")), bool(payload.get("chip")), bool(payload.get("reveal")))


def record_game(page: Any, game: str, events: list[tuple[str, Mapping[str, Any]]], tap: Any, *, first: int,
                between: Any = None, also: frozenset[int] = frozenset()) -> list[int]:
    """Record a whole game: by taps its first ``first`` actions, every action of a sort not tapped
    yet (:func:`sort_of_action`), the actions numbered in ``also`` and the last one; the stretches between them by ``between(page,
    events, last_seq)`` (by default :func:`record_by_the_page`; the browser tests post them to the
    page's own endpoint, ``recorder_driver.post_to_the_table``), the page then showing the position
    after them. ``tap(seq, kind, payload)`` makes one action's taps and returns how many it took;
    the taps of the tapped actions are returned. Every action is stored before the next is tapped."""
    between = between or record_by_the_page
    taps: list[int] = []
    tapped: set[tuple[Any, ...]] = set()
    stretch: list[tuple[str, Mapping[str, Any]]] = []
    for seq, (kind, payload) in enumerate(events, start=1):
        sort = sort_of_action(game, kind, payload)
        if first < seq < len(events) and sort in tapped and seq not in also:
            stretch.append((kind, payload))
            continue
        if stretch:
            between(page, stretch, seq - 1)
            stretch = []
        tapped.add(sort)
        taps.append(tap(seq, kind, payload))
        wait_stored(page, seq)
    return taps
