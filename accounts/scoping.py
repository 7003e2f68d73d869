"""What belongs to an organisation: one definition that every list of an organisation's things
uses, as ``records.selectors`` is for who may see a record.

Forgetting a filter would show one club's members or one ludothèque's households in another's
lists; so no list writes its own: it asks :func:`in_organisation`, and the app that owns a model
says once, when it starts, which of its rows belong to an organisation (:func:`belongs`). A model
may be reached in several ways, each said by the app that knows it (a player is a club's through
its games, through its account's membership, and through the club's leagues): a row belongs when
one of them says so. A test with two organisations holds every list to it (the leak test).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from functools import reduce
from operator import or_
from typing import Any, TypeVar

from django.db.models import Model, Q, QuerySet

ModelT = TypeVar("ModelT", bound=Model)

Rule = Callable[[Any], Q]
"""Given an organisation (or its id), the condition on a model's rows that they belong to it."""

_RULES: dict[str, list[Rule]] = defaultdict(list)


def belongs(model_label: str, rule: Rule) -> None:
    """Say that the rows of ``model_label`` (``"records.Player"``) for which ``rule(organisation)``
    holds belong to that organisation (called from the app's ``ready()``; said again, ignored)."""
    if rule not in _RULES[model_label]:
        _RULES[model_label].append(rule)


def in_organisation(queryset: QuerySet[ModelT], organisation: Any) -> QuerySet[ModelT]:
    """The rows of ``queryset`` that belong to ``organisation``, each once, whatever number of ways
    it belongs: a subquery on the primary key per way, not a join.

    One subquery per way, rather than one over the ways joined together: joined (a player's seats
    with their records, their account's memberships, their leagues), the planner cannot start from
    the organisation's rows and walks every row of the installation instead (380 ms for one club
    of 100 with 6,000 players, ``bench/bench_organisations.py``); apart, each way reads the
    organisation's own rows by its index.

    No organisation (a visitor who has not chosen one among several): none of them; but an
    installation that has no organisation at all is one whole, and every row is its own."""
    if organisation is None:
        from .models import Organisation

        return queryset if not Organisation.objects.exists() else queryset.none()
    rules = _RULES.get(queryset.model._meta.label)
    if not rules:
        raise LookupError(f"no app says which {queryset.model._meta.label} belong to an organisation")
    manager = queryset.model._default_manager
    return queryset.filter(reduce(or_, (Q(pk__in=manager.filter(rule(organisation)).values("pk")) for rule in rules)))


def scoped_models() -> list[str]:
    """The models whose rows belong to organisations (for the leak test)."""
    return sorted(label for label, rules in _RULES.items() if rules)
