"""The public catalogue, read as a member of the ludothèque reads it: search, facets, a record.

A small hand-made catalogue whose facet counts can be checked by hand, plus the demo records
(the seed's PMB record of "Carcassonne à la prèhistoire") for the record page.
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.roles import Role
from games import search
from games.models import CatalogueRecord, Category, Contribution, Copy, Language, OtherTitle, Person, Publisher
from games.services import demo_catalogue_data, load_catalogue
from records.models import GameRecord, Player, Seat
from scoring.models import CatalogueUsage, ScoredRecord, SeatResult
from tests.factories import give_role

pytestmark = pytest.mark.django_db

HG_TITLE = "Carcassonne à la prèhistoire"
HG_ENGLISH_TITLE = "Carcassonne: Hunters and Gatherers"
SEARCH = "/catalogue/"


@pytest.fixture
def demo() -> CatalogueRecord:
    load_catalogue(demo_catalogue_data())
    return CatalogueRecord.objects.get(title=HG_TITLE)


@pytest.fixture
def shelf() -> dict[str, CatalogueRecord]:
    """Five games; the comments give what each facet must count."""
    french = Language.objects.create(code="fre", name="Français")
    english = Language.objects.create(code="eng", name="English")
    strategy = Category.objects.create(code="A 406", label="jeu de stratégie")
    party = Category.objects.create(code="B 100", label="jeu d'ambiance")
    specs = {
        # title: (categories, languages, players, min age, minutes)
        HG_TITLE: ([strategy], [french], (2, 5), 10, 45),
        "Les Aventuriers du Rail": ([strategy], [french, english], (2, 5), 8, 60),
        "Dobble": ([party], [french], (2, 8), 6, 15),
        "Twilight Struggle": ([strategy], [english], (2, 2), 14, 180),
        "Patience": ([], [english], (1, 1), 8, None),
    }
    records = {}
    for title, (categories, languages, (low, high), age, minutes) in specs.items():
        record = CatalogueRecord.objects.create(
            title=title, min_players=low, max_players=high, min_age=age, duration_minutes=minutes
        )
        record.categories.set(categories)
        record.languages.set(languages)
        records[title] = record
    hg = records[HG_TITLE]
    hg.publisher = Publisher.objects.create(name="Hans im Glück")
    hg.summary = "Des milliers d'années avant Carcassonne, la région était habitée."
    hg.save()
    Contribution.objects.create(record=hg, person=Person.objects.create(name="Klaus-Jürgen Wrede"))
    OtherTitle.objects.create(record=hg, title="Hunters and Gatherers")
    return records


def titles(html: str) -> list[str]:
    return re.findall(r'<h3 id="record-\d+-title"><a href="/catalogue/\d+/">([^<]+)</a></h3>', html)


def options(html: str, facet: str) -> dict[str, str]:
    """The facet's offered options: label (count) by value, "Any" left out."""
    select = re.search(rf'<select id="facet-{facet}" name="{facet}">(.*?)</select>', html, re.S)
    assert select, f"no {facet} facet"
    return dict(re.findall(r'<option value="([^"]+)"[^>]*>([^<]+)</option>', select.group(1)))


def get(client: Client, url: str, **headers) -> str:
    response = client.get(url, **headers)
    assert response.status_code == 200
    return response.content.decode()


# --- Search ------------------------------------------------------------------------------------------


def test_search_without_javascript_finds_the_record_by_title(client, demo):
    html = get(client, f"{SEARCH}?q=Carcassonne")
    assert HG_ENGLISH_TITLE in titles(html)  # its English title, to an English reader
    assert "Stenen Tijdperk" not in titles(html)
    # A plain GET form: works with JavaScript off.
    assert re.search(r'<form id="catalogue-search"[^>]*method="get"[^>]*action="/catalogue/"', html)
    assert '<input type="search" id="catalogue-q" name="q" value="Carcassonne"' in html
    assert '<label for="catalogue-q">Search the catalogue</label>' in html


def test_accentless_words_find_accented_titles_on_every_database(client, shelf):
    assert titles(get(client, f"{SEARCH}?q=prehistoire")) == [HG_TITLE]
    assert titles(get(client, f"{SEARCH}?q=Jurgen")) == [HG_TITLE]


@pytest.mark.postgres
def test_postgres_full_text_search_finds_prehistoire_without_accent(client, demo):
    html = get(client, f"{SEARCH}?q=prehistoire")
    assert titles(html) == [HG_ENGLISH_TITLE]
    assert "1 record found" in html
    # Words match as prefixes, across the other titles, people and publisher.
    assert titles(get(client, f"{SEARCH}?q=prehist")) == [HG_ENGLISH_TITLE]
    assert titles(get(client, f"{SEARCH}?q=hunters+gatherers")) == [HG_ENGLISH_TITLE]
    assert titles(get(client, f"{SEARCH}?q=wrede+gluck")) == [HG_ENGLISH_TITLE]


@pytest.mark.postgres
def test_postgres_search_document_follows_later_edits(client, shelf):
    dobble = shelf["Dobble"]
    Contribution.objects.create(record=dobble, person=Person.objects.create(name="Denis Blanchot"))
    assert titles(get(client, f"{SEARCH}?q=blanchot")) == ["Dobble"]
    Person.objects.filter(name="Denis Blanchot").update(name="Denis Blanchôt-Renamed")
    assert titles(get(client, f"{SEARCH}?q=renamed")) == ["Dobble"]
    OtherTitle.objects.create(record=dobble, title="Spot it!")
    assert titles(get(client, f"{SEARCH}?q=spot")) == ["Dobble"]


def test_words_in_the_title_rank_above_words_in_the_summary(client, shelf):
    CatalogueRecord.objects.create(title="Agricola", summary="Des fermes, loin de Carcassonne.")
    assert titles(get(client, f"{SEARCH}?q=carcassonne")) == [HG_TITLE, "Agricola"]
    assert titles(get(client, f"{SEARCH}?q=carcassonne&sort=title")) == ["Agricola", HG_TITLE]


def test_every_word_must_match(client, shelf):
    assert titles(get(client, f"{SEARCH}?q=carcassonne+dobble")) == []
    assert "0 records found" in get(client, f"{SEARCH}?q=carcassonne+dobble")


# --- Facets ------------------------------------------------------------------------------------------


def test_facet_counts_on_the_whole_catalogue(client, shelf):
    html = get(client, SEARCH)
    strategy, party = Category.objects.order_by("code")
    assert options(html, "category") == {
        str(strategy.pk): "jeu de stratégie (3)",
        str(party.pk): "jeu d&#x27;ambiance (1)",
    }
    assert options(html, "language") == {"eng": "English (3)", "fre": "French (3)"}
    assert options(html, "players") == {
        "1": "1 player (1)", "2": "2 players (4)", "3": "3 players (3)", "4": "4 players (3)",
        "5": "5 players (3)", "6": "6 players (1)", "7": "7 players (1)", "8": "8 players (1)",
    }
    assert options(html, "age") == {
        "6": "6 years or under (1)", "8": "8 years or under (3)", "10": "10 years or under (4)",
        "12": "12 years or under (4)", "14": "14 years or under (5)", "18": "18 years or under (5)",
    }
    # "61 to 120 minutes" has no record and is not offered.
    assert options(html, "duration") == {
        "short": "up to 30 minutes (1)", "medium": "31 to 60 minutes (2)", "epic": "over 2 hours (1)",
    }
    assert "5 records found" in html


def test_a_facet_filters_and_the_other_facets_count_within_it(client, shelf):
    strategy = Category.objects.get(code="A 406")
    html = get(client, f"{SEARCH}?category={strategy.pk}")
    assert sorted(titles(html)) == sorted([HG_TITLE, "Les Aventuriers du Rail", "Twilight Struggle"])
    # The chosen facet still offers the alternatives, with their counts over the whole search…
    assert re.search(rf'<option value="{strategy.pk}" selected>jeu de stratégie \(3\)</option>', html)
    assert "jeu d&#x27;ambiance (1)" in html
    # …and every other facet counts inside the chosen category.
    assert options(html, "language") == {"eng": "English (2)", "fre": "French (2)"}
    assert options(html, "players")["5"] == "5 players (2)"
    assert options(html, "duration") == {"medium": "31 to 60 minutes (2)", "epic": "over 2 hours (1)"}
    assert "Clear the filters" in html


def test_facets_combine_with_the_words(client, shelf):
    assert titles(get(client, f"{SEARCH}?q=carcassonne&players=5&language=fre&age=10&duration=medium")) == [HG_TITLE]
    assert titles(get(client, f"{SEARCH}?players=8")) == ["Dobble"]
    assert titles(get(client, f"{SEARCH}?age=6")) == ["Dobble"]
    assert titles(get(client, f"{SEARCH}?duration=epic")) == ["Twilight Struggle"]
    assert titles(get(client, f"{SEARCH}?players=1&language=eng")) == ["Patience"]
    assert titles(get(client, f"{SEARCH}?q=carcassonne&players=1")) == []


def test_a_malformed_facet_value_is_ignored_rather_than_an_error(client, shelf):
    html = get(client, f"{SEARCH}?category=strategy&players=99&duration=forever&page=zero")
    assert "5 records found" in html


def test_selector_facet_counts_match_the_page(shelf):
    counts = search.facet_counts("", search.FacetChoice(language="eng"))
    assert [(language.code, n) for language, n in counts.languages] == [("eng", 3), ("fre", 3)]
    assert counts.players[2] == 2  # Les Aventuriers du Rail, Twilight Struggle
    assert counts.durations == {"short": 0, "medium": 1, "long": 0, "epic": 1}


def test_sort_by_times_played_reads_the_usage_figures(client, shelf):
    """The hit list reads scoring's usage projection; records never played come last, by title."""
    CatalogueUsage.objects.create(catalogue_record=shelf["Dobble"], times_played=2, last_played=date(2026, 3, 2))
    CatalogueUsage.objects.create(catalogue_record=shelf["Patience"], times_played=1, last_played=date(2026, 3, 3))
    html = get(client, f"{SEARCH}?sort=played")
    assert titles(html) == ["Dobble", "Patience", HG_TITLE, "Les Aventuriers du Rail", "Twilight Struggle"]
    assert "played 2 times, last on March 2, 2026" in html
    assert "played once, on March 3, 2026" in html
    assert html.count("never played here yet") == 3


# --- Pagination and htmx -------------------------------------------------------------------------------


@pytest.fixture
def many_records() -> None:
    CatalogueRecord.objects.bulk_create(CatalogueRecord(title=f"Jeu numéro {n:02d}") for n in range(1, 26))


def test_results_are_paginated_by_twenty(client, many_records):
    first = get(client, f"{SEARCH}?sort=title")
    assert titles(first) == [f"Jeu numéro {n:02d}" for n in range(1, 21)]
    assert "25 records found · page 1 of 2" in first
    assert '<a rel="next" href="?sort=title&amp;page=2"' in first
    second = get(client, f"{SEARCH}?sort=title&page=2")
    assert titles(second) == [f"Jeu numéro {n:02d}" for n in range(21, 26)]
    assert '<ol class="record-list" start="21">' in second
    assert '<span aria-current="page">2</span>' in second
    # A page past the end shows the last one rather than an error.
    assert titles(get(client, f"{SEARCH}?sort=title&page=9")) == titles(second)
    assert titles(get(client, f"{SEARCH}?sort=title&page={10**30}")) == titles(second)


def test_an_htmx_request_gets_only_the_results_fragment(client, shelf):
    html = get(client, f"{SEARCH}?q=dobble", HTTP_HX_REQUEST="true")
    assert titles(html) == ["Dobble"]
    assert '<h2 id="results-heading">' in html and '<select id="facet-category"' in html
    assert "<main" not in html and "<html" not in html and 'id="catalogue-q"' not in html
    response = client.get(f"{SEARCH}?q=dobble", HTTP_HX_REQUEST="true")
    assert "HX-Request" in response["Vary"]


def test_the_page_wires_htmx_to_update_the_results_in_place(client, shelf):
    html = get(client, SEARCH)
    form = re.search(r'<form id="catalogue-search"[^>]*>', html).group(0)
    assert 'hx-get="/catalogue/"' in form
    assert 'hx-target="#catalogue-results"' in form
    assert 'hx-push-url="true"' in form
    assert '<div id="catalogue-results"' in html
    assert '<script src="/static/django_htmx/htmx' in html and "unpkg" not in html
    # Every script and style comes from this site (a CSRF token may contain any letters).
    assert not re.search(r'(?:src|href)="(?:https?:)?//', html), "nothing loaded from another host"


def test_an_htmx_history_restore_gets_the_whole_page(client, shelf):
    html = get(client, f"{SEARCH}?q=dobble", HTTP_HX_REQUEST="true", HTTP_HX_HISTORY_RESTORE_REQUEST="true")
    assert "<main" in html and titles(html) == ["Dobble"]


# --- The record page -------------------------------------------------------------------------------------


def field(html: str, label: str) -> str:
    """The text of the ``<dd>`` after the ``<dt>`` labelled so, tags and spacing removed."""
    match = re.search(rf"<dt>{re.escape(label)}</dt>\s*<dd[^>]*>(.*?)</dd>", html, re.S)
    assert match, f"no field {label!r}"
    return " ".join(re.sub(r"<[^>]+>", " ", match.group(1)).split()).replace(" ,", ",")


def test_record_page_shows_the_seed_fields(client, demo):
    html = get(client, reverse("catalogue:record", args=[demo.pk]))
    assert f"<h1 id=\"record-title\">{HG_ENGLISH_TITLE}</h1>" in html  # to an English reader
    assert field(html, "Title") == HG_TITLE
    assert field(html, "Other titles") == (
        "Carcassonne: Hunters and Gatherers (title in another language, English) "
        "Carcassonne – Lovci a sběrači (title in another language, Czech) "
        "Carcassonne – Jagers en Verzamelaars (title in another language, Dutch)")
    # The seed's document type is every record's default (PMB's label cut short), and its maximum
    # age PMB's "no maximum": neither is shown as a fact; nor a duration no game has measured.
    assert "Document type" not in html and "Maximum age" not in html and "Observed duration" not in html
    assert field(html, "Authors") == "Klaus-Jürgen Wrede, Author"
    assert field(html, "Publisher") == "Hans im gluck"
    assert field(html, "Languages") == "French"
    assert field(html, "Categories") == "jeu de stratégie (jeu de règles) code A 406"
    assert field(html, "Minimum number of players") == "2"
    assert field(html, "Maximum number of players") == "5"
    assert field(html, "Minimum age") == "10"
    assert field(html, "Average duration (minutes)") == "45"
    assert field(html, "Contents").startswith("79 tuiles paysage, 12 tuiles bonus")
    assert "Des milliers d&#x27;années" in field(html, "Summary")
    assert "Principe du jeu" in field(html, "Notes")
    assert field(html, "Rules engine") == "Carcassonne: Hunters and Gatherers"  # its slug for librarians only
    assert html.index("<main") < html.index("<h1") < html.index('<h2 id="description-heading"')


def test_record_page_lists_the_copies_and_their_status(client, demo):
    html = get(client, reverse("catalogue:record", args=[demo.pk]))
    rows = re.findall(r"<tr>\s*<th scope=\"row\">(.*?)</th>\s*<td[^>]*>(.*?)</td>\s*<td[^>]*>(.*?)</td>", html, re.S)
    assert rows == [
        ("LUD-HG-0001", "Jeux de stratégie – C", "Available"),
        # Catalogued as missing parts: the desk keeps it back until its pieces are checked.
        ("LUD-HG-0002", "Jeux de stratégie – C", "Back, being checked"),
    ]
    assert "Il manque 1 disque en bois vert." in html
    assert "1 copy available for loan." in html


def test_record_page_links_the_games_recorded_with_it_and_their_observed_duration(client, demo):
    copy = Copy.objects.get(barcode="LUD-HG-0001")
    copy.acquired_on = date(2024, 9, 14)
    copy.save()
    ada, bo = Player.objects.create(display_name="Ada"), Player.objects.create(display_name="Bo")
    games = []
    for day, minutes in [(5, 40), (12, 50)]:
        # Linked through the copy only: the record is found through the box.
        game = GameRecord.objects.create(
            game_slug="hunters-gatherers", copy=copy, status=GameRecord.Status.FINISHED, played_on=date(2026, 3, day)
        )
        for order, (player, score) in enumerate([(ada, 30 + day), (bo, 20)]):
            seat = Seat.objects.create(record=game, player=player, seat_order=order)
            SeatResult.objects.create(record=game, seat=seat, player=player, score=score, rank=order + 1)
        ScoredRecord.objects.create(
            record=game, game_slug="hunters-gatherers", played_on=game.played_on, players=2,
            duration_seconds=minutes * 60,
        )
        games.append(game)
    private = GameRecord.objects.create(
        game_slug="hunters-gatherers", catalogue_record=demo, is_private=True, played_on=date(2026, 3, 20)
    )
    html = get(client, reverse("catalogue:record", args=[demo.pk]))
    for game in games:
        assert f'<a href="/games/{game.pk}/">' in html
        assert f'<a href="/games/{game.pk}/replay/">' in html
    assert f"/games/{private.pk}/" not in html  # not for an anonymous reader
    assert "<strong>Ada 42</strong>" in html and "Bo 20" in html
    assert html.index("March 12, 2026") < html.index("March 5, 2026")  # most recent first
    assert field(html, "Average duration (minutes)") == "45"
    assert field(html, "Observed duration").startswith("45 minutes on average, over 2 recorded games")
    assert field(html, "Times played") == "2 times, last on March 12, 2026"
    assert '<time datetime="2024-09-14">Sept. 14, 2024</time>' in html


def test_an_unknown_record_is_not_found(client, shelf):
    assert client.get(reverse("catalogue:record", args=[999_999])).status_code == 404


# --- French ------------------------------------------------------------------------------------------------


def test_french_labels_follow_the_browser(client, demo):
    html = get(client, SEARCH + "?q=prehistoire", HTTP_ACCEPT_LANGUAGE="fr")
    assert '<html lang="fr">' in html
    assert '<label for="catalogue-q">Rechercher dans le catalogue</label>' in html
    assert "Affiner la recherche" in html
    assert "1 notice trouvée" in html
    record = get(client, reverse("catalogue:record", args=[demo.pk]), HTTP_ACCEPT_LANGUAGE="fr")
    assert field(record, "Titre") == HG_TITLE
    assert "Type de document" not in record and "Durée observée" not in record
    assert field(record, "Auteurs") == "Klaus-Jürgen Wrede, Auteur"
    assert field(record, "Langues") == "français"
    assert field(record, "Nombre minimum de joueurs") == "2"
    assert field(record, "Durée moyenne (minutes)") == "45"
    assert '<h2 id="copies-heading">Exemplaires</h2>' in record
    assert ">Disponible<" in record and ">Pièces manquantes<" in record


def test_french_from_the_language_cookie_and_localised_dates(client, shelf):
    client.cookies["django_language"] = "fr"
    game = GameRecord.objects.create(
        game_slug="dobble", catalogue_record=shelf["Dobble"], status=GameRecord.Status.FINISHED,
        played_on=date(2026, 3, 2), result_only=True,
    )
    CatalogueUsage.objects.create(catalogue_record=shelf["Dobble"], times_played=1, last_played=game.played_on)
    html = get(client, SEARCH + "?sort=played")
    assert "joué une fois, le 2 mars 2026" in html
    record = get(client, reverse("catalogue:record", args=[shelf["Dobble"].pk]))
    assert '<time datetime="2026-03-02">2 mars 2026</time>' in record
    assert f'<a href="/games/{game.pk}/">Partie nº {game.pk}</a>' in record


@pytest.mark.parametrize("query", ["", "carcassonne", "jeu"])
def test_every_facet_count_is_what_choosing_it_finds(client, shelf, query):
    """The counting statement and the filters are twins: each offered count must come true."""
    html = get(client, f"{SEARCH}?q={query}")
    for facet in search.FACETS:
        for value, label in options(html, facet).items():
            count = int(label.rsplit("(", 1)[1].rstrip(")"))
            chosen = get(client, f"{SEARCH}?q={query}&{facet}={value}")
            assert re.search(rf">{count} records? found", chosen), (facet, value, count)


# --- Speed mechanisms: the cached counts follow every catalogue change ----------------------------


@pytest.mark.postgres
def test_cached_counts_of_a_search_without_words_follow_catalogue_changes(client, shelf):
    """Without words the counts are cached under the catalogue's version, which triggers change
    with every write to the records, their categories and languages, and their labels."""
    strategy = Category.objects.get(code="A 406")
    assert options(get(client, SEARCH), "category")[str(strategy.pk)] == "jeu de stratégie (3)"
    with CaptureQueriesContext(connection) as read_twice:
        html = get(client, SEARCH)
    assert "5 records found" in html
    assert not any("games_category" in query["sql"] for query in read_twice), "counted again though cached"

    agricola = CatalogueRecord.objects.create(title="Agricola", min_players=1, max_players=4, min_age=12)
    html = get(client, SEARCH)
    assert "6 records found" in html and options(html, "players")["1"] == "1 player (2)"
    agricola.categories.add(strategy)  # the many-to-many table alone
    assert options(get(client, SEARCH), "category")[str(strategy.pk)] == "jeu de stratégie (4)"
    agricola.languages.add(Language.objects.get(code="eng"))
    assert options(get(client, SEARCH), "language")["eng"] == "English (4)"
    Category.objects.filter(pk=strategy.pk).update(label="stratégie")  # a label, in bulk
    assert options(get(client, SEARCH), "category")[str(strategy.pk)] == "stratégie (4)"
    CatalogueRecord.objects.filter(pk=agricola.pk).update(min_age=6)
    assert options(get(client, SEARCH), "age")["6"] == "6 years or under (2)"
    agricola.delete()
    assert "5 records found" in get(client, SEARCH)


@pytest.mark.postgres
def test_the_catalogue_version_changes_with_writes_only(shelf):
    def version() -> int:
        with connection.cursor() as cursor:
            cursor.execute("SELECT version FROM games_catalogueversion")
            return cursor.fetchone()[0]

    before = version()
    list(CatalogueRecord.objects.all())
    assert version() == before
    Language.objects.create(code="ger", name="Deutsch")
    assert version() > before


def test_searching_with_words_sorts_and_pages_like_browsing(client, many_records, shelf):
    CatalogueUsage.objects.create(catalogue_record=shelf["Dobble"], times_played=3, last_played=date(2026, 3, 1))
    numbered = [f"Jeu numéro {n:02d}" for n in range(1, 26)]
    assert titles(get(client, f"{SEARCH}?q=numero&sort=title")) == numbered[:20]
    # Past the end: the last page, with words too.
    assert titles(get(client, f"{SEARCH}?q=numero&sort=title&page=9")) == numbered[20:]
    # Times played first, then titles; relevance ignored.
    assert titles(get(client, f"{SEARCH}?q=jeu&sort=played&category={Category.objects.get(code='B 100').pk}")) == ["Dobble"]
    assert titles(get(client, f"{SEARCH}?q=d&sort=played"))[0] == "Dobble"


def test_words_with_facets_follow_record_edits(client, shelf):
    """On PostgreSQL the search rows carry the facet and sort columns: a bulk edit must reach them."""
    assert titles(get(client, f"{SEARCH}?q=dobble&players=8")) == ["Dobble"]
    CatalogueRecord.objects.filter(title="Dobble").update(max_players=6, title="Dobble Kids", duration_minutes=200)
    assert titles(get(client, f"{SEARCH}?q=dobble&players=8")) == []
    html = get(client, f"{SEARCH}?q=dobble&players=6")
    assert titles(html) == ["Dobble Kids"] and options(html, "duration") == {"epic": "over 2 hours (1)"}
    CatalogueRecord.objects.create(title="Dobble Animals", min_players=2, max_players=6)
    assert titles(get(client, f"{SEARCH}?q=dobble&sort=title")) == ["Dobble Animals", "Dobble Kids"]


# --- Facets as lists with counts (Koha, PMB) ------------------------------------------------------------


def facet_list(html: str, facet: str) -> list[tuple[str, str, int, bool]]:
    """The facet's list beside the results: (label, link, count, chosen) per value, in order."""
    section = re.search(rf'<section class="facet"[^>]*data-facet="{facet}">(.*?)</section>', html, re.S)
    assert section, f"no {facet} facet list"
    found = []
    for item in re.findall(r"<li[^>]*>.*?</li>", section.group(1), re.S):
        count = int(re.search(r'<span class="count">\((\d+)\)</span>', item).group(1))
        if 'class="chosen"' in item:
            label = re.search(r"<span>([^<]+)</span>", item).group(1)
            link = re.search(r'<a class="remove" href="([^"]+)"', item).group(1)
        else:
            link, label = re.search(r'<a href="([^"]+)"[^>]*>([^<]+)</a>', item).groups()
        found.append((label, link.replace("&amp;", "&"), count, 'class="chosen"' in item))
    return found


def test_facets_are_lists_of_links_with_counts_beside_the_results(client, shelf):
    # "jeu" is in the categories of four games (not Patience); the words and sort stay in every link.
    html = get(client, f"{SEARCH}?q=jeu&sort=title")
    strategy, party = Category.objects.order_by("code")
    aside = html[html.index('<aside class="facets"'):html.index('<section class="results"')]
    assert '<div class="facet-lists">' in aside and '<div class="facet-selects">' in aside
    # The commonest value first, each with its count and the link that narrows the search to it.
    assert facet_list(html, "language") == [
        ("French", "/catalogue/?q=jeu&sort=title&language=fre", 3, False),
        ("English", "/catalogue/?q=jeu&sort=title&language=eng", 2, False),
    ]
    assert facet_list(html, "category") == [
        ("jeu de stratégie", f"/catalogue/?q=jeu&sort=title&category={strategy.pk}", 3, False),
        ("jeu d&#x27;ambiance", f"/catalogue/?q=jeu&sort=title&category={party.pk}", 1, False),
    ]
    # The code is there on demand (a tooltip on the list, a small "code" on the record page).
    assert 'title="code A 406">jeu de stratégie</a>' in html
    assert ("2 players", "/catalogue/?q=jeu&sort=title&players=2", 4, False) in facet_list(html, "players")
    # Every link is a plain link for a browser without JavaScript, and swaps the results with htmx.
    link = "/catalogue/?q=jeu&amp;sort=title&amp;language=eng"
    assert f'<a href="{link}" hx-get="{link}">English</a>' in html
    # Following a link narrows the search as counted.
    narrowed = get(client, "/catalogue/?q=jeu&sort=title&language=eng")
    assert titles(narrowed) == ["Les Aventuriers du Rail", "Twilight Struggle"]
    assert "2 records found" in narrowed


def test_a_chosen_facet_is_shown_and_removable(client, shelf):
    html = get(client, f"{SEARCH}?q=jeu&language=eng&players=2")
    # Chosen: in the list with its count and a × that removes it, the other choices kept.
    assert ("English", "/catalogue/?q=jeu&players=2", 2, True) in facet_list(html, "language")
    assert ("2 players", "/catalogue/?q=jeu&language=eng", 2, True) in facet_list(html, "players")
    assert 'aria-label="Remove the filter Language: English"' in html
    # Above the results: the filters in use, each removable, and all at once.
    chips = re.search(r'<ul class="active-filters"[^>]*>(.*?)</ul>', html, re.S).group(1)
    assert [chip.strip() for chip in re.findall(r'<li class="chip">([^<]+)<', chips)] == [
        "Language: English", "Playable with: 2 players"]
    assert '<a href="/catalogue/?q=jeu" hx-get="/catalogue/?q=jeu">Clear the filters</a>' in chips
    widened = get(client, "/catalogue/?q=jeu&players=2")  # English removed
    assert "4 records found" in widened and "Filters in use" in widened
    # The drop-downs (phones) still carry the choices when the words are searched again.
    assert re.search(r'<option value="eng" selected>English \(2\)</option>', html)


def test_a_chosen_value_no_record_has_can_still_be_removed(client, shelf):
    Language.objects.create(code="ger", name="Deutsch")
    html = get(client, f"{SEARCH}?language=ger")
    assert "0 records found" in html
    assert facet_list(html, "language")[-1] == ("German", "/catalogue/", 0, True)


def test_long_facets_show_the_commonest_values_and_the_rest_on_demand(client, shelf):
    for n in range(10):
        category = Category.objects.create(code=f"Z {n:02d}", label=f"catégorie {n:02d}")
        shelf["Dobble"].categories.add(category)
    html = get(client, SEARCH)
    section = re.search(r'<section class="facet"[^>]*data-facet="category">(.*?)</section>', html, re.S).group(1)
    shown, more = section.split("<details>")
    assert shown.count("<li") == 8 and "jeu de stratégie" in shown  # the commonest first (3 records)
    assert "<summary>4 more</summary>" in more and more.count("<li") == 4


def test_the_stylesheet_shows_lists_on_wide_screens_and_drop_downs_on_phones():
    css = (Path(__file__).resolve().parents[2] / "ludolog/web/static/ludolog/catalogue.css").read_text()
    assert ".facet-selects { display: none; }" in css
    phone = css[css.index("@media (max-width: 50rem)"):]
    assert ".facet-lists { display: none; }" in phone and ".facet-selects { display: grid;" in phone


# --- Labels in the reader's language ----------------------------------------------------------------


def test_languages_read_in_the_readers_language(client, shelf):
    english = get(client, f"{SEARCH}?sort=title")
    assert '<li data-languages="eng fre">English, French</li>' in english
    assert [label for label, *_rest in facet_list(english, "language")] == ["English", "French"]
    client.cookies["django_language"] = "fr"
    french = get(client, f"{SEARCH}?sort=title")
    assert '<li data-languages="eng fre">anglais, français</li>' in french
    assert [label for label, *_rest in facet_list(french, "language")] == ["anglais", "français"]
    record = get(client, reverse("catalogue:record", args=[shelf["Les Aventuriers du Rail"].pk]))
    assert field(record, "Langues") == "anglais, français"


def test_a_language_without_a_known_name_reads_as_the_catalogue_names_it(client, shelf):
    Language.objects.create(code="epo", name="Esperanto")
    shelf["Patience"].languages.add("epo")
    assert field(get(client, reverse("catalogue:record", args=[shelf["Patience"].pk])), "Languages") == "English, Esperanto"


@pytest.mark.parametrize("stored, english, french", [
    ("texte imprimé", "printed text", "texte imprimé"),
    ("Jeu de société", "board game", "jeu de société"),
    ("objet à 3 dimensions, artefacts", "three-dimensional object", "objet en trois dimensions"),
    ("maquette en bois", "maquette en bois", "maquette en bois"),  # unknown: as the librarian wrote it
])
def test_document_types_read_in_the_readers_language(client, shelf, stored, english, french):
    record = shelf["Dobble"]
    record.document_type = stored
    record.save()
    url = reverse("catalogue:record", args=[record.pk])
    assert field(get(client, url), "Document type") == english
    assert field(get(client, url, HTTP_ACCEPT_LANGUAGE="fr"), "Type de document") == french


def test_categories_read_by_their_label_with_the_code_on_demand(client, demo):
    html = get(client, reverse("catalogue:record", args=[demo.pk]))
    category = demo.categories.get()
    assert (f'<li><a href="/catalogue/?category={category.pk}">jeu de stratégie (jeu de règles)</a>'
            ' <span class="code">code A 406</span></li>') in html


# --- No placeholder read as a fact ---------------------------------------------------------------------


@pytest.fixture
def sparse() -> CatalogueRecord:
    """A record as a quick PMB entry leaves it: default document type, ages 0–99, nothing else."""
    return CatalogueRecord.objects.create(title="Sans détails", min_age=0, max_age=99, max_players=4)


def visible_text(html: str) -> str:
    """What a reader sees: the text between the tags (not an attribute, such as a CSRF token)."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_unstated_fields_are_not_shown_to_readers(client, sparse):
    html = get(client, reverse("catalogue:record", args=[sparse.pk]))
    for label in ("Document type", "Minimum age", "Maximum age", "Average duration", "Observed duration",
                  "not stated", "99", "objet à 3 dimensions"):
        assert label not in visible_text(html), label
    assert field(html, "Maximum number of players") == "4"
    results = get(client, SEARCH)
    row = re.search(r'<ul class="facts">(.*?)</ul>', results, re.S).group(1)
    assert re.findall(r"<li>([^<]*)</li>", row) == ["up to 4 players"]  # no "?–4", no age, no duration
    assert "99" not in visible_text(results) and "?" not in row


def facts_of(html: str, title: str) -> list[str]:
    """The short facts under a hit's title (players, ages, duration, languages)."""
    hit = re.search(rf">{re.escape(title)}</a></h3>.*?<ul class=\"facts\">(.*?)</ul>", html, re.S)
    assert hit, f"no hit {title!r}"
    return [" ".join(fact.split()) for fact in re.findall(r"<li[^>]*>([^<]*)</li>", hit.group(1))]


def test_stated_bounds_read_as_ranges_and_open_ends(client, shelf):
    CatalogueRecord.objects.filter(title="Dobble").update(min_age=6, max_age=12)
    CatalogueRecord.objects.filter(title="Patience").update(min_age=None, max_age=10, max_players=None)
    CatalogueRecord.objects.filter(title="Twilight Struggle").update(max_age=99)
    html = get(client, f"{SEARCH}?sort=title")
    assert facts_of(html, "Dobble") == ["2–8 players", "6 to 12 years", "15 min", "French"]
    assert facts_of(html, "Patience") == ["1 player or more", "up to 10 years", "English"]
    assert facts_of(html, "Twilight Struggle") == ["2 players", "from 14 years", "180 min", "English"]


def test_librarians_see_the_gaps_as_not_stated(client, sparse):
    librarian = get_user_model().objects.create_user("librarian", password="x-pw-123456789")
    give_role(librarian, Role.LIBRARIAN)
    client.force_login(librarian)
    html = get(client, reverse("catalogue:record", args=[sparse.pk]))
    assert field(html, "Document type") == "not stated (“objet à 3 dimensions, artefacts, ...”)"
    assert field(html, "Minimum age") == "not stated (0)"
    assert field(html, "Maximum age") == "not stated (99)"
    assert field(html, "Average duration (minutes)") == "not stated"
    assert field(html, "Observed duration") == "not recorded"
    assert f'<a href="/catalogue/{sparse.pk}/edit/" data-testid="edit-record">Edit this record</a>' in html
    french = get(client, reverse("catalogue:record", args=[sparse.pk]), HTTP_ACCEPT_LANGUAGE="fr")
    assert field(french, "Durée moyenne (minutes)") == "non renseigné"


def test_the_admin_list_reads_empty_fields_as_not_stated(admin_client, sparse):
    html = admin_client.get("/admin/games/cataloguerecord/").content.decode()
    assert html.count("not stated") >= 2  # duration, players… never an empty cell or a dash


# --- Covers in the hit list and on the record page -------------------------------------------------------


def test_results_and_record_page_show_the_thumbnail_or_a_drawn_placeholder(client, shelf):
    dobble = shelf["Dobble"]
    CatalogueRecord.objects.filter(pk=dobble.pk).update(cover="covers/abc.png")  # files: tests/games/test_covers.py
    html = get(client, f"{SEARCH}?sort=title")
    by_title = {title: tag for tag, title in re.findall(
        r'<article class="hit"[^>]*>\s*(<img[^>]*>|<svg[^>]*>).*?<h3 id="record-\d+-title"><a [^>]*>([^<]+)</a>', html, re.S)}
    assert 'src="/media/covers/abc.160.webp"' in by_title["Dobble"] and 'alt=""' in by_title["Dobble"]
    assert 'data-cover="placeholder"' in by_title["Patience"] and 'aria-hidden="true"' in by_title["Patience"]
    assert html.count('data-cover="placeholder"') == 4
    record = get(client, reverse("catalogue:record", args=[dobble.pk]))
    assert ('<a href="/media/covers/abc.png"><img class="cover cover-large" src="/media/covers/abc.480.webp" '
            'alt="Cover of Dobble"') in record
    other = get(client, reverse("catalogue:record", args=[shelf["Patience"].pk]))
    assert 'data-cover="placeholder"' in other and "No cover image yet" in other and "<img" not in other


# --- A record with a rules engine leads to its games -------------------------------------------------------


def test_a_record_with_an_engine_links_to_its_games_and_to_recording_one(client, demo):
    stone_age = CatalogueRecord.objects.get(title="Stenen Tijdperk")
    url = reverse("catalogue:record", args=[stone_age.pk])
    html = get(client, url)
    assert 'data-testid="engine-games"' not in html  # no game of it yet: the filtered list would be empty
    assert '<a href="/scorekeeping/?game=stone-age" data-testid="record-game">Record a new game of Stone Age</a>' in html
    GameRecord.objects.create(game_slug="stone-age", status=GameRecord.Status.FINISHED, played_on=date(2026, 3, 1),
                              result_only=True)
    GameRecord.objects.create(game_slug="stone-age", is_private=True, played_on=date(2026, 3, 2), result_only=True)
    html = get(client, url)
    assert ('<a href="/games/?game=stone-age" data-testid="engine-games">The game of Stone Age recorded on Ludolog</a>'
            in html)  # the private one is not counted for an anonymous reader
    assert client.get("/games/?game=stone-age").status_code == 200
    CatalogueRecord.objects.filter(pk=stone_age.pk).update(engine_slug="")
    html = get(client, url)
    assert 'data-testid="engine-games"' not in html and 'data-testid="record-game"' not in html


@pytest.mark.parametrize(("language", "shown"), [
    ("fr", HG_TITLE), ("en", HG_ENGLISH_TITLE), ("cs", "Carcassonne – Lovci a sběrači"),
    ("nl", "Carcassonne – Jagers en Verzamelaars")])
def test_a_record_is_shown_under_its_title_in_the_readers_language(client, demo, language, shown):
    """Its other titles carry their language: the page and the hit list show the reader's, and the
    catalogued title stays in the record's fields; every title finds it."""
    record = CatalogueRecord.objects.get(title=HG_TITLE)
    html = get(client, f"/catalogue/{record.pk}/", HTTP_ACCEPT_LANGUAGE=language)
    assert f'<h1 id="record-title">{shown}</h1>' in html
    assert titles(get(client, f"{SEARCH}?q=Wrede", HTTP_ACCEPT_LANGUAGE=language)) == [shown]
    for title in (HG_TITLE, HG_ENGLISH_TITLE, "Lovci a sběrači", "Jagers en Verzamelaars"):
        assert titles(get(client, f"{SEARCH}?q={title}", HTTP_ACCEPT_LANGUAGE=language)) == [shown], title
