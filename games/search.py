"""Searching the catalogue the way an OPAC does: words anywhere in the description, then facets.

On PostgreSQL the words are matched against a full-text document per record, kept in the
``games_cataloguesearch`` table by triggers (migration 0002): titles and other titles weigh most,
then people and publisher, then categories, then summary and contents. Document and query both go
through ``unaccent`` and the ``simple`` configuration (the catalogue mixes languages, so no
stemming), and every word matches as a prefix, so that "prehistoire" and "prehist" both find
"Carcassonne à la prèhistoire".

Elsewhere (SQLite for a first run) each word must appear in one of the same fields, compared
after the accent folding ``fold`` does in Python.

Facets filter a result set and count it; "times played" lives in ``scoring`` and is sorted on
by the site, which sits above both apps.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from django.db import connection
from django.db.models import Case, CharField, Count, FloatField, Func, Q, QuerySet, Value, When
from django.db.models.expressions import RawSQL
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from .models import CatalogueRecord, Category, Contribution, Language, OtherTitle

WORD = re.compile(r"[^\W_]+")

# The ligatures and letters Unicode decomposition leaves alone but a French reader types plainly.
_FOLDED_LETTERS = str.maketrans({"æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th"})

PLAYER_COUNTS = range(1, 9)
AGES = (3, 6, 8, 10, 12, 14, 18)


@dataclass(frozen=True)
class DurationBand:
    key: str
    label: Promise
    low: int
    high: int | None


DURATION_BANDS = (
    DurationBand("short", _("up to 30 minutes"), 1, 30),
    DurationBand("medium", _("31 to 60 minutes"), 31, 60),
    DurationBand("long", _("61 to 120 minutes"), 61, 120),
    DurationBand("epic", _("over 2 hours"), 121, None),
)
DURATION_BANDS_BY_KEY = {band.key: band for band in DURATION_BANDS}


def fold(text: str) -> str:
    """Lower case without accents, as a reader types on any keyboard.

    >>> fold("Carcassonne à la prèhistoire, Klaus-Jürgen, Œuvre")
    'carcassonne a la prehistoire, klaus-jurgen, oeuvre'
    """
    decomposed = unicodedata.normalize("NFKD", text.casefold().translate(_FOLDED_LETTERS))
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def query_words(query: str) -> list[str]:
    """The words of a search, folded; punctuation separates words and is dropped.

    >>> query_words("  Klaus-Jürgen   «préhistoire» ")
    ['klaus', 'jurgen', 'prehistoire']
    """
    return WORD.findall(fold(query))


# --- Words -----------------------------------------------------------------------------------------


def _prefix_tsquery(words: Iterable[str], operator: str = "&") -> str:
    # Words are letters and digits only (WORD), so this cannot break to_tsquery's syntax.
    return f" {operator} ".join(f"{word}:*" for word in words)


class _Fold(Func):
    function = "ludolog_fold"
    output_field = CharField()


def _register_fold_function() -> None:
    connection.ensure_connection()
    connection.connection.create_function("ludolog_fold", 1, lambda text: fold(text or ""), deterministic=True)


def _fold_contains(field: str, word: str) -> Q:
    return Q(**{f"{field}__contains": word})


def _sqlite_matches(records: QuerySet[CatalogueRecord], words: list[str]) -> QuerySet[CatalogueRecord]:
    _register_fold_function()
    records = records.alias(
        folded_title=_Fold("title"),
        folded_publisher=_Fold("publisher__name"),
        folded_summary=_Fold("summary"),
        folded_contents=_Fold("contents"),
    )
    other_titles = OtherTitle.objects.alias(folded=_Fold("title"))
    people = Contribution.objects.alias(folded=_Fold("person__name"))
    categories = Category.objects.alias(folded=_Fold("label"))
    classified = CatalogueRecord.categories.through.objects
    for word in words:
        records = records.filter(
            _fold_contains("folded_title", word)
            | _fold_contains("folded_publisher", word)
            | _fold_contains("folded_summary", word)
            | _fold_contains("folded_contents", word)
            | Q(pk__in=other_titles.filter(folded__contains=word).values("record_id"))
            | Q(pk__in=people.filter(folded__contains=word).values("record_id"))
            | Q(pk__in=classified.filter(category__in=categories.filter(folded__contains=word)).values("cataloguerecord_id"))
        )
    return records


def _words_sql(query: str) -> tuple[str, list[object]] | None:
    """The word search as a condition on the record table, for the counting statements."""
    words = query_words(query)
    if not words:
        return None
    record = CatalogueRecord._meta.db_table
    if connection.vendor == "postgresql":
        # Run the full-text search once and hand its ids to the three counting statements:
        # a common word matches most of the catalogue, and each statement would search again.
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT record_id FROM games_cataloguesearch WHERE document @@ to_tsquery('simple', unaccent(%s))",
                [_prefix_tsquery(words)],
            )
            ids = [row[0] for row in cursor.fetchall()]
        return f"{record}.id = ANY(%s)", [ids]
    found_sql, found_params = matching(CatalogueRecord.objects.all(), query).order_by().values("pk").query.sql_with_params()
    return f"{record}.id IN ({found_sql})", list(found_params)


def matching(records: QuerySet[CatalogueRecord], query: str) -> QuerySet[CatalogueRecord]:
    """The records of ``records`` in which every word of ``query`` appears; all of them if none."""
    words = query_words(query)
    if not words:
        return records
    if connection.vendor == "postgresql":
        return records.filter(
            pk__in=RawSQL(
                "SELECT record_id FROM games_cataloguesearch WHERE document @@ to_tsquery('simple', unaccent(%s))",
                [_prefix_tsquery(words)],
            )
        )
    return _sqlite_matches(records, words)


def with_relevance(records: QuerySet[CatalogueRecord], query: str) -> QuerySet[CatalogueRecord]:
    """Annotate ``relevance``: higher the more words a title, a person or the publisher holds.

    A record found only through its summary or categories ranks after them (relevance 0), the
    way a librarian reads a hit list: title and author matches first.
    """
    words = query_words(query)
    if not words:
        return records.annotate(relevance=Value(0.0, output_field=FloatField()))
    if connection.vendor == "postgresql":
        # Ranked on the small heading vector, with any word counting: ranking the whole
        # documents of thousands of matches would cost more than the search itself.
        return records.annotate(
            relevance=RawSQL(
                "SELECT ts_rank(s.heading, to_tsquery('simple', unaccent(%s))) FROM games_cataloguesearch s "
                "WHERE s.record_id = games_cataloguerecord.id",
                [_prefix_tsquery(words, "|")],
                output_field=FloatField(),
            )
        )
    _register_fold_function()
    in_title = Q()
    for word in words:
        in_title &= Q(folded_title__contains=word)
    return records.alias(folded_title=_Fold("title")).annotate(
        relevance=Case(When(in_title, then=Value(1.0)), default=Value(0.5), output_field=FloatField())
    )


# --- Facets ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FacetChoice:
    """The facet values a reader chose; ``None`` where a facet is not used."""

    category: int | None = None
    language: str | None = None
    players: int | None = None
    age: int | None = None
    duration: str | None = None


FACETS = ("category", "language", "players", "age", "duration")
FACET_FIELDS = {"category": "categories", "language": "languages"}


def plays_with(players: int) -> Q:
    """Playable with this many players; an unknown bound does not exclude, two unknown bounds do."""
    return (
        (Q(min_players__isnull=True) | Q(min_players__lte=players))
        & (Q(max_players__isnull=True) | Q(max_players__gte=players))
        & ~Q(min_players__isnull=True, max_players__isnull=True)
    )


def suitable_at(age: int) -> Q:
    """A child of this age is old enough: the record's minimum age is at most ``age``."""
    return Q(min_age__lte=age)


def lasting(band: DurationBand) -> Q:
    condition = Q(duration_minutes__gte=band.low)
    if band.high is not None:
        condition &= Q(duration_minutes__lte=band.high)
    return condition


def _facet_condition(facet: str, value: object) -> Q:
    if facet == "category":
        return Q(pk__in=CatalogueRecord.categories.through.objects.filter(category_id=value).values("cataloguerecord_id"))
    if facet == "language":
        return Q(pk__in=CatalogueRecord.languages.through.objects.filter(language_id=value).values("cataloguerecord_id"))
    if facet == "players":
        return plays_with(int(value))  # type: ignore[arg-type]
    if facet == "age":
        return suitable_at(int(value))  # type: ignore[arg-type]
    if facet == "duration":
        return lasting(DURATION_BANDS_BY_KEY[str(value)])
    raise ValueError(f"unknown facet {facet!r}")


def filtered(records: QuerySet[CatalogueRecord], choice: FacetChoice) -> QuerySet[CatalogueRecord]:
    for facet in FACETS:
        value = getattr(choice, facet)
        if value is not None:
            records = records.filter(_facet_condition(facet, value))
    return records


@dataclass(frozen=True)
class FacetCounts:
    total: int
    categories: list[tuple[Category, int]]
    languages: list[tuple[Language, int]]
    players: Mapping[int, int]
    ages: Mapping[int, int]
    durations: Mapping[str, int]


def _facet_sql(facet: str, value: object) -> tuple[str, list[object]]:
    """The SQL twin of ``_facet_condition``, for counting many facet values in one statement.

    Counting through the ORM would compile some twenty filtered aggregates per search, which
    costs more than the database takes to answer them; a test checks the twins agree.
    """
    record = CatalogueRecord._meta.db_table
    if facet == "category":
        through = CatalogueRecord.categories.through._meta.db_table
        return f"{record}.id IN (SELECT cataloguerecord_id FROM {through} WHERE category_id = %s)", [value]
    if facet == "language":
        through = CatalogueRecord.languages.through._meta.db_table
        return f"{record}.id IN (SELECT cataloguerecord_id FROM {through} WHERE language_id = %s)", [value]
    if facet == "players":
        return (
            f"({record}.min_players IS NULL OR {record}.min_players <= %s)"
            f" AND ({record}.max_players IS NULL OR {record}.max_players >= %s)"
            f" AND NOT ({record}.min_players IS NULL AND {record}.max_players IS NULL)",
            [value, value],
        )
    if facet == "age":
        return f"{record}.min_age <= %s", [value]
    if facet == "duration":
        band = DURATION_BANDS_BY_KEY[str(value)]
        if band.high is None:
            return f"{record}.duration_minutes >= %s", [band.low]
        return f"{record}.duration_minutes BETWEEN %s AND %s", [band.low, band.high]
    raise ValueError(f"unknown facet {facet!r}")


def facet_counts(query: str, choice: FacetChoice) -> FacetCounts:
    """How many records each facet value would leave, given the words and the other choices.

    Each facet is counted without its own choice, so that a chosen category still offers the
    other categories to switch to (as library catalogues do), while the other facets narrow.
    ``total`` counts the records matching everything. Three statements: the number-valued
    facets with the total, then each many-to-many facet.
    """
    record = CatalogueRecord._meta.db_table
    words = _words_sql(query)
    chosen = {facet: _facet_sql(facet, getattr(choice, facet)) for facet in FACETS
              if getattr(choice, facet) is not None}

    def where(
        *, but: str | None = None, extra: tuple[str, list[object]] | None = None, with_words: bool = True
    ) -> tuple[str, list[object]]:
        parts = [words] if words and with_words else []
        parts += [condition for facet, condition in chosen.items() if facet != but]
        parts += [extra] if extra else []
        return " AND ".join(f"({sql})" for sql, _params in parts) or "1 = 1", [p for _sql, ps in parts for p in ps]

    # The words go in the statement's WHERE, once: inside each FILTER the full-text search
    # would run again for every column.
    columns, params = [], []
    for condition in [
        where(with_words=False),
        *(where(but="players", extra=_facet_sql("players", n), with_words=False) for n in PLAYER_COUNTS),
        *(where(but="age", extra=_facet_sql("age", age), with_words=False) for age in AGES),
        *(where(but="duration", extra=_facet_sql("duration", band.key), with_words=False) for band in DURATION_BANDS),
    ]:
        columns.append(f"COUNT(*) FILTER (WHERE {condition[0]})")
        params += condition[1]
    statement = f"SELECT {', '.join(columns)} FROM {record}"
    if words:
        statement += f" WHERE {words[0]}"
        params += words[1]
    with connection.cursor() as cursor:
        cursor.execute(statement, params)
        figures = iter(cursor.fetchone())
        total = next(figures)
        players = {n: next(figures) for n in PLAYER_COUNTS}
        ages = {age: next(figures) for age in AGES}
        durations = {band.key: next(figures) for band in DURATION_BANDS}

        def grouped(model: type, facet: str, fields: tuple[str, ...]) -> list[tuple[object, int]]:
            through = CatalogueRecord._meta.get_field(FACET_FIELDS[facet]).remote_field.through._meta.db_table
            condition, condition_params = where(but=facet)
            selected = ", ".join(f"v.{field}" for field in fields)
            cursor.execute(
                f"SELECT {selected}, COUNT(*) FROM {through} t"
                f" JOIN {model._meta.db_table} v ON v.{model._meta.pk.column} = t.{model._meta.model_name}_id"
                + (f" WHERE t.cataloguerecord_id IN (SELECT {record}.id FROM {record} WHERE {condition})"
                   if condition_params or condition != "1 = 1" else "")
                + f" GROUP BY {selected} ORDER BY v.{fields[1]}",
                condition_params,
            )
            return [(model(**dict(zip(fields, row[:-1]))), row[-1]) for row in cursor.fetchall()]

        categories = grouped(Category, "category", ("id", "code", "label"))
        languages = grouped(Language, "language", ("code", "name"))
    return FacetCounts(total, categories, languages, players, ages, durations)


def search(query: str, choice: FacetChoice) -> QuerySet[CatalogueRecord]:
    """Records matching the words and the facets, unordered (callers choose the sort)."""
    return filtered(matching(CatalogueRecord.objects.all(), query), choice)

