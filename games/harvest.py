"""The catalogue as OAI-PMH harvests it (``games.oai``'s :class:`~games.oai.Repository`), from the
database: a page of records in (last change, id) order, after the last one of the page before,
with what its format needs prefetched (a page of 100 records: eight queries,
whichever its format). The records deleted (``DeletedRecord``) come in the same order, by the
time they went, as headers marked deleted (``games.signals`` keeps them)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.db.models import Exists, Min, OuterRef, Q, QuerySet

from .models import CatalogueRecord, Category, DeletedRecord
from .oai import Selection
from .services import CATALOGUE_DATA_PREFETCH, record_data

RecordCategory = CatalogueRecord.categories.through


class CatalogueRepository:
    """``record_url`` gives a record's page address (Dublin Core's identifier) from its id."""

    def __init__(self, record_url: Callable[[int], str]) -> None:
        self.record_url = record_url

    def earliest_datestamp(self) -> datetime | None:
        stamps = [CatalogueRecord.objects.aggregate(earliest=Min("updated_at"))["earliest"],
                  DeletedRecord.objects.aggregate(earliest=Min("deleted_at"))["earliest"]]
        return min((stamp for stamp in stamps if stamp is not None), default=None)

    def categories(self) -> list[tuple[str, str]]:
        return list(Category.objects.order_by("code").values_list("code", "label"))

    def count(self, selection: Selection) -> int:
        return self._selected(selection).count() + self._deleted(selection).count()

    def page(self, selection: Selection, after: tuple[datetime, int] | None, limit: int,
             metadata: str | None) -> list[dict[str, Any]]:
        records = self._selected(selection).order_by("updated_at", "pk")
        deleted = self._deleted(selection).order_by("deleted_at", "record_id")
        if after is not None:
            changed, pk = after
            records = records.filter(Q(updated_at__gt=changed) | Q(updated_at=changed, pk__gt=pk))
            deleted = deleted.filter(Q(deleted_at__gt=changed) | Q(deleted_at=changed, record_id__gt=pk))
        if metadata is None:
            items = [{"id": record.pk, "datestamp": record.updated_at,
                      "categories": [{"code": c.code, "label": c.label} for c in record.categories.all()]}
                     for record in records.prefetch_related("categories")[:limit]]
        else:
            items = [self._item(record) for record in
                     records.select_related("publisher").prefetch_related(*CATALOGUE_DATA_PREFETCH)[:limit]]
        # The two streams merged in (datestamp, id) order: a record id is never both (ids are not reused).
        items += [self._gone(gone) for gone in deleted[:limit]]
        return sorted(items, key=lambda item: (item["datestamp"], item["id"]))[:limit]

    def record(self, pk: int) -> dict[str, Any] | None:
        record = (CatalogueRecord.objects.filter(pk=pk).select_related("publisher")
                  .prefetch_related(*CATALOGUE_DATA_PREFETCH).first())
        if record is not None:
            return self._item(record)
        gone = DeletedRecord.objects.filter(record_id=pk).first()
        return self._gone(gone) if gone is not None else None

    @staticmethod
    def _gone(gone: DeletedRecord) -> dict[str, Any]:
        return {"id": gone.record_id, "datestamp": gone.deleted_at, "deleted": True,
                "categories": [{"code": code, "label": ""} for code in gone.categories]}

    def _item(self, record: CatalogueRecord) -> dict[str, Any]:
        return record_data(record) | {"datestamp": record.updated_at, "url": self.record_url(record.pk)}

    @staticmethod
    def _selected(selection: Selection) -> QuerySet[CatalogueRecord]:
        records = CatalogueRecord.objects.all()
        if selection.start is not None:
            records = records.filter(updated_at__gte=selection.start)
        if selection.end is not None:
            records = records.filter(updated_at__lt=selection.end)
        if selection.category is not None:
            records = records.filter(Exists(RecordCategory.objects.filter(
                cataloguerecord_id=OuterRef("pk"), category__code=selection.category)))
        elif selection.in_a_category:
            records = records.filter(Exists(RecordCategory.objects.filter(cataloguerecord_id=OuterRef("pk"))))
        return records

    @staticmethod
    def _deleted(selection: Selection) -> QuerySet[DeletedRecord]:
        deleted = DeletedRecord.objects.all()
        if selection.start is not None:
            deleted = deleted.filter(deleted_at__gte=selection.start)
        if selection.end is not None:
            deleted = deleted.filter(deleted_at__lt=selection.end)
        if selection.category is not None:
            deleted = deleted.filter(category_codes__contains=f"|{selection.category}|")
        elif selection.in_a_category:
            deleted = deleted.exclude(category_codes="")
        return deleted
