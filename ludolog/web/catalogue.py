"""The public catalogue: search with facets, and the record page of one game (an OPAC record).

Searching is ``games.search``; what the site adds is what only the site may know about: the games
recorded with a record (``records``), how often and how long it was played (``scoring``), and
how a reader reads a record: facets as lists of links with their counts, languages and document
types in the reader's language, and no placeholder (PMB's age 99, the default document type)
shown as a fact, except to a librarian, who sees it as "not stated".

The hit list sorts and shows "times played" from scoring's usage projection (one join, however
many records match), unless some finished game with a box is private to others than this reader:
then it counts the games the reader may know of, so that a private game shows nowhere. The
record page counts its finished games from the records themselves (those the reader may see),
cheap for one record, so that it always agrees with the list of games shown under it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django import forms
from django.core.paginator import Paginator
from django.db import connection
from django.db.models import Avg, Count, F, Max, OuterRef, Prefetch, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST
from django.utils.cache import patch_vary_headers
from django.utils.formats import date_format, localize
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.http import urlencode
from django.utils.translation import get_language, gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from accounts.current import current_organisation, may
from accounts.roles import Action
from games import covers, search
from games.models import CatalogueRecord, Category, Contribution, Copy, Language
from games.selectors import title_for_reader, titles_in
from games.services import export_unimarc
from games.unimarc import UnimarcError
from games.registry import get_engine
from loans import selectors as loans_selectors
from loans import services as loans_services
from loans.errors import LoanError
from loans.models import CopyState, Hold
from loans.refusals import refusal_words
from loans.rules import Status as LoanStatus
from records.models import GameRecord, Seat
from scoring.models import ScoredRecord
from records import selectors as records_selectors
from records.selectors import hidden_records, visible_records

from .rules import rules_offered
from .games import game_name

PAGE_SIZE = 20
RECENT_GAMES = 50


def finished_games(user: Any) -> QuerySet[GameRecord]:
    """The finished games this reader may know of (a private game is not counted for others)."""
    return visible_records(user).filter(status=GameRecord.Status.FINISHED)


def hides_catalogued_games(user: Any) -> bool:
    """Whether some finished game played with a catalogue record is hidden from this reader: the
    stored usage counts (every game) are then not theirs to read."""
    return hidden_records(user).filter(status=GameRecord.Status.FINISHED).filter(
        Q(catalogue_record__isnull=False) | Q(copy__isnull=False)).exists()


def played_with(user: Any, record: Any) -> QuerySet[GameRecord]:
    """The finished games the reader may know of that were played with ``record`` (or its id)."""
    return finished_games(user).filter(records_selectors.played_with(record))


# --- What a reader reads: labels in their language, and no placeholder read as a fact --------------

LANGUAGE_NAMES: dict[str, Promise] = {
    # ISO 639-2, bibliographic codes first (as library records carry them), then terminology twins.
    "fre": pgettext_lazy("language name", "French"), "fra": pgettext_lazy("language name", "French"),
    "eng": pgettext_lazy("language name", "English"),
    "ger": pgettext_lazy("language name", "German"), "deu": pgettext_lazy("language name", "German"),
    "dut": pgettext_lazy("language name", "Dutch"), "nld": pgettext_lazy("language name", "Dutch"),
    "cze": pgettext_lazy("language name", "Czech"), "ces": pgettext_lazy("language name", "Czech"),
    "ita": pgettext_lazy("language name", "Italian"),
    "spa": pgettext_lazy("language name", "Spanish"),
    "por": pgettext_lazy("language name", "Portuguese"),
    "pol": pgettext_lazy("language name", "Polish"),
    "dan": pgettext_lazy("language name", "Danish"),
    "swe": pgettext_lazy("language name", "Swedish"),
    "nor": pgettext_lazy("language name", "Norwegian"),
    "fin": pgettext_lazy("language name", "Finnish"),
    "hun": pgettext_lazy("language name", "Hungarian"),
    "gre": pgettext_lazy("language name", "Greek"), "ell": pgettext_lazy("language name", "Greek"),
    "rus": pgettext_lazy("language name", "Russian"),
    "jpn": pgettext_lazy("language name", "Japanese"),
    "chi": pgettext_lazy("language name", "Chinese"), "zho": pgettext_lazy("language name", "Chinese"),
    "kor": pgettext_lazy("language name", "Korean"),
    "cat": pgettext_lazy("language name", "Catalan"),
    "bre": pgettext_lazy("language name", "Breton"),
    "oci": pgettext_lazy("language name", "Occitan"),
    "baq": pgettext_lazy("language name", "Basque"), "eus": pgettext_lazy("language name", "Basque"),
    "ltz": pgettext_lazy("language name", "Luxembourgish"),
    "lat": pgettext_lazy("language name", "Latin"),
    "ara": pgettext_lazy("language name", "Arabic"),
    "tur": pgettext_lazy("language name", "Turkish"),
    # Codes a game library needs: a box in several languages, or with no text at all.
    "mul": pgettext_lazy("language name", "multiple languages"),
    "zxx": pgettext_lazy("language name", "no text"),
    "und": pgettext_lazy("language name", "undetermined"),
}
"""The languages of the catalogue in the reader's language ("français, anglais" for a French
reader, "French, English" for an English one). A code not here reads as the catalogue names it."""


def record_text_language(copies: Iterable[Copy]) -> str:
    """The language a record's own text (contents, summary, notes) is written in: its library's,
    said so to the browser and to screen readers whatever the page's language ("" unknown)."""
    return next((copy.organisation.language for copy in copies
                 if copy.organisation is not None and copy.organisation.language), "")


def language_label(code: str, name: str = "") -> str:
    label = LANGUAGE_NAMES.get(code)
    return str(label) if label is not None else (name or code)


DOCUMENT_TYPES: dict[str, Promise] = {
    key: label
    for label, keys in [
        # The general material designations of UNIMARC 200$b as PMB and Koha write them, in French
        # and in English, folded (see _document_type_key).
        (pgettext_lazy("document type", "printed text"), ("texte imprime", "printed text")),
        (pgettext_lazy("document type", "manuscript"), ("texte manuscrit", "manuscript")),
        (pgettext_lazy("document type", "printed music"), ("partition musicale imprimee", "printed music")),
        (pgettext_lazy("document type", "printed map"), ("document cartographique imprime", "printed map")),
        (pgettext_lazy("document type", "video"), ("document projete ou video", "video")),
        (pgettext_lazy("document type", "music recording"), ("enregistrement sonore musical", "music recording")),
        (pgettext_lazy("document type", "sound recording"),
         ("enregistrement sonore non musical", "sound recording")),
        (pgettext_lazy("document type", "picture"), ("document graphique a deux dimensions", "picture")),
        (pgettext_lazy("document type", "electronic resource"), ("document electronique", "electronic resource")),
        (pgettext_lazy("document type", "multimedia kit"), ("document multimedia", "multimedia kit")),
        (pgettext_lazy("document type", "three-dimensional object"),
         ("objet a 3 dimensions artefacts", "objet a trois dimensions", "three dimensional artefact",
          "three dimensional object")),
        (pgettext_lazy("document type", "game"), ("jeu", "jeux", "game")),
        (pgettext_lazy("document type", "board game"), ("jeu de societe", "jeux de societe", "board game")),
    ]
    for key in keys
}
"""Document types in the reader's language; a type not here reads as the librarian wrote it."""

UNSTATED_DOCUMENT_TYPE = CatalogueRecord._meta.get_field("document_type").default
"""What every new record says unless a librarian changes it (PMB's label of the artefact type, cut
short with "..."): the default, not a statement about the box."""
UNSTATED_MAX_AGE = 99
"""PMB's "no maximum age": a library record's 99 says nothing about the game."""


def _document_type_key(value: str) -> str:
    return " ".join(search.query_words(value))


def document_type_label(value: str | None) -> str | None:
    """The record's document type as the reader reads it, ``None`` where none was stated: empty,
    the default every record starts with, or a label cut short ("…", "...") like that default."""
    value = (value or "").strip()
    if not value or value == UNSTATED_DOCUMENT_TYPE or value.endswith(("...", "…")):
        return None
    label = DOCUMENT_TYPES.get(_document_type_key(value))
    return str(label) if label is not None else value


def stated_min_age(record: Any) -> int | None:
    return record.min_age or None  # 0 is how an unfilled age field often comes from PMB


def stated_max_age(record: Any) -> int | None:
    max_age = record.max_age
    return None if max_age is None or max_age >= UNSTATED_MAX_AGE else max_age


def age_fact(low: int | None, high: int | None) -> str:
    if low and high:
        return gettext("%(low)s to %(high)s years") % {"low": localize(low), "high": localize(high)}
    if low:
        return gettext("from %(age)s years") % {"age": localize(low)}
    if high:
        return gettext("up to %(age)s years") % {"age": localize(high)}
    return ""


def players_fact(low: int | None, high: int | None) -> str:
    if low and high:
        if low == high:
            return ngettext("%(n)s player", "%(n)s players", low) % {"n": localize(low)}
        return gettext("%(low)s–%(high)s players") % {"low": localize(low), "high": localize(high)}
    if low:
        return ngettext("%(low)s player or more", "%(low)s players or more", low) % {"low": localize(low)}
    if high:
        return ngettext("up to %(high)s player", "up to %(high)s players", high) % {"high": localize(high)}
    return ""


class SortOrder:
    RELEVANCE = "relevance"
    TITLE = "title"
    TIMES_PLAYED = "played"

    choices = [
        (RELEVANCE, _("relevance")),
        (TITLE, _("title")),
        (TIMES_PLAYED, _("times played")),
    ]


class SearchForm(forms.Form):
    """The reader's request as the GET form sends it; a value that does not parse is ignored."""

    q = forms.CharField(label=_("Search the catalogue"), required=False, max_length=200)
    sort = forms.ChoiceField(label=_("Sort by"), choices=SortOrder.choices, required=False)
    category = forms.IntegerField(required=False, min_value=1)
    language = forms.RegexField(regex=r"^[a-z]{3}$", required=False)
    players = forms.TypedChoiceField(coerce=int, choices=[(n, n) for n in search.PLAYER_COUNTS], required=False)
    age = forms.TypedChoiceField(coerce=int, choices=[(a, a) for a in search.AGES], required=False)
    duration = forms.ChoiceField(choices=[(b.key, b.key) for b in search.DURATION_BANDS], required=False)
    page = forms.IntegerField(required=False, min_value=1)

    def value(self, name: str) -> Any:
        """The cleaned value, or ``None`` where the reader left the field empty or wrong."""
        if name in self.errors:
            return None
        value = self.cleaned_data.get(name)
        return None if value in ("", None) else value


@dataclass(frozen=True)
class FacetOption:
    value: str
    label: str
    count: int
    selected: bool
    url: str = ""
    """The search narrowed to this value (for the value chosen: the search without it)."""
    title: str = ""
    """What the label leaves out, read on demand (a category's code)."""


@dataclass(frozen=True)
class Facet:
    name: str
    label: str
    options: list[FacetOption]
    shown: int = 0
    """How many options the list shows before "more" (0: all of them)."""

    @property
    def first(self) -> list[FacetOption]:
        return self.options[: self.shown] if self.shown else self.options

    @property
    def more(self) -> list[FacetOption]:
        return self.options[self.shown:] if self.shown else []


@dataclass(frozen=True)
class ActiveFilter:
    """A facet value the search is narrowed by, with the link that removes it."""

    facet: str
    label: str
    remove_url: str


FACET_LIST_LENGTH = 8
"""Categories and languages listed before a "more" disclosure (Koha shows five, PMB ten)."""


class SearchLinks:
    """Links to the same search with one facet changed: a page of results with no JavaScript
    narrows and widens through them, as in a library catalogue."""

    def __init__(self, query: str, sort: str | None, choice: search.FacetChoice) -> None:
        self.base = {"q": query, "sort": sort or ""}
        self.choice = {name: getattr(choice, name) for name in search.FACETS}

    def url(self, **changes: Any) -> str:
        values = {**self.base, **self.choice, **changes}
        pairs = [(name, value) for name, value in values.items() if value not in (None, "")]
        return reverse("catalogue:search") + (f"?{urlencode(pairs)}" if pairs else "")

    def without_facets(self) -> str:
        return self.url(**{name: None for name in search.FACETS})


def _options(pairs: list[tuple[Any, str, int]], chosen: Any, facet: str, links: SearchLinks,
             titles: dict[Any, str] | None = None) -> list[FacetOption]:
    # A value with no record left is no use to offer, unless it is the one chosen.
    return [
        FacetOption(value=str(value), label=label, count=count, selected=value == chosen,
                    url=links.url(**{facet: None if value == chosen else value}),
                    title=(titles or {}).get(value, ""))
        for value, label, count in pairs
        if count or value == chosen
    ]


def _by_count(pairs: list[tuple[Any, str, int]]) -> list[tuple[Any, str, int]]:
    """The commonest values first, then by label, as library catalogues list their facets."""
    return sorted(pairs, key=lambda pair: (-pair[2], search.fold(pair[1])))


def _with_chosen(pairs: list[tuple[Any, Any, int]], chosen: Any, lookup: Any) -> list[tuple[Any, Any, int]]:
    """The counted values, and the chosen one even where no record has it (so that it can be removed)."""
    if chosen is None or any(value.pk == chosen for value, _n in pairs):
        return pairs
    found = lookup(chosen)
    return [*pairs, (found, 0)] if found is not None else pairs


def _facets(counts: search.FacetCounts, choice: search.FacetChoice, links: SearchLinks) -> list[Facet]:
    counts = dataclasses.replace(
        counts,
        categories=_with_chosen(counts.categories, choice.category, lambda pk: Category.objects.filter(pk=pk).first()),
        languages=_with_chosen(counts.languages, choice.language, lambda code: Language.objects.filter(pk=code).first()),
    )
    return [
        Facet("category", _("Category"), _options(
            _by_count([(c.pk, c.label, n) for c, n in counts.categories]), choice.category, "category", links,
            titles={c.pk: gettext("code %(code)s") % {"code": c.code} for c, _n in counts.categories}),
            shown=FACET_LIST_LENGTH),
        Facet("language", _("Language"), _options(
            _by_count([(lang.pk, language_label(lang.pk, lang.name), n) for lang, n in counts.languages]),
            choice.language, "language", links), shown=FACET_LIST_LENGTH),
        Facet("players", _("Playable with"), _options(
            [(n, ngettext("%(n)s player", "%(n)s players", n) % {"n": n}, c) for n, c in counts.players.items()],
            choice.players, "players", links)),
        Facet("age", _("Minimum age"), _options(
            [(a, _("%(age)s years or under") % {"age": a}, c) for a, c in counts.ages.items()], choice.age, "age",
            links)),
        Facet("duration", _("Duration"), _options(
            [(b.key, str(b.label), counts.durations[b.key]) for b in search.DURATION_BANDS], choice.duration,
            "duration", links)),
    ]


def _active_filters(facets: list[Facet]) -> list[ActiveFilter]:
    return [ActiveFilter(facet.label, option.label, option.url)
            for facet in facets for option in facet.options if option.selected]


@dataclass
class ResultRow:
    """What a hit list shows of one record, read with a few flat queries."""

    pk: int
    title: str
    publisher_name: str | None
    publication_year: int | None
    min_players: int | None
    max_players: int | None
    min_age: int | None
    duration_minutes: int | None
    times_played: int | None
    last_played: date | None
    max_age: int | None
    cover: str | None
    people: list[tuple[str, str]] = field(default_factory=list)  # (name, role label)
    languages: list[tuple[str, str]] = field(default_factory=list)  # (code, name in the reader's language)
    copy_count: int = 0
    available_count: int = 0
    # The sentences of the row, worded in Python (see _word).
    byline: str = ""
    players_fact: str = ""
    age_fact: str = ""
    duration_fact: str = ""
    holdings: str = ""
    played: str = ""
    cover_url: str | None = None


def _blocktranslated(message: str, **values: Any) -> SafeString:
    """What ``{% blocktranslate %}`` renders: the translation as is, the values localized and escaped."""
    return mark_safe(message % {name: conditional_escape(localize(value)) for name, value in values.items()})


def _word(row: ResultRow) -> None:
    """The row's sentences, as the list template once worded them with a dozen translation tags
    per record (half the time of rendering a page): same messages, so same translations."""
    if row.people or row.publisher_name:
        # "Name (role), Name (role) · Publisher, year", escaped as the template escaped each value.
        byline = ", ".join(f"{conditional_escape(name)} ({conditional_escape(role)})" for name, role in row.people)
        if row.publisher_name:
            byline += (" · " if row.people else "") + conditional_escape(row.publisher_name)
        if row.publication_year:
            byline += ", " + conditional_escape(localize(row.publication_year))
        row.byline = mark_safe(byline)
    # An unstated bound is left out, never written "?" or 99 (see stated_max_age).
    row.players_fact = players_fact(row.min_players, row.max_players)
    row.age_fact = age_fact(stated_min_age(row), stated_max_age(row))
    row.languages = sorted(((code, language_label(code, name)) for code, name in row.languages),
                           key=lambda language: search.fold(language[1]))
    row.cover_url = covers.thumbnail_url(row.cover, covers.THUMBNAIL_SIZES[0])
    if row.duration_minutes:
        row.duration_fact = _blocktranslated(gettext("%(minutes)s min"), minutes=row.duration_minutes)
    if row.copy_count:
        row.holdings = _blocktranslated(
            ngettext("%(counter)s copy, %(available)s available", "%(counter)s copies, %(available)s available",
                     row.copy_count),
            counter=row.copy_count, available=row.available_count,
        )
    else:
        # {% translate "…" %} trusts its translation too (a string literal in a template is safe).
        row.holdings = mark_safe(gettext("No copy in the collection"))
    if row.times_played:
        row.played = _blocktranslated(
            ngettext("played once, on %(date)s", "played %(counter)s times, last on %(date)s", row.times_played),
            counter=row.times_played, date=date_format(row.last_played) if row.last_played else "",
        )
    else:
        row.played = mark_safe(gettext("never played here yet"))


def _sorting(query: str, sort: str, user: Any, hides: bool) -> tuple[tuple[str, ...], QuerySet[CatalogueRecord] | None]:
    """The sort keys for ``search.hits``, and the records annotated with any key only the site knows
    (times played: the stored usage, or, for a reader some game is hidden from, a count of the
    games they may know of)."""
    if sort == SortOrder.TITLE:
        return ("title", "id"), None
    if sort == SortOrder.TIMES_PLAYED:
        if hides:
            counted = (finished_games(user).filter(records_selectors.played_with(OuterRef("pk"))).order_by()
                       .values("status").annotate(n=Count("pk", distinct=True)).values("n"))
            return ("-times_played", "title", "id"), CatalogueRecord.objects.annotate(
                times_played=Coalesce(Subquery(counted[:1]), 0))
        return ("-times_played", "title", "id"), CatalogueRecord.objects.annotate(times_played=F("usage__times_played"))
    return ("-relevance", "title", "id"), None


def _count_visible_plays(rows: list[ResultRow], user: Any) -> None:
    """Times played and last played of each row from the games this reader may know of."""
    for row in rows:
        played = played_with(user, row.pk).aggregate(times=Count("pk", distinct=True), last=Max("played_on"))
        row.times_played, row.last_played = played["times"], played["last"]
        _word(row)


# On PostgreSQL the page's rows come in one statement, people and languages as JSON lists: the
# four ORM statements below cost more in Django than in the database, at every request.
_ROWS_SQL = """
SELECT r.id, r.title, pub.name, r.publication_year, r.min_players, r.max_players, r.min_age,
       r.duration_minutes, u.times_played, u.last_played, r.max_age, r.cover,
       (SELECT json_agg(json_build_array(p.name, c.role) ORDER BY c.position, c.id)
          FROM games_contribution c JOIN games_person p ON p.id = c.person_id WHERE c.record_id = r.id),
       (SELECT json_agg(json_build_array(l.code, l.name) ORDER BY l.name)
          FROM games_cataloguerecord_languages t JOIN games_language l ON l.code = t.language_id
          WHERE t.cataloguerecord_id = r.id),
       holding.copies, holding.available
FROM games_cataloguerecord r
LEFT JOIN games_publisher pub ON pub.id = r.publisher_id
LEFT JOIN scoring_catalogueusage u ON u.catalogue_record_id = r.id
CROSS JOIN LATERAL (SELECT COUNT(*) AS copies, COUNT(*) FILTER (WHERE cp.status = %s) AS available
                      FROM games_copy cp WHERE cp.record_id = r.id) holding
WHERE r.id = ANY(%s)
"""


def _result_rows(ids: list[int]) -> list[ResultRow]:
    """The page's records with their people, languages and holdings: flat rows, no model instances,
    since the list shows a dozen values of each."""
    # get_role_display() rebuilds the translated choices on every call: look each label up once.
    role_labels = {role: str(label) for role, label in Contribution.Role.choices}
    if connection.vendor == "postgresql":
        rows = {}
        with connection.cursor() as cursor:
            cursor.execute(_ROWS_SQL, [Copy.Status.AVAILABLE.value, ids])
            for row_values in cursor.fetchall():
                row = rows[row_values[0]] = ResultRow(*row_values[:-4])
                people, languages, row.copy_count, row.available_count = row_values[-4:]
                row.people = [(name, role_labels.get(role, role)) for name, role in people or ()]
                row.languages = [(code, name) for code, name in languages or ()]
    else:
        rows = {
            values[0]: ResultRow(*values)
            for values in CatalogueRecord.objects.filter(pk__in=ids).order_by().values_list(
                "pk", "title", "publisher__name", "publication_year", "min_players", "max_players", "min_age",
                "duration_minutes", "usage__times_played", "usage__last_played", "max_age", "cover",
            )
        }
        for record_id, name, role in Contribution.objects.filter(record_id__in=ids).values_list(
            "record_id", "person__name", "role"
        ):
            rows[record_id].people.append((name, role_labels.get(role, role)))
        for record_id, code, name in CatalogueRecord.languages.through.objects.filter(
            cataloguerecord_id__in=ids
        ).order_by("language__name").values_list("cataloguerecord_id", "language__code", "language__name"):
            rows[record_id].languages.append((code, name))
        for record_id, status in Copy.objects.filter(record_id__in=ids).order_by().values_list("record_id", "status"):
            row = rows[record_id]
            row.copy_count += 1
            row.available_count += status == Copy.Status.AVAILABLE
    for record_id, title in titles_in(get_language(), ids).items():
        if record_id in rows:
            rows[record_id].title = title
    for row in rows.values():
        _word(row)
    return [rows[pk] for pk in ids if pk in rows]


def may_catalogue(request: HttpRequest) -> bool:
    """Whether the reader keeps the catalogue from its pages: catalogues a game, edits a record,
    brings a catalogue file in (the current organisation's librarians, where it lends games:
    the copies they add are its)."""
    organisation = current_organisation(request)
    return organisation is not None and organisation.lends_games and may(request, Action.EDIT_CATALOGUE)


def catalogue_search(request: HttpRequest) -> HttpResponse:
    form = SearchForm(request.GET)
    form.is_valid()
    query = form.value("q") or ""
    sort = form.value("sort") or (SortOrder.RELEVANCE if search.query_words(query) else SortOrder.TITLE)
    choice = search.FacetChoice(**{name: form.value(name) for name in search.FACETS})
    hides = hides_catalogued_games(request.user)
    order_by, records = _sorting(query, sort, request.user, hides)
    # A page number past any catalogue's end still reads as "the last page" (below), not as an
    # offset too large for the database.
    number = min(form.value("page") or 1, 2**31 // PAGE_SIZE)
    # One statement counts the facets and reads the asked page's ids (see games.search.hits).
    hits = search.hits(query, choice, order_by=order_by, records=records,
                       offset=(number - 1) * PAGE_SIZE, limit=PAGE_SIZE)
    paginator = Paginator(range(hits.counts.total), PAGE_SIZE)
    page = paginator.get_page(number)
    ids = hits.ids
    if page.number != number:  # past the end: the last page instead, as Paginator.get_page does
        ids = search.hits(query, choice, order_by=order_by, records=records, counts=hits.counts,
                          offset=(page.number - 1) * PAGE_SIZE, limit=PAGE_SIZE).ids
    page.object_list = _result_rows(ids)
    if hides:
        _count_visible_plays(page.object_list, request.user)
    links = SearchLinks(query, form.value("sort"), choice)
    facets = _facets(hits.counts, choice, links)
    context = {
        "form": form,
        "query": query,
        "sort": sort,
        "sort_choices": SortOrder.choices,
        "facets": facets,
        "active_filters": _active_filters(facets),
        "unfiltered_url": links.without_facets(),
        "page": page,
        "page_range": page.paginator.get_elided_page_range(page.number, on_each_side=2, on_ends=1),
        "filtered": any(getattr(choice, name) is not None for name in search.FACETS),
        "may_catalogue": may_catalogue(request),
        # Mistyped words were searched for as the catalogue's nearest ones: the reader is told so,
        # with the corrected search as a link (a whole page, so that the search box says it too).
        "corrected": hits.corrected,
        "corrected_url": links.url(q=hits.corrected, page=None) if hits.corrected else None,
    }
    # htmx swaps in the results alone; a history restore or a plain request gets the whole page.
    fragment = request.htmx and not request.htmx.history_restore_request
    response = render(request, "catalogue/_results.html" if fragment else "catalogue/search.html", context)
    patch_vary_headers(response, ["HX-Request"])
    return response


# --- The record page -------------------------------------------------------------------------------


@dataclass(frozen=True)
class ObservedDuration:
    games: int
    average_minutes: float | None


def observed_duration(record: CatalogueRecord, user: Any) -> ObservedDuration:
    """How long the finished games with this record actually took, first to last recorded event."""
    games = played_with(user, record)
    figures = ScoredRecord.objects.filter(record__in=games, duration_seconds__isnull=False).aggregate(
        games=Count("pk"), seconds=Avg("duration_seconds")
    )
    seconds = figures["seconds"]
    return ObservedDuration(figures["games"], None if seconds is None else seconds / 60)


def games_played_with(request: HttpRequest, record: CatalogueRecord) -> QuerySet[GameRecord]:
    return (
        visible_records(request.user)
        .filter(records_selectors.played_with(record))
        .select_related("copy")
        .prefetch_related(Prefetch("seats", Seat.objects.select_related("player", "result")))
        .order_by("-played_on", "-pk")
    )


def _engine_links(request: HttpRequest, record: CatalogueRecord, engine: Any) -> dict[str, Any]:
    """Where a record with a rules engine leads: every game of it the reader may see (the games
    list filtered by the engine, which offers only games it holds) and recording a new one."""
    if not record.engine_slug:
        return {"engine_games": 0}
    engine_games = visible_records(request.user).filter(game_slug=record.engine_slug).count()
    return {
        "engine": engine,
        "engine_name": game_name(record.engine_slug),
        "engine_games": engine_games,
        "engine_games_url": reverse("game-list") + "?" + urlencode({"game": record.engine_slug}),
        "record_game_url": (f"{reverse('scorekeeping')}?game={record.engine_slug}"
                            if engine is not None else None),
        "rules_offered": rules_offered(record.engine_slug) if engine is not None else None,
    }


@require_POST
@login_required
def reserve(request: HttpRequest, pk: int) -> HttpResponse:
    """A member reserves the game for their household: queued, or set aside at once when a copy
    is on the shelves. A refusal shows on the record's page with its status and changes nothing."""
    record = get_object_or_404(CatalogueRecord, pk=pk)
    household = loans_selectors.household_of(request.user)
    if household is None:
        return HttpResponse(gettext("Only a member of a household reserves games."), status=403,
                            content_type="text/plain; charset=utf-8")
    try:
        hold = loans_services.place_hold(record, household, request.user)
    except LoanError as error:
        messages.error(request, refusal_words(error))
        answer = catalogue_record(request, pk)
        answer.status_code = error.status_code
        return answer
    messages.success(request, gettext("A copy is set aside for you at the desk.") if hold.status == Hold.Status.READY
                     else gettext("Reserved: you will be told when a copy is back."))
    return redirect("catalogue:record", pk=record.pk)


def catalogue_record(request: HttpRequest, pk: int) -> HttpResponse:
    record = get_object_or_404(
        CatalogueRecord.objects.select_related("publisher").prefetch_related(
            Prefetch("contributions", Contribution.objects.select_related("person")),
            "other_titles__language", "languages", "categories", "identifiers",
        ),
        pk=pk,
    )
    copies = list(Copy.objects.filter(record=record).select_related("organisation").order_by("barcode"))
    per_copy = dict(finished_games(request.user).filter(copy__record=record).order_by()
                    .values_list("copy").annotate(times=Count("pk", distinct=True)))
    # Where each copy is, as the loans desk's events say (a copy the desk never lent keeps the
    # status a librarian set on it).
    states = {row.copy_id: row for row in CopyState.objects.filter(copy__in=copies)}
    for copy in copies:
        copy.times_played = per_copy.get(copy.pk, 0)
        state = states.get(copy.pk)
        copy.loan_status = state.status if state else ""
        copy.due_on = state.due_on if state and state.status == LoanStatus.ON_LOAN else None
        copy.on_shelf = (state.status == LoanStatus.AVAILABLE if state else copy.status == Copy.Status.AVAILABLE)
    household = loans_selectors.household_of(request.user)
    played = played_with(request.user, record).aggregate(times=Count("pk", distinct=True), last=Max("played_on"))
    games = games_played_with(request, record)
    engine = get_engine(record.engine_slug) if record.engine_slug else None
    context = {
        "record": record,
        "reader_title": title_for_reader(record, get_language()),
        "text_language": record_text_language(copies),
        "librarian": may(request, Action.EDIT_CATALOGUE),
        "may_catalogue": may_catalogue(request),
        "print_labels": may(request, Action.PRINT_COPY_LABELS),
        "desk_staff": may(request, Action.USE_DESK),
        "document_type": document_type_label(record.document_type),
        "min_age": stated_min_age(record),
        "max_age": stated_max_age(record),
        "other_titles": [(other, language_label(other.language.code, other.language.name) if other.language else None)
                         for other in record.other_titles.all()],
        "languages": sorted(((language.code, language_label(language.code, language.name))
                             for language in record.languages.all()), key=lambda language: search.fold(language[1])),
        "cover_url": covers.thumbnail_url(record.cover.name, covers.THUMBNAIL_SIZES[-1]) if record.cover else None,
        **_engine_links(request, record, engine),
        "copies": copies,
        "available": sum(copy.on_shelf for copy in copies),
        "holds_waiting": Hold.objects.filter(record=record, status=Hold.Status.WAITING).count(),
        "may_reserve": household is not None and bool(copies),
        "times_played": played["times"],
        "last_played": played["last"],
        "games": games[:RECENT_GAMES],
        "games_total": games.count(),
        "observed": observed_duration(record, request.user),
    }
    return render(request, "catalogue/record.html", context)


# --- UNIMARC exports ------------------------------------------------------------------------------

UNIMARC_DOWNLOADS = {"iso2709": ("application/marc", "mrc"), "marcxml": ("application/marcxml+xml", "xml")}


def _unimarc_response(request: HttpRequest, records: QuerySet[CatalogueRecord], name: str) -> HttpResponse:
    format = request.GET.get("format", "iso2709")
    if format not in UNIMARC_DOWNLOADS:
        return HttpResponseBadRequest(
            gettext("Unknown format %(format)s: use iso2709 or marcxml.") % {"format": format},
            content_type="text/plain; charset=utf-8",
        )
    try:
        data = export_unimarc(records, format)
    except UnimarcError as error:
        return HttpResponse(error.message, status=422, content_type="text/plain; charset=utf-8")
    content_type, extension = UNIMARC_DOWNLOADS[format]
    response = HttpResponse(data, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{name}.{extension}"'
    return response


def catalogue_record_unimarc(request: HttpRequest, pk: int) -> HttpResponse:
    """One record as UNIMARC (``?format=iso2709``, the default, or ``marcxml``)."""
    records = CatalogueRecord.objects.filter(pk=pk)
    if not records.exists():
        raise Http404
    return _unimarc_response(request, records, f"ludolog-{pk}")


def catalogue_search_unimarc(request: HttpRequest) -> HttpResponse:
    """The records a search finds (its words and facets, every page) as one UNIMARC file."""
    form = SearchForm(request.GET)
    form.is_valid()
    choice = search.FacetChoice(**{name: form.value(name) for name in search.FACETS})
    return _unimarc_response(request, search.search(form.value("q") or "", choice), "ludolog-catalogue")
