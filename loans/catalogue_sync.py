"""The catalogue's records and copies and the desk's checklists and history kept in step. A record
catalogued by hand or imported (``games.signals.records_catalogued``) without a checklist gets one
read from its contents at once, so that its copies' returns are counted. A copy saved with a
status or a note on missing pieces (catalogued by hand, imported from a catalogue file or a UNIMARC 995) that
the desk has no history of yet gets them as its first events; a copy the desk already keeps keeps
its history, and the catalogue's columns are written back from it (the desk owns them)."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_save

from games.models import Copy
from games.signals import records_catalogued


def copy_saved(sender: type[Copy], instance: Copy, raw: bool = False, **kwargs: Any) -> None:
    if raw:  # a fixture being loaded: its events come with it
        return
    from . import services

    services.adopt_catalogued_copy(instance)


def records_were_catalogued(sender: Any, record_ids: list[int], **kwargs: Any) -> None:
    from . import services

    services.fill_checklists(record_ids)


def connect() -> None:
    records_catalogued.connect(records_were_catalogued, dispatch_uid="loans.catalogue_sync.records_catalogued")
    post_save.connect(copy_saved, sender=Copy, dispatch_uid="loans.catalogue_sync.copy_saved")
