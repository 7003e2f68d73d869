"""Ending games as tables end them, on a phone (390×844): the last move taken back before the end
is confirmed, then confirmed; a game ended early for a missing tile; a game abandoned; the end
screen names the winner. Screenshots of the end screen, phone and laptop, English and French, in
tests/artifacts/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games.registry import get_engine
from records import replay
from records.models import Event, GameRecord
from records.services import append_event
from tests.factories import new_record, simulated_document

from .recorder_driver import PHONE, assert_no_sideways_scroll, assert_tap_targets, at_each_width, logged_in_page
from .taps import lay_tile, wait_stored

pytestmark = pytest.mark.django_db(transaction=True)
HG = "hunters-gatherers"


def types(record: GameRecord) -> list[str]:
    return list(Event.objects.filter(record=record).order_by("seq").values_list("type", flat=True))


def winners_of(record: GameRecord) -> list[str]:
    engine = get_engine(record.game_slug)
    state, _seq = replay.state_at(record, use_snapshots=False)
    names = ["Ada", "Bastien"]
    return [names[final.seat] for final in engine.final_scores(state) if final.rank == 1]


def end_screen_shots(browser, live_server, keeper, record: GameRecord, artifacts: Path) -> None:
    """The end screen on a phone and a laptop, in English and French: looked at, and kept (a
    page a language, resized)."""
    for language, locale, heading in (("en", "en-US", "The game is over."), ("fr", "fr-FR", "La partie est terminée.")):
        page = logged_in_page(browser, live_server, keeper, viewport=PHONE, locale=locale)
        page.goto(f"{live_server.url}/scorekeeping/{record.pk}/")
        screen = page.locator('[data-testid="end-screen"]')

        def end_at(width: int) -> None:
            assert screen.is_visible() and screen.locator("h2").inner_text().startswith(heading)
            assert page.locator("body").inner_text().count(heading) == 1
            assert_no_sideways_scroll(page)
            page.screenshot(path=str(artifacts / f"end-screen-{language}-{width}.png"), full_page=True)

        at_each_width(page, end_at)
        assert page.script_errors == []
        page.context.close()


@pytest.mark.slow(seconds=25)
def test_the_last_move_is_taken_back_before_the_end_is_confirmed_and_the_end_screen_names_the_winner(
    browser, live_server, keeper, artifacts: Path,
):
    record = new_record(HG, keeper, seed=3)
    events = get_engine(HG).random_game(2, 3)
    for index, (kind, payload) in enumerate(events[:-1]):
        append_event(record, index, kind, dict(payload), recorded_by=keeper)
    last = len(events)
    page = logged_in_page(browser, live_server, keeper)
    page.goto(f"{live_server.url}/scorekeeping/{record.pk}/")
    lay_tile(page, HG, *events[-1], pick=False)
    wait_stored(page, last)
    tray = page.locator("#tray")
    assert "End the game and score it?" in tray.inner_text()
    assert page.locator("#to-play").inner_text() == "The last move ends the game."
    record.refresh_from_db()
    assert record.status == GameRecord.Status.IN_PROGRESS
    assert_tap_targets(page)
    assert page.locator('[data-testid="undo"]').is_hidden(), "one way to take the last move back, not two"
    page.screenshot(path=str(artifacts / "end-question-en-390.png"))
    # Taken back before it is confirmed: the move is laid again.
    page.locator('[data-testid="end-take-back"]').click()
    wait_stored(page, last + 1)
    assert types(record)[-1] == "undo" and page.locator('[data-testid="spot"]').count() > 0
    lay_tile(page, HG, *events[-1], pick=False)
    wait_stored(page, last + 2)
    with page.expect_navigation():
        page.locator('[data-testid="end-confirm"]').click()
    record.refresh_from_db()
    assert record.status == GameRecord.Status.FINISHED and types(record)[-1] == "end_game"
    winners = winners_of(record)
    shown = page.locator('[data-testid="winners"]').inner_text()
    assert all(name in shown for name in winners) and re.search(r"wins\.|share the win\.", shown)
    assert page.locator("#end-ranking tr.winner").count() == len(winners)
    assert page.locator("#end-scoring").is_visible()
    assert page.script_errors == []
    end_screen_shots(browser, live_server, keeper, record, artifacts)


@pytest.mark.slow(seconds=10)
def test_a_game_with_a_missing_tile_is_ended_early_from_the_recorder(browser, live_server, keeper, artifacts: Path):
    record = new_record("carcassonne", keeper, seed=None)
    played = simulated_document("carcassonne", 2, 6)["events"][:10]
    for index, event in enumerate(played):
        append_event(record, index, event["type"], event["payload"], recorded_by=keeper)
    page = logged_in_page(browser, live_server, keeper)
    page.goto(f"{live_server.url}/scorekeeping/{record.pk}/")
    page.locator('[data-testid="end-early"] summary').click()
    assert_tap_targets(page)
    page.locator('[data-testid="end-missing-tile"]').check()
    with page.expect_navigation():
        page.locator('[data-testid="end-submit"]').click()
    record.refresh_from_db()
    assert record.status == GameRecord.Status.FINISHED
    last = Event.objects.filter(record=record).order_by("-seq").first()
    assert (last.type, last.payload) == ("end_game", {"reason": "missing_tile"})
    screen = page.locator('[data-testid="end-screen"]')
    assert "Ended early: a tile was missing from the box." in screen.inner_text()
    assert all(name in screen.locator('[data-testid="winners"]').inner_text() for name in winners_of(record))
    page.screenshot(path=str(artifacts / "end-screen-missing-tile-en-390.png"), full_page=True)
    assert page.script_errors == []


@pytest.mark.slow(seconds=10)
def test_a_game_is_abandoned_from_the_recorder_with_a_reason_and_kept(browser, live_server, keeper, artifacts: Path):
    record = new_record(HG, keeper, seed=3)
    events = get_engine(HG).random_game(2, 3)
    for index, (kind, payload) in enumerate(events[:5]):
        append_event(record, index, kind, dict(payload), recorded_by=keeper)
    page = logged_in_page(browser, live_server, keeper)
    page.goto(f"{live_server.url}/scorekeeping/{record.pk}/")
    page.locator('[data-testid="end-early"] summary').click()
    # A seeded bag lacks no tile: only abandoning is offered.
    assert not page.locator('[data-testid="end-missing-tile"]').is_visible()
    page.locator('[data-testid="end-abandon"]').check()
    page.locator('[data-testid="end-submit"]').click()
    assert page.locator("#recorder-message").inner_text() == "Say why the game is abandoned."
    assert types(record) == [kind for kind, _payload in events[:5]]
    page.locator('[data-testid="abandon-reason"]').fill("The café closed")
    with page.expect_navigation():
        page.locator('[data-testid="end-submit"]').click()
    record.refresh_from_db()
    assert record.status == GameRecord.Status.ABANDONED and len(types(record)) == 6
    screen = page.locator('[data-testid="end-screen"]')
    assert "Game abandoned" in screen.inner_text() and "Reason: The café closed" in screen.inner_text()
    assert page.locator('[data-testid="winners"]').count() == 0
    page.screenshot(path=str(artifacts / "end-screen-abandoned-en-390.png"), full_page=True)
    assert page.script_errors == []


@pytest.mark.slow(seconds=12)
@pytest.mark.parametrize("game", ["hunters-gatherers", "carcassonne", "carcassonne-maps", "stone-age"])
def test_every_games_end_screen_runs_without_script_errors(browser, live_server, keeper, game):
    record = new_record(game, keeper, seed=5)
    engine = get_engine(game)
    events = engine.random_game(2, 5, dict(record.setup))
    for index, (kind, payload) in enumerate(events):
        append_event(record, index, kind, dict(payload), recorded_by=keeper, hold_end=True)
    append_event(record, len(events), "end_game", {"reason": "complete"}, recorded_by=keeper)
    page = logged_in_page(browser, live_server, keeper)
    page.goto(f"{live_server.url}/scorekeeping/{record.pk}/")
    assert page.locator('[data-testid="winners"]').inner_text()
    page.wait_for_timeout(300)  # the game's script has drawn the page
    assert page.script_errors == []
