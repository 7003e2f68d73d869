#!/usr/bin/env python
"""Catalogue search benchmark on PostgreSQL: 10,000 records, searches through the real view.

Creates (and drops first) its own database, migrates it, bulk-creates a realistic catalogue
(French, German, Dutch and English titles with accents, authors, publishers, categories,
languages, players, ages, durations, summaries, copies and finished games), then times searches
through the whole Django stack (test client: URL routing, middleware, view, template), mixed:
accent-less and accented words, prefixes, authors, publishers, facets alone and with words, the
three sort orders, later pages, htmx fragments. Prints p50 / p95 / p99 in ms. Target: p50 ≤ 50 ms.
Then, apart, searches a French reader writes otherwise than the catalogue (plurals, mistyped
words: issue 38), each typo checked to be offered its correction.

Usage: ``.venv/bin/python bench/bench_catalogue_search.py [--records 10000] [--searches 400]``
Database: ``--database-url`` or ``BENCH_DATABASE_URL``, by default
postgres://postgres@127.0.0.1:5432/ludolog_bench_catalogue.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from datetime import date, timedelta
from urllib.parse import urlencode, urlsplit, urlunsplit


from benchlib import ROOT, percentile, recreate_database

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/ludolog_bench_catalogue"

TITLE_HEADS = [
    "Les Aventuriers de", "La Quête du", "Le Trésor de", "Les Bâtisseurs de", "L'Île de", "La Forêt de",
    "Les Chasseurs de", "Le Royaume de", "Les Mystères de", "La Légende de", "Die Siedler von",
    "Das Schloß von", "Die Burgen von", "De Ontdekkers van", "Het Kasteel van", "The Lords of",
    "The Castles of", "Journey to", "Secrets of", "Carcassonne:", "Château", "Préhistoire:",
]
TITLE_TAILS = [
    "Préhistoire", "Mammouths", "Rivière", "Forêt enchantée", "Cité d'Émeraude", "Océan", "Montagne",
    "Désert", "Pôle Nord", "Égypte", "Venise", "Bourgogne", "Catane", "Nürnberg", "Köln", "Zürich",
    "Ijsselmeer", "Brugge", "Gent", "Tigres à dents de sabre", "Huttes", "Cueilleurs", "Dragons",
    "Pirates", "Jungle", "Été", "Hiver", "Cro-Magnon", "Volcan", "Lac", "Aurochs", "Pépites d'or",
]
TITLE_SUFFIXES = ["", "", "", "", " – l'extension", " : édition deluxe", " 2", " junior", " (2e édition)", " Big Box"]
FIRST_NAMES = [
    "Klaus-Jürgen", "Bruno", "Antoine", "Élodie", "Reiner", "Uwe", "Wolfgang", "Stefan", "Vlaada", "Bernhard",
    "Matthias", "Friedemann", "Inka", "Markus", "Ludovic", "Cédric", "Gaëtan", "Loïc", "Hélène", "Zoé",
    "Jörg", "Søren", "Åsa", "Noémie", "François", "Jérôme", "Benoît", "Anaïs", "Maëlle", "Théo",
]
LAST_NAMES = [
    "Wrede", "Cathala", "Bauza", "Knizia", "Rosenberg", "Teuber", "Kramer", "Feld", "Chvátil", "Weißbrod",
    "Friese", "Brand", "Maublanc", "Lemaître", "Dupré", "Bréhier", "Mørk", "Gérard", "Noël", "Lefèvre",
    "Müller", "Schröder", "Faidutti", "Bonnefoy", "Thévenot", "Désiré", "Laurençon", "Ébrard", "Fauré", "Hüsch",
]
PUBLISHERS = [
    "Hans im Glück", "Days of Wonder", "Asmodée", "Iello", "Repos Production", "Kosmos", "Ravensburger",
    "Queen Games", "Z-Man Games", "Czech Games Edition", "Matagot", "Libellud", "Bombyx", "Gigamic",
    "999 Games", "Pegasus Spiele", "Schmidt Spiele", "Lookout Spiele", "Space Cowboys", "Blue Orange",
    "Éditions du Matagot", "Le Scorpion Masqué", "Funforge", "Ludonaute", "Catch Up Games",
]
CATEGORIES = [
    ("A 401", "jeu de hasard"), ("A 402", "jeu d'adresse"), ("A 403", "jeu de lettres"),
    ("A 404", "jeu de connaissances"), ("A 405", "jeu d'ambiance"), ("A 406", "jeu de stratégie (jeu de règles)"),
    ("A 407", "jeu coopératif"), ("A 408", "jeu de placement"), ("A 409", "jeu de gestion"),
    ("A 410", "jeu de déduction"), ("A 411", "jeu de mémoire"), ("A 412", "jeu de course"),
    ("A 413", "jeu de cartes"), ("A 414", "jeu de pose de tuiles"), ("A 415", "jeu de négociation"),
    ("A 416", "jeu d'enchères"), ("A 417", "jeu de bluff"), ("A 418", "jeu d'éveil"),
    ("A 419", "jeu de rôle"), ("A 420", "jeu d'histoire"),
]
LANGUAGES = [("fre", "Français"), ("eng", "English"), ("ger", "Deutsch"), ("dut", "Nederlands"),
             ("cze", "Čeština"), ("ita", "Italiano")]
WORDS = (
    "les joueurs placent des tuiles paysage forêt prairie rivière lac source chasseur cueilleur pêcheur hutte "
    "points cerf mammouth auroch tigre feu champignons pépites or décompte final partie tour pioche réserve "
    "préhistoire âge pierre région habitée animaux sauvages baies racines poissons peintures rupestres "
    "découvertes archéologiques construire commerce ressources bois argile blé mouton minerai route ville "
    "colonie dés cartes marché négocier enchères bluff deviner mémoire adresse rapidité coopérer équipe "
    "explorer île trésor navire pirate château royaume chevalier dragon magie potion sorcier forêt enchantée"
).split()
QUERIES = [
    "prehistoire", "préhistoire", "carcassonne", "carcassonne prehistoire", "chasseurs", "mammouth", "foret",
    "riviere", "wrede", "cathala", "knizia", "weissbrod", "hans im gluck", "days of wonder", "asmodee",
    "chateau", "ile", "egypte", "zurich", "koln", "tigres dents sabre", "cueilleurs", "pepites", "peintures",
    "strategie", "cooperatif", "tuiles", "dragon magie", "deluxe", "junior", "extension", "volcan", "aurochs",
    "prehist", "carca", "gaetan", "noel", "lefevre", "brugge", "ijsselmeer", "pirates tresor", "venise",
    "hiver", "ete", "jungle", "montagne", "ocean", "desert", "bourgogne", "catane", "cro magnon", "huttes",
]
# Timed apart, after the mix above (which they leave as it was): words read in a French reader's
# language, other forms of the catalogue's words and mistyped ones, each typo checked to be corrected.
FRENCH_READERS_QUERIES = ["jeux de strategie", "chasseur", "tuile", "mammouths", "rivieres", "chateaux", "dragons"]
MISTYPED_QUERIES = ["carcssonne", "prehistorie", "mamouth", "knizai", "cathla", "riviere enchantee foert"]


def reset_database(url: str) -> None:
    parts = urlsplit(url)
    recreate_database(parts.path.lstrip("/"), urlunsplit(parts._replace(path="/")))


def setup_django(url: str) -> None:
    os.environ.update(DATABASE_URL=url, CONN_MAX_AGE="60", LOG_LEVEL="WARNING", DEBUG="1")
    (ROOT / "staticfiles").mkdir(exist_ok=True)  # WhiteNoise warns at every start without it
    os.environ.pop("CELERY_BROKER_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludolog.settings")
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=dict(os.environ), check=True)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.conf import settings

    # DEBUG stays on only so that static files need no collectstatic; queries are not logged.
    settings.DEBUG = False


def build_catalogue(records: int, rng: random.Random) -> None:
    from django.db import transaction

    from games.models import CatalogueRecord, Category, Contribution, Copy, Language, OtherTitle, Person, Publisher
    from games.services import demo_catalogue_data, load_catalogue
    from records.models import GameRecord

    load_catalogue(demo_catalogue_data())  # the seed's records, "Carcassonne à la prèhistoire" among them
    with transaction.atomic():
        for code, name in LANGUAGES:
            Language.objects.update_or_create(code=code, defaults={"name": name})
        categories = [Category.objects.update_or_create(code=c, defaults={"label": label})[0] for c, label in CATEGORIES]
        publishers = [Publisher.objects.get_or_create(name=name)[0] for name in PUBLISHERS]
        people = Person.objects.bulk_create(
            [Person(name=f"{first} {last}") for first in FIRST_NAMES for last in LAST_NAMES], ignore_conflicts=True
        )
        people = list(Person.objects.all())
        languages = list(Language.objects.all())

        made = []
        for n in range(records):
            low = rng.choice([1, 2, 2, 2, 3, 3, 4])
            high = max(low, rng.choice([2, 4, 4, 5, 5, 6, 8, 10]))
            age = rng.choice([3, 5, 6, 7, 8, 8, 10, 10, 12, 14, 16])
            made.append(CatalogueRecord(
                title=f"{rng.choice(TITLE_HEADS)} {rng.choice(TITLE_TAILS)}{rng.choice(TITLE_SUFFIXES)} #{n}",
                publisher=rng.choice(publishers),
                publication_year=rng.randint(1985, 2026),
                min_players=low, max_players=high, min_age=age, max_age=rng.choice([None, 99, 99]),
                duration_minutes=rng.choice([10, 15, 20, 30, 30, 45, 45, 60, 60, 90, 120, 180, 240]),
                contents=f"{rng.randint(20, 120)} tuiles, {rng.randint(0, 110)} cartes, {rng.randint(1, 6)} plateaux, "
                         "règles du jeu.",
                summary=" ".join(rng.choice(WORDS) for _ in range(rng.randint(20, 70))).capitalize() + ".",
            ))
        made = CatalogueRecord.objects.bulk_create(made, batch_size=1000)
        through_categories = CatalogueRecord.categories.through
        through_languages = CatalogueRecord.languages.through
        through_categories.objects.bulk_create(
            [through_categories(cataloguerecord_id=r.pk, category_id=c.pk)
             for r in made for c in rng.sample(categories, rng.choice([1, 1, 2]))], batch_size=2000,
        )
        through_languages.objects.bulk_create(
            [through_languages(cataloguerecord_id=r.pk, language_id=lang.pk)
             for r in made for lang in rng.sample(languages, rng.choice([1, 1, 2, 3]))], batch_size=2000,
        )
        Contribution.objects.bulk_create(
            [Contribution(record=r, person=p, role=role, position=i)
             for r in made
             for i, (p, role) in enumerate(zip(rng.sample(people, 2), ["author", rng.choice(["author", "illustrator"])]))
             if i == 0 or rng.random() < 0.6],
            batch_size=2000,
        )
        OtherTitle.objects.bulk_create(
            [OtherTitle(record=r, title=f"{rng.choice(TITLE_HEADS)} {rng.choice(TITLE_TAILS)} ({r.pk})", kind="translated")
             for r in made if rng.random() < 0.3],
            batch_size=2000,
        )
        copies = Copy.objects.bulk_create(
            [Copy(record=r, barcode=f"BENCH-{r.pk:06d}-{k}", shelf_location=f"Rayon {rng.choice('ABCDEFGH')}",
                  status=rng.choice(["available"] * 6 + ["on_loan", "on_loan", "missing_parts", "withdrawn"]),
                  acquired_on=date(2010, 1, 1) + timedelta(days=rng.randint(0, 5800)))
             for r in made for k in range(rng.choice([0, 1, 1, 1, 2, 3]))],
            batch_size=2000,
        )
        played = rng.sample(copies, min(len(copies), 1500))
        GameRecord.objects.bulk_create(
            [GameRecord(game_slug="bench", catalogue_record_id=c.record_id, copy=c, status="finished", result_only=True,
                        played_on=date(2024, 1, 1) + timedelta(days=rng.randint(0, 700)))
             for c in played for _ in range(rng.randint(1, 4))],
            batch_size=2000,
        )
    from django.db import connection

    with connection.cursor() as cursor:
        # Every bulk insert rewrote search rows through the triggers; autovacuum would clean up
        # soon after in a running catalogue, so time the searches on a vacuumed table.
        cursor.execute("VACUUM ANALYZE")


def search_urls(count: int, rng: random.Random) -> list[tuple[str, dict[str, str]]]:
    from games.models import Category

    category_ids = list(Category.objects.values_list("pk", flat=True))
    urls = []
    for _ in range(count):
        params: dict[str, str] = {}
        kind = rng.random()
        if kind < 0.75:
            params["q"] = rng.choice(QUERIES)
        if kind >= 0.5 or rng.random() < 0.2:  # facets, alone or with words
            facet = rng.choice(["category", "language", "players", "age", "duration"])
            params[facet] = {
                "category": lambda: str(rng.choice(category_ids)),
                "language": lambda: rng.choice([code for code, _ in LANGUAGES]),
                "players": lambda: str(rng.randint(1, 8)),
                "age": lambda: str(rng.choice([3, 6, 8, 10, 12, 14, 18])),
                "duration": lambda: rng.choice(["short", "medium", "long", "epic"]),
            }[facet]()
        sort = rng.random()
        if sort < 0.15:
            params["sort"] = "title"
        elif sort < 0.3:
            params["sort"] = "played"
        if rng.random() < 0.15:
            params["page"] = str(rng.randint(2, 4))
        headers = {"HTTP_HX_REQUEST": "true"} if rng.random() < 0.5 else {}
        urls.append(("/catalogue/?" + urlencode(params), headers))
    return urls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL", DEFAULT_URL))
    parser.add_argument("--records", type=int, default=10_000)
    parser.add_argument("--searches", type=int, default=400)
    parser.add_argument("--seed", type=int, default=6)
    parser.add_argument("--reuse", action="store_true", help="keep the database a previous run built")
    args = parser.parse_args()
    rng = random.Random(args.seed)

    if not args.reuse:
        reset_database(args.database_url)
    setup_django(args.database_url)
    started = time.perf_counter()
    if not args.reuse:
        build_catalogue(args.records, rng)
    from django.test import Client

    from games.models import CatalogueRecord

    print(f"catalogue: {CatalogueRecord.objects.count()} records "
          + ("reused" if args.reuse else f"built in {time.perf_counter() - started:.1f} s"))

    client = Client()
    for url, headers in search_urls(20, random.Random(0)):  # warm the caches and the connection
        assert client.get(url, **headers).status_code == 200
    from games import search

    found = search.matching(CatalogueRecord.objects.all(), "prehistoire")
    assert found.filter(title="Carcassonne à la prèhistoire").exists(), "the accent-less search lost the seed record"
    print(f'"prehistoire" matches {found.count()} records, the seed\'s among them')

    from django.db import connection

    # Detail only: the time each request spends waiting on the database, and its statements,
    # so that the Python part can be told apart on a machine other work slows down.
    statements: list[float] = []

    def timed(execute, sql, params, many, context):
        t = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            statements.append((time.perf_counter() - t) * 1000)

    timings: list[float] = []
    by_kind: dict[str, list[float]] = {}
    sql_by_kind: dict[str, list[tuple[float, int]]] = {}
    for url, headers in search_urls(args.searches, rng):
        statements.clear()
        t0 = time.perf_counter()
        with connection.execute_wrapper(timed):
            response = client.get(url, **headers)
        elapsed = (time.perf_counter() - t0) * 1000
        assert response.status_code == 200, url
        timings.append(elapsed)
        kind = ("words" if "q=" in url else "browse") + (" + facet" if any(
            f"{f}=" in url for f in ("category", "language", "players", "age", "duration")) else "")
        by_kind.setdefault(kind, []).append(elapsed)
        sql_by_kind.setdefault(kind, []).append((sum(statements), len(statements)))

    for name, queries in (("other forms", FRENCH_READERS_QUERIES), ("typos", MISTYPED_QUERIES)):
        language_timings = []
        for _ in range(5):
            for query in queries:
                t0 = time.perf_counter()
                response = client.get("/catalogue/?" + urlencode({"q": query}), HTTP_ACCEPT_LANGUAGE="fr")
                language_timings.append((time.perf_counter() - t0) * 1000)
                assert response.status_code == 200
                assert (b"did-you-mean" in response.content) == (name == "typos"), query
        by_kind[f"fr: {name}"] = language_timings

    print(f"{len(timings)} searches through the view on PostgreSQL:")
    print(f"  p50 {percentile(timings, 0.5):.1f} ms   p95 {percentile(timings, 0.95):.1f} ms   "
          f"p99 {percentile(timings, 0.99):.1f} ms   mean {statistics.fmean(timings):.1f} ms   "
          f"max {max(timings):.1f} ms   (target p50 <= 50 ms)")
    for kind, values in sorted(by_kind.items()):
        print(f"  {kind:<16} n={len(values):<4} p50 {percentile(values, 0.5):6.1f} ms   p95 {percentile(values, 0.95):6.1f} ms")
    print("  of which waiting on PostgreSQL (and the rest, Python), per request:")
    for kind, values in sorted(by_kind.items()):
        if kind not in sql_by_kind:
            continue
        sql = [ms for ms, _n in sql_by_kind[kind]]
        rest = [total - ms for total, ms in zip(values, sql)]
        print(f"  {kind:<16} SQL p50 {percentile(sql, 0.5):6.1f} ms   p95 {percentile(sql, 0.95):6.1f} ms   "
              f"Python p50 {percentile(rest, 0.5):6.1f} ms   p95 {percentile(rest, 0.95):6.1f} ms   "
              f"statements p50 {percentile([float(n) for _ms, n in sql_by_kind[kind]], 0.5):.0f}")


if __name__ == "__main__":
    main()
