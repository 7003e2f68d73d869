"""An organiser creates a league on a phone (390×844) and a laptop (1280×800), in English and
French, without the Django admin (issue 35, done-when point 3): from the league list, "New
league", every game (the default), the F1-like points preset, three players found by their names,
two co-organisers; the league saved as such, and its page shows the points; the edit page opens
on what was saved. No page on the way is the admin's.
Screenshots: league-form-<language>-<width>.png, league-saved-…, league-edit-….
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlparse

import pytest

from accounts.models import Organisation
from accounts.roles import Role
from games.models import CatalogueRecord
from records.models import Player
from scoring import leagues
from scoring.models import League
from tests.factories import give_role

from .recorder_driver import LAPTOP, PHONE, assert_no_sideways_scroll, at_each_width, logged_in_page

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = {
    "en": {"leagues": "Leagues", "new": "New league", "f1": "F1-like", "create": "Create the league",
           "created": "The league Saison d’hiver is created.", "edit": "Edit the league", "points": "Points by place"},
    "fr": {"leagues": "Ligues", "new": "Nouvelle ligue", "f1": "Façon F1", "create": "Créer la ligue",
           "created": "La ligue Saison d’hiver est créée.", "edit": "Modifier la ligue",
           "points": "Points selon la place"},
}


def watched(page, visited: list[str]):
    """``page``, each of its navigations noted in ``visited``."""
    page.on("framenavigated", lambda frame: visited.append(frame.url) if frame == page.main_frame else None)
    return page


def the_demo_ludotheque(django_user_model, language: str):
    """As ``load_demo`` makes it: the ludothèque with its organiser ``organisateur`` (Alice), its
    members with their players, a player of its history without an account, a few catalogue titles;
    and the second club, whose members the form never offers."""
    ludotheque = Organisation.objects.create(name="Ludothèque (démo)", slug="ludotheque-demo",
                                             kind=Organisation.Kind.BOTH, language=language)
    dunes = Organisation.objects.create(name="Club des Dunes (démo)", slug="les-dunes")
    organiser = give_role(django_user_model.objects.create_user("organisateur"), Role.ORGANISER, ludotheque)
    Player.objects.create(display_name="Alice", user=organiser)
    people = {}
    for username, name in [("bruno", "Bruno"), ("chloe", "Chloé"), ("david", "David"), ("elif", "Elif")]:
        people[name] = give_role(django_user_model.objects.create_user(username), None, ludotheque)
        Player.objects.create(display_name=name, user=people[name])
    dune = give_role(django_user_model.objects.create_user("dunes"), Role.ORGANISER, dunes)
    Player.objects.create(display_name="Yann des Dunes", user=dune)
    for title in ("Les Aventuriers du Rail", "Azul", "7 Wonders", "Dixit"):
        CatalogueRecord.objects.create(title=title)
    return ludotheque, organiser, people


@pytest.mark.slow(seconds=12)
@pytest.mark.parametrize("language, viewport", [("en", LAPTOP), ("fr", PHONE)], ids=["en-1280", "fr-390"])
def test_an_organiser_creates_a_league_for_every_game(browser, live_server, artifacts: Path, django_user_model,
                                                      viewport, language):
    """Clicked through on a laptop in English and on a phone in French (the longer words on the
    narrower screen); each step looked at on both screens."""
    words = WORDS[language]

    def look(step: str) -> None:
        def at(width: int) -> None:
            assert_no_sideways_scroll(page)
            page.screenshot(path=str(artifacts / f"league-{step}-{language}-{width}.png"), full_page=True)

        at_each_width(page, at)

    ludotheque, organiser, people = the_demo_ludotheque(django_user_model, language)
    visited: list[str] = []
    page = watched(logged_in_page(browser, live_server, organiser, viewport=viewport,
                                  locale="fr-FR" if language == "fr" else "en-US"), visited)

    page.goto(f"{live_server.url}/leagues/")
    with page.expect_navigation():
        page.get_by_test_id("new-league").click()
    assert page.locator("h1").inner_text() == words["new"]
    form = page.get_by_test_id("league-form")
    form.locator("input[name=name]").fill("Saison d’hiver")
    # Every game is the default: the list of games stays folded away.
    assert form.locator("input[name=games_scope][value=all]").is_checked()
    assert not page.get_by_test_id("game-list").is_visible()
    form.get_by_label(words["f1"]).check()
    four = form.locator(".points-line[data-size='4'] input.points")
    assert [four.nth(place).input_value() for place in range(4)] == ["25", "18", "15", "12"]
    # Players found by their names, accents or not.
    players = page.get_by_test_id("members-choice")
    for name in ("Alice", "Bruno", "Chloé"):
        players.get_by_label(name, exact=True).check()
    assert "Yann des Dunes" not in players.inner_text()
    co_organisers = page.get_by_test_id("organisers-choice")
    co_organisers.get_by_label("Bruno", exact=True).check()
    co_organisers.get_by_label("Chloé", exact=True).check()
    look("form")
    assert page.script_errors == []  # type: ignore[attr-defined]

    with page.expect_navigation():
        form.get_by_role("button", name=words["create"]).click()
    league = League.objects.get()
    assert urlparse(page.url).path == f"/leagues/{league.pk}/"
    assert words["created"] in page.locator(".messages").inner_text()
    assert league.game_slugs == [] and league.club.organisation == ludotheque
    assert league.points_table == leagues.preset_table(leagues.F1_LIKE)
    assert set(league.organisers.all()) == {people["Bruno"], people["Chloé"]}
    assert set(league.members.values_list("display_name", flat=True)) == {"Alice", "Bruno", "Chloé"}
    assert "25 / 18 / 15 / 12" in page.get_by_test_id("points-by-place").inner_text()
    look("saved")

    with page.expect_navigation():
        page.get_by_role("link", name=words["edit"]).click()
    assert page.locator("input[name=points_preset][value=f1]").is_checked()
    assert page.locator("input[name=games_scope][value=all]").is_checked()
    # Choosing games: the list unfolds, and a name typed without its accent finds its game.
    page.locator("input[name=games_scope][value=chosen]").check()
    page.locator("#game-filter").fill("aventuriers")
    games = page.get_by_test_id("game-list")
    assert games.get_by_label("Les Aventuriers du Rail").is_visible()
    assert not games.get_by_label("Azul").is_visible()
    assert "hunters-gatherers" not in games.inner_text()
    look("edit")
    assert page.script_errors == []  # type: ignore[attr-defined]

    assert visited and not [url for url in visited if urlparse(url).path.startswith("/admin/")]
