"""Which of the catalogue's rows belong to an organisation (``accounts.scoping``): a copy, to the
game library that owns it. Catalogue records are shared by every library (a union catalogue)."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from accounts.scoping import belongs


def copy_owned(organisation: Any) -> Q:
    return Q(organisation=organisation)


def connect() -> None:
    belongs("games.Copy", copy_owned)
