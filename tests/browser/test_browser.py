"""The issue's four scenarios in a real browser: catalogue search, replay stepping, French, scorekeeping."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from games.services import demo_catalogue_data, load_catalogue
from records.files import import_document, simulate_document
from records.models import GameRecord, Player
from tests.factories import HG, PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)

HG_ENGLISH_TITLE = "Carcassonne: Hunters and Gatherers"


@lru_cache(maxsize=None)
def simulated_file(seed: int) -> str:
    return json.dumps(simulate_document(HG, 4, seed, ["Ada", "Bo", "Cy", "Di"]))


def simulated_game(seed: int = 5) -> GameRecord:
    return import_document(json.loads(simulated_file(seed)))


def test_an_accentless_search_finds_the_hunters_and_gatherers_record(page, live_server):
    load_catalogue(demo_catalogue_data())
    query = "prehistoire" if connection.vendor == "postgresql" else "Carcassonne"
    page.goto(live_server.url + "/catalogue/")
    search = page.locator("#catalogue-search")
    search.get_by_role("searchbox").fill(query)
    search.get_by_role("button", name="Search").click()
    page.wait_for_url(re.compile(r"[?&]q=" + query))
    # An English reader is shown the record under its English title (its catalogued one is French).
    page.get_by_role("link", name=HG_ENGLISH_TITLE).first.click()
    page.wait_for_url(re.compile(r"/catalogue/\d+/$"))
    assert page.locator("h1").inner_text() == HG_ENGLISH_TITLE


def test_stepping_through_a_replay_with_the_keyboard(page, live_server, artifacts: Path):
    record = simulated_game()
    page.goto(f"{live_server.url}/games/{record.pk}/replay/")
    board = page.locator("#board svg")
    assert board.locator("g.last-placed").get_attribute("data-tile") == "S"
    totals_before = page.locator("#score-table td.total").all_inner_texts()

    page.locator("body").click(position={"x": 5, "y": 5})  # focus the page, not a control
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    page.wait_for_url(re.compile(r"[?&]at=5$"))
    page.wait_for_function("() => document.querySelector('#board svg').dataset.at === '5'")

    events = json.loads(simulated_file(5))["events"]
    assert board.locator("g.last-placed").get_attribute("data-tile") == events[4]["payload"]["tile"]
    assert page.locator("#step-slider").input_value() == "5"
    assert page.locator("#event-list li.current").get_attribute("data-seq") == "5"
    assert events[4]["notation"] not in page.locator("#step-status").inner_text()  # words
    assert page.locator("#step-notation").text_content() == events[4]["notation"]  # for the experts
    # The score table is the state API's at step 5, not the start's.
    state = page.evaluate(f"fetch('/api/records/{record.pk}/state/?at=5').then(r => r.json())")
    expected = [str(score["total"]) for score in state["position"]["scores"]]
    assert page.locator("#score-table td.total").all_inner_texts() == expected
    rows = page.locator("#score-table tbody tr")
    current = state["position"]["current_player"]
    assert "to-play" in rows.nth(current).get_attribute("class")
    assert "to-play" not in (page.locator("#score-table tbody tr").nth((current + 1) % 4).get_attribute("class") or "")
    assert totals_before == ["0", "0", "0", "0"]

    page.keyboard.press("End")
    page.wait_for_url(re.compile(r"[?&]at=%d$" % len(events)))
    page.wait_for_function(f"() => document.querySelector('#board svg').dataset.at === '{len(events)}'")
    final = [str(score) for score in json.loads(simulated_file(5))["final_scores"]]
    assert page.locator("#score-table td.total").all_inner_texts() == final, "the table changes with the step"
    page.keyboard.press("Home")
    page.wait_for_url(re.compile(r"[?&]at=0$"))
    page.locator("#step-next").click()
    page.wait_for_url(re.compile(r"[?&]at=1$"))
    page.screenshot(path=str(artifacts / "replay.png"), full_page=True)

    page.reload()  # the shared URL opens the same position
    assert page.locator("#board svg g.last-placed").get_attribute("data-tile") == events[0]["payload"]["tile"]


def test_switching_to_french(page, live_server):
    simulated_game()
    page.goto(live_server.url + "/games/")
    assert page.locator("html").get_attribute("lang") == "en"
    assert "Jan. 1, 2026" in page.locator("table.history").inner_text()
    page.get_by_label("Language").select_option("fr")
    page.locator("form.language-form button").click()
    page.wait_for_function("() => document.documentElement.lang === 'fr'")
    # Django's own French: month names in localised dates.
    assert "1 janvier 2026" in page.locator("table.history").inner_text()
    # The project's own French catalogue: the navigation and the page speak French.
    nav = page.get_by_role("navigation", name="Principal")
    assert "Enregistrer une partie" in nav.inner_text() and "Record a game" not in nav.inner_text()
    assert page.get_by_label("Langue").is_visible()


def test_an_illegal_action_on_the_scorekeeping_page_shows_the_engines_reason(page, live_server):
    User = get_user_model()
    User.objects.create_user("keeper", password=PASSWORD)
    Player.objects.create(display_name="Ada")
    Player.objects.create(display_name="Bo")
    page.goto(live_server.url + "/scorekeeping/")
    page.wait_for_url(re.compile(r"/login/"))
    page.get_by_label(re.compile("Username", re.I)).fill("keeper")
    page.get_by_label(re.compile("Password", re.I)).fill(PASSWORD)
    page.locator("main form button[type=submit], main form input[type=submit]").first.click()
    page.wait_for_url(re.compile(r"/scorekeeping/$"))

    page.get_by_label("Player in seat 1").fill("Ada")
    page.get_by_label("Player in seat 2").fill("Bo")
    page.get_by_label("Ludolog draws and rolls").check()
    page.get_by_label("Seed (optional)").fill("7")
    page.get_by_role("button", name="Start the record").click()
    page.wait_for_url(re.compile(r"/scorekeeping/\d+/$"))
    record = GameRecord.objects.get()
    drawn = page.evaluate("window.LudologRecorder.table.options.drawn")

    page.get_by_text("Type an action in the game's notation (experts)").click()
    page.get_by_role("textbox", name="Next action").fill(f"{drawn}@0,0r0")
    with page.expect_response(re.compile(r"/scorekeeping/\d+/$")) as answer:
        page.get_by_role("button", name="Record", exact=True).click()
    assert answer.value.status == 422
    error = page.get_by_role("alert")
    assert "a tile already lies at (0,0)" in error.inner_text()
    assert "occupied" in error.inner_text()
    assert page.get_by_role("textbox", name="Next action").get_attribute("aria-invalid") == "true"
    assert record.events.count() == 0


def test_stepping_through_a_stone_age_replay(page, live_server, artifacts: Path):
    """The same viewer for a game without tiles: the village, the card row and the tribes change."""
    document = simulate_document("stone-age", 3, 9, ["Ada", "Bo", "Cy"])
    record = import_document(document)
    page.goto(f"{live_server.url}/games/{record.pk}/replay/?at=0")
    board = page.locator("#board svg.stone-age")
    assert board.get_attribute("data-at") == "0"
    assert page.locator("#board g.tribe").count() == 3
    first = document["events"][0]["payload"]["location"]
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("ArrowRight")
    page.wait_for_url(re.compile(r"[?&]at=1$"))
    page.wait_for_function("() => document.querySelector('#board svg').dataset.at === '1'")
    # Ada's people now stand on the place she chose.
    assert page.locator(f'#board g[data-location="{first}"] g.people[data-seat="0"]').count() == 1
    page.keyboard.press("End")
    page.wait_for_function(f"() => document.querySelector('#board svg').dataset.at === '{len(document['events'])}'")
    final = [str(score) for score in document["final_scores"]]
    assert page.locator("#score-table td.total").all_inner_texts() == final
    page.screenshot(path=str(artifacts / "replay-stone-age.png"), full_page=True)


def test_stepping_through_a_carcassonne_replay(page, live_server, artifacts: Path):
    """Base Carcassonne in the same viewer: each step lays one more tile and outlines it."""
    document = simulate_document("carcassonne", 2, 12, ["Ada", "Bo"])
    record = import_document(document)
    page.goto(f"{live_server.url}/games/{record.pk}/replay/?at=10")
    assert page.locator("#board svg.carcassonne g.tile").count() == 11
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("ArrowRight")
    page.wait_for_url(re.compile(r"[?&]at=11$"))
    page.wait_for_function("() => document.querySelector('#board svg').dataset.at === '11'")
    assert page.locator("#board svg g.tile").count() == 12
    laid = document["events"][10]["payload"]
    outlined = page.locator("#board g.tile.last-placed")
    assert (outlined.get_attribute("data-x"), outlined.get_attribute("data-y")) == (str(laid["x"]), str(laid["y"]))
    page.keyboard.press("End")
    page.wait_for_function(f"() => document.querySelector('#board svg').dataset.at === '{len(document['events'])}'")
    final = [str(score) for score in document["final_scores"]]
    assert page.locator("#score-table td.total").all_inner_texts() == final
    page.screenshot(path=str(artifacts / "replay-carcassonne.png"), full_page=True)
