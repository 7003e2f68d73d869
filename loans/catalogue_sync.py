"""The catalogue's copies and the desk's history kept in step. A copy saved with a status or a
note on missing pieces (catalogued by hand, imported from a catalogue file or a UNIMARC 995) that
the desk has no history of yet gets them as its first events; a copy the desk already keeps keeps
its history, and the catalogue's columns are written back from it (the desk owns them)."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_save

from games.models import Copy


def copy_saved(sender: type[Copy], instance: Copy, raw: bool = False, **kwargs: Any) -> None:
    if raw:  # a fixture being loaded: its events come with it
        return
    from . import services

    services.adopt_catalogued_copy(instance)


def connect() -> None:
    post_save.connect(copy_saved, sender=Copy, dispatch_uid="loans.catalogue_sync.copy_saved")
