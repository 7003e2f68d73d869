"""The public catalogue, read as a member of the ludothèque reads it: search, facets, a record.

A small hand-made catalogue whose facet counts can be checked by hand, plus the demo records
(the seed's PMB record of "Carcassonne à la prèhistoire") for the record page.
"""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import search
from games.models import CatalogueRecord, Category, Contribution, Copy, Language, OtherTitle, Person, Publisher
from games.services import demo_catalogue_data, load_catalogue
from records.models import GameRecord, Player, Seat
from scoring.models import CatalogueUsage, ScoredRecord, SeatResult

pytestmark = pytest.mark.django_db

HG_TITLE = "Carcassonne à la prèhistoire"
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
    assert HG_TITLE in titles(html)
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
    assert titles(html) == [HG_TITLE]
    assert "1 record found" in html
    # Words match as prefixes, across the other titles, people and publisher.
    assert titles(get(client, f"{SEARCH}?q=prehist")) == [HG_TITLE]
    assert titles(get(client, f"{SEARCH}?q=hunters+gatherers")) == [HG_TITLE]
    assert titles(get(client, f"{SEARCH}?q=wrede+gluck")) == [HG_TITLE]


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
        str(strategy.pk): "A 406 jeu de stratégie (3)",
        str(party.pk): "B 100 jeu d&#x27;ambiance (1)",
    }
    assert options(html, "language") == {"eng": "English (3)", "fre": "Français (3)"}
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
    assert re.search(rf'<option value="{strategy.pk}" selected>A 406 jeu de stratégie \(3\)</option>', html)
    assert "B 100 jeu d&#x27;ambiance (1)" in html
    # …and every other facet counts inside the chosen category.
    assert options(html, "language") == {"eng": "English (2)", "fre": "Français (2)"}
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
    assert '<script src="/static/django_htmx/htmx' in html and "unpkg" not in html and "cdn" not in html.lower()


def test_an_htmx_history_restore_gets_the_whole_page(client, shelf):
    html = get(client, f"{SEARCH}?q=dobble", HTTP_HX_REQUEST="true", HTTP_HX_HISTORY_RESTORE_REQUEST="true")
    assert "<main" in html and titles(html) == ["Dobble"]


# --- The record page -------------------------------------------------------------------------------------


def field(html: str, label: str) -> str:
    """The text of the ``<dd>`` after the ``<dt>`` labelled so, tags and spacing removed."""
    match = re.search(rf"<dt>{re.escape(label)}</dt>\s*<dd[^>]*>(.*?)</dd>", html, re.S)
    assert match, f"no field {label!r}"
    return " ".join(re.sub(r"<[^>]+>", " ", match.group(1)).split())


def test_record_page_shows_the_seed_fields(client, demo):
    html = get(client, reverse("catalogue:record", args=[demo.pk]))
    assert f"<h1 id=\"record-title\">{HG_TITLE}</h1>" in html
    assert field(html, "Title") == HG_TITLE
    assert field(html, "Other titles") == "Carcassonne: Hunters and Gatherers (title in another language, English)"
    assert field(html, "Document type") == "objet à 3 dimensions, artefacts, ..."
    assert field(html, "Authors") == "Klaus-Jürgen Wrede, Author"
    assert field(html, "Publisher") == "Hans im gluck"
    assert field(html, "Languages") == "Français (fre)"
    assert field(html, "Categories") == "A 406 jeu de stratégie (jeu de règles)"
    assert field(html, "Minimum number of players") == "2"
    assert field(html, "Maximum number of players") == "5"
    assert field(html, "Minimum age") == "10"
    assert field(html, "Maximum age") == "99"
    assert field(html, "Average duration (minutes)") == "45"
    assert field(html, "Observed duration") == "not recorded"
    assert field(html, "Contents").startswith("79 tuiles paysage, 12 tuiles bonus")
    assert "Des milliers d&#x27;années" in field(html, "Summary")
    assert "Principe du jeu" in field(html, "Notes")
    assert field(html, "Rules engine").endswith("(hunters-gatherers)")
    assert html.index("<main") < html.index("<h1") < html.index('<h2 id="description-heading"')


def test_record_page_lists_the_copies_and_their_status(client, demo):
    html = get(client, reverse("catalogue:record", args=[demo.pk]))
    rows = re.findall(r"<tr>\s*<th scope=\"row\">(.*?)</th>\s*<td>(.*?)</td>\s*<td[^>]*>(.*?)</td>", html, re.S)
    assert rows == [
        ("LUD-HG-0001", "Jeux de stratégie – C", "Available"),
        ("LUD-HG-0002", "Jeux de stratégie – C", "Missing parts"),
    ]
    assert "Demo copy: 1 green wooden disc missing." in html
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
    assert field(record, "Type de document") == "objet à 3 dimensions, artefacts, ..."
    assert field(record, "Auteurs") == "Klaus-Jürgen Wrede, Auteur"
    assert field(record, "Nombre minimum de joueurs") == "2"
    assert field(record, "Durée moyenne (minutes)") == "45"
    assert field(record, "Durée observée") == "non enregistrée"
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
    assert options(get(client, SEARCH), "category")[str(strategy.pk)] == "A 406 jeu de stratégie (3)"
    with CaptureQueriesContext(connection) as read_twice:
        html = get(client, SEARCH)
    assert "5 records found" in html
    assert not any("games_category" in query["sql"] for query in read_twice), "counted again though cached"

    agricola = CatalogueRecord.objects.create(title="Agricola", min_players=1, max_players=4, min_age=12)
    html = get(client, SEARCH)
    assert "6 records found" in html and options(html, "players")["1"] == "1 player (2)"
    agricola.categories.add(strategy)  # the many-to-many table alone
    assert options(get(client, SEARCH), "category")[str(strategy.pk)] == "A 406 jeu de stratégie (4)"
    agricola.languages.add(Language.objects.get(code="eng"))
    assert options(get(client, SEARCH), "language")["eng"] == "English (4)"
    Category.objects.filter(pk=strategy.pk).update(label="stratégie")  # a label, in bulk
    assert options(get(client, SEARCH), "category")[str(strategy.pk)] == "A 406 stratégie (4)"
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
