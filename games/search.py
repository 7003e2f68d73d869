"""Searching the catalogue the way an OPAC does: words anywhere in the description, then facets.

On PostgreSQL the words are matched against a full-text document per record, kept in the
``games_cataloguesearch`` table by triggers (migration 0002): titles and other titles weigh most,
then people and publisher, then categories, then summary and contents. Document and query both go
through ``unaccent`` and the ``simple`` configuration (the catalogue mixes languages: the
documents keep every word as written), and every word matches as a prefix, so that "prehistoire"
and "prehist" both find "Carcassonne à la prèhistoire".

Elsewhere (SQLite for a first run) each word must appear in one of the same fields, compared
after the accent folding ``fold`` does in Python.

On both, a word also finds the catalogue's other forms of it in the reader's language (plurals,
cases: "jeux" finds "jeu", "hry" finds "hra"), and a word the catalogue does not have is read as
the catalogue word it was most likely mistyped for ("carcassone"): see ``understand``.

Facets filter a result set and count it; "times played" lives in ``scoring`` and is sorted on
by the site, which sits above both apps.
"""

from __future__ import annotations

import bisect
import functools
import operator
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache

from django.core.cache import cache
from django.db import connection
from django.db.models import Case, CharField, FloatField, Func, Q, QuerySet, Value, When
from django.db.models.expressions import RawSQL
from django.utils.functional import Promise
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from . import stemming, typos
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


# --- Words: what the reader meant ------------------------------------------------------------------
#
# A word typed matches, as before, any word of the catalogue it begins ("prehist" finds
# "prèhistoire"). It also matches the catalogue's other forms of it in the reader's language,
# the words with the same stem (games.stemming), so that "jeux de stratégie" finds the records
# classed "jeu de stratégie". Rather than stemming the records' documents (in four languages, one
# of which PostgreSQL has no stemmer for, and the catalogue mixes them), a search looks up the
# few catalogue words that begin like each of its words and stems those: the documents keep every
# word exact, and the stemmers are the same Python ones on every database (one body of the rule).
# A word that matches no catalogue word is taken for a typo when a catalogue word is a keystroke
# or two away (games.typos): the search is made with that word instead, and says so.
#
# The catalogue's words: on PostgreSQL the ``games_catalogueword`` table, which the search
# triggers fill with each new word of a document (migration 0014), with a trigram index for the
# typos; elsewhere they are read from the records at each search (a first-run catalogue is small).

NEAR_WORDS_LIMIT = 2000
"""The most catalogue words a search word looks through for its other forms."""


@dataclass(frozen=True)
class SearchWord:
    """One word of a search: as typed (folded), matched as the start of a catalogue word, and the
    catalogue's other forms of it in the reader's language, matched whole."""

    typed: str
    forms: tuple[str, ...] = ()

    @property
    def alternatives(self) -> tuple[str, ...]:
        return (self.typed, *self.forms)


@dataclass(frozen=True)
class Understood:
    """A search's words as searched for, every one of them required; ``corrected``, the words
    searched for instead of those typed when some were mistyped ("carcassone" → "carcassonne")."""

    words: tuple[SearchWord, ...]
    corrected: str | None = None


def _reach(word: str, language: str | None) -> str:
    """The start the catalogue's other forms of ``word`` share with it: its stem less the last two
    letters, where forms differ (cheval, chevaux; kluk, kluci), and never past the word itself.

    >>> _reach("chevaux", "fr"), _reach("strategicti", "cs"), _reach("jeux", "fr"), _reach("de", "fr")
    ('chev', 'strategi', 'jeu', 'de')
    """
    if len(word) < 3 or not stemming.stems_in(language):
        return word
    stem = stemming.stem(word, language)
    shared = 0
    while shared < min(len(word), len(stem)) and word[shared] == stem[shared]:
        shared += 1
    return word[:min(shared, max(min(3, len(stem)), len(stem) - 2))] or word


def _after(start: str) -> str:
    """The first string past every string beginning with ``start`` (in code point order)."""
    return start[:-1] + chr(ord(start[-1]) + 1)


class _CatalogueWords:
    """The catalogue's words, as one search asks for them."""

    def beginning(self, starts: Iterable[str]) -> dict[str, list[str]]:
        """The words beginning with each of ``starts``, in order, at most ``NEAR_WORDS_LIMIT`` each."""
        starts = sorted(set(starts))
        found: dict[str, list[str]] = {start: [] for start in starts}
        if connection.vendor == "postgresql":
            if starts:
                # The words are kept in the "C" collation: a start is a range of the primary key.
                sql = " UNION ALL ".join(
                    f"(SELECT {n}, word FROM games_catalogueword WHERE word >= %s AND word < %s"
                    f" ORDER BY word LIMIT {NEAR_WORDS_LIMIT})" for n in range(len(starts)))
                with connection.cursor() as cursor:
                    cursor.execute(sql, [bound for start in starts for bound in (start, _after(start))])
                    for n, word in cursor.fetchall():
                        found[starts[n]].append(word)
            return found
        words = self._read
        for start in starts:
            first = bisect.bisect_left(words, start)
            found[start] = words[first:min(bisect.bisect_left(words, _after(start)), first + NEAR_WORDS_LIMIT)]
        return found

    def has_beginning(self, start: str) -> bool:
        """Whether some word begins with ``start``."""
        return bool(self.beginning([start])[start])

    def alike(self, word: str) -> list[str]:
        """The words that may be what ``word`` was meant to be (``games.typos.nearest`` chooses
        among them, by its own rule: this only leaves out words it would never choose)."""
        if connection.vendor == "postgresql":
            # pg_trgm's index finds the words alike in their trigrams (its default threshold is
            # typos.SIMILARITY_THRESHOLD); the primary key, those that begin the same way.
            start, spread = word[:typos.SAME_START], typos.allowed_distance(word)
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT word FROM games_catalogueword WHERE word %% %s UNION"
                    " SELECT word FROM games_catalogueword WHERE word >= %s AND word < %s"
                    " AND length(word) BETWEEN %s AND %s",
                    [word, start, _after(start), len(word) - spread, len(word) + spread])
                return [row[0] for row in cursor.fetchall()]
        return self._read

    @cached_property
    def _read(self) -> list[str]:
        # Read once per search, and only where there is no table of them (not PostgreSQL).
        texts: list[str | None] = []
        for fields in CatalogueRecord.objects.values_list("title", "summary", "contents", "publisher__name"):
            texts += fields
        texts += OtherTitle.objects.values_list("title", flat=True)
        texts += Contribution.objects.values_list("person__name", flat=True)
        texts += (f"{code} {label}" for code, label in
                  Category.objects.filter(records__isnull=False).values_list("code", "label").distinct())
        return sorted({word for text in texts if text for word in query_words(text)})


def _search_word(word: str, near: list[str], language: str | None) -> SearchWord:
    if len(word) < 3 or not stemming.stems_in(language):
        return SearchWord(word)
    stem = stemming.stem(word, language)
    return SearchWord(word, tuple(other for other in near if not other.startswith(word)
                                  and WORD.fullmatch(other) and stemming.stem(other, language) == stem))


def understand(query: str, language: str | None = None) -> Understood:
    """The words of ``query`` as searched for by a reader of ``language`` (the active language
    by default): each with its other forms in the catalogue, and each word that matches nothing
    replaced by the catalogue word it was most likely meant to be, if one is near enough."""
    language = get_language() if language is None else language
    typed = query_words(query)
    if not typed:
        return Understood(())
    catalogue = _CatalogueWords()
    near = catalogue.beginning(_reach(word, language) for word in typed)
    words = [_search_word(word, near[_reach(word, language)], language) for word in typed]
    corrections = {}
    for n, word in enumerate(words):
        near_word = near[_reach(word.typed, language)]
        known = (word.forms or any(other.startswith(word.typed) for other in near_word)
                 # Past the words looked through, some may still begin with the word itself.
                 or (len(near_word) >= NEAR_WORDS_LIMIT and catalogue.has_beginning(word.typed)))
        if not known and (correction := typos.nearest(word.typed, catalogue.alike(word.typed))):
            corrections[n] = correction
    if not corrections:
        return Understood(tuple(words))
    near = catalogue.beginning(_reach(correction, language) for correction in corrections.values())
    for n, correction in corrections.items():
        words[n] = _search_word(correction, near[_reach(correction, language)], language)
    return Understood(tuple(words), " ".join(word.typed for word in words))


def _tsquery_source(understood: Understood, joiner: str = "&") -> str:
    """The words as ``to_tsquery`` reads them: each typed word as a prefix or one of its forms,
    the words joined by ``joiner`` (``&``: every word; ``|``: any, for ranking).

    Words are letters and digits only (WORD), so this cannot break to_tsquery's syntax.
    """
    return f" {joiner} ".join(
        "(" + " | ".join([f"{word.typed}:*", *word.forms]) + ")" for word in understood.words)


class _Fold(Func):
    function = "ludolog_fold"
    output_field = CharField()


def _register_fold_function() -> None:
    connection.ensure_connection()
    connection.connection.create_function("ludolog_fold", 1, lambda text: fold(text or ""), deterministic=True)


def _sqlite_matches(records: QuerySet[CatalogueRecord], understood: Understood) -> QuerySet[CatalogueRecord]:
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
    for word in understood.words:
        # A form is looked for inside the fields' text like the typed word (SQLite has no word
        # index): "jeu" in "jeux" finds no more than "jeu" typed already did.
        condition = Q()
        for alternative in word.alternatives:
            condition |= (
                Q(folded_title__contains=alternative)
                | Q(folded_publisher__contains=alternative)
                | Q(folded_summary__contains=alternative)
                | Q(folded_contents__contains=alternative)
                | Q(pk__in=other_titles.filter(folded__contains=alternative).values("record_id"))
                | Q(pk__in=people.filter(folded__contains=alternative).values("record_id"))
                | Q(pk__in=classified.filter(category__in=categories.filter(folded__contains=alternative))
                    .values("cataloguerecord_id"))
            )
        records = records.filter(condition)
    return records


def _matches(records: QuerySet[CatalogueRecord], understood: Understood) -> QuerySet[CatalogueRecord]:
    if not understood.words:
        return records
    if connection.vendor == "postgresql":
        return records.filter(
            pk__in=RawSQL(
                "SELECT record_id FROM games_cataloguesearch WHERE document @@ to_tsquery('simple', unaccent(%s))",
                [_tsquery_source(understood)],
            )
        )
    return _sqlite_matches(records, understood)


def matching(records: QuerySet[CatalogueRecord], query: str, language: str | None = None) -> QuerySet[CatalogueRecord]:
    """The records of ``records`` in which every word of ``query`` appears, in some form in the
    reader's language (see ``understand``); all of them if it has no words."""
    return _matches(records, understand(query, language))


def _with_relevance(records: QuerySet[CatalogueRecord], understood: Understood) -> QuerySet[CatalogueRecord]:
    """Annotate ``relevance``: higher the more words a title, a person or the publisher holds.

    A record found only through its summary or categories ranks after them (relevance 0), the
    way a librarian reads a hit list: title and author matches first.
    """
    if not understood.words:
        return records.annotate(relevance=Value(0.0, output_field=FloatField()))
    if connection.vendor == "postgresql":
        # Ranked on the small heading vector, with any word counting: ranking the whole
        # documents of thousands of matches would cost more than the search itself.
        return records.annotate(
            relevance=RawSQL(
                "SELECT ts_rank(s.heading, to_tsquery('simple', unaccent(%s))) FROM games_cataloguesearch s "
                "WHERE s.record_id = games_cataloguerecord.id",
                [_tsquery_source(understood, "|")],
                output_field=FloatField(),
            )
        )
    _register_fold_function()
    in_title = Q()
    for word in understood.words:
        in_title &= functools.reduce(operator.or_, (Q(folded_title__contains=form) for form in word.alternatives))
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


def _facet_sql(facet: str, value: object, table: str | None = None) -> tuple[str, list[object]]:
    """The SQL twin of ``_facet_condition``, for counting many facet values in one statement.

    Counting through the ORM would compile some twenty filtered aggregates per search, which
    costs more than the database takes to answer them; a test checks the twins agree. ``table``
    names the rows tested (the record table by default, or the matches of a search).
    """
    record = table or CatalogueRecord._meta.db_table
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


# --- One search: its facet counts and one page of it, in one statement ------------------------------
#
# A search is answered from ``m``, the records matching the words (all records without words),
# with the columns the facets test and the sorts use. On PostgreSQL ``m`` is computed once,
# and the facet counts and the page's ids are read from it in the same statement: the full-text
# search, the join back to the records and the ranking run once per request instead of once per
# counting statement. Without words the counts do not depend on the request's words at all, and
# are cached until the catalogue changes (migration 0003 keeps a version for that).
# SQLite runs the same parts as separate statements on the same ``m``.

MATCH = "m"
MATCH_COLUMNS = ("id", "title", "min_players", "max_players", "min_age", "duration_minutes")
COUNTS_CACHE_SECONDS = 24 * 3600


@dataclass(frozen=True)
class Hits:
    """The facet counts of a search (``counts.total`` the number of hits) and one page's record ids;
    ``corrected``, the words searched for instead of mistyped ones (see ``understand``)."""

    counts: FacetCounts
    ids: list[int]
    corrected: str | None = None


def _joined(parts: list[tuple[str, list[object]]]) -> tuple[str, list[object]]:
    return " AND ".join(f"({sql})" for sql, _params in parts) or "1 = 1", [p for _sql, ps in parts for p in ps]


@lru_cache(maxsize=2048)
def _tsqueries(*sources: str) -> tuple[str, ...]:
    """The search queries as PostgreSQL parses them, accents removed the way the documents were.

    Asked of the database once per distinct search, kept for the life of the process (the
    unaccent rules do not change under a running site).
    """
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT " + ", ".join("to_tsquery('simple', unaccent(%s))::text" for _source in sources), list(sources)
        )
        return tuple(cursor.fetchone())


def _match_sql(understood: Understood, records: QuerySet[CatalogueRecord]) -> tuple[str, list[object], tuple[str, ...]]:
    """The SELECT of ``m``: the match columns, ``relevance``, and the annotations of ``records``."""
    words = understood.words
    extra = tuple(records.query.annotations)
    columns = (*MATCH_COLUMNS, *extra)
    if connection.vendor == "postgresql":
        if not words:
            base_sql, base_params = records.order_by().values(*columns).query.sql_with_params()
            return f"SELECT r.*, 0.0 AS relevance FROM ({base_sql}) r", list(base_params), extra
        found, ranked = _tsqueries(_tsquery_source(understood), _tsquery_source(understood, "|"))
        # The queries go in as constants: as expressions (unaccent, to_tsquery) they would be
        # computed again for every row a sequential scan tests or ts_rank ranks, which cost
        # three times the search itself; and a constant lets the planner estimate the matches.
        # The search rows carry the match columns (migration 0004): the records are joined only
        # for the annotations of ``records``, if any.
        match_columns = ", ".join(f"s.{column}" for column in MATCH_COLUMNS[1:])
        sql = (f"SELECT s.record_id AS id, {match_columns}, ts_rank(s.heading, %s::tsquery) AS relevance"
               f"{''.join(f', r.{name}' for name in extra)} FROM games_cataloguesearch s")
        params: list[object] = [ranked]
        if extra:
            base_sql, base_params = records.order_by().values("id", *extra).query.sql_with_params()
            sql += f" JOIN ({base_sql}) r ON r.id = s.record_id"
            params += base_params
        return f"{sql} WHERE s.document @@ %s::tsquery", [*params, found], extra
    found = _with_relevance(_matches(records, understood), understood).order_by().values(*columns, "relevance")
    sql, params = found.query.sql_with_params()
    return sql, list(params), extra


def _chosen(choice: FacetChoice) -> dict[str, tuple[str, list[object]]]:
    """The chosen facets' conditions on ``m``: columns of it, computed once per match (see ``_flagged``)."""
    return {facet: (f"{MATCH}.chosen_{facet}", []) for facet in FACETS if getattr(choice, facet) is not None}


def _flagged(match_sql: str, match_params: list[object], choice: FacetChoice) -> tuple[str, list[object]]:
    """``m`` with a column per chosen facet, true where the record passes it.

    Each count leaves out one chosen facet, so each condition appears in some twenty counts: a
    category or language condition repeated so would look its records up twenty times per match.
    A chosen category or language is joined (a record holds each at most once), so that ``m``
    read in several places still looks them up once per place, not once per count.
    """
    columns, joins, column_params, join_params = [], [], [], []
    for facet in FACETS:
        value = getattr(choice, facet)
        if value is None:
            continue
        if facet in FACET_FIELDS:
            field = CatalogueRecord._meta.get_field(FACET_FIELDS[facet])
            through = field.remote_field.through._meta.db_table
            value_column = f"{field.related_model._meta.model_name}_id"
            joins.append(f" LEFT JOIN (SELECT cataloguerecord_id FROM {through} WHERE {value_column} = %s) {facet}"
                         f" ON {facet}.cataloguerecord_id = x.id")
            join_params.append(value)
            columns.append(f", {facet}.cataloguerecord_id IS NOT NULL AS chosen_{facet}")
        else:
            sql, params = _facet_sql(facet, value, "x")
            columns.append(f", ({sql}) AS chosen_{facet}")
            column_params += params
    return (f"SELECT x.*{''.join(columns)} FROM ({match_sql}) x{''.join(joins)}",
            [*column_params, *match_params, *join_params])


def _counting_parts(choice: FacetChoice) -> dict[str, tuple[str, list[object]]]:
    """The SELECTs over ``m`` that count: ``numbers`` (the total, then each player count, age and
    duration band), ``categories`` (id, code, label, n) and ``languages`` (code, name, n).

    Each facet is counted without its own choice (see ``facet_counts``).
    """
    chosen = _chosen(choice)

    def where(but: str | None = None, extra: tuple[str, list[object]] | None = None) -> tuple[str, list[object]]:
        return _joined([condition for facet, condition in chosen.items() if facet != but] + ([extra] if extra else []))

    columns, params = [], []
    for n, (sql, condition_params) in enumerate([
        where(),
        *(where("players", _facet_sql("players", n, MATCH)) for n in PLAYER_COUNTS),
        *(where("age", _facet_sql("age", age, MATCH)) for age in AGES),
        *(where("duration", _facet_sql("duration", band.key, MATCH)) for band in DURATION_BANDS),
    ]):
        columns.append(f"COUNT(*) FILTER (WHERE {sql}) AS c{n}")
        params += condition_params
    parts = {"numbers": (f"SELECT {', '.join(columns)} FROM {MATCH}", params)}
    for facet, model, fields in (("category", Category, ("id", "code", "label")), ("language", Language, ("code", "name"))):
        through = CatalogueRecord._meta.get_field(FACET_FIELDS[facet]).remote_field.through._meta.db_table
        condition, condition_params = where(facet)
        parts[FACET_FIELDS[facet]] = (
            f"SELECT {', '.join(f'v.{field}' for field in fields)}, c.n FROM"
            f" (SELECT t.{model._meta.model_name}_id AS value, COUNT(*) AS n FROM {MATCH}"
            f" JOIN {through} t ON t.cataloguerecord_id = {MATCH}.id WHERE {condition} GROUP BY t.{model._meta.model_name}_id) c"
            f" JOIN {model._meta.db_table} v ON v.{model._meta.pk.column} = c.value",
            condition_params,
        )
    return parts


def _page_part(choice: FacetChoice, order_by: Iterable[str], offset: int, limit: int, allowed: set[str]) -> tuple[str, list[object]]:
    terms = []
    for name in order_by:
        column = name.lstrip("-")
        if column not in allowed:
            raise ValueError(f"cannot sort on {name!r}")
        # Missing values last on every database (SQLite puts them first going up); PostgreSQL's
        # default going up, so that "title, id" still reads the title index.
        terms.append(f"{column} DESC NULLS LAST" if name.startswith("-") else f"{column} NULLS LAST")
    condition, params = _joined(list(_chosen(choice).values()))
    return (f"SELECT {MATCH}.id FROM {MATCH} WHERE {condition} ORDER BY {', '.join(terms)} LIMIT %s OFFSET %s",
            [*params, limit, offset])


def _counts_from(numbers: Iterable[int], categories: Iterable[Iterable], languages: Iterable[Iterable]) -> FacetCounts:
    figures = iter(numbers)
    total = next(figures)
    players = {n: next(figures) for n in PLAYER_COUNTS}
    ages = {age: next(figures) for age in AGES}
    durations = {band.key: next(figures) for band in DURATION_BANDS}
    return FacetCounts(
        total,
        [(Category(id=id_, code=code, label=label), n) for id_, code, label, n in categories],
        [(Language(code=code, name=name), n) for code, name, n in languages],
        players, ages, durations,
    )


def _counts_cache_key(choice: FacetChoice) -> str | None:
    """Where the counts of a search without words are cached; ``None`` where they are not."""
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT version FROM games_catalogueversion")
        row = cursor.fetchone()
    if row is None:
        return None
    return "games:catalogue-facets:{}:{}".format(row[0], ":".join(str(getattr(choice, facet)) for facet in FACETS))


def hits(
    query: str,
    choice: FacetChoice,
    *,
    order_by: Iterable[str] = ("title", "id"),
    offset: int = 0,
    limit: int = 20,
    records: QuerySet[CatalogueRecord] | None = None,
    counts: FacetCounts | None = None,
    language: str | None = None,
) -> Hits:
    """The facet counts of the search and the ids of the records from ``offset`` on, sorted.

    ``order_by`` names columns of the matches: ``relevance``, ``title``, ``id``, the other
    ``MATCH_COLUMNS`` or an annotation of ``records`` (a queryset of all the records, which may
    add sort keys from apps above this one); a leading "-" sorts descending, and missing values
    come last either way. ``counts`` given (the same search's) are not counted again. The words
    are read in ``language``, the active language by default (see ``understand``).
    """
    records = CatalogueRecord.objects.all() if records is None else records
    understood = understand(query, language)
    match_sql, match_params, extra = _match_sql(understood, records)
    match_sql, match_params = _flagged(match_sql, match_params, choice)
    page_sql, page_params = _page_part(choice, order_by, offset, limit, {*MATCH_COLUMNS, "relevance", *extra})
    key = None
    if counts is None and not understood.words:
        key = _counts_cache_key(choice)
        cached = cache.get(key) if key else None
        if cached is not None:
            counts = _counts_from(*cached)
    with connection.cursor() as cursor:
        if counts is not None:
            cursor.execute(f"WITH {MATCH} AS ({match_sql}) {page_sql}", [*match_params, *page_params])
            return Hits(counts, [row[0] for row in cursor.fetchall()], understood.corrected)
        parts = _counting_parts(choice)
        if connection.vendor == "postgresql":
            # Matches found by words are kept once and read four times (inlined, each part would
            # search again); the whole catalogue is better read where each part needs it (the
            # title index for the page, say). Chosen facets are joined in ``m`` either way.
            materialized = "MATERIALIZED" if understood.words else "NOT MATERIALIZED"
            numbers_sql, numbers_params = parts["numbers"]
            sql = (
                f"WITH {MATCH} AS {materialized} ({match_sql}) SELECT"
                f" (SELECT row_to_json(x) FROM ({numbers_sql}) x),"
                f" (SELECT json_agg(json_build_array(x.id, x.code, x.label, x.n) ORDER BY x.code) FROM ({parts['categories'][0]}) x),"
                f" (SELECT json_agg(json_build_array(x.code, x.name, x.n) ORDER BY x.name) FROM ({parts['languages'][0]}) x),"
                f" ARRAY({page_sql})"
            )
            cursor.execute(sql, [*match_params, *numbers_params, *parts["categories"][1], *parts["languages"][1],
                                 *page_params])
            numbers, categories, languages, ids = cursor.fetchone()
            figures = (list(numbers.values()), categories or [], languages or [])
        else:
            figures_list = []
            for name, order in (("numbers", ""), ("categories", " ORDER BY code"), ("languages", " ORDER BY name")):
                sql, params = parts[name]
                cursor.execute(f"WITH {MATCH} AS ({match_sql}) {sql}{order}", [*match_params, *params])
                figures_list.append(cursor.fetchone() if name == "numbers" else cursor.fetchall())
            figures = tuple(figures_list)
            cursor.execute(f"WITH {MATCH} AS ({match_sql}) {page_sql}", [*match_params, *page_params])
            ids = [row[0] for row in cursor.fetchall()]
    if key:
        cache.set(key, figures, COUNTS_CACHE_SECONDS)
    return Hits(_counts_from(*figures), list(ids), understood.corrected)


def facet_counts(query: str, choice: FacetChoice) -> FacetCounts:
    """How many records each facet value would leave, given the words and the other choices.

    Each facet is counted without its own choice, so that a chosen category still offers the
    other categories to switch to (as library catalogues do), while the other facets narrow.
    ``total`` counts the records matching everything.
    """
    return hits(query, choice, limit=0).counts


def search(query: str, choice: FacetChoice) -> QuerySet[CatalogueRecord]:
    """Records matching the words and the facets, unordered (callers choose the sort)."""
    return filtered(matching(CatalogueRecord.objects.all(), query), choice)

