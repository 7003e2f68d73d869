"""A club member logs Saturday's game of Azul (no rules engine) on a phone (390×844): the game in a
tap among the club's recent games, the players in a tap each from the club's members, their scores
typed, the copy from the shelf; then the result shows in the league's standings, in the player's
statistics and in the copy's play count. A friendly game stays out of the standings; a correction
moves a rating and the list of what moved names the player. Screenshots in English and French."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from games.models import CatalogueRecord, Copy
from records.models import GameRecord, Player
from scoring.models import Club, League, LeagueMembership, Rating, Standing
from tests.factories import the_library

from .recorder_driver import LAPTOP, assert_no_sideways_scroll, logged_in_page

pytestmark = pytest.mark.django_db(transaction=True)

TAP_BUDGET = 8


@pytest.fixture
def club(celery_eager):
    david = get_user_model().objects.create_user("david", password="david-pw-123456")
    league = League.objects.create(club=Club.objects.create(name="Les Meeples", organisation=the_library()),
                                   name="Autumn", game_slugs=[],
                                   starts_on=date(2026, 1, 1), ends_on=date(2030, 12, 31),
                                   points_table={"2": [3, 1], "3": [5, 3, 1]})
    for name, user in (("David", david), ("Élif", None), ("Chloé", None)):
        LeagueMembership.objects.create(league=league, player=Player.objects.create(display_name=name, user=user))
    azul = CatalogueRecord.objects.create(title="Azul", min_players=2, max_players=4)
    copy = Copy.objects.create(organisation=the_library(), record=azul, barcode="LUD-0042", shelf_location="J-AZU")
    return {"david": david, "league": league, "azul": azul, "copy": copy}


def log_by_taps(page, live_server, *, game: str, scores: dict[str, int], copy: str | None = None,
                friendly: bool = False) -> int:
    """Log a result as a member does with a thumb; the taps it took (typing the scores aside)."""
    page.goto(f"{live_server.url}/scorekeeping/result/")
    taps = 0
    recent = page.locator('[data-testid="recent-game"]', has_text=game)
    if recent.count():
        recent.click()
    else:
        page.fill("#id_title", game)
    taps += 1
    for name, score in scores.items():
        page.locator("#member-chips button.chip", has_text=name).click()
        taps += 1
        page.keyboard.type(str(score))  # the score field has the focus after the chip
    if copy:
        page.locator("details.result-more summary").click()
        page.select_option("#id_copy", label=copy)
        taps += 2
    if friendly:
        page.locator("#id_is_friendly").check()
        taps += 1
    with page.expect_navigation():
        page.locator('[data-testid="log-result"]').click()
    return taps + 1


@pytest.mark.slow(seconds=20)
def test_a_result_logged_by_taps_shows_everywhere_and_a_correction_says_who_moved(browser, live_server, club,
                                                                                artifacts: Path):
    page = logged_in_page(browser, live_server, club["david"])
    # Azul once already, so that it is among the club's recent games: one tap.
    first = log_by_taps(page, live_server, game="Azul", scores={"David": 48, "Élif": 50})
    page.goto(f"{live_server.url}/scorekeeping/result/")
    assert page.locator('[data-testid="recent-game"]', has_text="Azul").count() == 1
    assert_no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / "log-result-390.png"), full_page=True)

    taps = log_by_taps(page, live_server, game="Azul", scores={"David": 61, "Élif": 52, "Chloé": 40},
                       copy="Azul · LUD-0042 · J-AZU")
    assert first <= TAP_BUDGET and taps <= TAP_BUDGET, (first, taps)
    record = GameRecord.objects.order_by("-pk").first()
    assert page.url.endswith(f"/games/{record.pk}/")
    assert record.copy == club["copy"] and record.result_only
    page.screenshot(path=str(artifacts / "log-result-logged-390.png"), full_page=True)

    page.goto(f"{live_server.url}/leagues/{club['league'].pk}/")
    standings = page.locator("#standings").inner_text()
    assert "David" in standings and "Chloé" in standings
    page.goto(f"{live_server.url}/players/{Player.objects.get(display_name='David').pk}/")
    assert "azul" in page.locator("#player-statistics").inner_text().lower()
    page.goto(f"{live_server.url}/catalogue/{club['azul'].pk}/")
    copy_row = page.locator("tr", has_text="LUD-0042")
    assert copy_row.locator('td[data-label="Times played"]').inner_text().strip() == "1"

    # A friendly game: logged, but not in the standings.
    before = Standing.objects.get(league=club["league"], player__display_name="David").games
    log_by_taps(page, live_server, game="Azul", scores={"David": 70, "Élif": 20}, friendly=True)
    assert GameRecord.objects.order_by("-pk").first().is_friendly
    assert Standing.objects.get(league=club["league"], player__display_name="David").games == before

    # The second game corrected: Chloé had 70, not 40; David's rating moves and the list names him.
    rating_before = Rating.objects.get(game_slug="azul", club=club["league"].club, player__display_name="David").ordinal
    page.goto(f"{live_server.url}/games/{record.pk}/")
    page.locator('[data-testid="correct-result"]').click()
    page.fill('input[name="score_2"]', "70")
    page.fill('input[name="reason"]', "Chloé's score was misread")
    with page.expect_navigation():
        page.locator('[data-testid="correct-submit"]').click()
    page.reload()
    impacts = page.locator('[data-testid="impacts"]')
    impacts.wait_for()
    assert page.locator('[data-testid="impact-line"][data-player="David"]').count() >= 1
    rating_after = Rating.objects.get(game_slug="azul", club=club["league"].club, player__display_name="David").ordinal
    assert rating_after != rating_before
    assert_no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / "log-result-impact-390.png"), full_page=True)
    assert page.script_errors == []


@pytest.mark.slow(seconds=8)
def test_the_result_page_in_french_and_on_a_laptop(browser, live_server, club, artifacts: Path):
    for name, size, locale in (("fr-390", None, "fr-FR"), ("1280", LAPTOP, "en-US")):
        page = logged_in_page(browser, live_server, club["david"], **({"viewport": size} if size else {}),
                              locale=locale)
        page.goto(f"{live_server.url}/scorekeeping/result/")
        page.screenshot(path=str(artifacts / f"log-result-{name}.png"), full_page=True)
        wide = page.evaluate("""() => [...document.querySelectorAll('body *')].filter(n =>
            n.getBoundingClientRect().right > document.documentElement.clientWidth + 1).slice(0, 5)
            .map(n => n.tagName + '.' + n.className + '#' + n.id)""")
        assert_no_sideways_scroll(page), wide
        assert page.script_errors == []
