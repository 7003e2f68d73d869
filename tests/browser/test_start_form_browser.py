"""Starting a record on a phone (390×844): members tapped in, a new player added on purpose, the box used."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from accounts.roles import Role
from games.models import Copy
from games.services import demo_catalogue_data, load_catalogue
from records.models import GameRecord, Player
from tests.factories import PASSWORD, club_with_league, give_role

from .recorder_driver import at_each_width

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}
MEMBERS = ["Alice", "Bastien", "Chloé", "David", "Elif", "Fatou", "Gaspard", "Hana"]

TOO_SMALL_TO_TAP = """() => Array.from(document.querySelectorAll(
    '#start-form input:not([type=hidden]):not([type=radio]):not([type=checkbox]), #start-form button,'
    + ' #start-form select, #start-form summary, #start-form label.game-choice, #start-form label.new-player'))
  .filter((element) => element.offsetParent !== null)
  .filter((element) => element.getBoundingClientRect().height < 44)
  .map((element) => element.outerHTML.slice(0, 80))"""


@pytest.fixture
def phone(browser, transactional_db, live_server, keeper) -> Iterator[Callable[[str], object]]:
    """A new phone-sized page in the given locale, logged in as a club's scorekeeper."""
    contexts = []

    def open_page(locale: str = "en-US", viewport: dict[str, int] = PHONE):
        context = browser.new_context(viewport=viewport, locale=locale)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.goto(live_server.url + "/login/?next=/scorekeeping/")
        page.locator("input[name=username]").fill("keeper")
        page.locator("input[name=password]").fill(PASSWORD)
        page.locator("main form [type=submit]").first.click()
        page.wait_for_url(re.compile(r"/scorekeeping/$"))
        return page

    try:
        yield open_page
    finally:
        for context in contexts:
            context.close()


@pytest.fixture
def club(keeper) -> None:
    """The ludothèque's club, whose 2026 league has the ``MEMBERS``, the demo catalogue with its
    boxes on the ludothèque's shelves, and the scorekeeper one of its members."""
    organisation = club_with_league("Club de la ludothèque", "Saison 2026", MEMBERS).organisation
    load_catalogue(demo_catalogue_data(), organisation)
    give_role(keeper, Role.MEMBER, organisation)


def fits_the_phone(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], "no sideways scrolling"
    assert page.evaluate(TOO_SMALL_TO_TAP) == [], "every control at least 44 px tall"


def test_starting_a_record_on_a_phone(phone, club, artifacts: Path):
    page = phone("en-US")
    fits_the_phone(page)
    page.get_by_text("Carcassonne: Hunters and Gatherers", exact=True).click()

    page.get_by_role("button", name="Chloé").click()
    page.get_by_role("button", name="Alice").click()
    page.get_by_role("button", name="Bastien").click()
    seat = [page.get_by_label(f"Player in seat {number}") for number in range(1, 6)]
    assert [field.input_value() for field in seat[:3]] == ["Chloé", "Alice", "Bastien"]
    assert page.get_by_role("button", name="Alice").get_attribute("aria-pressed") == "true"

    page.get_by_role("button", name="Clear seat 3").click()
    assert seat[2].input_value() == ""
    assert page.get_by_role("button", name="Bastien").get_attribute("aria-pressed") == "false"
    seat[2].fill("Zoé")

    copy_select = page.get_by_label("Copy used (optional)")
    offered = copy_select.locator("option:not([hidden])").all_inner_texts()
    assert offered[1:] and all(label.startswith("Carcassonne à la prèhistoire · LUD-HG-") for label in offered[1:])
    copy = Copy.objects.get(barcode="LUD-HG-0002")
    copy_select.select_option(str(copy.pk))

    with page.expect_response(re.compile(r"/scorekeeping/$")) as answer:
        page.get_by_role("button", name="Start the record").click()
    assert answer.value.status == 400
    assert "No player called “Zoé” yet." in page.get_by_role("alert").first.inner_text()
    assert not GameRecord.objects.exists()
    page.get_by_label("Add Zoé as a new player").check()
    fits_the_phone(page)
    page.screenshot(path=str(artifacts / "start-390.png"), full_page=True)

    page.get_by_role("button", name="Start the record").click()
    page.wait_for_url(re.compile(r"/scorekeeping/\d+/$"))
    record = GameRecord.objects.get()
    assert [s.player.display_name for s in record.seats.order_by("seat_order")] == ["Chloé", "Alice", "Zoé"]
    assert (record.copy, record.catalogue_record, record.game_slug) == (copy, copy.record, "hunters-gatherers")
    assert Player.objects.filter(display_name="Zoé").count() == 1


def test_the_start_page_in_french_on_a_phone(phone, club, artifacts: Path):
    page = phone("fr-FR")
    assert page.locator("html").get_attribute("lang") == "fr"
    page.get_by_text("Stone Age", exact=True).click()
    offered = page.get_by_label("Exemplaire utilisé (facultatif)").locator("option:not([hidden])").all_inner_texts()
    assert offered[0] == "Aucun exemplaire de la ludothèque" and all("LUD-SA-" in label for label in offered[1:])
    page.get_by_role("button", name="Hana").click()
    page.get_by_label("Joueur à la place 2").fill("hana")
    assert page.get_by_role("button", name="Hana").get_attribute("aria-pressed") == "true", "one Hana, any case"
    page.get_by_label("Joueur à la place 2").fill("Élodie")
    page.get_by_text("Ludolog pioche et lance les dés").click()
    page.get_by_label("Graine (facultative)").fill("7")
    page.get_by_role("button", name="Commencer la partie").click()
    page.get_by_label("Ajouter Élodie comme nouveau joueur").check()
    fits_the_phone(page)
    page.screenshot(path=str(artifacts / "start-390-fr.png"), full_page=True)
    page.get_by_role("button", name="Commencer la partie").click()
    page.wait_for_url(re.compile(r"/scorekeeping/\d+/$"))
    record = GameRecord.objects.get()
    assert [s.player.display_name for s in record.seats.order_by("seat_order")] == ["Hana", "Élodie"]
    assert record.seed == 7 and record.game_slug == "stone-age"


def test_carcassonne_s_expansions_are_asked_only_when_it_is_chosen(phone, club, artifacts: Path):
    page = phone("en-US")
    expansions = page.locator('fieldset.setup-choices[data-game="carcassonne"]')
    page.get_by_text("Carcassonne: Hunters and Gatherers", exact=True).click()
    assert not expansions.is_visible(), "another game's set-up is not asked"
    page.get_by_text("Carcassonne", exact=True).click()
    assert expansions.is_visible()
    expansions.get_by_label("Inns & Cathedrals").check()
    expansions.get_by_label("Traders & Builders").check()
    expansions.get_by_label("Their tiles only, without their rules").check()
    expansions.get_by_label("Meeples per player").fill("9")
    for name in ("Alice", "Bastien", "Chloé"):
        page.get_by_role("button", name=name).click()
    fits_the_phone(page)
    assert all(box["height"] >= 44 for box in (
        label.bounding_box() for label in expansions.locator("label.check, .field.check > label").all()))
    page.screenshot(path=str(artifacts / "start-carcassonne-390.png"), full_page=True)
    page.get_by_role("button", name="Start the record").click()
    page.wait_for_url(re.compile(r"/scorekeeping/\d+/$"))
    record = GameRecord.objects.get()
    assert record.setup == {"expansions": ["inns_cathedrals", "traders_builders"], "rules": [], "meeples": 9}


LAPTOP = {"width": 1280, "height": 800}


@pytest.mark.parametrize("locale, viewport", [("en-US", LAPTOP), ("fr-FR", PHONE)], ids=["1280-en-US", "390-fr-FR"])
def test_colours_draws_first_player_and_a_friendly_game_are_chosen_at_the_start(phone, club, artifacts: Path,
                                                                                 locale, viewport):
    """Chosen on a laptop in English and on a phone in French (the longer words on the narrower
    screen); the choices and the game's page looked at on both screens."""
    from records.services import SeatSpec, start_game

    keeper = get_user_model().objects.get(username="keeper")
    start_game(game_slug="carcassonne", seats=[SeatSpec("Alice"), SeatSpec("Bastien")], created_by=keeper)
    page = phone(locale, viewport)
    in_progress = page.locator("li.in-progress-game").first.inner_text()
    assert "Carcassonne" in in_progress and "Alice, Bastien" in in_progress

    page.locator("input[name=game][value=stone-age]").check()
    for name in ("Alice", "Bastien", "Chloé"):
        page.get_by_role("button", name=name).click()
    colour_1 = page.locator("select[name=colour_1]")
    offered = colour_1.locator("option:not([hidden])").evaluate_all("options => options.map(o => o.value)")
    assert sorted(offered) == ["", "blue", "green", "red", "yellow"], "only Stone Age's colours"
    colour_1.select_option("blue")
    swatches = page.locator(".seat-colour-swatch").evaluate_all(
        "spans => spans.map(s => getComputedStyle(s).backgroundColor)")
    assert swatches[0] == "rgb(29, 78, 216)" and swatches[1] == "rgb(214, 40, 40)", "blue chosen, red the next"

    seed_field = page.locator("#seed-field")
    assert not seed_field.is_visible(), "physical draws unless Ludolog draws"
    page.locator("input[name=ludolog_draws]").check()
    assert seed_field.is_visible() and page.locator("input[name=seed]").input_value().isdigit(), \
        "the seed Ludolog picked, shown and editable"
    page.locator("input[name=is_friendly]").check()
    page.locator("#shuffle-now").click()
    seats = [page.locator(f"input[name=seat_{n}]").input_value() for n in range(1, 4)]
    assert sorted(seats) == ["Alice", "Bastien", "Chloé"]
    colours = {seats[n]: page.locator(f"select[name=colour_{n + 1}]").input_value() for n in range(3)}
    assert colours["Alice"] == "blue", "the colour moves with its player"
    suffix = "" if locale == "en-US" else "-fr"

    def choices_at(width: int) -> None:
        if width == PHONE["width"]:
            fits_the_phone(page)
        page.screenshot(path=str(artifacts / f"start-choices-{width}{suffix}.png"), full_page=True)

    at_each_width(page, choices_at)

    page.locator("button.start-button").click()
    page.wait_for_url(re.compile(r"/scorekeeping/\d+/$"))
    record = GameRecord.objects.get(game_slug="stone-age")
    assert record.seed is not None and record.is_friendly and record.play_started_at is not None
    assert [s.player.display_name for s in record.seats.order_by("seat_order")] == seats
    assert record.seats.get(player__display_name="Alice").colour == "blue"
    assert len({seat.colour for seat in record.seats.all()}) == 3

    page.goto(f"{page.url.split('/scorekeeping/')[0]}/games/{record.pk}/")
    facts = page.locator("dl.facts").first.inner_text()
    assert ("Friendly game (not in the league)" if locale == "en-US" else "Partie amicale (hors ligue)") in facts
    assert page.locator("details.play-times input[name=play_started_at]").input_value()
    at_each_width(page, lambda width: page.screenshot(path=str(artifacts / f"game-page-times-{width}{suffix}.png"),
                                                      full_page=True))
