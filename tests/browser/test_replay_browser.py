"""The replay viewer in a real browser: the events in words in a list that scrolls
itself, Back stepping back through the replay, the end of each game explained with its features
outlined on the board, and no sideways scrolling on a laptop or a phone.

Screenshots of each game's last step at both widths go to tests/artifacts/replay-end-<game>-<width>.png.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from records.files import import_document, simulate_document
from records.models import GameRecord

from .recorder_driver import LAPTOP, PHONE, assert_no_sideways_scroll, logged_in_page

pytestmark = pytest.mark.django_db(transaction=True)

GAMES = {
    "hunters-gatherers": (4, 21, ["Ada", "Bo", "Cy", "Di"]),
    "carcassonne": (3, 12, ["Ada", "Bo", "Cy"]),
    "stone-age": (2, 9, ["Ada", "Bo"]),
}


@lru_cache(maxsize=None)
def simulated_file(slug: str) -> str:
    players, seed, names = GAMES[slug]
    return json.dumps(simulate_document(slug, players, seed, names))


def finished_record(slug: str) -> tuple[GameRecord, dict[str, Any]]:
    document = json.loads(simulated_file(slug))
    return import_document(document), document


def shown_step(page: Any, at: int) -> None:
    page.wait_for_function("at => document.querySelector('#board svg').dataset.at === String(at)", arg=at)


def step_in_url(page: Any) -> int:
    return int(re.search(r"[?&]at=(\d+)", page.url)[1])


def reader(browser: Any, live_server: Any, viewport: dict[str, int]) -> Any:
    user = get_user_model().objects.get_or_create(username="reader")[0]
    return logged_in_page(browser, live_server, user, viewport=viewport)


@pytest.mark.parametrize("slug", GAMES)
def test_the_end_of_each_game_explained_at_both_widths(browser, live_server, artifacts: Path, slug: str):
    record, document = finished_record(slug)
    last = len(document["events"])
    _players, _seed, names = GAMES[slug]
    for viewport in (LAPTOP, PHONE):
        page = reader(browser, live_server, viewport)
        page.goto(f"{live_server.url}/games/{record.pk}/replay/?at={last - 3}")
        page.locator("#step-last").click()
        shown_step(page, last)
        assert step_in_url(page) == last

        # The log in words: the players named, the last event's points, within its own box.
        named = set(page.locator("#event-list .who").all_inner_texts())
        assert named <= set(names) and len(named) >= 2
        current = page.locator("#event-list li.current")
        assert current.get_attribute("data-seq") == str(last)
        assert current.locator(".gain").count() >= 1
        status = page.locator("#step-status").inner_text()
        assert f"Event {last} of {last}" in status and "The game is over." in status
        assert page.locator("#step-notation").text_content() == document["events"][-1]["notation"]

        # The final scoring: its lines add up, with what came before, to the final scores.
        final = page.locator("#final-scoring")
        assert final.is_visible()
        sums = page.evaluate("""() => {
            const made = {};
            document.querySelectorAll('#final-scoring .final-lines .gain').forEach(gain => {
                made[gain.dataset.seat] = (made[gain.dataset.seat] || 0) + Number(gain.dataset.points);
            });
            return [...document.querySelectorAll('#final-sums tbody tr')].map(row => {
                const cells = [...row.querySelectorAll('td')].map(td => td.textContent.trim());
                return [made[row.dataset.seat] || 0, Number(cells[0]), cells[1], Number(cells[2])];
            });
        }""")
        for seat, (made, before, shown, total) in enumerate(sums):
            assert before + made == total == document["final_scores"][seat]
            assert shown == f"+{made}"

        # Picking a line outlines its feature (a tribe for Stone Age) on the board.
        line = final.locator("a[data-show]").first
        target = line.get_attribute("data-show")
        line.click()
        page.wait_for_function(
            "target => document.querySelector(`#board .final-feature[data-target='${target}']`)"
            ".getAttribute('display') === 'inline'", arg=target)
        assert line.get_attribute("aria-current") == "true"
        assert page.locator('#board .final-feature[display="inline"]').count() == 1
        if slug != "stone-age":
            assert page.locator("#board [data-award]").count() > 0, "the figures that scored are drawn"

        assert_no_sideways_scroll(page)
        page.evaluate("() => window.scrollTo(0, 0)")
        width = viewport["width"]
        page.screenshot(path=str(artifacts / f"replay-end-{slug}-{width}.png"), full_page=True)
        assert page.script_errors == []  # type: ignore[attr-defined]
        page.context.close()


@pytest.mark.parametrize("slug", GAMES)
def test_back_after_two_steps_returns_to_the_earlier_step(browser, live_server, slug: str):
    record, document = finished_record(slug)
    page = reader(browser, live_server, LAPTOP)
    page.goto(f"{live_server.url}/games/{record.pk}/replay/?at=3")
    page.locator("#step-next").click()
    shown_step(page, 4)
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("ArrowRight")
    shown_step(page, 5)
    assert step_in_url(page) == 5

    page.go_back()
    shown_step(page, 4)
    assert step_in_url(page) == 4
    assert page.locator("#event-list li.current").get_attribute("data-seq") == "4"
    assert page.locator("#step-slider").input_value() == "4"
    assert page.locator("#step-notation").text_content() == document["events"][3]["notation"]
    page.go_back()
    shown_step(page, 3)
    assert step_in_url(page) == 3
    page.go_forward()
    shown_step(page, 4)
    assert page.script_errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_the_log_scrolls_itself_and_follows_the_step(browser, live_server):
    """Stepping far into a long log scrolls the list, not the page, so that the current event is
    in view; clicking a line goes to that step."""
    record, document = finished_record("stone-age")
    last = len(document["events"])
    page = reader(browser, live_server, LAPTOP)
    page.goto(f"{live_server.url}/games/{record.pk}/replay/?at=0")
    box = page.evaluate("() => { const l = document.getElementById('event-list'); "
                        "return [l.scrollHeight, l.clientHeight, getComputedStyle(l).overflowY]; }")
    assert box[0] > box[1] and box[2] == "auto", "the log is a box of its own that scrolls"
    page.evaluate("() => window.scrollTo(0, 0)")
    page.locator("#step-slider").fill(str(last // 2))
    shown_step(page, last // 2)
    assert page.evaluate("() => window.scrollY") == 0, "the page did not scroll"
    visible = page.evaluate("""() => {
        const list = document.getElementById('event-list').getBoundingClientRect();
        const item = document.querySelector('#event-list li.current').getBoundingClientRect();
        return item.top >= list.top - 1 && item.bottom <= list.bottom + 1;
    }""")
    assert visible, "the current event is in view in the list"

    line = page.locator(f'#event-list li[data-seq="{last // 2 + 2}"] a')
    line.click()
    shown_step(page, last // 2 + 2)
    assert page.locator("#event-list li.current").get_attribute("data-seq") == str(last // 2 + 2)
    page.go_back()
    shown_step(page, last // 2)
    assert page.script_errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_a_step_outside_the_listed_events_brings_its_own_list(browser, live_server):
    """A record longer than the window: going to the start from the end swaps in the list around it."""
    record, document = finished_record("stone-age")
    last = len(document["events"])
    assert last > 2 * 150 + 1, "a record longer than the page's window"
    page = reader(browser, live_server, PHONE)
    page.goto(f"{live_server.url}/games/{record.pk}/replay/?at={last}")
    assert page.locator('#event-list li[data-seq="2"]').count() == 0
    page.locator("#step-first").click()
    shown_step(page, 0)
    page.locator("#step-next").click()
    shown_step(page, 1)
    assert page.locator("#event-list li.current").get_attribute("data-seq") == "1"
    assert "Ada" in page.locator("#step-said").inner_text() or "Bo" in page.locator("#step-said").inner_text()
    assert_no_sideways_scroll(page)
    assert page.script_errors == []  # type: ignore[attr-defined]
    page.context.close()
