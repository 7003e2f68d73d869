"""Reads of the loans desk, and who may see what."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet

from games.models import CatalogueRecord, Copy
from games.registry import BoxPiece, box_contents

from . import checklists, rules
from .contents import ContentLine
from .errors import UnknownCopy, UnknownHousehold
from .models import Component, CopyEvent, CopyState, Hold, Household

DESK_GROUP = "desk"
LIBRARIANS_GROUP = "librarians"

User = AbstractBaseUser | AnonymousUser


def in_group(user: User, name: str) -> bool:
    return bool(user.is_authenticated and user.groups.filter(name=name).exists())  # type: ignore[union-attr]


def is_librarian(user: User) -> bool:
    """Librarians edit the catalogue's checklists: the ``librarians`` group, or a superuser."""
    return bool(user.is_authenticated and (getattr(user, "is_superuser", False) or in_group(user, LIBRARIANS_GROUP)))


def is_desk_staff(user: User) -> bool:
    """Desk staff lend, take back and renew: the ``desk`` group, staff, or a librarian."""
    return bool(user.is_authenticated and (getattr(user, "is_staff", False) or is_librarian(user)
                                           or in_group(user, DESK_GROUP)))


def household_of(user: User) -> Household | None:
    """The household a signed-in member belongs to."""
    if not user.is_authenticated:
        return None
    return Household.objects.filter(members__user=user).first()


def may_see_household(user: User, household: Household) -> bool:
    if is_desk_staff(user):
        return True
    own = household_of(user)
    return own is not None and own.pk == household.pk


def copy_by_barcode(barcode: str) -> Copy:
    copy = Copy.objects.select_related("record").filter(barcode=barcode).first()
    if copy is None:
        raise UnknownCopy(f"no copy has the barcode {barcode!r}", copy=barcode)
    return copy


def household_by_card(card_number: str) -> Household:
    household = Household.objects.filter(card_number=card_number).first()
    if household is None:
        raise UnknownHousehold(f"no household has the card {card_number!r}", household=card_number)
    return household


def copy_state(copy: Copy) -> rules.CopyState:
    row = CopyState.objects.filter(copy=copy).first()
    return row.as_rule_state() if row else rules.CopyState()


def current_loans(household: Household) -> QuerySet[CopyState]:
    return (CopyState.objects.filter(household=household, status=rules.Status.ON_LOAN)
            .select_related("copy__record").order_by("due_on", "copy__barcode"))


def checklist(copy: Copy) -> list[rules.Piece]:
    """A copy's checklist: its catalogue record's components."""
    return [rules.Piece(c.kind, c.count) for c in Component.objects.filter(record_id=copy.record_id)]


def record_checklist(record: CatalogueRecord) -> list[ContentLine]:
    """A catalogue record's checklist as lines, in the librarian's order."""
    return [ContentLine(c.kind, c.count, c.per_colour) for c in Component.objects.filter(record=record)]


def engine_pieces(record: CatalogueRecord) -> tuple[BoxPiece, ...]:
    """What the record's rules engine says is in the box; nothing for a game without an engine."""
    box = box_contents(record.engine_slug) if record.engine_slug else None
    return box.pieces if box is not None else ()


def engine_comparison(record: CatalogueRecord) -> checklists.Comparison | None:
    """The record's checklist beside its engine's pieces; ``None`` for a game without an engine."""
    pieces = engine_pieces(record)
    return checklists.compare(record_checklist(record), pieces) if pieces else None


def waiting_holds(record_id: int) -> QuerySet[Hold]:
    """The record's queue, first come first served."""
    return Hold.objects.filter(record_id=record_id, status=Hold.Status.WAITING).order_by("placed_at", "id")


def copy_history(copy: Copy) -> QuerySet[CopyEvent]:
    return CopyEvent.objects.filter(copy=copy).order_by("seq")


def overdue_loans(today: dt.date) -> QuerySet[CopyState]:
    """The loans due before ``today``, the longest overdue first: the desk's overdue list."""
    return (CopyState.objects.filter(status=rules.Status.ON_LOAN, due_on__lt=today)
            .select_related("copy__record", "household").order_by("due_on", "copy__barcode"))
