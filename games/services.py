"""Writes to the catalogue."""

from __future__ import annotations

import json
import re
from importlib import resources
from collections.abc import Iterable
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.utils.dateparse import parse_date

from accounts.models import Organisation
from accounts.selectors import only_library

from . import labels, unimarc

from .models import (
    CatalogueRecord,
    Category,
    Contribution,
    Copy,
    Identifier,
    Language,
    OtherTitle,
    Person,
    Publisher,
    UnimarcImport,
)


MAX_LABELS = 240
"""Copies a label request may print: ten sheets of 24, a morning's stickering."""


def copy_labels(copies: Iterable[Copy], base_url: str, skip: int = 0) -> bytes:
    """The PDF sheet of labels of ``copies`` (games.labels), shelf by shelf, each label's QR code
    opening the copy's desk page under ``base_url``."""
    if isinstance(copies, QuerySet):
        copies = copies.select_related("record")
    ordered = sorted(copies, key=lambda copy: (copy.shelf_location, copy.barcode))
    return labels.label_sheet(
        [labels.LabelData(title=copy.record.title, shelf_mark=copy.shelf_location, barcode=copy.barcode)
         for copy in ordered],
        base_url=base_url, skip=skip)


def demo_catalogue_data() -> dict[str, Any]:
    return json.loads(resources.files("games.demo").joinpath("catalogue.json").read_text(encoding="utf-8"))


@transaction.atomic
def load_catalogue(data: dict[str, Any], library: Organisation | None = None) -> list[CatalogueRecord]:
    """Create or update catalogue records from plain data; loading twice changes nothing.

    Records are matched by title, copies by barcode, so a rerun updates in place instead of
    duplicating (``make run`` loads the demo on every start). A new copy belongs to ``library``
    (by default the installation's only game library, if it has just one); a copy already there
    keeps its owner.
    """
    return [record for record, _created in _load(data, library)]


def _load(data: dict[str, Any], library: Organisation | None = None) -> list[tuple[CatalogueRecord, bool]]:
    """:func:`load_catalogue`'s work: each record, and whether it is new to the catalogue."""
    library = library or only_library()
    for language in data.get("languages", []):
        Language.objects.update_or_create(code=language["code"], defaults={"name": language["name"]})
    records = []
    for item in data["records"]:
        publisher = (
            Publisher.objects.get_or_create(name=item["publisher"])[0] if item.get("publisher") else None
        )
        record, created = CatalogueRecord.objects.update_or_create(
            title=item["title"],
            defaults={
                field: item.get(field)
                for field in (
                    "document_type", "publication_year", "min_players", "max_players", "min_age",
                    "max_age", "duration_minutes",
                )
            }
            | {
                "publisher": publisher,
                "contents": item.get("contents", ""),
                "summary": item.get("summary", ""),
                "notes": item.get("notes", ""),
                "engine_slug": item.get("engine_slug", ""),
            },
        )
        if item.get("bgg_id") and not record.bgg_id:
            # Given, never taken away: a plays import may have set it where the data has none.
            record.bgg_id = item["bgg_id"]
            record.save(update_fields=["bgg_id"])
        record.full_clean()
        record.languages.set(Language.objects.filter(code__in=item.get("languages", [])))
        record.categories.set(
            [
                Category.objects.update_or_create(code=c["code"], defaults={"label": c["label"]})[0]
                for c in item.get("categories", [])
            ]
        )
        for position, contributor in enumerate(item.get("contributors", [])):
            person = Person.objects.get_or_create(name=contributor["name"])[0]
            Contribution.objects.update_or_create(
                record=record, person=person, role=contributor["role"], defaults={"position": position}
            )
        for other in item.get("other_titles", []):
            OtherTitle.objects.update_or_create(
                record=record,
                title=other["title"],
                defaults={"kind": other["kind"], "language_id": other.get("language")},
            )
        for identifier in item.get("identifiers", []):
            Identifier.objects.update_or_create(
                scheme=identifier["scheme"], value=identifier["value"], defaults={"record": record}
            )
        for copy in item.get("copies", []):
            Copy.objects.update_or_create(
                barcode=copy["barcode"], defaults={k: v for k, v in copy.items() if k != "barcode"} | {"record": record},
                create_defaults={k: v for k, v in copy.items() if k != "barcode"} | {"record": record,
                                                                                      "organisation": library},
            )
        records.append((record, created))
    return records


LANGUAGE_CODE = re.compile(r"[a-z]{3}")

RECORD_FIELDS = (
    "title", "document_type", "publication_year", "min_players", "max_players", "min_age", "max_age",
    "duration_minutes", "contents", "summary", "notes", "engine_slug",
)


CATALOGUE_DATA_PREFETCH = ("languages", "categories", "identifiers", "copies", "other_titles", "contributions__person")
"""What :func:`record_data` reads of a record beyond its own row (and its publisher's, a join)."""


def catalogue_data(records: Iterable[CatalogueRecord]) -> dict[str, Any]:
    """The records as the plain data :func:`load_catalogue` takes (its inverse): for exports."""
    # A queryset (a search) stays a subquery; a list of records becomes its ids.
    ids = records.values("pk") if isinstance(records, QuerySet) else [r.pk for r in records]
    records = list(
        CatalogueRecord.objects.filter(pk__in=ids).order_by("title", "pk")
        .select_related("publisher")
        .prefetch_related(*CATALOGUE_DATA_PREFETCH)
    )
    languages = {language.code: language.name for r in records for language in r.languages.all()}
    return {
        "languages": [{"code": code, "name": name} for code, name in sorted(languages.items())],
        "records": [record_data(record) for record in records],
    }


def record_data(record: CatalogueRecord) -> dict[str, Any]:
    """One record as plain data (an item of :func:`catalogue_data`'s ``records``), read from its
    row, its publisher and the relations of :data:`CATALOGUE_DATA_PREFETCH`, prefetched."""
    return (
        {field: getattr(record, field) for field in RECORD_FIELDS}
        | {
            "id": record.pk,
            "entered_on": record.created_at.date().isoformat(),
            "publisher": record.publisher.name if record.publisher else "",
            "languages": sorted(language.code for language in record.languages.all()),
            "categories": [{"code": c.code, "label": c.label} for c in record.categories.all()],
            "contributors": [{"name": c.person.name, "role": c.role} for c in record.contributions.all()],
            "other_titles": [
                {"title": o.title, "kind": o.kind, "language": o.language_id}
                for o in sorted(record.other_titles.all(), key=lambda o: o.pk)
            ],
            "identifiers": [
                {"scheme": i.scheme, "value": i.value} for i in sorted(record.identifiers.all(), key=lambda i: i.pk)
            ],
            "copies": [
                {
                    "barcode": c.barcode, "shelf_location": c.shelf_location, "status": c.status,
                    "acquired_on": c.acquired_on.isoformat() if c.acquired_on else None,
                    "missing_pieces": c.missing_pieces,
                }
                for c in record.copies.all()
            ],
        }
    )


UNIMARC_FORMATS = {"iso2709": unimarc.to_iso2709, "marcxml": unimarc.to_marcxml}


def export_unimarc(records: Iterable[CatalogueRecord], format: str = "iso2709") -> bytes:
    """The records as a UNIMARC file (ISO 2709, or MARCXML), for PMB, Koha and the like."""
    return UNIMARC_FORMATS[format](catalogue_data(records)["records"])


@transaction.atomic
def import_unimarc(data: bytes, library: Organisation | None = None) -> list[CatalogueRecord]:
    """Create or update the records of a UNIMARC file (ISO 2709 or MARCXML): all of them, or none.

    Records are matched by title and copies by barcode, as :func:`load_catalogue` does, so
    importing an exported file again changes nothing. :class:`games.unimarc.UnimarcError` names
    the first record that cannot be taken and why.
    """
    return [record for record, _created in store_unimarc_items(checked_unimarc_items(data), library)]


def checked_unimarc_items(data: bytes) -> list[dict[str, Any]]:
    """The records of a UNIMARC file as plain catalogue data, each checked as the catalogue will
    store it; :class:`games.unimarc.UnimarcError` names the first that cannot be taken and why.
    Nothing is written: :func:`store_unimarc_items` stores them (a long file in chunks)."""
    items = [unimarc.from_marc(record, number) for number, record in enumerate(unimarc.read(data), start=1)]
    if not items:
        raise unimarc.UnimarcError("the file holds no record")
    for number, item in enumerate(items, start=1):
        def refuse(message: str) -> unimarc.UnimarcError:
            return unimarc.UnimarcError(f"record {number} ({item['title']}): {message}", record=number)

        problem = _unstorable_text(item)
        if problem:
            raise refuse(problem)
        for code in _language_codes(item):
            if not LANGUAGE_CODE.fullmatch(code):
                raise refuse(f"{code!r} is not an ISO 639-2 language code")
        for copy in item["copies"]:
            if copy["status"] not in Copy.Status.values:
                raise refuse(f"copy {copy['barcode']}: status {copy['status']!r} is not one of "
                             f"{', '.join(Copy.Status.values)}")
            if copy["acquired_on"] and not _is_date(copy["acquired_on"]):
                raise refuse(f"copy {copy['barcode']}: acquisition date {copy['acquired_on']!r} is not YYYY-MM-DD")
        try:
            CatalogueRecord(**{field: item[field] for field in RECORD_FIELDS}).full_clean(
                exclude=["publisher"], validate_unique=False
            )
        except ValidationError as error:
            raise refuse("; ".join(f"{field}: {' '.join(messages)}" for field, messages in
                                   error.message_dict.items())) from None
    return items


def store_unimarc_items(items: list[dict[str, Any]],
                        library: Organisation | None = None) -> list[tuple[CatalogueRecord, bool]]:
    """Store records checked by :func:`checked_unimarc_items` (a language the catalogue does not
    know yet is added under its code): each record, and whether it is new to the catalogue; a
    new copy belongs to ``library`` (see :func:`load_catalogue`)."""
    known = set(Language.objects.values_list("code", flat=True))
    stored = []
    for item in items:
        new_languages = [{"code": code, "name": code} for code in dict.fromkeys(_language_codes(item))
                         if code not in known]
        known.update(language["code"] for language in new_languages)
        stored += _load({"languages": new_languages, "records": [item]}, library)
    return stored


def _language_codes(item: dict[str, Any]) -> list[str]:
    return item["languages"] + [o["language"] for o in item["other_titles"] if o["language"]]


CONTROL_CHARACTER = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
"""Characters no catalogue text holds (a NUL cannot even be stored by PostgreSQL)."""

NESTED_LENGTHS: tuple[tuple[str, str | None, Any, str], ...] = (
    ("publisher", None, Publisher, "name"),
    ("other_titles", "title", OtherTitle, "title"),
    ("categories", "code", Category, "code"),
    ("categories", "label", Category, "label"),
    ("contributors", "name", Person, "name"),
    ("identifiers", "value", Identifier, "value"),
    ("copies", "barcode", Copy, "barcode"),
    ("copies", "shelf_location", Copy, "shelf_location"),
)
"""Texts of an imported record that go to other tables than the record's own (whose lengths
``full_clean`` checks): (item key, key in each entry or None for a plain text, model, field)."""


def _unstorable_text(item: dict[str, Any]) -> str | None:
    """Why an imported record's texts cannot be stored as they are, or None."""
    stack: list[Any] = [item]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, str) and CONTROL_CHARACTER.search(value):
            return f"{value[:40]!r} holds a control character"
    for key, inner, model, field_name in NESTED_LENGTHS:
        limit = model._meta.get_field(field_name).max_length
        values = [item.get(key)] if inner is None else [entry.get(inner) for entry in item.get(key) or []]
        for value in values:
            if isinstance(value, str) and len(value) > limit:
                return f"{model._meta.verbose_name} {field_name.replace('_', ' ')} {value[:40]!r}… is longer than {limit} characters"
    return None


def _is_date(value: str) -> bool:
    try:
        return parse_date(value) is not None
    except ValueError:
        return False


def start_unimarc_import(upload: Any, started_by: Any = None) -> UnimarcImport:
    """Keep an uploaded UNIMARC file with a new job; :func:`games.tasks.queue_unimarc_import`
    has it imported."""
    return UnimarcImport.objects.create(file=upload, file_name=getattr(upload, "name", "") or "",
                                        started_by=started_by)


def run_unimarc_import(job: UnimarcImport, chunk: int) -> None:
    """Import a job's file: checked whole first (a record that cannot be taken refuses the file,
    nothing stored), then stored ``chunk`` records a transaction, each with the progress that
    counts it. A job taken up again (its worker was lost) goes on after its last chunk stored;
    one finished is left as it is."""
    if job.finished:
        return
    job.begin()
    with job.file.open("rb") as file:
        data = file.read()
    try:
        items = checked_unimarc_items(data)
    except unimarc.UnimarcError as error:
        job.refuse(error.message)
        return
    job.importing(len(items))
    report = {"new": 0, "updated": 0, **job.report}
    for start in range(job.done, len(items), chunk):
        with transaction.atomic():
            stored = store_unimarc_items(items[start:start + chunk])
            new = sum(created for _record, created in stored)
            report = {"new": report["new"] + new, "updated": report["updated"] + len(stored) - new}
            job.advance(start + len(stored), report)
    job.finish(report)
