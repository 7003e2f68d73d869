"""The tournaments' pages and files through the Django client: phone-first forms, refusals
shown with their status and nothing changed, the files in the organisation's language."""

from __future__ import annotations

import csv
import io

import pytest
from pypdf import PdfReader

from tests.factories import give_role
from tests.tournaments.test_services import enter_round, table_of
from tournaments import selectors, services
from tournaments.models import Round, TableResult, Tournament


@pytest.fixture
def organiser_client(client, organiser):
    client.force_login(organiser)
    return client


def test_the_menu_links_the_tournaments_for_organisers_only(organiser_client, client, member, django_user_model):
    assert 'data-testid="tournaments-link"' in organiser_client.get("/tournaments/").content.decode()
    other = django_user_model.objects.create_user("autre")
    give_role(other)
    client.force_login(other)
    page = client.get("/tournaments/")
    assert page.status_code == 200 and 'data-testid="tournaments-link"' not in page.content.decode()


def test_a_tournament_is_made_from_the_list_and_a_bad_size_is_refused(organiser_client, library, game):
    refused = organiser_client.post("/tournaments/", {"name": "Open", "table_size": "7", "rounds_planned": "3",
                                                       "format": "swiss"})
    assert refused.status_code == 422 and b'data-reason="table_size_out_of_range"' in refused.content
    assert not Tournament.objects.exists()
    made = organiser_client.post("/tournaments/", {"name": "Open", "table_size": "4", "rounds_planned": "3",
                                                    "format": "swiss", "game": str(game.pk)})
    tournament = Tournament.objects.get()
    assert made.status_code == 302 and made["Location"] == f"/tournaments/{tournament.pk}/"
    assert tournament.game == game


def test_register_check_in_draw_and_enter_a_table_from_the_pages(organiser_client, library, organiser, game):
    tournament = services.create_tournament(library, organiser, name="Soirée", game=game, table_size=3)
    url = f"/tournaments/{tournament.pk}/"
    for name in ("Ada", "Bruno", "Chloé", "Dimitri", "Élise", "Fanny"):
        assert organiser_client.post(url, {"action": "register", "player": name}).status_code == 302
    entrant = tournament.entrants.first()
    odd = organiser_client.post(url, {"action": "vanish", "entrant": entrant.pk})
    assert odd.status_code == 400 and b'data-reason="unknown_action"' in odd.content
    entrant.refresh_from_db()
    assert entrant.dropped_after_round is None
    early = organiser_client.post(url, {"action": "draw"})
    assert early.status_code == 409 and b'data-reason="too_few_players"' in early.content
    for entrant in tournament.entrants.all():
        organiser_client.post(url, {"action": "check_in", "entrant": entrant.pk})
    drawn = organiser_client.post(url, {"action": "draw"})
    assert drawn.status_code == 302 and drawn["Location"] == f"{url}rounds/1/"
    pairing = organiser_client.get(f"{url}rounds/1/").content.decode()
    assert pairing.count('data-testid="table"') == 2 and "Round 1: the tables are drawn at random." in pairing
    table = table_of(Round.objects.get(), 1)
    form = f"{url}rounds/1/tables/1/"
    assert organiser_client.get(form).status_code == 200
    missing = organiser_client.post(form, {"told": "scores", f"seat-{table.seats[0].entrant_id}": "12"})
    assert missing.status_code == 422 and not TableResult.objects.exists()
    entered = organiser_client.post(form, {"told": "places", **{f"seat-{seat.entrant_id}": str(seat.position + 1)
                                                                for seat in table.seats}})
    assert entered.status_code == 302
    again = organiser_client.post(form, {"told": "places", **{f"seat-{seat.entrant_id}": "1" for seat in table.seats}})
    assert again.status_code == 409 and b'data-reason="result_already_entered"' in again.content
    standings = organiser_client.get(url).content.decode()
    assert 'data-testid="standings"' in standings and table.seats[0].entrant.player.display_name in standings
    assert organiser_client.get(f"{url}rounds/1/tables/9/").status_code == 404


def test_a_member_enters_only_the_table_they_sit_at(client, tournament, organiser, member):
    drawn = services.draw_round(tournament, organiser)
    mine, theirs = table_of(drawn, 1), table_of(drawn, 2)
    player = mine.seats[0].entrant.player
    player.user = member
    player.save()
    client.force_login(member)
    page = client.get(f"/tournaments/{tournament.pk}/rounds/1/").content.decode()
    assert page.count('data-testid="enter-result"') == 1
    assert client.post(f"/tournaments/{tournament.pk}/", {"action": "draw"}).status_code == 403
    other = client.post(f"/tournaments/{tournament.pk}/rounds/1/tables/2/",
                        {"told": "places", **{f"seat-{s.entrant_id}": str(s.position + 1) for s in theirs.seats}})
    assert other.status_code == 403 and not TableResult.objects.exists()
    own = client.post(f"/tournaments/{tournament.pk}/rounds/1/tables/1/",
                      {"told": "scores", **{f"seat-{s.entrant_id}": str(50 - s.position) for s in mine.seats}})
    assert own.status_code == 302 and TableResult.objects.count() == 1


def test_another_organisations_tournament_is_not_found(client, tournament, django_user_model):
    from accounts.models import Organisation
    from accounts.roles import Role

    elsewhere = Organisation.objects.create(slug="autre-club", name="Autre club", kind=Organisation.Kind.CLUB)
    stranger = give_role(django_user_model.objects.create_user("etranger"), Role.ORGANISER, elsewhere)
    client.force_login(stranger)
    assert client.get(f"/tournaments/{tournament.pk}/").status_code == 404


def test_the_standings_csv_and_the_pdfs_in_the_organisations_language(organiser_client, tournament, organiser):
    tournament.organisation.language = "fr"
    tournament.organisation.save()
    drawn = services.draw_round(tournament, organiser)
    enter_round(tournament, drawn, organiser)
    answer = organiser_client.get(f"/tournaments/{tournament.pk}/standings.csv")
    assert answer.status_code == 200 and answer.content.startswith("\ufeff".encode())
    rows = list(csv.reader(io.StringIO(answer.content.decode("utf-8-sig"))))
    lines = selectors.standings(tournament)
    assert len(rows) == 1 + 13 and rows[1][2] == str(int(lines[0].points))
    assert rows[0][0] == "Rang" or rows[0][0] == "Rank"  # "Rang" once the lead's catalogues carry it
    pairing = organiser_client.get(f"/tournaments/{tournament.pk}/rounds/1/pairing.pdf")
    assert pairing.status_code == 200 and pairing.content.startswith(b"%PDF")
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(pairing.content)).pages)
    assert all(seat.entrant.player.display_name in text for table in selectors.tables_of(drawn) for seat in table.seats)
    standings = organiser_client.get(f"/tournaments/{tournament.pk}/standings.pdf")
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(standings.content)).pages)
    leader = tournament.entrants.get(pk=lines[0].player).player.display_name
    assert standings.status_code == 200 and leader in text and "Open de printemps" in text
    sheet = organiser_client.get(f"/tournaments/{tournament.pk}/rounds/1/tables/1/sheet.pdf")
    assert sheet.status_code == 200 and sheet.content.startswith(b"%PDF")
    assert organiser_client.get(f"/tournaments/{tournament.pk}/rounds/1/tables/8/sheet.pdf").status_code == 404


def test_each_reason_of_a_table_is_worded_for_the_reader():
    from tournaments.pages.views import why_words

    names = {1: "Ada", 2: "Bruno"}
    assert why_words({"code": "standings", "params": {"from": 1, "to": 4}}, names) == (
        "Players ranked 1 to 4 in the standings.")
    assert why_words({"code": "repeat", "params": {"players": [1, 2], "times": 1, "unavoidable": True}}, names) == (
        "Ada and Bruno meet again (met 1 time before). No draw of this round could avoid it.")
    assert why_words({"code": "seat", "params": {"player": 2, "seat": 0, "times_before": 0}}, names) == (
        "Bruno takes seat 1, never had before.")
    assert why_words({"code": "seat", "params": {"player": 1, "seat": 2, "times_before": 2}}, names) == (
        "Ada takes seat 3, had 2 times before.")
    assert why_words({"code": "together_despite_request", "params": {"players": [2, 1]}}, names).startswith(
        "Bruno and Ada sit together")


def test_the_settings_form_refuses_bad_points_and_shows_the_clubs_figure(organiser_client, library, game):
    page = organiser_client.post("/tournaments/", {"name": "", "game": [str(game.pk)], "table_size": "4",
                                                   "figure": "1"}).content.decode()
    assert "No games yet of Terra Mystica at tables of 4" in page
    form = {"name": "Open", "format": "final_table", "game": [str(game.pk), ""], "table_size": "4",
            "rounds_planned": "2", "points_4": "6/4/2/1", "points_3": "5/3/4", "tiebreaker": ["head_to_head", ""]}
    bad = organiser_client.post("/tournaments/", form)
    assert bad.status_code == 422 and b'data-reason="points_increasing"' in bad.content
    assert not Tournament.objects.exists()
    made = organiser_client.post("/tournaments/", {**form, "points_3": "5/3/1", "compensate": "1",
                                                   "first_player_compensation": "0,3"})
    tournament = Tournament.objects.get()
    assert made.status_code == 302 and tournament.format == "final_table" and tournament.tiebreakers == ["head_to_head"]
    assert str(tournament.first_player_compensation) == "0.30"
    settings = organiser_client.get(f"/tournaments/{tournament.pk}/settings/").content.decode()
    assert 'value="6/4/2/1"' in settings and "0.30" in settings
    changed = organiser_client.post(f"/tournaments/{tournament.pk}/settings/", {**form, "points_3": "5/3/1",
                                                                                  "name": "Open d'hiver"})
    tournament.refresh_from_db()
    assert changed.status_code == 302 and tournament.name == "Open d'hiver"
    assert tournament.first_player_compensation == 0
    Round.objects.create(tournament=tournament, number=1)
    locked = organiser_client.post(f"/tournaments/{tournament.pk}/settings/", {**form, "points_3": "5/3/1"})
    assert locked.status_code == 409 and b'data-reason="settings_locked"' in locked.content


def test_the_round_and_its_sheets_name_the_rounds_game_and_the_final_is_marked(organiser_client, library, organiser,
                                                                             game):
    from games.models import CatalogueRecord

    azul = CatalogueRecord.objects.create(title="Azul", added_with_a_result=True)
    tournament = services.create_tournament(library, organiser, name="Finale", table_size=3, rounds_planned=1,
                                            format=Tournament.Format.FINAL_TABLE, games=[azul, game])
    for name in ("Ada", "Bruno", "Chloé", "Dimitri", "Élise", "Fanny"):
        services.check_in(services.register(tournament, name, organiser), organiser)
    enter_round(tournament, services.draw_round(tournament, organiser), organiser)
    final = services.draw_round(tournament, organiser)
    base = f"/tournaments/{tournament.pk}/rounds/2/"
    page = organiser_client.get(base).content.decode()
    assert "Game of this round: Terra Mystica" in page and "The final table: the top 3 of the standings." in page
    assert "Game of this round: Terra Mystica" in organiser_client.get(f"{base}tables/1/").content.decode()
    sheet = organiser_client.get(f"{base}tables/1/sheet.pdf")
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(sheet.content)).pages)
    assert "Terra Mystica" in text and "Azul" not in text
    enter_round(tournament, final, organiser)
    rows = list(csv.reader(io.StringIO(organiser_client.get(f"/tournaments/{tournament.pk}/standings.csv")
                                       .content.decode("utf-8-sig"))))
    assert rows[0][-1] == "Place at the final table" and [row[-1] for row in rows[1:]] == ["1", "2", "3", "", "", ""]


def test_the_figure_beside_the_compensation_is_the_clubs(organiser_client, tournament, organiser, game,
                                                         django_capture_on_commit_callbacks, celery_eager):
    with django_capture_on_commit_callbacks(execute=True):  # the records are scored once committed
        enter_round(tournament, services.draw_round(tournament, organiser), organiser)
    page = organiser_client.post("/tournaments/", {"name": "", "game": [str(game.pk)], "table_size": "4",
                                                   "points_4": "6/4/2/1", "figure": "1"}).content.decode()
    assert ("the first seat won 100 % of 1 game (a fair share: 25 %)" in page
            and "Suggested compensation: 4.50 points." in page and 'value="4.50"' in page)
    assert Tournament.objects.count() == 1
