"""A league's standings out of the site: the CSV and the PDF show what the league page shows to the
same reader, in the organisation's language whatever the reader's.

The world of ``tests/web/test_privacy_pages.py`` (the spring league's six public games, P1 a
private league game of Cy and Ed), its club made a French organisation's.
"""

from __future__ import annotations

import csv
import html
import io
import re
from datetime import date

import pytest
from django.test import Client
from django.utils import translation
from pypdf import PdfReader

from accounts.models import Organisation
from records.models import Player
from scoring import exports, standings, tasks
from scoring.models import League, LeagueMembership, Standing
from tests.factories import result_game
from tests.scoring.test_privacy import SEES_P1, VIEWERS, World, build_world

pytestmark = pytest.mark.django_db



def headings(language: str) -> list[str]:
    """The column names in ``language`` (the new words' translations arrive with the lead's next
    catalogue: compared through gettext, with the words already translated checked as written)."""
    with translation.override(language):
        return [str(column.heading) for column in exports.STANDINGS_COLUMNS]


@pytest.fixture(scope="module")
def world(module_transaction, django_db_blocker) -> World:
    with django_db_blocker.unblock():
        return build_world()


@pytest.fixture
def french_club(world) -> Organisation:
    """The league's club is the Ludothèque des Meeples', whose language is French."""
    organisation = Organisation.objects.create(name="Ludothèque des Meeples", slug="meeples", language="fr")
    world.league.club.organisation = organisation
    world.league.club.save(update_fields=["organisation"])
    return organisation


def client_of(world: World, viewer: str, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    if world.users[viewer] is not None:
        client.force_login(world.users[viewer])
    return client


def get(client: Client, url: str, status: int = 200):
    response = client.get(url)
    assert response.status_code == status, url
    return response


def page_table(page: str) -> list[list[str]]:
    """The league page's standings, a list of cells a row (the player's name in its place)."""
    table = page.split('<table id="standings">')[1].split("</table>")[0]
    body = table.split("<tbody>")[1]
    return [[html.unescape(re.sub(r"<[^>]+>", "", cell)).strip()
             for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
            for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)]


def csv_rows(content: bytes) -> list[list[str]]:
    assert content.startswith("\ufeff".encode()), "a byte order mark, for Excel"
    return list(csv.reader(io.StringIO(content.decode("utf-8-sig"))))


@pytest.mark.parametrize("viewer", VIEWERS)
def test_the_csv_rows_are_the_page_rows_with_french_headings_for_any_reader(world, french_club, viewer):
    url = f"/leagues/{world.league.pk}/"
    page = get(client_of(world, viewer), url).content.decode()
    response = get(client_of(world, viewer, language="nl"), url + "standings.csv")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    heading, *rows = csv_rows(response.content)
    assert heading == headings("fr") and heading[1] == "Joueur" and heading[5] == "Rang moyen"
    # The page (in English, a dot before decimals) and the file hold the same figures, row for row;
    # an unranked player's position is "—" on the page, empty in the file.
    assert [[cell or "—" for cell in row] for row in rows] == page_table(page)
    by_player = {row[1]: row for row in rows}
    # P1 (Cy 99, Ed 3) counts only for those who may see it: Cy's games and wins, Ed's place.
    assert by_player["Cy"][2:4] == (["5", "3"] if viewer in SEES_P1 else ["4", "2"])
    assert by_player["Ed"][0] == ("5" if viewer in SEES_P1 else "")


def test_numbers_are_plain_in_the_csv_and_the_readers_own_on_the_page(world, french_club):
    url = f"/leagues/{world.league.pk}/"
    rows = csv_rows(get(client_of(world, "staff"), url + "standings.csv").content)[1:]
    ranks = [row[5] for row in rows]
    assert any("." in rank for rank in ranks) and not any("," in rank for rank in ranks)
    french_page = get(client_of(world, "staff", language="fr"), url).content.decode()
    assert [row[5] for row in page_table(french_page)] == [rank.replace(".", ",") for rank in ranks]


def test_a_player_known_only_from_a_private_league_game_is_in_no_file_of_who_may_not_see_it(world, french_club):
    zed = Player.objects.create(display_name="Zed")
    LeagueMembership.objects.create(league=world.league, player=zed)
    hidden = result_game({"Zed": 40, "Cy": 30}, date(2026, 4, 20), is_private=True,
                         created_by=world.users["scorekeeper"])
    tasks.score_record(hidden.pk)
    standings.refresh(world.league)
    assert Standing.objects.filter(league=world.league, player=zed).exists()
    base = f"/leagues/{world.league.pk}/standings"
    for viewer in VIEWERS:
        sees = viewer in {"scorekeeper", "staff"}
        names = [row[1] for row in csv_rows(get(client_of(world, viewer), base + ".csv").content)[1:]]
        assert ("Zed" in names) == sees, viewer
        text = pdf_text(get(client_of(world, viewer), base + ".pdf").content)
        assert ("Zed" in text) == sees, viewer


def pdf_text(content: bytes) -> str:
    assert content.startswith(b"%PDF")
    return "\n".join(page_text(page) for page in PdfReader(io.BytesIO(content)).pages)


def page_text(page) -> str:
    """A page's words, each run of spaces and line breaks one space (a heading may wrap in its cell)."""
    return " ".join(page.extract_text().split())


def test_the_pdf_reads_back_in_french_with_the_page_rows(world, french_club):
    response = get(client_of(world, "anonymous", language="cs"), f"/leagues/{world.league.pk}/standings.pdf")
    assert response["Content-Type"] == "application/pdf"
    text = pdf_text(response.content)
    assert "Ludothèque des Meeples" in text and world.league.name in text
    assert "1 mars 2026" in text and "31 mai 2026" in text  # the season, dated in French
    with translation.override("fr"):
        printed = translation.gettext("Printed on %(day)s") % {"day": ""}
    assert printed.strip() in text
    assert "Rang moyen" in text and "Joueur" in text
    for row in Standing.objects.filter(league=world.league).exclude(player__display_name="Ed"):
        assert row.player.display_name in text


def test_forty_five_players_run_over_pages_each_headed_by_the_column_names(world, french_club):
    league = League.objects.create(club=world.league.club, name="Hiver Łódź", starts_on=date(2026, 1, 1),
                                   ends_on=date(2026, 2, 28))
    players = Player.objects.bulk_create(Player(display_name=f"Joueur·euse n° {n} Šťastná") for n in range(45))
    table = [Standing(league=league, player=player, position=n + 1, games=10, wins=45 - n, points=100.5 - n,
                      average_rank=2 + n / 45, average_score=80.25) for n, player in enumerate(players)]
    content = exports.standings_pdf(league, table, date(2026, 3, 2))
    pages = PdfReader(io.BytesIO(content)).pages
    assert len(pages) >= 2
    for page in pages:
        assert " ".join(headings("fr")) in page_text(page)  # the heading row, repeated
        assert f"sur {len(pages)}" in page_text(page)  # "Page 2 sur 3"
    text = "\n".join(page_text(page) for page in pages)
    assert "Hiver Łódź" in text and "2 mars 2026" in text
    assert all(f"n° {n} Šťastná" in text for n in range(45))
    assert "100,5" in text  # a person's number, in French


def test_a_league_that_does_not_exist_has_no_files(world):
    client = client_of(world, "unrelated")
    for suffix in ("", "standings.csv", "standings.pdf"):
        get(client, f"/leagues/999999/{suffix}", status=404)


def test_a_league_with_only_private_games_shows_an_outsider_an_empty_table_everywhere(world):
    """Leagues are found by their id (no league is private); its games may be: the page and the
    files then show an outsider no row, and the league's own players do see theirs."""
    other = Organisation.objects.create(name="Autre club", slug="autre", language="cs")
    league = League.objects.create(club=type(world.league.club).objects.create(name="Autre", organisation=other),
                                   name="Tajná liga", starts_on=date(2026, 1, 1), ends_on=date(2026, 12, 31))
    league.trusted_scorekeepers.add(world.users["scorekeeper"])
    for name in ("Ota", "Iva"):
        LeagueMembership.objects.create(league=league, player=Player.objects.create(display_name=name))
    game = result_game({"Ota": 10, "Iva": 5}, date(2026, 5, 5), is_private=True, created_by=world.users["scorekeeper"])
    tasks.score_record(game.pk)
    standings.refresh(league)
    outsider, keeper = client_of(world, "unrelated"), client_of(world, "scorekeeper")
    assert 'id="standings"' not in get(outsider, f"/leagues/{league.pk}/").content.decode()
    heading, *rows = csv_rows(get(outsider, f"/leagues/{league.pk}/standings.csv").content)
    assert heading == headings("cs") and heading[1] == "Hráč" and rows == []
    assert "Ota" not in pdf_text(get(outsider, f"/leagues/{league.pk}/standings.pdf").content)
    assert [row[1] for row in csv_rows(get(keeper, f"/leagues/{league.pk}/standings.csv").content)[1:]] == ["Ota", "Iva"]


def test_the_league_page_links_to_both_files(world):
    page = get(client_of(world, "anonymous"), f"/leagues/{world.league.pk}/").content.decode()
    assert f'href="/leagues/{world.league.pk}/standings.csv"' in page
    assert f'href="/leagues/{world.league.pk}/standings.pdf"' in page
