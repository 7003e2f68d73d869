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

from . import covers, labels, unimarc, unimarc_import
from .signals import catalogued

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
                "place": item.get("place", ""),
                "series": item.get("series", ""),
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
                Category.objects.update_or_create(code=c["code"], defaults={
                    "label": c["label"], "scheme": c.get("scheme") or Category.Scheme.LUDOTHEQUE})[0]
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


RECORD_FIELDS = unimarc_import.RECORD_FIELDS


CATALOGUE_DATA_PREFETCH = ("languages", "categories", "identifiers", "copies", "other_titles", "contributions__person")
"""What :func:`record_data` reads of a record beyond its own row (and its publisher's, a join)."""


EXPORT_BATCH = 500


def catalogue_data(records: Iterable[CatalogueRecord]) -> dict[str, Any]:
    """The records as the plain data :func:`load_catalogue` takes (its inverse): for exports."""
    # A queryset (a search) stays a subquery; a list of records becomes its ids.
    ids = records.values("pk") if isinstance(records, QuerySet) else [r.pk for r in records]
    ordered = list(CatalogueRecord.objects.filter(pk__in=ids).order_by("title", "pk").values_list("pk", flat=True))
    records = []
    for start in range(0, len(ordered), EXPORT_BATCH):
        # In batches: a prefetch names its records' ids, and SQLite takes a thousand at most.
        batch = CatalogueRecord.objects.filter(pk__in=ordered[start:start + EXPORT_BATCH]).order_by("title", "pk")
        records += batch.select_related("publisher").prefetch_related(*CATALOGUE_DATA_PREFETCH)
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
            "categories": [{"code": c.code, "label": c.label, "scheme": c.scheme} for c in record.categories.all()],
            "links": record.links or [],
            "source_record": record.source_record,
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
                    "barcode": c.barcode, "shelf_location": c.shelf_location, "location": c.location,
                    "status": c.status,
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


def import_unimarc(data: bytes, library: Organisation | None = None, source: str = "",
                   mapping: unimarc.ImportMapping | None = None, dry_run: bool = False) -> unimarc_import.ImportResult:
    """Create or update the records of a UNIMARC file (ISO 2709, MARCXML or PMB XML), or with ``dry_run``
    only say what it would do (:mod:`games.unimarc_import`): a record is matched by its source
    identifier, then its ISBN or EAN, never its title; one that cannot be taken is refused alone."""
    return unimarc_import.import_file(data, library, source, mapping, dry_run)


def start_unimarc_import(upload: Any, started_by: Any = None, *, organisation: Organisation | None = None,
                         mapping: unimarc.ImportMapping | None = None, dry_run: bool = False) -> UnimarcImport:
    """Keep an uploaded UNIMARC file with a new job; :func:`games.tasks.queue_unimarc_import`
    has it imported (or only checked: ``dry_run``), its copies ``organisation``'s."""
    return UnimarcImport.objects.create(file=upload, file_name=getattr(upload, "name", "") or "",
                                        started_by=started_by, organisation=organisation,
                                        mapping=mapping.as_data() if mapping else {}, dry_run=dry_run)


def import_checked_file(checked: UnimarcImport, started_by: Any = None,
                        mapping: unimarc.ImportMapping | None = None, dry_run: bool = False) -> UnimarcImport:
    """A new job for the file a dry run checked (the same stored file, not uploaded again): stored,
    or checked again (``dry_run``), with ``mapping`` (else the one it was checked with)."""
    return UnimarcImport.objects.create(
        file=checked.file.name, file_name=checked.file_name, source=checked.source, started_by=started_by,
        organisation=checked.organisation,
        mapping=mapping.as_data() if mapping else checked.mapping, dry_run=dry_run)


def run_unimarc_import(job: UnimarcImport, chunk: int) -> None:
    """Import a job's file: read and planned whole first (a record that cannot be taken is
    refused alone, with its reason), then stored ``chunk`` records a transaction, each with the
    progress that counts it. A job taken up again (its worker was lost) goes on after its last
    chunk stored; one finished is left as it is."""
    if job.finished:
        return
    job.begin()
    with job.file.open("rb") as file:
        data = file.read()
    try:
        import_plan = unimarc_import.plan(data, job.source, unimarc.ImportMapping.from_data(job.mapping))
    except unimarc.UnimarcError as error:
        job.refuse(error.message)
        return
    job.importing(len(import_plan.entries))
    if job.dry_run:
        job.finish(import_plan.report())
        return
    report = job.report if job.done else unimarc_import.report_of([])

    def advance(done: int, chunk_report: dict[str, Any]) -> None:
        nonlocal report
        report = unimarc_import.add_reports(report, chunk_report)
        job.advance(done, report)

    unimarc_import.store(import_plan, job.organisation, chunk=chunk, start=job.done, on_chunk=advance)
    job.finish(report)


class RecordRefused(Exception):
    """A record the librarian's form cannot store as it is: ``reason`` says why
    (``"duplicate_ean"``, ``"same_title"``: :class:`games.forms.LikelyDuplicatesCheck`; or
    ``"invalid_record"``), the forms say where. Nothing is stored."""

    status_code = 422

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@transaction.atomic
def catalogue_record(form: Any, lines: Any, library: Organisation) -> CatalogueRecord:
    """Store a record as the librarian's form says it (:class:`games.forms.LibrarianRecordForm`
    and its :class:`games.forms.RecordLines`), new or changed, in one transaction: the publisher
    and the people named as typed (found by name whatever the case, else added), the lines
    changed, added or deleted, the new copies ``library``'s; then, as the admin's save does, the
    record said catalogued (the loans desk reads the box's checklist from its contents) and its
    cover's thumbnails made. Refused (:class:`RecordRefused`) where a form has errors."""
    if not (form.is_valid() & lines.is_valid()):  # both checked: every error shown at once
        raise RecordRefused(form.duplicate_reason or "invalid_record")
    previous_cover = (CatalogueRecord.objects.filter(pk=form.instance.pk).values_list("cover", flat=True).first()
                      if form.instance.pk else "")
    record = form.save(commit=False)
    record.publisher = _named(Publisher, form.cleaned_data["publisher_name"])
    record.save()
    form.save_m2m()
    for formset in (lines.other_titles, lines.identifiers):
        formset.instance = record
        formset.save()
    _store_contributions(lines.contributions, record)
    lines.new_copies.instance = record
    for copy in lines.new_copies.save(commit=False):
        copy.organisation = library
        copy.save()
    catalogued([record.pk])  # the desk reads its checklist from its contents (loans listens)
    if "cover" in form.changed_data:
        covers.record_cover_changed(record, previous_cover)
    return record


def _named(model: type[Publisher] | type[Person], name: str) -> Any:
    """The publisher or person called ``name`` whatever its case, added where the catalogue has none."""
    if not name:
        return None
    return model.objects.filter(name__iexact=name).order_by("pk").first() or model.objects.create(name=name)


def _store_contributions(formset: Any, record: CatalogueRecord) -> None:
    """The people's lines: deleted, changed, or added after those already there, in the form's order."""
    deleted = set(map(id, formset.deleted_forms))
    position = max(record.contributions.values_list("position", flat=True), default=-1) + 1
    for line in formset.forms:
        if id(line) in deleted:
            if line.instance.pk:
                line.instance.delete()
            continue
        if not line.has_changed():
            continue
        contribution = line.save(commit=False)
        contribution.record = record
        contribution.person = _named(Person, line.cleaned_data["name"])
        if contribution.pk is None:
            contribution.position, position = position, position + 1
        contribution.save()
