"""Writes to the catalogue."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from django.db import transaction

from .models import (
    CatalogueRecord,
    Category,
    Contribution,
    Copy,
    Language,
    OtherTitle,
    Person,
    Publisher,
)


def demo_catalogue_data() -> dict[str, Any]:
    return json.loads(resources.files("games.demo").joinpath("catalogue.json").read_text(encoding="utf-8"))


@transaction.atomic
def load_catalogue(data: dict[str, Any]) -> list[CatalogueRecord]:
    """Create or update catalogue records from plain data; loading twice changes nothing.

    Records are matched by title, copies by barcode, so a rerun updates in place instead of
    duplicating (``make run`` loads the demo on every start).
    """
    for language in data.get("languages", []):
        Language.objects.update_or_create(code=language["code"], defaults={"name": language["name"]})
    records = []
    for item in data["records"]:
        publisher = (
            Publisher.objects.get_or_create(name=item["publisher"])[0] if item.get("publisher") else None
        )
        record, _created = CatalogueRecord.objects.update_or_create(
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
        for copy in item.get("copies", []):
            Copy.objects.update_or_create(
                barcode=copy["barcode"], defaults={k: v for k, v in copy.items() if k != "barcode"} | {"record": record}
            )
        records.append(record)
    return records
