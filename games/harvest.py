"""The catalogue as OAI-PMH harvests it (``games.oai``'s :class:`~games.oai.Repository`), from the
database: a page of records in (last change, id) order, after the last one of the page before,
with what its format needs prefetched (a page of 100 records: eight queries,
whichever its format)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.db.models import Exists, Min, OuterRef, Q, QuerySet

from .models import CatalogueRecord, Category
from .oai import Selection
from .services import CATALOGUE_DATA_PREFETCH, record_data

RecordCategory = CatalogueRecord.categories.through


class CatalogueRepository:
    """``record_url`` gives a record's page address (Dublin Core's identifier) from its id."""

    def __init__(self, record_url: Callable[[int], str]) -> None:
        self.record_url = record_url

    def earliest_datestamp(self) -> datetime | None:
        return CatalogueRecord.objects.aggregate(earliest=Min("updated_at"))["earliest"]

    def categories(self) -> list[tuple[str, str]]:
        return list(Category.objects.order_by("code").values_list("code", "label"))

    def count(self, selection: Selection) -> int:
        return self._selected(selection).count()

    def page(self, selection: Selection, after: tuple[datetime, int] | None, limit: int,
             metadata: str | None) -> list[dict[str, Any]]:
        records = self._selected(selection).order_by("updated_at", "pk")
        if after is not None:
            changed, pk = after
            records = records.filter(Q(updated_at__gt=changed) | Q(updated_at=changed, pk__gt=pk))
        if metadata is None:
            return [{"id": record.pk, "datestamp": record.updated_at,
                     "categories": [{"code": c.code, "label": c.label} for c in record.categories.all()]}
                    for record in records.prefetch_related("categories")[:limit]]
        return [self._item(record) for record in
                records.select_related("publisher").prefetch_related(*CATALOGUE_DATA_PREFETCH)[:limit]]

    def record(self, pk: int) -> dict[str, Any] | None:
        record = (CatalogueRecord.objects.filter(pk=pk).select_related("publisher")
                  .prefetch_related(*CATALOGUE_DATA_PREFETCH).first())
        return self._item(record) if record is not None else None

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
