"""A UNIMARC file into the catalogue: a plan first (what a dry run reports), then the store.

A record is known by its identifier in the catalogue it comes from (its 001 with its source, see
:func:`games.unimarc.source_identity`), then, coming from elsewhere, by its ISBN or EAN; never by
its title: two records with the same title stay two. Each record is kept whole beside ours
(``CatalogueRecord.source_record``) so that exports give back every field it came with; one
whose source record has not changed since it was imported is left as it is (``unchanged``), so
the same file imported again changes nothing. A record that cannot be taken is refused alone,
with its reason; the others are stored.

:func:`plan` reads and checks the file and looks each record up, writing nothing: its counts are
the dry run. :func:`store` writes a plan's records in chunks, in bulk, each chunk in a
transaction; its report counts what it did the way the plan counted it, so the two agree.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import Organisation
from accounts.selectors import only_library

from . import unimarc
from .models import (
    CatalogueRecord, Category, Contribution, Copy, Identifier, Language, OtherTitle, Person, Publisher,
)
from .signals import touch
from .unimarc import ImportMapping, Refusal, gettext_noop

NEW, UPDATED, UNCHANGED, DUPLICATE, REFUSED = "new", "updated", "unchanged", "duplicate", "refused"
OUTCOMES = (NEW, UPDATED, UNCHANGED, DUPLICATE, REFUSED)

MATCHING_SCHEMES = ("isbn", "ean")
"""Identifiers that tell the same game catalogued elsewhere (an ISSN names a periodical's run)."""

RECORD_FIELDS = (
    "title", "document_type", "publication_year", "min_players", "max_players", "min_age", "max_age",
    "duration_minutes", "contents", "summary", "notes", "engine_slug", "place", "series", "bgg_id",
)
"""A record's own columns as catalogue data gives them (imports, exports, the demo's catalogue)."""
TEXT_LIMITS = (
    ("publisher", None, Publisher, "name"),
    ("other_titles", "title", OtherTitle, "title"),
    ("categories", "code", Category, "code"),
    ("categories", "label", Category, "label"),
    ("contributors", "name", Person, "name"),
    ("identifiers", "value", Identifier, "value"),
    ("copies", "barcode", Copy, "barcode"),
    ("copies", "shelf_location", Copy, "shelf_location"),
    ("copies", "location", Copy, "location"),
)
"""Texts that go to other tables than the record's own (whose lengths ``full_clean`` checks):
(item key, key in each entry or None for a plain text, model, field)."""

CONTROL_CHARACTER = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
"""Characters no catalogue text holds (a NUL cannot even be stored by PostgreSQL)."""
LANGUAGE_CODE = re.compile(r"[a-z]{3}")


@dataclass
class Entry:
    """One record of the file and what the import does with it."""

    number: int
    outcome: str = NEW
    item: dict[str, Any] | None = None
    marc: dict[str, Any] | None = None
    source: str = ""
    source_id: str = ""
    digest: str = ""
    record_id: int | None = None
    kept_tags: list[str] = field(default_factory=list)
    title: str = ""
    reason: tuple[str, dict[str, Any]] | None = None
    """Why it was refused: an English msgid with %-placeholders and their values."""
    duplicate_of: int | None = None


@dataclass
class ImportPlan:
    entries: list[Entry]
    source: str = ""
    mapping: ImportMapping = field(default_factory=ImportMapping)

    def report(self, entries: Iterable[Entry] | None = None) -> dict[str, Any]:
        return report_of(self.entries if entries is None else entries)


def report_of(entries: Iterable[Entry]) -> dict[str, Any]:
    """Counts by outcome, the refused records one by one with their reasons (as msgids and values,
    translated where they are read: :func:`reason_text`), the duplicates with the record they
    repeat, and the tags of the fields kept but shown on no page, counted."""
    entries = list(entries)
    counts = Counter(entry.outcome for entry in entries)
    kept = Counter(tag for entry in entries if entry.outcome != REFUSED for tag in entry.kept_tags)
    return {
        **{outcome: counts[outcome] for outcome in OUTCOMES},
        "refusals": [{"record": e.number, "title": e.title, "reason": e.reason[0], "params": e.reason[1]}
                     for e in entries if e.outcome == REFUSED and e.reason],
        "duplicates": [{"record": e.number, "of": e.duplicate_of} for e in entries if e.outcome == DUPLICATE],
        "kept_tags": dict(sorted(kept.items())),
    }


def add_reports(first: dict[str, Any], second: dict[str, Any]) -> dict[str, Any]:
    """Two chunks' reports as one (a job's report grows a chunk at a time)."""
    tags = Counter(first.get("kept_tags", {})) + Counter(second.get("kept_tags", {}))
    return {
        **{outcome: first.get(outcome, 0) + second.get(outcome, 0) for outcome in OUTCOMES},
        "refusals": first.get("refusals", []) + second.get("refusals", []),
        "duplicates": first.get("duplicates", []) + second.get("duplicates", []),
        "kept_tags": dict(sorted(tags.items())),
    }


def reason_text(refusal: dict[str, Any]) -> str:
    """A refused record's reason in the reader's language (the active one)."""
    params = refusal.get("params") or {}
    return gettext(refusal["reason"]) % params if params else gettext(refusal["reason"])


# -- the plan (a dry run) ------------------------------------------------------------------------


def plan(data: bytes, source: str = "", mapping: ImportMapping | None = None) -> ImportPlan:
    """Read, map and check every record of the file and find each one's record in the catalogue,
    writing nothing. :class:`games.unimarc.UnimarcError` only for a file that is not UNIMARC at all."""
    mapping = mapping or unimarc.PRESETS["pmb"]
    entries: list[Entry] = []
    first_of: dict[tuple[str, str], int] = {}
    for number, record, error in unimarc.entries(data):
        entry = Entry(number)
        entries.append(entry)
        if record is None:
            entry.outcome, entry.reason = REFUSED, (gettext_noop("it cannot be read: %(error)s"), {"error": error})
            continue
        entry.title = unimarc.title_of(record)
        try:
            entry.item = unimarc.from_marc(record, number, mapping)
            problem = _unstorable(entry.item)
        except Refusal as refusal:
            entry.outcome, entry.reason = REFUSED, (refusal.template, refusal.params)
            continue
        if problem:
            entry.outcome, entry.reason = REFUSED, problem
            continue
        entry.marc = unimarc.as_data(record)
        entry.digest = unimarc.digest(entry.marc)
        entry.source, entry.source_id = unimarc.source_identity(record, source)
        entry.kept_tags = unimarc.fields_shown_elsewhere(record)
        key = (entry.source, entry.source_id)
        if key in first_of:
            entry.outcome, entry.duplicate_of = DUPLICATE, first_of[key]
        else:
            first_of[key] = number
    if not entries:
        raise unimarc.UnimarcError("the file holds no record")
    _find_records([e for e in entries if e.outcome == NEW])
    return ImportPlan(entries, source, mapping)


def _find_records(entries: list[Entry]) -> None:
    """Each entry's record in the catalogue and whether it changed since: by source identity,
    then (from another source) by ISBN or EAN. Two queries for the whole file, in batches."""
    claimed: set[int] = set()
    for start in range(0, len(entries), 2000):
        batch = entries[start:start + 2000]
        known = {(source, source_id): (pk, stored_digest) for pk, source, source_id, stored_digest in
                 CatalogueRecord.objects.filter(source_id__in={e.source_id for e in batch})
                 .values_list("pk", "source", "source_id", "source_digest")}
        wanted = {(i["scheme"], i["value"]) for e in batch if (e.source, e.source_id) not in known
                  for i in e.item["identifiers"] if i["scheme"] in MATCHING_SCHEMES}
        by_identifier: dict[tuple[str, str], tuple[int, str, str]] = {}
        if wanted:
            for scheme, value, pk, source, stored_digest in (
                    Identifier.objects.filter(scheme__in=MATCHING_SCHEMES, value__in={v for _s, v in wanted})
                    .values_list("scheme", "value", "record_id", "record__source", "record__source_digest")):
                by_identifier[(scheme, value)] = (pk, source, stored_digest)
        for entry in batch:
            found = known.get((entry.source, entry.source_id))
            if found is None:
                for identifier in entry.item["identifiers"]:
                    match = by_identifier.get((identifier["scheme"], identifier["value"]))
                    # The same source with another 001 is another record of that catalogue; a
                    # record already claimed by an earlier one of the file is not taken twice.
                    if match and match[1] != entry.source and match[0] not in claimed:
                        found = (match[0], match[2])
                        break
            if found is not None:
                entry.record_id = found[0]
                claimed.add(found[0])
                entry.outcome = UNCHANGED if found[1] == entry.digest else UPDATED


def _unstorable(item: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """Why a mapped record cannot be stored as it is (a msgid and its values), or None."""
    stack: list[Any] = [item]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, str) and CONTROL_CHARACTER.search(value):
            return gettext_noop("%(text)s holds a control character"), {"text": repr(value[:40])}
    for key, inner, model, field_name in TEXT_LIMITS:
        limit = model._meta.get_field(field_name).max_length
        values = [item.get(key)] if inner is None else [entry.get(inner) for entry in item.get(key) or []]
        for value in values:
            if isinstance(value, str) and len(value) > limit:
                return (gettext_noop("%(what)s %(text)s… is longer than %(limit)s characters"),
                        {"what": f"{model._meta.verbose_name} {field_name.replace('_', ' ')}",
                         "text": repr(value[:40]), "limit": limit})
    for code in _language_codes(item):
        if not LANGUAGE_CODE.fullmatch(code):
            return gettext_noop("%(code)s is not an ISO 639-2 language code"), {"code": repr(code)}
    record = CatalogueRecord(**{name: item.get(name) if item.get(name) is not None else _empty(name)
                                for name in RECORD_FIELDS})
    try:
        # The database's constraints are checked by clean() in Python: no query per record.
        record.full_clean(exclude=["publisher"], validate_unique=False, validate_constraints=False)
    except ValidationError as error:
        return gettext_noop("%(fields)s"), {"fields": "; ".join(
            f"{name}: {' '.join(str(m) for m in messages)}" for name, messages in error.message_dict.items())}
    return None


def _empty(name: str) -> Any:
    return None if CatalogueRecord._meta.get_field(name).null else ""


def _language_codes(item: dict[str, Any]) -> list[str]:
    return item["languages"] + [o["language"] for o in item["other_titles"] if o["language"]]


# -- the store -----------------------------------------------------------------------------------


def store(import_plan: ImportPlan, library: Organisation | None = None, chunk: int = 500, start: int = 0,
          on_chunk: Callable[[int, dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Write the plan's new and updated records, ``chunk`` entries a transaction (from entry
    ``start``: a job taken up again); ``on_chunk(done, chunk_report)`` is called inside each
    chunk's transaction. Returns the report of the entries stored (:func:`report_of`)."""
    library = library or only_library()
    report: dict[str, Any] = report_of([])
    entries = import_plan.entries
    for first in range(start, len(entries), chunk):
        part = entries[first:first + chunk]
        with transaction.atomic():
            _store_chunk([e for e in part if e.outcome in (NEW, UPDATED)], library)
            chunk_report = report_of(part)
            if on_chunk is not None:
                on_chunk(first + len(part), chunk_report)
        report = add_reports(report, chunk_report)
    return report


def _ids_by(model: Any, key: str, wanted: set[str], make: Callable[[str], Any]) -> dict[str, int]:
    """Ids of the rows whose ``key`` is in ``wanted``, creating those missing (in bulk)."""
    if not wanted:
        return {}
    found = dict(model.objects.filter(**{f"{key}__in": wanted}).values_list(key, "pk"))
    missing = wanted - found.keys()
    if missing:
        model.objects.bulk_create([make(value) for value in missing], ignore_conflicts=True)
        found.update(model.objects.filter(**{f"{key}__in": missing}).values_list(key, "pk"))
    return found


def _store_chunk(entries: list[Entry], library: Organisation | None) -> None:
    if not entries:
        return
    items = [e.item for e in entries]
    _ids_by(Language, "code", {c for item in items for c in _language_codes(item)},
            lambda code: Language(code=code, name=code))
    publishers = _ids_by(Publisher, "name", {i["publisher"] for i in items if i["publisher"]},
                         lambda name: Publisher(name=name))
    people = _ids_by(Person, "name", {c["name"] for i in items for c in i["contributors"]},
                     lambda name: Person(name=name))
    labels = {c["code"]: c for i in items for c in i["categories"]}
    categories = _ids_by(Category, "code", set(labels),
                         lambda code: Category(code=code, label=labels[code]["label"], scheme=labels[code]["scheme"]))

    now = timezone.now()
    records = []
    # A BoardGameGeek id a play history gave a record stays when its source names none.
    known_bgg_ids = dict(CatalogueRecord.objects.filter(
        pk__in=[entry.record_id for entry in entries if entry.record_id], bgg_id__isnull=False,
    ).values_list("pk", "bgg_id"))
    for entry in entries:
        item = entry.item
        values = {name: item.get(name) if item.get(name) is not None else _empty(name) for name in RECORD_FIELDS}
        values["bgg_id"] = values["bgg_id"] or known_bgg_ids.get(entry.record_id)
        record = CatalogueRecord(
            pk=entry.record_id, **values, publisher_id=publishers.get(item["publisher"]),
            links=item["links"], source=entry.source, source_id=entry.source_id, source_digest=entry.digest,
            source_record={"marc": entry.marc, "mapped": {key: item.get(key) for key in unimarc.MAPPED_KEYS}},
            updated_at=now)
        records.append(record)
    new = [r for r, e in zip(records, entries) if e.outcome == NEW]
    updated = [r for r, e in zip(records, entries) if e.outcome == UPDATED]
    if new:
        CatalogueRecord.objects.bulk_create(new)
        for record, entry in zip(records, entries):
            entry.record_id = record.pk
    if updated:
        # A record matched by its ISBN or EAN that already has a source of its own keeps it.
        owned = {pk for pk, source_id in CatalogueRecord.objects.filter(pk__in=[r.pk for r in updated])
                 .values_list("pk", "source_id") if source_id}
        own_identity = [r for r in updated if r.pk not in owned]
        fields = [*RECORD_FIELDS, "publisher", "links", "source_digest", "source_record", "updated_at"]
        CatalogueRecord.objects.bulk_update([r for r in updated if r.pk in owned], fields, batch_size=500)
        CatalogueRecord.objects.bulk_update(own_identity, [*fields, "source", "source_id"], batch_size=500)
        ids = [r.pk for r in updated]
        for part in (Contribution, OtherTitle, Identifier):
            part.objects.filter(record_id__in=ids).delete()
        CatalogueRecord.languages.through.objects.filter(cataloguerecord_id__in=ids).delete()
        CatalogueRecord.categories.through.objects.filter(cataloguerecord_id__in=ids).delete()

    ids = [e.record_id for e in entries]
    languages, classified, contributions, other_titles = [], [], [], []
    for record_id, item in zip(ids, items):
        languages += [CatalogueRecord.languages.through(cataloguerecord_id=record_id, language_id=code)
                      for code in item["languages"]]
        classified += [CatalogueRecord.categories.through(cataloguerecord_id=record_id, category_id=pk)
                       for pk in {categories[c["code"]] for c in item["categories"]}]
        contributions += [Contribution(record_id=record_id, person_id=people[c["name"]], role=c["role"], position=n)
                          for n, c in enumerate(item["contributors"])]
        other_titles += [OtherTitle(record_id=record_id, title=o["title"], kind=o["kind"], language_id=o["language"])
                         for o in item["other_titles"]]
    CatalogueRecord.languages.through.objects.bulk_create(languages, ignore_conflicts=True)
    CatalogueRecord.categories.through.objects.bulk_create(classified, ignore_conflicts=True)
    Contribution.objects.bulk_create(contributions, ignore_conflicts=True)
    OtherTitle.objects.bulk_create(other_titles, ignore_conflicts=True)
    _store_identifiers(ids, items)
    _store_copies(ids, items, library)
    touch(ids)


def _store_identifiers(ids: list[int], items: list[dict[str, Any]]) -> None:
    """An identifier another record holds stays with it (the source record keeps this one's)."""
    wanted = {(i["scheme"], i["value"]): record_id for record_id, item in zip(ids, items)
              for i in reversed(item["identifiers"])}
    values = {value for _scheme, value in wanted}
    taken = set(Identifier.objects.filter(value__in=values).values_list("scheme", "value")) if values else set()
    Identifier.objects.bulk_create([Identifier(record_id=record_id, scheme=scheme, value=value)
                                    for (scheme, value), record_id in wanted.items()
                                    if (scheme, value) not in taken], ignore_conflicts=True)


COPY_FIELDS = ("shelf_location", "location", "status", "acquired_on", "missing_pieces")


def _store_copies(ids: list[int], items: list[dict[str, Any]], library: Organisation | None) -> None:
    """Copies by barcode: one already in the catalogue moves to its record and keeps its owner."""
    wanted = {c["barcode"]: (record_id, c) for record_id, item in zip(ids, items) for c in item["copies"]}
    if not wanted:
        return
    existing = {copy.barcode: copy for copy in Copy.objects.filter(barcode__in=wanted)}
    changed, created = [], []
    for barcode, (record_id, data) in wanted.items():
        values = {name: data.get(name) or (None if name == "acquired_on" else "") for name in COPY_FIELDS}
        values["status"] = values["status"] or Copy.Status.AVAILABLE
        copy = existing.get(barcode)
        if copy is None:
            created.append(Copy(barcode=barcode, record_id=record_id, organisation=library, **values))
        elif (copy.record_id, *(str(getattr(copy, n) or "") for n in COPY_FIELDS)) != (
                record_id, *(str(values[n] or "") for n in COPY_FIELDS)):
            copy.record_id = record_id
            for name, value in values.items():
                setattr(copy, name, value)
            changed.append(copy)
    Copy.objects.bulk_create(created)
    Copy.objects.bulk_update(changed, ["record", *COPY_FIELDS], batch_size=500)


# -- all at once (the command, the tests) --------------------------------------------------------


@dataclass
class ImportResult:
    report: dict[str, Any]
    records: list[CatalogueRecord]


def import_file(data: bytes, library: Organisation | None = None, source: str = "",
                mapping: ImportMapping | None = None, dry_run: bool = False, chunk: int = 500) -> ImportResult:
    """Plan the file and (unless ``dry_run``) store it; the report, and the records it names
    (new, updated or unchanged, in the file's order)."""
    import_plan = plan(data, source, mapping)
    report = import_plan.report() if dry_run else store(import_plan, library, chunk)
    ids = [e.record_id for e in import_plan.entries if e.record_id is not None and e.outcome != DUPLICATE]
    by_id = CatalogueRecord.objects.in_bulk(ids) if not dry_run else {}
    return ImportResult(report, [by_id[pk] for pk in ids if pk in by_id])
