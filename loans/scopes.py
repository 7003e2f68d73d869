"""Which of the desk's rows belong to an organisation (``accounts.scoping``): a household, and
what is a household's or a copy's, to the game library they are of."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from accounts.scoping import belongs


def household_of(organisation: Any) -> Q:
    return Q(organisation=organisation)


def of_its_households(organisation: Any) -> Q:
    return Q(household__organisation=organisation)


def of_its_copies(organisation: Any) -> Q:
    return Q(copy__organisation=organisation)


def connect() -> None:
    belongs("loans.Household", household_of)
    belongs("loans.Member", of_its_households)
    belongs("loans.Hold", of_its_households)
    belongs("loans.Notification", of_its_households)
    belongs("loans.CopyState", of_its_copies)
    belongs("loans.CopyEvent", of_its_copies)
