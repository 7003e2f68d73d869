"""Reading the catalogue where other apps look a game up."""

from __future__ import annotations

from collections.abc import Iterable

from .models import CatalogueRecord
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


def record_titled(title: str) -> CatalogueRecord | None:
    """The catalogue record ``title`` names (:func:`records_by_title`), if any."""
    return records_by_title([title]).get(name_key(title))
