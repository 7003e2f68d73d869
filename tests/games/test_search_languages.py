"""The catalogue search reads the reader's language: plurals and cases, accents, typos.

Each reader's language has a few records named and classed in it, and a decoy that shares a
word with them. Every other way of writing a search (plural or singular, another case, without
accents, with one typo) finds the same records as the search written as the catalogue writes it.
The whole catalogue is built once for the module; the same tests run on SQLite and, with
``DATABASE_URL`` set, on PostgreSQL.
"""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client

from games import search, typos
from games.models import CatalogueRecord, Category, OtherTitle
from games.services import demo_catalogue_data, load_catalogue

pytestmark = pytest.mark.django_db

SHELVES = {
    # language: {title: categories}
    "fr": {
        "Les Bâtisseurs du Moyen Âge": ["jeu de stratégie"],
        "Carcassonne": ["jeu de stratégie", "jeu de pose de tuiles"],
        "Dobble": ["jeu d'ambiance"],
    },
    "nl": {
        "Stenen Tijdperk": ["strategiespel"],
        "Kolonisten van Catan": ["strategiespel", "bordspel"],
        "Pandemie": ["coöperatief bordspel"],
    },
    "cs": {
        "Kamenná doba": ["strategická hra"],
        "Osadníci z Katanu": ["strategická hra", "desková hra"],
        "Česká republika v kostce": ["vzdělávací hra"],
    },
    "en": {
        "Twilight Struggle": ["strategy game", "war game"],
        "Ticket to Ride": ["strategy game", "family game"],
        "Café International": ["family game"],
    },
}
SUMMARIES = {
    "Stenen Tijdperk": "Een spel voor twee tot vier spelers.",
    "Kolonisten van Catan": "Een spel voor drie tot vier spelers.",
    "Pandemie": "Een spel voor twee tot vier spelers, die samen spelen.",
}

# language: (the search as the catalogue writes it, the same search written otherwise, what both find)
SAME_RECORDS = [
    # Plural and singular.
    ("fr", "jeu de stratégie", "jeux de stratégie", {"Les Bâtisseurs du Moyen Âge", "Carcassonne"}),
    ("nl", "strategiespel", "strategiespellen", {"Stenen Tijdperk", "Kolonisten van Catan"}),
    ("nl", "spel", "spellen", {"Stenen Tijdperk", "Kolonisten van Catan", "Pandemie"}),
    ("nl", "bordspel", "bordspellen", {"Kolonisten van Catan", "Pandemie"}),
    ("cs", "hra", "hry", {"Kamenná doba", "Osadníci z Katanu", "Česká republika v kostce"}),
    ("en", "strategy game", "strategy games", {"Twilight Struggle", "Ticket to Ride"}),
    # Other inflections: cases, adjectives, a mobile e.
    ("fr", "jeu de stratégie", "jeux stratégiques", {"Les Bâtisseurs du Moyen Âge", "Carcassonne"}),
    ("cs", "strategická hra", "strategické hry", {"Kamenná doba", "Osadníci z Katanu"}),
    ("cs", "strategická hra", "strategických her", {"Kamenná doba", "Osadníci z Katanu"}),
    ("cs", "kamenná doba", "kamenné době", {"Kamenná doba"}),
    ("en", "Twilight Struggle", "twilight struggling", {"Twilight Struggle"}),
    # Without accents.
    ("fr", "jeu de stratégie", "jeux de strategie", {"Les Bâtisseurs du Moyen Âge", "Carcassonne"}),
    ("fr", "Bâtisseurs Âge", "batisseurs age", {"Les Bâtisseurs du Moyen Âge"}),
    ("nl", "coöperatief", "cooperatief", {"Pandemie"}),
    ("cs", "Česká", "Ceska", {"Česká republika v kostce"}),
    ("cs", "strategická hra", "strategicke hry", {"Kamenná doba", "Osadníci z Katanu"}),
    ("en", "Café", "cafe", {"Café International"}),
    # One typo.
    ("fr", "Carcassonne", "Carcassone", {"Carcassonne"}),
    ("nl", "Stenen Tijdperk", "Stenen Tijdperc", {"Stenen Tijdperk"}),
    ("cs", "kamenná doba", "kamená doba", {"Kamenná doba"}),
    ("en", "Twilight Struggle", "Twilight Strugle", {"Twilight Struggle"}),
    ("en", "strategy game", "stratgey game", {"Twilight Struggle", "Ticket to Ride"}),
]


@pytest.fixture(scope="module")
def shelves(module_transaction, django_db_blocker) -> None:
    """Built once for the module's tests (each test's own changes are rolled back)."""
    with django_db_blocker.unblock():
        categories: dict[str, Category] = {}
        for language, shelf in SHELVES.items():
            for title, labels in shelf.items():
                record = CatalogueRecord.objects.create(title=title, summary=SUMMARIES.get(title, ""))
                for label in labels:
                    if label not in categories:
                        categories[label] = Category.objects.create(code=f"{language} {len(categories)}", label=label)
                    record.categories.add(categories[label])


def found(query: str, language: str) -> set[str]:
    return set(search.matching(CatalogueRecord.objects.all(), query, language).values_list("title", flat=True))


@pytest.mark.parametrize(("language", "exact", "written_otherwise", "expected"), SAME_RECORDS,
                         ids=[f"{case[0]}: {case[2]}" for case in SAME_RECORDS])
def test_a_search_written_otherwise_finds_what_the_catalogues_words_find(
        shelves, language, exact, written_otherwise, expected):
    assert found(exact, language) == expected
    assert found(written_otherwise, language) == expected


def test_the_issues_searches_on_the_demo_catalogue(shelves):
    load_catalogue(demo_catalogue_data())
    assert found("jeux de stratégie", "fr") == found("jeu de stratégie", "fr") >= {"Carcassonne à la prèhistoire"}
    assert found("Carcassone", "fr") == found("Carcassonne", "fr") >= {"Carcassonne", "Carcassonne à la prèhistoire"}


def test_a_word_as_typed_still_finds_every_word_it_begins(shelves):
    # The stems come on top of the words as typed: a beginning still finds its words.
    assert found("strat", "fr") == {"Les Bâtisseurs du Moyen Âge", "Carcassonne", "Stenen Tijdperk",
                                    "Kolonisten van Catan", "Kamenná doba", "Osadníci z Katanu",
                                    "Twilight Struggle", "Ticket to Ride"}
    assert found("Tijdp", "nl") == {"Stenen Tijdperk"}


def test_the_other_forms_are_those_of_the_readers_language(shelves):
    # A Dutch plural read by an English reader is a word the catalogue does not have, nor any
    # word a typo away from it.
    assert found("strategiespellen", "nl") == {"Stenen Tijdperk", "Kolonisten van Catan"}
    assert found("strategiespellen", "en") == set()


def test_a_mistyped_search_says_what_it_searched_for_instead(shelves):
    assert search.understand("Stenen Tijdperc", "nl").corrected == "stenen tijdperk"
    assert search.understand("Stenen Tijdperk", "nl").corrected is None
    # Nothing near enough: the search finds nothing rather than something else.
    nothing = search.understand("Xylophonique", "fr")
    assert nothing.corrected is None
    assert found("Xylophonique", "fr") == set()


def test_a_word_past_the_forms_looked_through_is_still_known(shelves, monkeypatch):
    # A catalogue with more words beginning like "spelers" than a search looks through for its
    # forms: "spelers" is still a word of the catalogue, not a typo of "spelen".
    monkeypatch.setattr(search, "NEAR_WORDS_LIMIT", 1)
    assert search.understand("spelers", "nl") == search.Understood((search.SearchWord("spelers"),))


def test_the_page_offers_the_corrected_search(shelves):
    # (French stems "carcassone" as it stems "carcassonne": that typo is found as another form of
    # the word, with nothing to correct. A letter missed inside the stem is a typo to correct.)
    response = Client().get("/catalogue/", {"q": "Carcasonne"}, HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 200
    html = response.content.decode()
    offer = re.search(r'<p class="did-you-mean"[^>]*>(.*?)</p>', html, re.S)
    assert offer, "no “did you mean” on the page"
    assert "Vouliez-vous dire" in offer.group(1)
    assert re.search(r'<a href="/catalogue/\?q=carcassonne">carcassonne</a>', offer.group(1))
    assert re.findall(r'<h3 id="record-\d+-title"><a [^>]*>([^<]*)</a>', html) == ["Carcassonne"]
    # A search the catalogue has the words of offers nothing.
    exact = Client().get("/catalogue/", {"q": "Carcassonne"}, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "did-you-mean" not in exact


def test_the_api_reads_the_words_the_same_way(shelves, settings):
    settings.LANGUAGES = [*settings.LANGUAGES, ("cs", "Čeština")]
    api = Client()
    for query in ("strategické hry", "Kamená doba"):
        answer = api.get("/api/catalogue/", {"q": query}, HTTP_ACCEPT_LANGUAGE="cs").json()
        titles = {record["title"] for record in answer["results"]}
        assert titles == found(query, "cs") and titles


@pytest.mark.postgres
def test_the_catalogue_words_follow_the_records(shelves):
    def has(word: str) -> bool:
        with connection.cursor() as cursor:
            cursor.execute("SELECT EXISTS (SELECT 1 FROM games_catalogueword WHERE word = %s)", [word])
            return cursor.fetchone()[0]

    assert has("tijdperk") and has("strategiespel") and has("ceska")
    record = CatalogueRecord.objects.get(title="Stenen Tijdperk")
    OtherTitle.objects.create(record=record, title="Stone Age Ijstijd")
    assert has("ijstijd")
    assert found("ijstijden", "nl") == {"Stenen Tijdperk"}


@pytest.mark.postgres
def test_pythons_trigram_similarity_is_pg_trgms(shelves):
    # The typos' candidates come from pg_trgm on PostgreSQL and from typos.trigram_similarity
    # elsewhere: the two must measure alike for the corrections to be the same.
    pairs = [("carcassone", "carcassonne"), ("tijdperc", "tijdperk"), ("strugle", "struggle"),
             ("jeu", "jeux"), ("kamena", "kamenna"), ("a", "ab"), ("stratgey", "strategy")]
    with connection.cursor() as cursor:
        for a, b in pairs:
            cursor.execute("SELECT similarity(%s, %s)", [a, b])
            assert typos.trigram_similarity(a, b) == pytest.approx(cursor.fetchone()[0], abs=1e-6), (a, b)
