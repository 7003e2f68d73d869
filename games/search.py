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


def _prefix_tsquery(words: Iterable[str]) -> str:
    # Words are letters and digits only (WORD), so this cannot break to_tsquery's syntax.
    return " & ".join(f"{word}:*" for word in words)


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
    """Annotate ``relevance``: higher where the words sit in the title rather than the summary."""
    words = query_words(query)
    if not words:
        return records.annotate(relevance=Value(0.0, output_field=FloatField()))
    if connection.vendor == "postgresql":
        return records.annotate(
            relevance=RawSQL(
                "SELECT ts_rank(s.document, to_tsquery('simple', unaccent(%s))) FROM games_cataloguesearch s "
                "WHERE s.record_id = games_cataloguerecord.id",
                [_prefix_tsquery(words)],
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

    def without(self, facet: str) -> FacetChoice:
        return FacetChoice(**{name: getattr(self, name) for name in FACETS if name != facet})


FACETS = ("category", "language", "players", "age", "duration")


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
    categories: list[tuple[Category, int]]
    languages: list[tuple[Language, int]]
    players: Mapping[int, int]
    ages: Mapping[int, int]
    durations: Mapping[str, int]


def facet_counts(records: QuerySet[CatalogueRecord], choice: FacetChoice) -> FacetCounts:
    """How many of ``records`` each facet value would leave, given the reader's other choices.

    Each facet is counted without its own choice, so that a chosen category still shows the
    other categories to switch to (as library catalogues do), while every other facet narrows.
    """

    def base(facet: str) -> QuerySet[CatalogueRecord]:
        return filtered(records, choice.without(facet)).order_by().values("pk")

    categories = (
        Category.objects.filter(records__in=base("category"))
        .annotate(count=Count("records"))
        .order_by("code")
    )
    languages = (
        Language.objects.filter(records__in=base("language"))
        .annotate(count=Count("records"))
        .order_by("name")
    )
    players = CatalogueRecord.objects.filter(pk__in=base("players")).aggregate(
        **{f"p{n}": Count("pk", filter=plays_with(n)) for n in PLAYER_COUNTS}
    )
    ages = CatalogueRecord.objects.filter(pk__in=base("age")).aggregate(
        **{f"a{age}": Count("pk", filter=suitable_at(age)) for age in AGES}
    )
    durations = CatalogueRecord.objects.filter(pk__in=base("duration")).aggregate(
        **{band.key: Count("pk", filter=lasting(band)) for band in DURATION_BANDS}
    )
    return FacetCounts(
        categories=[(category, category.count) for category in categories],
        languages=[(language, language.count) for language in languages],
        players={n: players[f"p{n}"] for n in PLAYER_COUNTS},
        ages={age: ages[f"a{age}"] for age in AGES},
        durations={band.key: durations[band.key] for band in DURATION_BANDS},
    )


def search(query: str, choice: FacetChoice) -> QuerySet[CatalogueRecord]:
    """Records matching the words and the facets, unordered (callers choose the sort)."""
    return filtered(matching(CatalogueRecord.objects.all(), query), choice)

