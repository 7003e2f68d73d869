"""The public catalogue: search with facets, and the record page of one game (an OPAC record).

Searching is ``games.search``; what the site adds is what only the site may know about: the games
recorded with a record (``records``), how often and how long it was played.

Times played are counted from the finished game records themselves rather than read from
``scoring``'s usage projection: a record linked to its box after it was scored (the demo loader
does this) would otherwise show "never played" above a list of its games.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.core.paginator import Page, Paginator
from django.db.models import Avg, Count, IntegerField, Max, OuterRef, Prefetch, Q, QuerySet, Subquery
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games import search
from games.models import CatalogueRecord, Contribution, Copy
from games.registry import get_engine
from records.models import GameRecord, Seat
from scoring.models import ScoredRecord
from scoring.selectors import visible_records

PAGE_SIZE = 20
RECENT_GAMES = 50


def recorded_with(record: Any) -> Q:
    """Game records played with this catalogue record, named directly or through the copy used.

    ``record`` is a record, its id or an ``OuterRef`` to one.
    """
    return Q(catalogue_record=record) | Q(catalogue_record__isnull=True, copy__record=record)


def finished_games() -> QuerySet[GameRecord]:
    return GameRecord.objects.filter(status=GameRecord.Status.FINISHED)


class _SubqueryCount(Subquery):
    template = "(SELECT COUNT(*) FROM (%(subquery)s) AS counted)"
    output_field = IntegerField()


def times_played() -> _SubqueryCount:
    return _SubqueryCount(finished_games().filter(recorded_with(OuterRef("pk"))).order_by().values("pk"))


def last_played() -> Subquery:
    games = finished_games().filter(recorded_with(OuterRef("pk"))).order_by("-played_on")
    return Subquery(games.values("played_on")[:1])


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


@dataclass(frozen=True)
class Facet:
    name: str
    label: str
    options: list[FacetOption]


def _options(pairs: list[tuple[Any, str, int]], chosen: Any) -> list[FacetOption]:
    # A value with no record left is no use to offer, unless it is the one chosen.
    return [
        FacetOption(value=str(value), label=label, count=count, selected=value == chosen)
        for value, label, count in pairs
        if count or value == chosen
    ]


def _facets(counts: search.FacetCounts, choice: search.FacetChoice) -> list[Facet]:
    return [
        Facet("category", _("Category"), _options(
            [(c.pk, f"{c.code} {c.label}", n) for c, n in counts.categories], choice.category)),
        Facet("language", _("Language"), _options(
            [(lang.pk, lang.name, n) for lang, n in counts.languages], choice.language)),
        Facet("players", _("Playable with"), _options(
            [(n, ngettext("%(n)s player", "%(n)s players", n) % {"n": n}, c) for n, c in counts.players.items()],
            choice.players)),
        Facet("age", _("Minimum age"), _options(
            [(a, _("%(age)s years or under") % {"age": a}, c) for a, c in counts.ages.items()], choice.age)),
        Facet("duration", _("Duration"), _options(
            [(b.key, str(b.label), counts.durations[b.key]) for b in search.DURATION_BANDS], choice.duration)),
    ]


def _ordered(records: QuerySet[CatalogueRecord], query: str, sort: str) -> QuerySet[CatalogueRecord]:
    if sort == SortOrder.TITLE:
        return records.order_by("title", "pk")
    if sort == SortOrder.TIMES_PLAYED:
        return records.annotate(times_played=times_played()).order_by("-times_played", "title", "pk")
    return search.with_relevance(records, query).order_by("-relevance", "title", "pk")


def _result_page(records: QuerySet[CatalogueRecord], number: int | None) -> Page:
    page = Paginator(records.values_list("pk", flat=True), PAGE_SIZE).get_page(number)
    # Only the page's records are read in full, with their people, languages, copies and usage.
    ids = list(page.object_list)
    details = {
        record.pk: record
        for record in CatalogueRecord.objects.filter(pk__in=ids)
        .select_related("publisher")
        .annotate(times_played=times_played(), last_played=last_played())
        .prefetch_related(
            Prefetch("contributions", Contribution.objects.select_related("person")), "languages", "copies",
        )
    }
    page.object_list = [details[pk] for pk in ids]
    for record in page.object_list:
        copies = record.copies.all()
        record.copy_count = len(copies)
        record.available_count = sum(copy.status == Copy.Status.AVAILABLE for copy in copies)
    return page


def catalogue_search(request: HttpRequest) -> HttpResponse:
    form = SearchForm(request.GET)
    form.is_valid()
    query = form.value("q") or ""
    sort = form.value("sort") or (SortOrder.RELEVANCE if search.query_words(query) else SortOrder.TITLE)
    choice = search.FacetChoice(**{name: form.value(name) for name in search.FACETS})
    records = search.search(query, choice)
    page = _result_page(_ordered(records, query, sort), form.value("page"))
    context = {
        "form": form,
        "query": query,
        "sort": sort,
        "sort_choices": SortOrder.choices,
        "facets": _facets(search.facet_counts(search.matching(CatalogueRecord.objects.all(), query), choice), choice),
        "page": page,
        "page_range": page.paginator.get_elided_page_range(page.number, on_each_side=2, on_ends=1),
        "filtered": any(getattr(choice, name) is not None for name in search.FACETS),
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


def observed_duration(record: CatalogueRecord) -> ObservedDuration:
    """How long the finished games with this record actually took, first to last recorded event."""
    games = finished_games().filter(recorded_with(record))
    figures = ScoredRecord.objects.filter(record__in=games, duration_seconds__isnull=False).aggregate(
        games=Count("pk"), seconds=Avg("duration_seconds")
    )
    seconds = figures["seconds"]
    return ObservedDuration(figures["games"], None if seconds is None else seconds / 60)


def games_played_with(request: HttpRequest, record: CatalogueRecord) -> QuerySet[GameRecord]:
    return (
        visible_records(request.user)
        .filter(recorded_with(record))
        .select_related("copy")
        .prefetch_related(Prefetch("seats", Seat.objects.select_related("player", "result")))
        .order_by("-played_on", "-pk")
    )


def catalogue_record(request: HttpRequest, pk: int) -> HttpResponse:
    record = get_object_or_404(
        CatalogueRecord.objects.select_related("publisher").prefetch_related(
            Prefetch("contributions", Contribution.objects.select_related("person")),
            "other_titles__language", "languages", "categories", "identifiers",
        ),
        pk=pk,
    )
    copies = Copy.objects.filter(record=record).order_by("barcode").annotate(
        times_played=Count("game_records", filter=Q(game_records__status=GameRecord.Status.FINISHED))
    )
    played = finished_games().filter(recorded_with(record)).aggregate(times=Count("pk"), last=Max("played_on"))
    games = games_played_with(request, record)
    engine = get_engine(record.engine_slug) if record.engine_slug else None
    context = {
        "record": record,
        "copies": copies,
        "available": sum(copy.status == Copy.Status.AVAILABLE for copy in copies),
        "times_played": played["times"],
        "last_played": played["last"],
        "games": games[:RECENT_GAMES],
        "games_total": games.count(),
        "observed": observed_duration(record),
        "engine": engine,
    }
    return render(request, "catalogue/record.html", context)
