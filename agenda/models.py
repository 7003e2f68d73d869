"""An organisation's calendar: its opening hours and closures, its sessions (openings, events,
group visits, game nights), who registered for them, and what was counted at the door.

``SessionChange``, ``DoorCount`` and ``PlayTally`` are facts kept as events: never updated or
deleted (the models refuse), so that a year's figures can be recounted and a correction made
after the yearly report was sent stays visible.
"""

from __future__ import annotations

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.models import CatalogueRecord

from .rules import Public


PUBLIC_WORDS = {
    Public.FAMILY: _("Families"),
    Public.CHILD_0_2: _("Children 0–2"),
    Public.CHILD_3_5: _("Children 3–5"),
    Public.CHILD_6_11: _("Children 6–11"),
    Public.CHILD_12_17: _("Teenagers 12–17"),
    Public.ADULT: _("Adults"),
    Public.SENIOR: _("Seniors 65+"),
    Public.GROUP_CHILD: _("Group: children"),
    Public.GROUP_ADULT: _("Group: adults"),
}
"""Each public as the door counter's buttons and the figures name it."""
PUBLIC_CHOICES = [(public.value, PUBLIC_WORDS[public]) for public in Public]


class ImmutableAgendaEventError(Exception):
    """A stored door count, play tally or session change was about to be changed or deleted."""


class AppendOnlyQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise ImmutableAgendaEventError(f"{self.model._meta.label} rows are never updated")

    def delete(self):
        raise ImmutableAgendaEventError(f"{self.model._meta.label} rows are never deleted")


class AppendOnly(models.Model):
    """Stored once, never changed: ``save`` refuses an update, ``delete`` refuses, and so does
    the queryset."""

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args, **kwargs) -> None:
        if not self._state.adding:
            raise ImmutableAgendaEventError(f"a stored {self._meta.label} never changes")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ImmutableAgendaEventError(f"a stored {self._meta.label} is never deleted")


class OpeningHours(models.Model):
    """A weekly opening: every ``weekday`` from ``starts`` to ``ends``, from ``valid_from`` until
    ``valid_until`` (empty: until further notice). The opening sessions are made from these."""

    class Weekday(models.IntegerChoices):
        MONDAY = 0, _("Monday")
        TUESDAY = 1, _("Tuesday")
        WEDNESDAY = 2, _("Wednesday")
        THURSDAY = 3, _("Thursday")
        FRIDAY = 4, _("Friday")
        SATURDAY = 5, _("Saturday")
        SUNDAY = 6, _("Sunday")

    organisation = models.ForeignKey("accounts.Organisation", on_delete=models.CASCADE, related_name="opening_hours",
                                     verbose_name=_("organisation"))
    weekday = models.PositiveSmallIntegerField(_("day of the week"), choices=Weekday.choices)
    starts = models.TimeField(_("opens at"))
    ends = models.TimeField(_("closes at"))
    valid_from = models.DateField(_("from"))
    valid_until = models.DateField(_("until"), null=True, blank=True, help_text=_("Empty: until further notice."))
    label = models.CharField(_("label"), max_length=120, blank=True,
                             help_text=_("What the opening is, on the calendar (“Accueil tout public”)."))
    public = models.BooleanField(_("on the public calendar"), default=True)

    class Meta:
        ordering = ["weekday", "starts", "valid_from"]
        verbose_name = _("opening hours")
        verbose_name_plural = _("opening hours")
        constraints = [
            models.CheckConstraint(condition=Q(ends__gt=models.F("starts")), name="opening_hours_end_after_start"),
            models.CheckConstraint(condition=Q(valid_until__isnull=True) | Q(valid_until__gte=models.F("valid_from")),
                                   name="opening_hours_valid_until_after_from"),
        ]

    def __str__(self) -> str:
        return f"{self.get_weekday_display()} {self.starts:%H:%M}–{self.ends:%H:%M}"

    def clean(self) -> None:
        errors = {}
        if self.starts and self.ends and self.ends <= self.starts:
            errors["ends"] = ValidationError(_("The opening must close after it opens."), code="ends_before_starts")
        if self.valid_from and self.valid_until and self.valid_until < self.valid_from:
            errors["valid_until"] = ValidationError(_("The hours cannot end before they start."),
                                                    code="valid_until_before_valid_from")
        if errors:
            raise ValidationError(errors)


class Closure(models.Model):
    """Days the organisation is closed (holidays, works): no opening is made on them."""

    organisation = models.ForeignKey("accounts.Organisation", on_delete=models.CASCADE, related_name="closures",
                                     verbose_name=_("organisation"))
    first_day = models.DateField(_("first day"))
    last_day = models.DateField(_("last day"))
    reason = models.CharField(_("reason"), max_length=200, blank=True,
                              help_text=_("Said on the calendar (“Vacances de Noël”)."))

    class Meta:
        ordering = ["first_day"]
        verbose_name = _("closure")
        verbose_name_plural = _("closures")
        constraints = [models.CheckConstraint(condition=Q(last_day__gte=models.F("first_day")),
                                              name="closure_last_day_after_first")]

    def __str__(self) -> str:
        return f"{self.first_day}–{self.last_day} {self.reason}"

    def clean(self) -> None:
        if self.first_day and self.last_day and self.last_day < self.first_day:
            raise ValidationError({"last_day": ValidationError(_("The closure cannot end before it starts."),
                                                               code="last_day_before_first_day")})


class Session(models.Model):
    """A gathering on the calendar: a public opening, an event, a group's booked visit, a club's
    game night. People are counted at its door; an event may take registrations."""

    class Kind(models.TextChoices):
        OPENING = "opening", _("Opening")
        EVENT = "event", pgettext_lazy("session kind", "Event")
        GROUP_VISIT = "group_visit", _("Group visit")
        GAME_NIGHT = "game_night", _("Game night")

    class StructureKind(models.TextChoices):
        CRECHE = "creche", _("crèche")
        SCHOOL = "school", _("school")
        LEISURE_CENTRE = "leisure_centre", _("leisure centre")
        CARE_HOME = "care_home", _("care home")
        OTHER = "other", _("other structure")

    organisation = models.ForeignKey("accounts.Organisation", on_delete=models.CASCADE, related_name="sessions",
                                     verbose_name=_("organisation"))
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    title = models.CharField(_("title"), max_length=200, blank=True,
                             help_text=_("Empty for an opening: it is shown by its kind."))
    starts_at = models.DateTimeField(_("starts at"))
    ends_at = models.DateTimeField(_("ends at"))
    capacity = models.PositiveIntegerField(_("capacity"), null=True, blank=True,
                                           validators=[MinValueValidator(1), MaxValueValidator(100_000)],
                                           help_text=_("How many people at most (empty: no limit)."))
    registration = models.BooleanField(_("people register"), default=False)
    public = models.BooleanField(_("on the public calendar"), default=True)
    cancelled_at = models.DateTimeField(_("cancelled at"), null=True, blank=True)
    cancel_reason = models.CharField(_("why cancelled"), max_length=300, blank=True)
    structure_kind = models.CharField(_("kind of structure"), max_length=16, choices=StructureKind.choices,
                                      blank=True)
    structure_name = models.CharField(_("structure"), max_length=200, blank=True)
    children_expected = models.PositiveIntegerField(_("children expected"), null=True, blank=True,
                                                    validators=[MaxValueValidator(10_000)])
    adults_expected = models.PositiveIntegerField(_("adults expected"), null=True, blank=True,
                                                  validators=[MaxValueValidator(10_000)])
    opening_hours = models.ForeignKey(OpeningHours, null=True, blank=True, on_delete=models.SET_NULL,
                                      related_name="sessions", verbose_name=_("opening hours"))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+", verbose_name=_("created by"))
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        ordering = ["starts_at", "id"]
        verbose_name = _("session")
        verbose_name_plural = _("sessions")
        constraints = [
            # generate_openings is idempotent: an opening is made once, whoever runs it.
            models.UniqueConstraint(fields=["organisation", "kind", "starts_at"], condition=Q(kind="opening"),
                                    name="session_one_opening_at_a_time"),
            models.CheckConstraint(condition=Q(ends_at__gt=models.F("starts_at")), name="session_ends_after_start"),
            models.CheckConstraint(condition=Q(capacity__isnull=True) | Q(capacity__gte=1),
                                   name="session_capacity_positive"),
        ]
        indexes = [models.Index(fields=["organisation", "starts_at"], name="session_calendar")]

    def __str__(self) -> str:
        return f"{self.name} {timezone.localtime(self.starts_at):%Y-%m-%d %H:%M}"

    @property
    def name(self) -> str:
        """What the calendar calls it: its title, else its kind (an opening), else its structure."""
        return self.title or (self.structure_name if self.kind == self.Kind.GROUP_VISIT else "") or str(
            self.get_kind_display())

    @property
    def cancelled(self) -> bool:
        return self.cancelled_at is not None

    def clean(self) -> None:
        errors = {}
        if self.starts_at and self.ends_at and self.ends_at <= self.starts_at:
            errors["ends_at"] = ValidationError(_("The session must end after it starts."), code="ends_before_starts")
        if self.kind == self.Kind.GROUP_VISIT and not self.structure_kind:
            errors["structure_kind"] = ValidationError(_("Say which kind of structure visits."),
                                                       code="structure_kind_missing")
        if self.registration and self.kind == self.Kind.OPENING:
            errors["registration"] = ValidationError(_("Nobody registers for an opening: make it an event."),
                                                     code="registration_for_an_opening")
        if errors:
            raise ValidationError(errors)


GAME_CHANGE = "game"
"""The :attr:`SessionChange.field` of a game linked to a session or taken from it."""
COUNT_CHANGE = "count:"
"""The prefix of the :attr:`SessionChange.field` of a public's count corrected (``count:adult``)."""


class SessionChange(AppendOnly):
    """One field of a session changed, by whom, when, and why (a reason is required for a session
    that ended more than a day ago: a correction, which the yearly report lists when made after it
    was sent)."""

    session = models.ForeignKey(Session, on_delete=models.PROTECT, related_name="changes", verbose_name=_("session"))
    changed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="+", verbose_name=_("changed by"))
    changed_at = models.DateTimeField(_("changed at"), default=timezone.now)
    field = models.CharField(_("field"), max_length=64)
    before = models.JSONField(_("before"), null=True, blank=True, encoder=DjangoJSONEncoder)
    after = models.JSONField(_("after"), null=True, blank=True, encoder=DjangoJSONEncoder)
    reason = models.CharField(_("reason"), max_length=300, blank=True)

    class Meta:
        ordering = ["changed_at", "id"]
        verbose_name = _("session change")
        verbose_name_plural = _("session changes")

    def __str__(self) -> str:
        return f"{self.session_id}.{self.field}: {self.before!r} → {self.after!r}"

    @property
    def field_words(self) -> str:
        """What was changed, in the active language: a public's count, the games recorded there,
        or one of the session's fields."""
        if self.field == GAME_CHANGE:
            return gettext("game recorded there (its number)")
        if self.field.startswith(COUNT_CHANGE):
            public = self.field.removeprefix(COUNT_CHANGE)
            return gettext("count of %(public)s") % {"public": PUBLIC_WORDS.get(public, public)}
        try:
            return str(Session._meta.get_field(self.field).verbose_name)
        except FieldDoesNotExist:
            return self.field


class Registration(models.Model):
    """Someone's places at an event: registered, on the waiting list, or cancelled."""

    class Status(models.TextChoices):
        REGISTERED = "registered", _("registered")
        WAITING = "waiting", _("on the waiting list")
        CANCELLED = "cancelled", pgettext_lazy("registration", "cancelled")

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="registrations",
                                verbose_name=_("session"))
    name = models.CharField(_("name"), max_length=150)
    email = models.EmailField(_("e-mail"), blank=True)
    household = models.ForeignKey("loans.Household", null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="+", verbose_name=_("household"))
    places = models.PositiveSmallIntegerField(_("places"), default=1,
                                              validators=[MinValueValidator(1), MaxValueValidator(50)])
    status = models.CharField(_("status"), max_length=12, choices=Status.choices, default=Status.REGISTERED)
    language = models.CharField(_("language"), max_length=8, blank=True,
                                help_text=_("The page's language at registration: its mails are in it."))
    registered_at = models.DateTimeField(_("registered at"), default=timezone.now)
    checked_in_at = models.DateTimeField(_("checked in at"), null=True, blank=True)
    checked_in_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                      related_name="+", verbose_name=_("checked in by"))

    class Meta:
        ordering = ["registered_at", "id"]
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        constraints = [models.CheckConstraint(condition=Q(places__gte=1), name="registration_places_positive")]
        indexes = [models.Index(fields=["session", "status", "registered_at"], name="registration_queue")]

    def __str__(self) -> str:
        return f"{self.name} ×{self.places} ({self.status})"


class DoorCount(AppendOnly):
    """A tap at the door: one more (or, an "oops", one less) of a public; a booked group's count
    may be more than one. ``key`` is the phone's for the tap: sent twice, stored once."""

    session = models.ForeignKey(Session, on_delete=models.PROTECT, related_name="door_counts",
                                verbose_name=_("session"))
    public = models.CharField(_("public"), max_length=16, choices=PUBLIC_CHOICES)
    delta = models.IntegerField(_("change"), validators=[MinValueValidator(-10_000), MaxValueValidator(10_000)])
    key = models.CharField(_("idempotency key"), max_length=64)
    counted_at = models.DateTimeField(_("counted at"), help_text=_("The phone's clock when tapped."))
    recorded_at = models.DateTimeField(_("recorded at"), default=timezone.now)
    counted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="+", verbose_name=_("counted by"))

    class Meta:
        ordering = ["session", "recorded_at", "id"]
        verbose_name = _("door count")
        verbose_name_plural = _("door counts")
        constraints = [models.UniqueConstraint(fields=["session", "key"], name="door_count_key_once")]
        indexes = [models.Index(fields=["session", "public"], name="door_count_session_public")]

    def __str__(self) -> str:
        return f"{self.session_id} {self.public} {self.delta:+d}"


class PlayTally(AppendOnly):
    """A game played on site, in a tap (±1) by catalogue record."""

    session = models.ForeignKey(Session, on_delete=models.PROTECT, related_name="play_tallies",
                                verbose_name=_("session"))
    record = models.ForeignKey(CatalogueRecord, on_delete=models.PROTECT, related_name="+",
                               verbose_name=_("catalogue record"))
    delta = models.IntegerField(_("change"), validators=[MinValueValidator(-1), MaxValueValidator(1)])
    key = models.CharField(_("idempotency key"), max_length=64)
    counted_at = models.DateTimeField(_("counted at"))
    recorded_at = models.DateTimeField(_("recorded at"), default=timezone.now)
    counted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="+", verbose_name=_("counted by"))

    class Meta:
        ordering = ["session", "recorded_at", "id"]
        verbose_name = _("play tally")
        verbose_name_plural = _("play tallies")
        constraints = [models.UniqueConstraint(fields=["session", "key"], name="play_tally_key_once")]
        indexes = [models.Index(fields=["session", "record"], name="play_tally_session_record")]

    def __str__(self) -> str:
        return f"{self.session_id} {self.record_id} {self.delta:+d}"


class SessionGame(models.Model):
    """A game record played at a session: a result logged or a game recorded that names the
    session (the agenda keeps the link: the records know nothing of the agenda). A record is
    played at one session at most; linked again, it moves (``services.link_game``), and a move
    touching a session over for more than a day is a correction, kept as a :class:`SessionChange`.
    """

    session = models.ForeignKey(Session, on_delete=models.PROTECT, related_name="games", verbose_name=_("session"))
    game_record = models.OneToOneField("records.GameRecord", on_delete=models.PROTECT, related_name="session_game",
                                       verbose_name=_("game record"))
    linked_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="+", verbose_name=_("linked by"))
    linked_at = models.DateTimeField(_("linked at"), default=timezone.now)

    class Meta:
        ordering = ["session", "linked_at", "id"]
        verbose_name = _("game played at a session")
        verbose_name_plural = _("games played at sessions")

    def __str__(self) -> str:
        return f"{self.session_id} ← {self.game_record_id}"
