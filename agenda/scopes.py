"""Which of the agenda's rows belong to an organisation (``accounts.scoping``)."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from accounts.scoping import belongs


def its_own(organisation: Any) -> Q:
    return Q(organisation=organisation)


def of_its_sessions(organisation: Any) -> Q:
    return Q(session__organisation=organisation)


def connect() -> None:
    for model in ("agenda.OpeningHours", "agenda.Closure", "agenda.Session"):
        belongs(model, its_own)
    for model in ("agenda.SessionChange", "agenda.Registration", "agenda.DoorCount", "agenda.PlayTally",
                  "agenda.SessionGame"):
        belongs(model, of_its_sessions)
