"""A catalogue of many records made in a few statements, for the OAI-PMH tests and benchmark:
every record with a publisher, two authors and an illustrator, a language, an EAN and a
classification category (one of ``CATEGORIES``, in turn), all changed at the same instant (the
harvest's order then rests on the ids alone, the hardest case for its resumption tokens).

On PostgreSQL the catalogue search's triggers (``games/migrations/0002_catalogue_search.py``) are
held off while it writes: each would rebuild a record's search document for every row written
about it, six times a record (most of the time 10,000 records take), for a search nothing here
makes (and the foreign keys' checks with them: the rows are made right here). The search documents
of these records are then missing, and no harvest reads them."""

from __future__ import annotations

from datetime import UTC, datetime

from django.db import connection, transaction

from games.models import (CatalogueRecord, Category, Contribution, Identifier, Language, Person,
                          Publisher)

CATEGORIES = [("A 406", "jeu de stratégie (jeu de règles)"), ("A 407", "jeu coopératif"),
              ("A 414", "jeu de pose de tuiles")]
CHANGED_AT = datetime(2026, 3, 1, 9, 30, 15, 123456, tzinfo=UTC)


def build_catalogue(records: int, changed_at: datetime = CHANGED_AT) -> list[int]:
    """``records`` new catalogue records, their ids in order."""
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:  # a superuser's setting, the tests' and benchmarks' role
                cursor.execute("SET LOCAL session_replication_role = replica")
        return _build(records, changed_at)


def _build(records: int, changed_at: datetime) -> list[int]:
    publisher, _new = Publisher.objects.get_or_create(name="Hans im Glück")
    french, _new = Language.objects.get_or_create(code="fre", defaults={"name": "Français"})
    categories = [Category.objects.get_or_create(code=code, defaults={"label": label})[0]
                  for code, label in CATEGORIES]
    people = [Person.objects.get_or_create(name=name)[0]
              for name in ("Klaus-Jürgen Wrede", "Bernhard Weber", "Élodie Noël", "Chris Quilliams")]
    made = CatalogueRecord.objects.bulk_create([
        CatalogueRecord(title=f"Carcassonne n° {n} – « édition » & <extension>", publisher=publisher,
                        publication_year=2000 + n % 25, min_players=2, max_players=5, min_age=8,
                        duration_minutes=45, summary=f"Des tuiles et des partisans ({n}).",
                        contents=f"{72 + n % 10} tuiles paysage, 40 partisans")
        for n in range(records)])
    ids = [record.pk for record in made]
    RecordCategory = CatalogueRecord.categories.through
    RecordCategory.objects.bulk_create([
        RecordCategory(cataloguerecord_id=pk, category_id=categories[n % len(categories)].pk)
        for n, pk in enumerate(ids)])
    RecordLanguage = CatalogueRecord.languages.through
    RecordLanguage.objects.bulk_create([RecordLanguage(cataloguerecord_id=pk, language_id=french.pk) for pk in ids])
    Contribution.objects.bulk_create([
        Contribution(record_id=pk, person=person, role=role, position=position)
        for n, pk in enumerate(ids)
        for position, (person, role) in enumerate(
            ((people[n % 4], "author"), (people[(n + 1) % 4], "author"), (people[(n + 2) % 4], "illustrator")))])
    Identifier.objects.bulk_create([Identifier(record_id=pk, scheme="ean", value=f"4{pk:012d}") for pk in ids])
    CatalogueRecord.objects.filter(pk__in=ids).update(updated_at=changed_at)
    return ids
