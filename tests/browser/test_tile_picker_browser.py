"""The tile picker at a real table (tiles drawn from the physical bag, a record without a seed), on
a phone (390×844): the sketch of a tile whose sides are tapped narrows the pile to the tile in hand
whichever way it lies, every picture carries its number, a wrong pick is changed before Confirm,
the tiles that fit nowhere are set apart, and undo puts the tile laid back in the bag.
Screenshots in tests/artifacts/ (390×844 and 1280×800, English and French)."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.registry import get_engine
from records.models import Event, GameRecord
from records.services import SeatSpec, start_game

from .recorder_driver import LAPTOP, assert_no_sideways_scroll, assert_tap_targets, logged_in_page
from .taps import lay_tile, wait_stored

pytestmark = pytest.mark.django_db(transaction=True)

CHOICES = '[data-testid="tile-choice"]'


def unseeded(game: str, keeper) -> GameRecord:
    return start_game(game_slug=game, seats=[SeatSpec("Ada"), SeatSpec("Bastien")], created_by=keeper)


def shown(page) -> list[str]:
    return page.locator(CHOICES).evaluate_all("nodes => nodes.map(n => n.dataset.tile)")


def match_count(page) -> int:
    return int(page.locator('[data-testid="match-count"]').inner_text())


def left_of(page, tile: str) -> int:
    """How many of ``tile`` the picker says are left (its ×n badge; no badge: one; absent: none)."""
    choice = page.locator(f'{CHOICES}[data-tile="{tile}"]')
    if not choice.count():
        return 0
    badge = choice.locator(".badge")
    return int(badge.inner_text().lstrip("×")) if badge.count() else 1


def set_sides(page, wanted: list[str | None]) -> int:
    """Tap each side of the sketch until it shows ``wanted`` (north, east, south, west; None:
    any); the taps it took."""
    taps = 0
    for side, kind in enumerate(wanted):
        edge = page.locator(f'[data-testid="edge"][data-side="{side}"]')
        for _ in range(5):
            if edge.get_attribute("data-kind") == (kind or ""):
                break
            edge.click()
            taps += 1
        else:
            raise AssertionError(f"side {side} never showed {kind}")
    return taps


def fits_some_way(edges: list[str], wanted: list[str | None]) -> bool:
    return any(all(w is None or edges[(side + turn) % 4] == w for side, w in enumerate(wanted)) for turn in range(4))


def assert_numbers_legible(page) -> None:
    """Each picture carries its tile's number, at 12 px or more, inside its button."""
    numbers = page.locator(CHOICES).evaluate_all("""nodes => nodes.map(n => {
        const label = n.querySelector('.tile-number');
        const box = label.getBoundingClientRect(), outer = n.getBoundingClientRect();
        return {tile: n.dataset.tile, text: label.textContent, size: parseFloat(getComputedStyle(label).fontSize),
                inside: box.width > 0 && box.left >= outer.left - 0.5 && box.right <= outer.right + 0.5
                        && box.bottom <= outer.bottom + 0.5};
    })""")
    assert numbers, "the picker shows pictures"
    assert all(n["text"] == n["tile"] and n["size"] >= 12 and n["inside"] for n in numbers), numbers


def undo(page, seq: int) -> None:
    page.locator('[data-testid="undo"]').click()
    page.locator('[data-testid="undo-yes"]').click()
    wait_stored(page, seq)


@pytest.mark.slow(seconds=12)
def test_hunters_and_gatherers_the_sides_narrow_the_pile_a_wrong_pick_is_changed_and_undo_puts_it_back(
        browser, live_server, keeper, artifacts: Path):
    game = "hunters-gatherers"
    engine = get_engine(game)
    record = unseeded(game, keeper)
    events = engine.random_game(2, 1)
    kind, payload = events[0]
    target = payload["tile"]
    edges = engine.edges(target)
    page = logged_in_page(browser, live_server, keeper)
    page.goto(f"{live_server.url}/scorekeeping/{record.pk}/")

    # 78 near-identical landscape tiles, each numbered.
    assert len(shown(page)) == 78 and match_count(page) == 78
    assert_numbers_legible(page)
    # The tile lies turned a quarter at the table: its sides are tapped as they lie.
    turned = [edges[(side + 1) % 4] for side in range(4)]
    edge_taps = set_sides(page, turned)
    expected = sorted(t for t in engine.tile_records() if t.startswith("L") and fits_some_way(engine.edges(t), turned))
    assert shown(page) == expected and match_count(page) == len(expected)
    assert target in expected and 1 < len(expected) <= 20, expected
    assert "of 78 match" in page.locator('[data-testid="match-line"]').inner_text()
    assert_numbers_legible(page)
    assert_tap_targets(page)
    assert_no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / "tile-picker-hunters-gatherers-sides-390.png"))

    # A wrong pick, changed before Confirm: the filters are still there, the right tile is tapped.
    wrong = next(t for t in expected if t != target)
    page.locator(f'{CHOICES}[data-tile="{wrong}"]').click()
    assert page.locator(".hand use").get_attribute("href") == f"#tile-{wrong}"
    other = page.locator('[data-testid="other-tile"]')
    assert other.is_visible() and "Wrong tile" in other.inner_text()
    page.screenshot(path=str(artifacts / "tile-picker-hunters-gatherers-wrong-pick-390.png"))
    other.click()
    assert shown(page) == expected, "back to the same search"
    page.locator(f'{CHOICES}[data-tile="{target}"]').click()
    assert page.locator(".hand use").get_attribute("href") == f"#tile-{target}"
    move_taps = lay_tile(page, game, kind, payload, pick=False)
    wait_stored(page, 1)
    assert Event.objects.get(record=record, seq=1).payload["tile"] == target
    print(f"\nTAPS hunters-gatherers: sides {edge_taps} + pick 1, then the move {move_taps}")

    # The next draw starts from the whole pile; two tiles fit nowhere and are set apart.
    assert match_count(page) == 77 and target not in shown(page)
    nowhere = page.locator(f'{CHOICES}[data-fits="nowhere"]').evaluate_all("nodes => nodes.map(n => n.dataset.tile)")
    assert nowhere == ["L14", "L18"], nowhere
    assert page.locator('[data-testid="fits-nowhere"]').inner_text().endswith(": 2")
    assert shown(page)[-2:] == ["L14", "L18"], "set apart at the end"
    page.locator('[data-testid="fits-nowhere"]').scroll_into_view_if_needed()
    scrolled = page.evaluate("document.querySelector('.picker-tiles').scrollTop")
    assert scrolled > 0
    page.evaluate("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")  # the scroll is told
    page.evaluate("window.LudologRecorder.render()")  # news from the server draws the page again
    page.wait_for_function("top => document.querySelector('.picker-tiles').scrollTop === top", arg=scrolled)
    page.screenshot(path=str(artifacts / "tile-picker-hunters-gatherers-fits-nowhere-390.png"))
    page.locator(f'{CHOICES}[data-tile="L14"]').click()
    page.locator('[data-testid="discard"]').wait_for(state="visible")  # once the engine's options for it came
    assert not page.locator('[data-testid="confirm"]').is_visible()
    page.locator('[data-testid="other-tile"]').click()

    # Undo: the tile laid is back in the bag.
    undo(page, 2)
    assert match_count(page) == 78 and left_of(page, target) == 1
    assert [e.type for e in Event.objects.filter(record=record).order_by("seq")] == ["place_tile", "undo"]
    assert page.script_errors == []


@pytest.mark.slow(seconds=14)
def test_carcassonne_the_sides_narrow_the_pile_a_wrong_pick_is_changed_and_undo_puts_it_back(
        browser, live_server, keeper, artifacts: Path):
    game = "carcassonne"
    engine = get_engine(game)
    record = unseeded(game, keeper)
    events = engine.random_game(2, 2)
    page = logged_in_page(browser, live_server, keeper, locale="fr-FR")
    page.goto(f"{live_server.url}/scorekeeping/{record.pk}/")
    assert len(shown(page)) == 24 and match_count(page) == 24

    kind, payload = events[0]
    target = payload["tile"]
    before = left_of(page, target)
    edges = engine.edges(target)
    turned = [edges[(side + 2) % 4] for side in range(4)]  # upside down, the top and right sides tapped
    turned[2:] = [None, None]
    edge_taps = set_sides(page, turned)
    expected = sorted(t for t in {e["tile"] for e in engine.options(engine.new_state(2, None))["pile"]}
                      if fits_some_way(engine.edges(t), turned))
    assert shown(page) == expected and target in expected and len(expected) < 24
    assert "sur 24 correspond" in page.locator('[data-testid="match-line"]').inner_text()
    assert_numbers_legible(page)
    page.screenshot(path=str(artifacts / "tile-picker-carcassonne-sides-fr-390.png"))
    # Content chips narrow it further and say how many each leaves; "reset" brings all back.
    page.locator('[data-testid="reset-filters"]').click()
    assert match_count(page) == 24 and page.locator('[data-testid="reset-filters"]').is_disabled()
    edge_taps = set_sides(page, turned)

    wrong = next(t for t in expected if t != target)
    page.locator(f'{CHOICES}[data-tile="{wrong}"]').click()
    page.locator('[data-testid="other-tile"]').click()
    assert shown(page) == expected
    page.locator(f'{CHOICES}[data-tile="{target}"]').click()
    move_taps = lay_tile(page, game, kind, payload, pick=False)
    wait_stored(page, 1)
    assert Event.objects.get(record=record, seq=1).payload["tile"] == target
    assert left_of(page, target) == before - 1
    print(f"\nTAPS carcassonne: sides {edge_taps} + pick 1, then the move {move_taps}")

    # Two more moves: then the four-sided city fits nowhere, and is set apart.
    for seq in (2, 3):
        lay_tile(page, game, *events[seq - 1], pick=True)
        wait_stored(page, seq)
    assert page.locator(f'{CHOICES}[data-fits="nowhere"]').evaluate_all("nodes => nodes.map(n => n.dataset.tile)") == ["C"]
    assert "Ne se pose nulle part" in page.locator('[data-testid="fits-nowhere"]').inner_text()

    # Undo three times: every tile laid goes back in the bag, the first one's count too.
    for seq in (4, 5, 6):
        undo(page, seq)
    assert left_of(page, target) == before and match_count(page) == 24
    assert page.locator(f'{CHOICES}[data-fits="nowhere"]').count() == 0
    assert page.script_errors == []


@pytest.mark.parametrize("locale", ["en-US", "fr-FR"])
def test_the_picker_on_a_phone_and_a_laptop(browser, live_server, keeper, artifacts: Path, locale: str):
    language = locale[:2]
    for game, sides in (("hunters-gatherers", ["river", None, "forest", None]), ("carcassonne", ["city", "road", None, None])):
        record = unseeded(game, keeper)
        for size, viewport in (("390", None), ("1280", LAPTOP)):
            page = logged_in_page(browser, live_server, keeper, locale=locale,
                                  **({"viewport": viewport} if viewport else {}))
            page.goto(f"{live_server.url}/scorekeeping/{record.pk}/")
            total = match_count(page)
            set_sides(page, sides)
            assert 0 < match_count(page) < total
            labels = page.locator('[data-testid="edge"][data-side="0"]').inner_text()
            assert labels == {"en": {"river": "river", "city": "city"}, "fr": {"river": "rivière", "city": "ville"}}[
                language][sides[0]]
            reset = page.locator('[data-testid="reset-filters"]').inner_text()
            assert reset.endswith("Reset filters" if language == "en" else "Effacer les filtres")
            assert_no_sideways_scroll(page)
            assert_tap_targets(page)
            assert_numbers_legible(page)
            page.screenshot(path=str(artifacts / f"tile-picker-{game}-{language}-{size}.png"))
            assert page.script_errors == []
            page.context.close()
