"""Stone Age's village board read on a phone at the table: every word of it at least 14 px as
drawn (its font size scaled by the size the board is shown at), in the page's language, and none
of it under a control. Screenshots of the recorder mid-game, phone and laptop, English and
French, land in tests/artifacts/."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import pytest

from records.files import import_document
from tests.factories import simulated_document

from .recorder_driver import LAPTOP, PHONE, assert_no_sideways_scroll, logged_in_page

pytestmark = pytest.mark.django_db(transaction=True)

SMALLEST_TEXT_PX = 14

MEASURE = """() => {
    const svg = document.querySelector('#board svg');
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    const found = [];
    svg.querySelectorAll('text').forEach(node => {
        if (!node.textContent.trim()) return;
        found.push({text: node.textContent.trim(),
                    px: parseFloat(getComputedStyle(node).fontSize) * scale});
    });
    return found;
}"""

COVERED = """() => {
    const svg = document.querySelector('#board svg');
    const covered = [];
    svg.querySelectorAll('text').forEach(node => {
        if (!node.textContent.trim()) return;
        node.scrollIntoView({block: 'center', inline: 'center'});
        const box = node.getBoundingClientRect();
        const frame = svg.getBoundingClientRect();
        // The middle and the two ends of the words: all on the board, under no control.
        for (const x of [box.left + 2, box.left + box.width / 2, box.right - 2]) {
            const y = box.top + box.height / 2;
            const hit = document.elementFromPoint(x, y);
            if (!hit || !svg.contains(hit))
                covered.push(node.textContent.trim() + ' under ' + (hit ? (hit.closest('button, a, [role=button], nav, .action-bar, .zoom-controls') || hit).outerHTML.slice(0, 60) : 'nothing (off the page)'));
        }
        if (box.left < frame.left - 0.5 || box.right > frame.right + 0.5)
            covered.push(node.textContent.trim() + ' runs off the board');
    });
    window.scrollTo(0, 0);
    return covered;
}"""


@lru_cache(maxsize=None)
def _document() -> str:
    return json.dumps(simulated_document("stone-age", 2, 5))


def mid_game(keeper):
    document = json.loads(_document())
    for player, name in zip(document["players"], ["Ada", "Bastien"]):
        player["name"] = name
    document["events"] = document["events"][: len(document["events"]) // 2]
    return import_document(document, imported_by=keeper)


@pytest.mark.parametrize("locale", ["en-US", "fr-FR"])
def test_the_village_board_reads_at_14_px_on_a_phone_uncovered(browser, live_server, keeper, artifacts: Path,
                                                               locale: str):
    record = mid_game(keeper)
    page = logged_in_page(browser, live_server, keeper, viewport=PHONE, locale=locale)
    page.goto(f"{live_server.url}/scorekeeping/{record.pk}/")
    page.wait_for_selector("#tray [data-testid=place]")
    texts = page.evaluate(MEASURE)
    assert len(texts) > 20, "the board names its places, cards, buildings and tribes"
    small = sorted((round(t["px"], 1), t["text"]) for t in texts if t["px"] < SMALLEST_TEXT_PX - 0.05)
    assert small == [], f"board text under {SMALLEST_TEXT_PX} px on a 390 px phone: {small[:8]}"
    covered = page.evaluate(COVERED)
    assert covered == [], f"board text covered or cut: {covered[:8]}"
    assert_no_sideways_scroll(page)
    words = " ".join(t["text"] for t in texts)
    if locale == "fr-FR":
        for french in ("Zone de chasse", "Forêt", "Glaisière", "Carrière", "Rivière", "Champ", "Hutte",
                       "Fabricant d'outils"):
            assert french in words, f"{french!r} is not on the French board: {words[:300]}"
    language = locale[:2]
    page.screenshot(path=str(artifacts / f"recorder-stone-age-mid-390-{language}.png"))
    page.screenshot(path=str(artifacts / f"recorder-stone-age-mid-390-{language}-full.png"), full_page=True)
    assert page.script_errors == []


@pytest.mark.parametrize("locale", ["en-US", "fr-FR"])
def test_the_village_board_on_a_laptop(browser, live_server, keeper, artifacts: Path, locale: str):
    record = mid_game(keeper)
    page = logged_in_page(browser, live_server, keeper, viewport=LAPTOP, locale=locale)
    page.goto(f"{live_server.url}/scorekeeping/{record.pk}/")
    page.wait_for_selector("#tray [data-testid=place]")
    small = [t for t in page.evaluate(MEASURE) if t["px"] < SMALLEST_TEXT_PX - 0.05]
    assert small == [], f"board text under {SMALLEST_TEXT_PX} px on a laptop: {small[:8]}"
    assert page.evaluate(COVERED) == []
    assert_no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / f"recorder-stone-age-mid-1280-{locale[:2]}.png"))
    assert page.script_errors == []
