"""A tournament run from a phone (390×844), in French: thirteen players, three rounds of tables
of four and three, one drop-out after round 2, every table's result typed on the phone, then the
standings CSV and the pairing sheet PDF read back. Screenshots: tournament-390-fr.png,
tournament-round-390-fr.png, tournament-table-390-fr.png, tournament-1280-fr.png,
tournament-round-1280-fr.png, tournaments-390-fr.png (the list and its form).

And a table's game recorded from the table (Pebbles, the tests' toy engine): "Record this game"
tapped on the phone opens the recorder seated in the table's order; the game tapped to its end
enters the table's result. Screenshots: tournament-table-record-390.png,
tournament-table-recorded-390.png."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from pypdf import PdfReader

from accounts.roles import Role
from games.models import CatalogueRecord
from records.models import GameRecord, Player
from tests.factories import give_role, the_library
from tests.toy_game import SLUG, registered
from tournaments import selectors
from tournaments.models import Entrant, Round, TableResult, Tournament

from .recorder_driver import LAPTOP, PHONE, assert_no_sideways_scroll, assert_tap_targets, logged_in_page
from .taps import wait_stored

pytestmark = pytest.mark.django_db(transaction=True)


def enter_every_table(page, base: str, number: int) -> list[int]:
    """Each table's result typed in: the first seat 40, then 10 fewer a seat. The sizes seated."""
    page.goto(f"{base}rounds/{number}/")
    assert_no_sideways_scroll(page)
    sizes = [page.locator('[data-testid="table"]').nth(i).locator(".seat-list li").count()
             for i in range(page.locator('[data-testid="table"]').count())]
    for table in range(1, len(sizes) + 1):
        page.goto(f"{base}rounds/{number}/tables/{table}/")
        inputs = page.locator('[data-testid="result-form"] input[type="number"]')
        for position in range(inputs.count()):
            inputs.nth(position).fill(str(40 - 10 * position))
        page.locator('[data-testid="result-form"] button[type="submit"]').click()
        page.wait_for_url(f"{base}rounds/{number}/")
    return sizes


@pytest.mark.slow(seconds=20)
def test_a_thirteen_player_tournament_run_from_a_phone(browser, live_server, artifacts: Path, django_user_model):
    library = the_library()
    library.language = "fr"
    library.save()
    organiser = give_role(django_user_model.objects.create_user("organisatrice"), Role.ORGANISER, library)
    game = CatalogueRecord.objects.create(title="Terra Mystica", added_with_a_result=True)
    tournament = Tournament.objects.create(organisation=library, name="Open de printemps", game=game, table_size=4,
                                           rounds_planned=3, created_by=organiser)
    names = ["Adèle", "Baptiste", "Chloé", "Dorian", "Éloïse", "Fabien", "Gaëlle", "Hugo", "Inès", "Jules",
             "Karim", "Léa", "Maëlys"]
    players = Player.objects.bulk_create([Player(display_name=name, name_key=name.lower()) for name in names])
    Entrant.objects.bulk_create([Entrant(tournament=tournament, player=player, checked_in=player.display_name != "Maëlys")
                                 for player in players])
    base = f"{live_server.url}/tournaments/{tournament.pk}/"
    page = logged_in_page(browser, live_server, organiser, viewport=PHONE, locale="fr-FR")

    page.goto(base)
    page.locator('[data-testid="entrant"]', has_text="Maëlys").locator('button[value="check_in"]').click()
    page.wait_for_url(base)
    page.locator('[data-testid="draw"] button').click()
    page.wait_for_url(f"{base}rounds/1/")
    page.screenshot(path=str(artifacts / "tournament-round-390-fr.png"), full_page=True)
    page.goto(f"{base}rounds/1/tables/1/")
    assert_no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / "tournament-table-390-fr.png"), full_page=True)
    assert enter_every_table(page, base, 1) == [4, 3, 3, 3]

    page.goto(base)
    page.locator('[data-testid="draw"] button').click()
    page.wait_for_url(f"{base}rounds/2/")
    assert enter_every_table(page, base, 2) == [4, 3, 3, 3]

    page.goto(base)
    page.locator('[data-testid="entrant"]', has_text="Hugo").locator('button[value="drop"]').click()
    page.wait_for_url(base)
    page.locator('[data-testid="draw"] button').click()
    page.wait_for_url(f"{base}rounds/3/")
    assert enter_every_table(page, base, 3) == [4, 4, 4]

    page.goto(base)
    assert_no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / "tournament-390-fr.png"), full_page=True)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert TableResult.objects.count() == 11 and GameRecord.objects.filter(organisation=library).count() == 11
    hugo = Entrant.objects.get(player__display_name="Hugo")
    assert not Round.objects.get(tournament=tournament, number=3).seats.filter(entrant=hugo).exists()

    answer = page.request.get(f"{base}standings.csv")
    rows = list(csv.reader(io.StringIO(answer.body().decode("utf-8-sig"))))
    lines = selectors.standings(tournament)
    assert len(rows) == 14
    assert [row[1] for row in rows[1:]] == [Entrant.objects.get(pk=line.player).player.display_name for line in lines]
    assert rows[1 + [line.player for line in lines].index(hugo.pk)][-1] == "2"
    sheet = page.request.get(f"{base}rounds/3/pairing.pdf")
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(sheet.body())).pages)
    assert "Open de printemps" in text and all(name in text for name in names if name != "Hugo")
    assert "Hugo" not in text

    page.goto(f"{live_server.url}/tournaments/")
    assert_no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / "tournaments-390-fr.png"), full_page=True)

    wide = logged_in_page(browser, live_server, organiser, viewport=LAPTOP, locale="fr-FR")
    wide.goto(base)
    wide.screenshot(path=str(artifacts / "tournament-1280-fr.png"), full_page=True)
    wide.goto(f"{base}rounds/3/")
    wide.screenshot(path=str(artifacts / "tournament-round-1280-fr.png"), full_page=True)
    assert not page.script_errors and not wide.script_errors


@pytest.mark.slow(seconds=6)
def test_the_new_tournament_form_on_a_phone_and_a_laptop(browser, live_server, artifacts: Path, django_user_model):
    """The settings form with its scoring opened: tournaments-form-390.png, tournaments-form-1280.png."""
    library = the_library()
    organiser = give_role(django_user_model.objects.create_user("organisatrice"), Role.ORGANISER, library)
    for viewport, name in ((PHONE, "tournaments-form-390.png"), (LAPTOP, "tournaments-form-1280.png")):
        page = logged_in_page(browser, live_server, organiser, viewport=viewport)
        page.goto(f"{live_server.url}/tournaments/")
        page.locator(".scoring-settings summary").click()
        assert page.locator('[data-testid="compensation"] input[type="checkbox"]').is_checked() is False
        assert page.locator("#t-points-4").input_value() == "6/4/2/1"
        assert_no_sideways_scroll(page)
        page.screenshot(path=str(artifacts / name), full_page=True)
        assert not page.script_errors


@pytest.mark.slow(seconds=15)
def test_a_tables_game_recorded_from_the_table_enters_its_result(browser, live_server, artifacts: Path,
                                                                 django_user_model):
    from tournaments import services

    with registered():
        library = the_library()
        organiser = give_role(django_user_model.objects.create_user("organisatrice"), Role.ORGANISER, library)
        pebbles = CatalogueRecord.objects.create(title="Cailloux", engine_slug=SLUG)
        tournament = Tournament.objects.create(organisation=library, name="Coupe des cailloux", game=pebbles,
                                               table_size=3, rounds_planned=1, created_by=organiser)
        players = Player.objects.bulk_create([Player(display_name=name, name_key=name.lower())
                                              for name in ("Adèle", "Baptiste", "Chloé")])
        Entrant.objects.bulk_create([Entrant(tournament=tournament, player=player, checked_in=True) for player in players])
        seated = [seat.entrant.player.display_name
                  for seat in services.draw_round(tournament, organiser).seats.order_by("position")]
        table = f"{live_server.url}/tournaments/{tournament.pk}/rounds/1/tables/1/"
        page = logged_in_page(browser, live_server, organiser, viewport=PHONE)

        page.goto(table)
        assert_no_sideways_scroll(page)
        assert_tap_targets(page)
        page.screenshot(path=str(artifacts / "tournament-table-record-390.png"), full_page=True)
        with page.expect_navigation():
            page.locator('[data-testid="record-game"] button').click()
        record = GameRecord.objects.get(game_slug=SLUG)
        assert page.url == f"{live_server.url}/scorekeeping/{record.pk}/"
        assert [seat.player.display_name for seat in record.seats.order_by("seat_order")] == seated
        for seq, count in enumerate((2, 2, 2, 1), start=1):
            page.locator('[data-testid="choice"]').nth(count - 1).click()
            page.locator('[data-testid="confirm"]').click()
            wait_stored(page, seq)
        page.get_by_text("End the game and score it?").wait_for()
        with page.expect_navigation():
            page.locator('[data-testid="end-confirm"]').click()
        page.get_by_text("The game is over.").first.wait_for()

        page.goto(table)
        result = TableResult.objects.get()  # the first seat took the last pebble: 3 + 3 against 2 and 2
        assert (result.scores, result.places, result.game_record) == ([6, 2, 2], [1, 2, 2], record)
        assert page.locator('[data-testid="recording"]').get_attribute("data-state") == "finished"
        page.screenshot(path=str(artifacts / "tournament-table-recorded-390.png"), full_page=True)
        tournament.refresh_from_db()
        assert tournament.status == Tournament.Status.FINISHED
        assert page.script_errors == []
        page.context.close()
