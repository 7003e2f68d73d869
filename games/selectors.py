"""Reading the catalogue where other apps look a game up."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.text import slugify

from .models import CatalogueRecord, Identifier, OtherTitle
from .spelling import name_key


def records_by_title(titles: Iterable[str]) -> dict[str, CatalogueRecord]:
    """The catalogue record each title names whatever its case, accents and spaces, by the title's
    key (:func:`games.spelling.name_key`): the oldest record where several share it, none for a
    title the catalogue lacks. One query over the catalogue's titles, for one title typed on a
    form as for the hundreds of a club's imported history."""
    keys = {name_key(title) for title in titles}
    found: dict[str, CatalogueRecord] = {}
    if not keys:
        return found
    for record in CatalogueRecord.objects.order_by("pk").only("pk", "title", "bgg_id", "engine_slug"):
        key = name_key(record.title)
        if key in keys:
            found.setdefault(key, record)
    return found


def records_with_title(title: str) -> list[CatalogueRecord]:
    """Every record whose own title ``title`` is, whatever its case, accents and spaces, the
    oldest first, with its publisher: those a person typing it may mean, to tell apart."""
    key = name_key(title)
    ids = [pk for pk, named in CatalogueRecord.objects.values_list("pk", "title") if name_key(named) == key]
    return list(CatalogueRecord.objects.filter(pk__in=ids).select_related("publisher").order_by("pk")) if ids else []


def record_titled(title: str) -> CatalogueRecord | None:
    """The catalogue record ``title`` names (:func:`records_by_title`), if any."""
    return records_by_title([title]).get(name_key(title))


def game_slug_for(record: CatalogueRecord) -> str:
    """The slug a result-only record of this catalogue record takes: its engine's, or its title's
    (what a league's list of games names it by)."""
    return record.engine_slug or (slugify(record.title)[:64].strip("-") or f"title-{record.pk}")


def catalogue_games() -> dict[str, str]:
    """Every game the catalogue names, by the slug its records take (:func:`game_slug_for`): its
    title, the oldest record's where several titles take one slug. One query over the titles."""
    found: dict[str, str] = {}
    for record in CatalogueRecord.objects.order_by("pk").only("pk", "title", "engine_slug"):
        found.setdefault(game_slug_for(record), record.title)
    return found


def records_titled(titles: Iterable[str]) -> dict[str, list[CatalogueRecord]]:
    """Every catalogue record each title names, in any of its languages (the record's title or one
    of its other titles, whatever the case, accents and spaces), by the title's key: the records
    whose own title it is first, then those where it is another title, each the oldest first.
    For a play log's games, where "Stone Age" is the record "Stenen Tijdperk"; the records
    sharing a title are all given, for a person to tell apart."""
    keys = {name_key(title) for title in titles}
    found: dict[str, list[tuple[int, int, CatalogueRecord]]] = {}
    if not keys:
        return {}
    records = {record.pk: record for record in CatalogueRecord.objects.select_related("publisher")
               .only("pk", "title", "bgg_id", "engine_slug", "publication_year", "publisher__name")}
    for record in records.values():
        key = name_key(record.title)
        if key in keys:
            found.setdefault(key, []).append((0, record.pk, record))
    for record_id, title in OtherTitle.objects.values_list("record_id", "title"):
        key = name_key(title)
        if key in keys and record_id in records and all(pk != record_id for _own, pk, _r in found.get(key, [])):
            found.setdefault(key, []).append((1, record_id, records[record_id]))
    return {key: [record for _own, _pk, record in sorted(entries, key=lambda e: e[:2])]
            for key, entries in found.items()}


def likely_duplicates(title: str, publisher_id: int | None, year: int | None, eans: Iterable[str] = (),
                      exclude: int | None = None) -> list[tuple[CatalogueRecord, str]]:
    """The records a new one is likely to repeat, each with why: ``"ean"`` (it holds one of these
    EANs) or ``"title"`` (the same title whatever its case and accents, publisher and year). For
    a librarian cataloguing by hand, warned before saving a second record of one game."""
    found: dict[int, tuple[CatalogueRecord, str]] = {}
    eans = [ean.strip() for ean in eans if ean and ean.strip()]
    if eans:
        for identifier in (Identifier.objects.filter(scheme=Identifier.Scheme.EAN, value__in=eans)
                           .select_related("record__publisher").order_by("record_id")):
            found.setdefault(identifier.record_id, (identifier.record, "ean"))
    if title.strip():
        key = name_key(title)
        same = CatalogueRecord.objects.filter(publisher_id=publisher_id, publication_year=year).select_related("publisher")
        for record in same.order_by("pk"):
            if name_key(record.title) == key:
                found.setdefault(record.pk, (record, "title"))
    return [entry for pk, entry in found.items() if pk != exclude]


def record_label(record: CatalogueRecord) -> str:
    """A record told apart from others sharing its title, wherever a person picks one: its title,
    publisher and year, and its number (two records may share all three). Read the publisher
    with the record (``select_related("publisher")``)."""
    facts = ", ".join(str(part) for part in (record.publisher.name if record.publisher_id else "",
                                             record.publication_year or "") if part)
    return f"{record.title} — {facts} (n° {record.pk})" if facts else f"{record.title} (n° {record.pk})"


READERS_LANGUAGES = {"fr": "fre", "nl": "dut", "cs": "cze", "en": "eng"}
"""A page's language (Django's code) → the ISO 639-2/B code a catalogue's titles carry."""
TITLES_FOR_READERS = (OtherTitle.Kind.TRANSLATED, OtherTitle.Kind.PARALLEL, OtherTitle.Kind.ORIGINAL)
"""The other titles a reader may be shown instead of the record's own: a title of the same game
in their language (a variant or an abbreviated title is not one)."""


def _titles_language(language: str) -> str | None:
    """The code the catalogue's titles carry for the page's ``language`` (``nl-be`` → ``dut``)."""
    return READERS_LANGUAGES.get(language.split("-")[0])


def titles_in(language: str, record_ids: Iterable[int]) -> dict[int, str]:
    """Record id → its title in the page's ``language`` (``nl``), for the records that have one
    among their other titles; the others keep their own title."""
    code = _titles_language(language)
    if code is None:
        return {}
    titles: dict[int, str] = {}
    for record_id, title in (OtherTitle.objects.filter(record_id__in=list(record_ids), language_id=code,
                                                       kind__in=TITLES_FOR_READERS)
                             .order_by("record_id", "pk").values_list("record_id", "title")):
        titles.setdefault(record_id, title)
    return titles


def title_for_reader(record: CatalogueRecord, language: str) -> str:
    """The record's title in the page's ``language`` where it has one, else its own (its other
    titles read once, or from what the caller prefetched)."""
    code = _titles_language(language)
    return next((other.title for other in record.other_titles.all()
                 if other.language_id == code and other.kind in TITLES_FOR_READERS), record.title)
