"""Reading organisations and their people."""

from __future__ import annotations

from .models import Organisation

LENDING_KINDS = (Organisation.Kind.LIBRARY, Organisation.Kind.BOTH)


def only_library() -> Organisation | None:
    """The installation's game library when it has exactly one: where a copy catalogued without
    naming its library goes (the demo, a ludothèque alone on its installation, the operator's
    command line); ``None`` when there are none or several."""
    libraries = list(Organisation.objects.filter(kind__in=LENDING_KINDS)[:2])
    return libraries[0] if len(libraries) == 1 else None
