"""What other libraries harvesting the catalogue (OAI-PMH, ``games.harvest``) need to see change.

A record's ``updated_at`` is its datestamp: it moves with the record's own fields, and here with
its parts (copies added, moved or removed; contributions, other titles, identifiers, languages,
categories) and with the people and publishers it names (a person's name corrected changes every
record they are on). A copy's circulation (lent, returned) does not move it: the loans desk writes
a copy's status without saving the copy, and a harvest of bibliographic records is not a
circulation feed (``/api/loans/copies/{barcode}/`` is). A deleted record leaves a
``DeletedRecord`` so that an incremental harvest learns it is gone."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models.signals import m2m_changed, post_delete, post_save, pre_delete
from django.dispatch import Signal
from django.utils import timezone

from .models import (
    CatalogueRecord, Contribution, Copy, DeletedRecord, Identifier, OtherTitle, Person, Publisher,
)

RECORD_PARTS = (Copy, Contribution, OtherTitle, Identifier)

records_catalogued = Signal()
"""Sent inside the transaction that catalogued records, by hand or from a file (new or updated);
kwargs: ``record_ids``. The loans desk listens (a record's checklist read from its contents):
the catalogue never imports it. Not sent for a title added on the spot with a result."""


def catalogued(record_ids: Iterable[int]) -> None:
    """Say that these records were catalogued (:data:`records_catalogued`)."""
    ids = sorted({pk for pk in record_ids if pk is not None})
    if ids:
        records_catalogued.send(sender=CatalogueRecord, record_ids=ids)


def touch(record_ids: Iterable[int]) -> None:
    """Move these records' datestamps to now (``update``: no signal, no recursion)."""
    ids = {pk for pk in record_ids if pk is not None}
    if ids:
        CatalogueRecord.objects.filter(pk__in=ids).update(updated_at=timezone.now())


def part_changed(sender: Any, instance: Any, raw: bool = False, **kwargs: Any) -> None:
    if not raw:
        touch([instance.record_id])


def name_changed(sender: Any, instance: Person | Publisher, created: bool = False, raw: bool = False,
                 **kwargs: Any) -> None:
    if raw or created:
        return
    if isinstance(instance, Person):
        touch(Contribution.objects.filter(person=instance).values_list("record_id", flat=True))
    else:
        touch(instance.records.values_list("pk", flat=True))


def links_changed(sender: Any, instance: Any, action: str, reverse: bool, pk_set: set[int] | None,
                  **kwargs: Any) -> None:
    if action not in ("post_add", "post_remove", "post_clear"):
        return
    if not reverse:
        touch([instance.pk])
    elif pk_set:
        touch(pk_set)
    elif action == "post_clear":  # a language or category cleared of its records: pk_set is not given
        touch(instance.records.values_list("pk", flat=True))


def record_deleted(sender: Any, instance: CatalogueRecord, **kwargs: Any) -> None:
    """Keep the deleted record's id, time and categories (read now: the deletion clears them)."""
    codes = list(instance.categories.values_list("code", flat=True))
    DeletedRecord.objects.update_or_create(record_id=instance.pk, defaults={
        "deleted_at": timezone.now(), "category_codes": "".join(f"|{code}|" for code in codes).replace("||", "|")})


def connect() -> None:
    for part in RECORD_PARTS:
        post_save.connect(part_changed, sender=part, dispatch_uid=f"games.touch.save.{part.__name__}")
        post_delete.connect(part_changed, sender=part, dispatch_uid=f"games.touch.delete.{part.__name__}")
    for named in (Person, Publisher):
        post_save.connect(name_changed, sender=named, dispatch_uid=f"games.touch.name.{named.__name__}")
    for through in (CatalogueRecord.languages.through, CatalogueRecord.categories.through):
        m2m_changed.connect(links_changed, sender=through, dispatch_uid=f"games.touch.links.{through.__name__}")
    pre_delete.connect(record_deleted, sender=CatalogueRecord, dispatch_uid="games.deleted_record")
