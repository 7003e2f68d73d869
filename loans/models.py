"""The ludothèque's loans desk: households and members, each copy's life as append-only events
and the projection computed from them, the hold queues, the components checklist.

``CopyEvent`` is the source of truth; ``CopyState`` is a read model that
``manage.py rebuild_copy_states`` recomputes from the events (``loans.rules.fold``).
"""

from __future__ import annotations

from typing import Any

from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.models import CatalogueRecord, Copy
from records.models import Player

from . import integrity, rules


class ImmutableCopyEventError(Exception):
    """A stored copy event was about to be changed or deleted: the history is append-only."""


class ImmutableHouseholdEventError(Exception):
    """A stored household event was about to be changed or deleted: the history is append-only."""


EARLIEST_BIRTH_YEAR = 1900
"""No member of a household was born before: a year earlier is a typing slip (19 for 1985)."""


def validate_birth_year(year: int) -> None:
    """A plausible year of birth: from :data:`EARLIEST_BIRTH_YEAR` to this year."""
    if year is not None and not EARLIEST_BIRTH_YEAR <= year <= timezone.localdate().year:
        raise ValidationError(
            _("A year of birth between %(earliest)s and %(latest)s."), code="implausible_birth_year",
            params={"earliest": EARLIEST_BIRTH_YEAR, "latest": timezone.localdate().year})


validate_phone = RegexValidator(
    r"^\+?[0-9][0-9 ./()-]{4,30}$", _("A phone number: digits, spaces, dots or dashes, a + in front for abroad."),
    code="invalid_phone")


class Household(models.Model):
    """A family membership: one card, one deposit, one loan limit for all its members."""

    organisation = models.ForeignKey(
        "accounts.Organisation", null=True, blank=True, on_delete=models.PROTECT, related_name="households",
        verbose_name=_("game library"))
    name = models.CharField(_("name"), max_length=200)
    card_number = models.CharField(_("card number"), max_length=32, unique=True,
                                   help_text=_("The barcode on the member card."))
    membership_starts = models.DateField(_("membership starts"), null=True, blank=True)
    membership_ends = models.DateField(_("membership ends"), null=True, blank=True)
    fee_paid = models.BooleanField(_("fee paid"), default=False)
    deposit_held = models.DecimalField(_("deposit held"), max_digits=8, decimal_places=2, default=Decimal("0"))
    loan_limit = models.PositiveSmallIntegerField(_("loan limit"), default=3)
    email = models.EmailField(_("email"), blank=True, help_text=_(
        "Where the household is told that a game it reserved is waiting (its members' accounts' "
        "addresses are told too)."))
    # A context of their own: an organisation's address, town and phone are words of another app.
    address = models.CharField(pgettext_lazy("household", "address"), max_length=300, blank=True,
                               help_text=_("Street and number."))
    postcode = models.CharField(pgettext_lazy("household", "postcode"), max_length=16, blank=True)
    town = models.CharField(pgettext_lazy("household", "town"), max_length=120, blank=True)
    phone = models.CharField(pgettext_lazy("household", "phone"), max_length=32, blank=True,
                             validators=[validate_phone])
    notes = models.TextField(_("notes"), blank=True)
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES, blank=True, help_text=_(
        "The language of the household's reminders and mails; empty: its members' accounts', else the library's."))

    class Meta:
        ordering = ["name"]
        verbose_name = _("household")
        verbose_name_plural = _("households")

    def __str__(self) -> str:
        return f"{self.name} ({self.card_number})"

    def clean(self) -> None:
        if self.membership_starts and self.membership_ends and self.membership_ends < self.membership_starts:
            raise ValidationError({"membership_ends": ValidationError(
                _("The membership cannot end before it starts."), code="membership_ends_before_it_starts")})


class Member(models.Model):
    household = models.ForeignKey(Household, on_delete=models.CASCADE, related_name="members",
                                  verbose_name=_("household"))
    display_name = models.CharField(_("display name"), max_length=150)
    user = models.OneToOneField(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="loans_member", verbose_name=_("user account"))
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                               verbose_name=_("club player"), help_text=_("The same person as a club player."))
    birth_year = models.PositiveSmallIntegerField(
        _("year of birth"), null=True, blank=True, validators=[validate_birth_year],
        help_text=_("Optional: which games suit the household's children."))

    class Meta:
        ordering = ["display_name"]
        verbose_name = _("member")
        verbose_name_plural = _("members")

    def __str__(self) -> str:
        return self.display_name


class LoanRules(models.Model):
    """A game library's lending rules: one row each (``current()`` gives the defaults where it has none)."""

    organisation = models.OneToOneField(
        "accounts.Organisation", null=True, blank=True, on_delete=models.CASCADE, related_name="loan_rules",
        verbose_name=_("game library"))
    loan_days = models.PositiveSmallIntegerField(_("loan days"), default=21,
                                                 validators=[MinValueValidator(1), MaxValueValidator(365)])
    renewals_allowed = models.PositiveSmallIntegerField(_("renewals allowed"), default=1,
                                                        validators=[MaxValueValidator(20)])
    late_fee_per_day = models.DecimalField(_("late fee per day"), max_digits=6, decimal_places=2,
                                           default=Decimal("0.20"),
                                           validators=[MinValueValidator(Decimal("0")),
                                                       MaxValueValidator(Decimal("100"))])
    hold_days = models.PositiveSmallIntegerField(_("days a hold is kept on the shelf"), default=7,
                                                 validators=[MinValueValidator(1), MaxValueValidator(90)])
    reminder_days = models.PositiveSmallIntegerField(
        _("days between reminders"), default=7, validators=[MaxValueValidator(365)],
        help_text=_("A household with games overdue is reminded, then again after so many days (0: never)."))
    refuse_overdue = models.BooleanField(_("refuse a household with games overdue"), default=True)
    refuse_fees_over = models.DecimalField(
        _("refuse a household owing late fees above"), max_digits=8, decimal_places=2, default=Decimal("0.00"),
        validators=[MinValueValidator(Decimal("0"))])
    refuse_unpaid_membership = models.BooleanField(_("refuse a household whose membership is not paid"),
                                                   default=True)
    membership_reminder_days = models.PositiveSmallIntegerField(
        _("days before a membership ends to remind the household"), default=30, validators=[MaxValueValidator(365)])

    class Meta:
        verbose_name = _("loan rules")
        verbose_name_plural = _("loan rules")

    def __str__(self) -> str:
        return str(_("loan rules"))

    @classmethod
    def current(cls, organisation: Any) -> rules.Policy:
        """The rules of ``organisation`` (an organisation or its id), the defaults where it has none."""
        found = cls.objects.filter(organisation=organisation).first() or cls()
        return rules.Policy(loan_days=found.loan_days, renewals_allowed=found.renewals_allowed,
                            late_fee_per_day=found.late_fee_per_day, hold_days=found.hold_days,
                            reminder_days=found.reminder_days, refuse_overdue=found.refuse_overdue,
                            refuse_fees_over=found.refuse_fees_over,
                            refuse_unpaid_membership=found.refuse_unpaid_membership,
                            membership_reminder_days=found.membership_reminder_days)


class CopyEventQuerySet(models.QuerySet):
    def bulk_create(self, objs, *args, **kwargs):
        """Events stored in bulk are chained first (``loans.integrity``), whoever writes them."""
        objs = list(objs)
        chain_unhashed(objs, using=self.db)
        return super().bulk_create(objs, *args, **kwargs)


class CopyEvent(models.Model):
    """One fact of a copy's life, numbered in the copy's stream. Never updated or deleted: the
    model refuses, and a trigger refuses any client (PostgreSQL: migration 0002, SQLite: 0011).
    Each event's ``hash`` chains it to the copy's event before it (``loans.integrity``)."""

    # Functional API: (member name, (stored value, label)).
    Type = models.TextChoices("Type", [(t.name, (t.value, t.value.replace("_", " "))) for t in rules.EventType])

    copy = models.ForeignKey(Copy, on_delete=models.PROTECT, related_name="loan_events", db_index=False,
                             verbose_name=_("copy"))
    seq = models.PositiveIntegerField(_("sequence number"))
    type = models.CharField(_("type"), max_length=32, choices=Type.choices)
    payload = models.JSONField(_("payload"), default=dict, blank=True)
    household = models.ForeignKey(Household, null=True, blank=True, on_delete=models.PROTECT, related_name="+",
                                  verbose_name=_("household"))
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                    related_name="+", verbose_name=_("recorded by"))
    recorded_at = models.DateTimeField(_("recorded at"), default=timezone.now)
    hash = models.CharField(
        _("hash"), max_length=64, editable=False,
        help_text=_("SHA-256 of the copy event's content and of the copy's previous event's hash (loans.integrity)."),
    )

    objects = CopyEventQuerySet.as_manager()

    class Meta:
        ordering = ["copy", "seq"]
        verbose_name = _("copy event")
        verbose_name_plural = _("copy events")
        constraints = [
            # Optimistic concurrency: two desks appending at one position, one of them loses.
            models.UniqueConstraint(fields=["copy", "seq"], name="copy_event_seq_unique"),
            models.CheckConstraint(condition=Q(seq__gte=1), name="copy_event_seq_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.copy_id}.{self.seq} {self.type}"

    def save(self, *args, **kwargs) -> None:
        if not self._state.adding:
            raise ImmutableCopyEventError("stored copy events never change")
        if not self.hash:
            chain_unhashed([self], using=kwargs.get("using") or self._state.db or "default")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ImmutableCopyEventError("stored copy events are never deleted")

    def as_rule_event(self) -> rules.CopyEvent:
        return rules.CopyEvent(seq=self.seq, type=self.type, household=self.household_id, payload=self.payload)

    def chain(self, previous: str) -> None:
        """Set ``hash``, linking this event to ``previous``, the hash of the copy's event before it."""
        self.hash = integrity.copy_event_hash(
            copy_id=self.copy_id, seq=self.seq, type=self.type, payload=self.payload, household_id=self.household_id,
            recorded_by_id=self.recorded_by_id, recorded_at=self.recorded_at, previous=previous)


def chain_unhashed(events: list[CopyEvent], *, using: str = "default") -> None:
    """Chain the events without a hash yet, in seq order per copy, each to the one before it: in
    the list, else as stored (one query for the copies whose previous event is not in the list)."""
    unhashed = sorted((e for e in events if not e.hash), key=lambda e: (e.copy_id, e.seq))
    if not unhashed:
        return
    hashes = {(e.copy_id, e.seq): e.hash for e in events if e.hash}
    # Built once: a union written inside the comprehension was rebuilt for each event (quadratic:
    # 30,000 events took about 20 s to chain, 150,000 many minutes).
    in_the_list = {(e.copy_id, e.seq) for e in unhashed} | set(hashes)
    wanted = [(e.copy_id, e.seq - 1) for e in unhashed if e.seq > 1 and (e.copy_id, e.seq - 1) not in in_the_list]
    if wanted:
        match = Q()
        for copy_id, seq in wanted:
            match |= Q(copy_id=copy_id, seq=seq)
        hashes.update({(copy_id, seq): hash for copy_id, seq, hash in
                       CopyEvent.objects.using(using).filter(match).values_list("copy_id", "seq", "hash")})
    for event in unhashed:
        if event.recorded_at is None:
            event.recorded_at = timezone.now()
        previous = integrity.GENESIS if event.seq == 1 else hashes.get((event.copy_id, event.seq - 1), integrity.GENESIS)
        event.chain(previous)
        hashes[(event.copy_id, event.seq)] = event.hash


class CopyCheckpoint(models.Model):
    """What the store held of a copy's events when it was last seen intact (``loans.integrity``,
    "Checkpoints"): its last seq and that event's hash. Written by each desk write (the head it
    just appended) and by each verification; a copy that failed keeps its last good checkpoint,
    with what was found wrong, and the desk answers 409 ``copy_tampered`` for it."""

    copy = models.OneToOneField(Copy, primary_key=True, on_delete=models.DO_NOTHING, db_constraint=False,
                                related_name="loan_checkpoint", verbose_name=_("copy"))
    last_seq = models.PositiveIntegerField(_("last seq"), default=0)
    head = models.CharField(_("last event's hash"), max_length=64, blank=True)
    checked_at = models.DateTimeField(_("found intact at"), null=True, blank=True)
    failed_at = models.DateTimeField(_("failed verification at"), null=True, blank=True)
    problems = models.JSONField(_("problems"), default=list, blank=True,
                                help_text=_("What its last verification found wrong, as sentences."))

    class Meta:
        verbose_name = _("copy checkpoint")
        verbose_name_plural = _("copy checkpoints")

    def __str__(self) -> str:
        return f"copy checkpoint #{self.copy_id}@{self.last_seq}" + (" (failed)" if self.failed_at else "")


class CopyState(models.Model):
    """Where a copy stands: the fold of its events (a projection, rebuilt by
    ``rebuild_copy_states``). A copy without a row has no events: available."""

    Status = models.TextChoices("Status", [(s.name, (s.value, s.value.replace("_", " "))) for s in rules.Status])

    copy = models.OneToOneField(Copy, primary_key=True, on_delete=models.CASCADE, related_name="loan_state",
                                verbose_name=_("copy"))
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=rules.Status.AVAILABLE)
    household = models.ForeignKey(
        Household, null=True, blank=True, on_delete=models.PROTECT, related_name="copy_states",
        verbose_name=_("household"),
        help_text=_("The borrower, or the household the copy is set aside for on the hold shelf."))
    lent_on = models.DateField(_("lent on"), null=True, blank=True)
    due_on = models.DateField(_("due on"), null=True, blank=True)
    renewals = models.PositiveSmallIntegerField(_("renewals"), default=0)
    missing = models.JSONField(_("missing pieces"), default=list, blank=True)
    last_seq = models.PositiveIntegerField(_("last event"), default=0)
    note = models.TextField(_("latest note"), blank=True, default="")
    check_wanted = models.BooleanField(
        _("check wanted"), default=False, db_default=False,
        help_text=_("A game played with the copy ended short of its tiles: it waits for a check when it is back."))

    class Meta:
        verbose_name = _("copy state")
        verbose_name_plural = _("copy states")
        indexes = [models.Index(fields=["household", "status"], name="copy_state_household_status")]

    def __str__(self) -> str:
        return f"{self.copy_id}: {self.status}"

    def as_rule_state(self) -> rules.CopyState:
        return rules.CopyState(
            status=rules.Status(self.status), household=self.household_id, lent_on=self.lent_on,
            due_on=self.due_on, renewals=self.renewals,
            missing=tuple(rules.Piece(p["kind"], int(p["count"])) for p in self.missing), last_seq=self.last_seq,
            note=self.note,
            check_wanted=self.check_wanted,
        )

    def take(self, state: rules.CopyState) -> None:
        """Copy the fold's ``state`` onto this row (saved by the caller)."""
        self.status = state.status.value
        self.household_id = state.household
        self.lent_on, self.due_on, self.renewals = state.lent_on, state.due_on, state.renewals
        self.missing = [{"kind": p.kind, "count": p.count} for p in state.missing]
        self.last_seq = state.last_seq
        self.note = state.note
        self.check_wanted = state.check_wanted


class Hold(models.Model):
    """A household waiting for a game (any copy of a catalogue record): served first come, first
    served. ``ready`` once a copy is set aside for it on the hold shelf."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("waiting")
        READY = "ready", _("ready on the hold shelf")
        FULFILLED = "fulfilled", _("fulfilled")
        CANCELLED = "cancelled", _("cancelled")

    record = models.ForeignKey(CatalogueRecord, on_delete=models.PROTECT, related_name="holds",
                               verbose_name=_("catalogue record"))
    household = models.ForeignKey(Household, on_delete=models.PROTECT, related_name="holds",
                                  verbose_name=_("household"))
    placed_at = models.DateTimeField(_("placed at"), default=timezone.now)
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.WAITING)
    copy = models.ForeignKey(Copy, null=True, blank=True, on_delete=models.PROTECT, related_name="+",
                             verbose_name=_("copy set aside"))
    ready_on = models.DateField(_("ready on"), null=True, blank=True)

    class Meta:
        ordering = ["placed_at", "id"]
        verbose_name = _("hold")
        verbose_name_plural = _("holds")
        constraints = [
            models.UniqueConstraint(fields=["record", "household"], condition=Q(status__in=["waiting", "ready"]),
                                    name="hold_one_open_per_household"),
        ]
        indexes = [models.Index(fields=["record", "status", "placed_at"], name="hold_queue")]

    def __str__(self) -> str:
        return f"{self.record} ← {self.household} ({self.status})"


class Notification(models.Model):
    """Something the household is told (a held game waiting for them, games overdue): shown on the
    member's page, and emailed to the household and its members (``loans.tasks``)."""

    class Kind(models.TextChoices):
        HOLD_READY = "hold_ready", _("a reserved game is waiting")
        OVERDUE = "overdue", _("games overdue")

    household = models.ForeignKey(Household, on_delete=models.CASCADE, related_name="notifications",
                                  verbose_name=_("household"))
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices, default=Kind.HOLD_READY)
    text = models.TextField(_("text"))
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    emailed_at = models.DateTimeField(_("emailed at"), null=True, blank=True)
    emailed_to = models.TextField(_("emailed to"), blank=True, default="")

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")

    def __str__(self) -> str:
        return self.text


class Component(models.Model):
    """One line of a catalogue record's checklist: so many of one kind of piece in the box."""

    record = models.ForeignKey(CatalogueRecord, on_delete=models.CASCADE, related_name="components",
                               verbose_name=_("catalogue record"))
    kind = models.CharField(_("kind"), max_length=120)
    count = models.PositiveIntegerField(_("count"), default=1)
    per_colour = models.PositiveSmallIntegerField(
        _("colours"), null=True, blank=True,
        help_text=_("How many colours the count is split into, when the box says so (30 in 5 colours)."))
    position = models.PositiveSmallIntegerField(_("order"), default=0)

    class Meta:
        ordering = ["record", "position", "id"]
        verbose_name = _("component")
        verbose_name_plural = _("components")
        constraints = [models.UniqueConstraint(fields=["record", "kind"], name="component_kind_unique")]

    def __str__(self) -> str:
        return f"{self.count} {self.kind}"


class Tariff(models.Model):
    """What a game library asks for a membership: in town, out of town, reduced…, per household
    or per person, for so many months, with the deposit asked with it. A tariff a membership was
    paid under is never deleted (the database refuses too): it is retired (``active`` off)."""

    class Kind(models.TextChoices):
        RESIDENT = "resident", _("in town")
        NON_RESIDENT = "non_resident", _("out of town")
        REDUCED = "reduced", _("reduced")
        OTHER = "other", _("other")

    class Per(models.TextChoices):
        HOUSEHOLD = "household", _("per household")
        PERSON = "person", _("per person")

    organisation = models.ForeignKey("accounts.Organisation", on_delete=models.CASCADE, related_name="tariffs",
                                     verbose_name=_("game library"))
    name = models.CharField(_("name"), max_length=120)
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices, default=Kind.RESIDENT)
    per = models.CharField(_("per"), max_length=16, choices=Per.choices, default=Per.HOUSEHOLD)
    amount = models.DecimalField(_("amount"), max_digits=8, decimal_places=2,
                                 validators=[MinValueValidator(Decimal("0"))])
    months = models.PositiveSmallIntegerField(_("months"), default=12,
                                              validators=[MinValueValidator(1), MaxValueValidator(120)],
                                              help_text=_("How long a membership at this tariff lasts."))
    deposit = models.DecimalField(_("deposit"), max_digits=8, decimal_places=2, default=Decimal("0"),
                                  validators=[MinValueValidator(Decimal("0"))],
                                  help_text=_("The deposit asked with it (0: none)."))
    active = models.BooleanField(_("offered"), default=True,
                                 help_text=_("A retired tariff is no longer offered; the memberships paid under it "
                                             "keep it."))

    class Meta:
        ordering = ["organisation", "-active", "name", "pk"]
        verbose_name = _("tariff")
        verbose_name_plural = _("tariffs")
        constraints = [models.UniqueConstraint(fields=["organisation", "name"], name="tariff_name_unique")]

    def __str__(self) -> str:
        return self.name

    @property
    def per_person(self) -> bool:
        return self.per == self.Per.PERSON


class PaymentMethod(models.TextChoices):
    CASH = "cash", _("cash")
    CARD = "card", _("bank card")
    CHEQUE = "cheque", _("cheque")
    TRANSFER = "transfer", _("bank transfer")
    VOUCHER = "voucher", _("pass or voucher")
    OTHER = "other", _("other")


class HouseholdEvent(models.Model):
    """One fact of a household's membership and money, numbered in the household's stream: a
    membership paid or cancelled, a deposit taken or given back, a late fee paid or waived, a loan
    made although the rules refused it, a reminder to renew. Never updated or deleted: the model
    refuses, and the database's triggers refuse any client (``loans.immutability``).

    ``amount`` and ``tariff`` are the payload's, kept as columns too for the year's figures
    (``loans.selectors.membership_figures``); ``happened_on`` is the day it happened at the desk
    (a payment of yesterday recorded today)."""

    Type = models.TextChoices("Type", [(t.name, (t.value, t.value.replace("_", " "))) for t in rules.HouseholdEventType])

    household = models.ForeignKey(Household, on_delete=models.PROTECT, related_name="events", db_index=False,
                                  verbose_name=_("household"))
    seq = models.PositiveIntegerField(_("sequence number"))
    type = models.CharField(_("type"), max_length=32, choices=Type.choices)
    payload = models.JSONField(_("payload"), default=dict, blank=True)
    amount = models.DecimalField(_("amount"), max_digits=8, decimal_places=2, null=True, blank=True)
    tariff = models.ForeignKey(Tariff, null=True, blank=True, on_delete=models.PROTECT, related_name="events",
                               verbose_name=_("tariff"))
    happened_on = models.DateField(_("happened on"), default=timezone.localdate)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                    related_name="+", verbose_name=_("recorded by"))
    recorded_at = models.DateTimeField(_("recorded at"), default=timezone.now)

    class Meta:
        ordering = ["household", "seq"]
        verbose_name = _("household event")
        verbose_name_plural = _("household events")
        constraints = [
            models.UniqueConstraint(fields=["household", "seq"], name="household_event_seq_unique"),
            models.CheckConstraint(condition=Q(seq__gte=1), name="household_event_seq_positive"),
        ]
        indexes = [models.Index(fields=["type", "happened_on"], name="household_event_type_day")]

    def __str__(self) -> str:
        return f"{self.household_id}.{self.seq} {self.type}"

    def save(self, *args, **kwargs) -> None:
        if not self._state.adding:
            raise ImmutableHouseholdEventError("stored household events never change")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ImmutableHouseholdEventError("stored household events are never deleted")
