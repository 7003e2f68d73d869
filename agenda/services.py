"""The agenda's writes, each in a transaction: opening hours and closures (and the opening
sessions made from them), sessions planned, edited and cancelled (every change recorded),
registrations with their waiting list, check-in, and the door's counts and play tallies.

Plain functions of an organisation, dates and counts, so that a demo loader or a script calls
them as the pages do. Refusals are :mod:`agenda.errors`, raised before anything is written.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q, Sum
from django.utils import formats, timezone, translation
from django.utils.translation import gettext, ngettext

from outbox.services import enqueue
from records.models import GameRecord

from . import rules
from .errors import (
    CheckInClosed, CountBelowZero, CountingClosed, HoursInUse, InvalidFields, NotLinked, NotRegistered, NotThatDay,
    OtherOrganisation, ReasonRequired, RegistrationClosed, SessionExists,
)
from .models import (
    COUNT_CHANGE, GAME_CHANGE, Closure, DoorCount, OpeningHours, PlayTally, Registration, Session, SessionChange,
    SessionGame,
)

GENERATION_DAYS = 8 * 7
"""The opening sessions are made this many days ahead (the public calendar shows eight weeks)."""
PLACE_CONFIRMED = "place_confirmed"
"""The outbox's kind of the mail telling someone on a waiting list that they have a place."""
EDITABLE_FIELDS = ("title", "starts_at", "ends_at", "capacity", "registration", "public", "structure_kind",
                   "structure_name", "children_expected", "adults_expected")


def local_datetime(day: dt.date, time: dt.time) -> dt.datetime:
    """``day`` at ``time`` on the installation's clock (``TIME_ZONE``), as an aware datetime."""
    return timezone.make_aware(dt.datetime.combine(day, time))


def checked(instance: Any, reason: str, *, exclude: list[str] | None = None) -> None:
    """Validate ``instance`` as a form would; a refusal names each field's messages."""
    try:
        instance.full_clean(exclude=exclude, validate_unique=False, validate_constraints=False)
    except ValidationError as error:
        raise InvalidFields(reason, {field: [str(message) for message in messages]
                                     for field, messages in error.message_dict.items()}) from None


# -- opening hours, closures and the openings made from them ------------------------------------

@transaction.atomic
def generate_openings(organisation: Any, first_day: dt.date, last_day: dt.date) -> int:
    """Make the opening sessions of ``organisation``'s opening hours from ``first_day`` to
    ``last_day`` (both included), none on a closure's days; how many were made. Run again, it
    makes none (one opening per start: the constraint ``session_one_opening_at_a_time``). A
    future opening the hours no longer make (hours ended or a closure added since) goes, unless
    something was counted or changed at it."""
    hours = {line.pk: line for line in OpeningHours.objects.filter(organisation=organisation, valid_from__lte=last_day)
             .filter(Q(valid_until__isnull=True) | Q(valid_until__gte=first_day))}
    closures = list(Closure.objects.filter(organisation=organisation, first_day__lte=last_day, last_day__gte=first_day)
                    .values_list("first_day", "last_day"))
    slots = rules.opening_slots(
        [rules.Hours(line.pk, line.weekday, line.starts, line.ends, line.valid_from, line.valid_until)
         for line in hours.values()], closures, first_day, last_day)
    wanted = {local_datetime(slot.day, slot.starts): slot for slot in slots}
    in_range = Session.objects.filter(
        organisation=organisation, kind=Session.Kind.OPENING, starts_at__gte=local_datetime(first_day, dt.time.min),
        starts_at__lt=local_datetime(last_day + dt.timedelta(days=1), dt.time.min))
    existing = set(in_range.values_list("starts_at", flat=True))
    new = [Session(organisation=organisation, kind=Session.Kind.OPENING, starts_at=starts_at,
                   ends_at=local_datetime(slot.day, slot.ends), public=hours[slot.hours_id].public,
                   title=hours[slot.hours_id].label, opening_hours=hours[slot.hours_id])
           for starts_at, slot in wanted.items() if starts_at not in existing]
    Session.objects.bulk_create(new, ignore_conflicts=True)
    stale = (in_range.filter(starts_at__gt=timezone.now(), opening_hours__isnull=False)
             .exclude(starts_at__in=list(wanted)).filter(door_counts=None, play_tallies=None, changes=None, games=None))
    Session.objects.filter(pk__in=list(stale.values_list("pk", flat=True))).delete()
    return len(new)


def generate_coming_openings(organisation: Any, today: dt.date | None = None) -> int:
    """The openings of the coming weeks (:data:`GENERATION_DAYS`): the daily task's and each
    change of the hours'."""
    today = today or timezone.localdate()
    return generate_openings(organisation, today, today + dt.timedelta(days=GENERATION_DAYS))


@transaction.atomic
def add_opening_hours(organisation: Any, by: Any, *, weekday: int, starts: dt.time, ends: dt.time,
                      valid_from: dt.date, valid_until: dt.date | None = None, label: str = "",
                      public: bool = True) -> OpeningHours:
    hours = OpeningHours(organisation=organisation, weekday=weekday, starts=starts, ends=ends, valid_from=valid_from,
                         valid_until=valid_until, label=label, public=public)
    checked(hours, "invalid_opening_hours", exclude=["organisation"])
    hours.save()
    generate_coming_openings(organisation)
    return hours


@transaction.atomic
def end_opening_hours(hours: OpeningHours, last_day: dt.date) -> OpeningHours:
    """The hours open for the last time on ``last_day``: the openings after it go (those not counted)."""
    hours.valid_until = last_day
    checked(hours, "invalid_opening_hours", exclude=["organisation"])
    hours.save(update_fields=["valid_until"])
    generate_coming_openings(hours.organisation)
    return hours


@transaction.atomic
def remove_opening_hours(hours: OpeningHours) -> None:
    """Remove hours that have not opened yet, with their openings; hours that opened are ended instead."""
    if hours.sessions.filter(starts_at__lte=timezone.now()).exists() or hours.valid_from <= timezone.localdate():
        raise HoursInUse(gettext("These hours have already opened: end them on a day instead of removing them."))
    untouched = hours.sessions.filter(door_counts=None, play_tallies=None, changes=None, games=None)
    Session.objects.filter(pk__in=list(untouched.values_list("pk", flat=True))).delete()
    organisation = hours.organisation
    hours.delete()
    generate_coming_openings(organisation)


@transaction.atomic
def add_closure(organisation: Any, by: Any, *, first_day: dt.date, last_day: dt.date, reason: str = "") -> Closure:
    closure = Closure(organisation=organisation, first_day=first_day, last_day=last_day, reason=reason)
    checked(closure, "invalid_closure", exclude=["organisation"])
    closure.save()
    generate_coming_openings(organisation)
    return closure


@transaction.atomic
def remove_closure(closure: Closure) -> None:
    organisation = closure.organisation
    closure.delete()
    generate_coming_openings(organisation)


# -- sessions ------------------------------------------------------------------------------------

@transaction.atomic
def plan_session(organisation: Any, by: Any, *, kind: str, starts_at: dt.datetime, ends_at: dt.datetime,
                 **fields: Any) -> Session:
    """A session on ``organisation``'s calendar: an event, a group visit, a game night (or an
    opening the hours do not make). ``fields``: any of :data:`EDITABLE_FIELDS`."""
    unknown = set(fields) - set(EDITABLE_FIELDS)
    if unknown:
        raise TypeError(f"not a session's field: {', '.join(sorted(unknown))}")
    if kind == Session.Kind.GROUP_VISIT:
        fields.setdefault("public", False)  # a structure's booked visit is not open to the public
    session = Session(organisation=organisation, kind=kind, starts_at=starts_at, ends_at=ends_at,
                      created_by=by if getattr(by, "pk", None) else None, **fields)
    checked(session, "invalid_session", exclude=["organisation", "created_by", "opening_hours"])
    try:
        with transaction.atomic():
            session.save()
    except IntegrityError:
        raise SessionExists(gettext("An opening already starts at this time.")) from None
    return session


def _locked(session: Session) -> Session:
    return Session.objects.select_for_update().select_related("organisation").get(pk=session.pk)


def _json_value(value: Any) -> Any:
    """A field's value as a change keeps it: instants in UTC, days and times in ISO form."""
    if isinstance(value, dt.datetime) and timezone.is_aware(value):
        value = value.astimezone(dt.timezone.utc)
    return value.isoformat() if isinstance(value, dt.datetime | dt.date | dt.time) else value


@transaction.atomic
def edit_session(session: Session, by: Any, changes: Mapping[str, Any], reason: str = "",
                 now: dt.datetime | None = None) -> list[SessionChange]:
    """Change some of a session's :data:`EDITABLE_FIELDS`; one :class:`SessionChange` per field
    that changed (the list answered). A session that ended more than a day ago is corrected,
    never silently changed: ``reason`` is then required (422 ``reason_required_for_past_session``).
    More places free waiting registrations as a cancellation does."""
    now = now or timezone.now()
    unknown = set(changes) - set(EDITABLE_FIELDS)
    if unknown:
        raise InvalidFields("invalid_session", {field: [gettext("This field cannot be changed.")]
                                                for field in sorted(unknown)})
    session = _locked(session)
    ended_at, before = session.ends_at, {field: getattr(session, field) for field in changes}
    changed = [field for field, value in changes.items() if before[field] != value]
    if not changed:
        return []
    if rules.is_correction(ended_at, now) and not reason.strip():
        raise ReasonRequired(gettext("This session ended more than a day ago: say why its figures are corrected."))
    for field in changed:
        setattr(session, field, changes[field])
    checked(session, "invalid_session", exclude=["organisation", "created_by", "opening_hours"])
    session.save(update_fields=changed)
    made = SessionChange.objects.bulk_create([
        SessionChange(session=session, changed_by=by if getattr(by, "pk", None) else None, changed_at=now,
                      field=field, before=_json_value(before[field]), after=_json_value(changes[field]),
                      reason=reason.strip()) for field in changed])
    if {"capacity", "registration"} & set(changed):
        promote_waiting(session)
    return made


@transaction.atomic
def cancel_session(session: Session, by: Any, reason: str = "", now: dt.datetime | None = None) -> Session:
    """Cancel a session (kept on the calendar as cancelled, with ``reason``); recorded as a change."""
    now = now or timezone.now()
    session = _locked(session)
    if session.cancelled:
        return session
    if rules.is_correction(session.ends_at, now) and not reason.strip():
        raise ReasonRequired(gettext("This session ended more than a day ago: say why its figures are corrected."))
    session.cancelled_at, session.cancel_reason = now, reason.strip()
    session.save(update_fields=["cancelled_at", "cancel_reason"])
    SessionChange.objects.create(session=session, changed_by=by if getattr(by, "pk", None) else None, changed_at=now,
                                 field="cancelled_at", before=None, after=_json_value(now), reason=reason.strip())
    return session


# -- the door --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Counted:
    """A tap's answer: whether it was stored now (False: the key was already stored, nothing
    added) and the session's totals by public."""

    created: bool
    totals: dict[str, int]


def door_totals(session: Session | int) -> dict[str, int]:
    """The session's count by public (every public, 0 where none): one grouped sum."""
    found = dict(DoorCount.objects.filter(session=session).order_by().values_list("public")
                 .annotate(total=Sum("delta")).values_list("public", "total"))
    return {public.value: int(found.get(public.value) or 0) for public in rules.Public}


def _user(by: Any) -> Any:
    return by if getattr(by, "pk", None) else None


@transaction.atomic
def count_at_the_door(session: Session, by: Any, *, public: str, delta: int, key: str,
                      counted_at: dt.datetime | None = None, now: dt.datetime | None = None) -> Counted:
    """One tap at the door: ``delta`` (+1, −1 for an "oops", more for a group) of ``public``.
    A ``key`` already stored answers the totals without storing anything; a tap that would take
    a public below zero, or comes outside the counting window, is refused with nothing stored."""
    now = now or timezone.now()
    public = rules.Public(public).value
    session = Session.objects.select_for_update().get(pk=session.pk)  # taps of two phones, one after the other
    if DoorCount.objects.filter(session=session, key=key).exists():
        return Counted(False, door_totals(session))
    refusal = rules.counting_refusal(now, session.starts_at, session.ends_at, session.cancelled)
    if refusal:
        raise CountingClosed(refusal)
    totals = door_totals(session)
    if totals[public] + delta < 0:
        raise CountBelowZero(gettext("Nobody of this public has been counted yet: there is nothing to take back."),
                             public=public, total=totals[public])
    DoorCount.objects.create(session=session, public=public, delta=delta, key=key, counted_at=counted_at or now,
                             recorded_at=now, counted_by=_user(by))
    totals[public] += delta
    return Counted(True, totals)


@transaction.atomic
def correct_door_count(session: Session, by: Any, *, public: str, delta: int, reason: str,
                       now: dt.datetime | None = None) -> Counted:
    """A count changed on the session's page, whenever: stored as a door count like a tap, and as
    a :class:`SessionChange` of ``count:<public>`` (a correction, with its reason, once the
    session ended more than a day ago)."""
    now = now or timezone.now()
    public = rules.Public(public).value
    session = Session.objects.select_for_update().get(pk=session.pk)
    if rules.is_correction(session.ends_at, now) and not reason.strip():
        raise ReasonRequired(gettext("This session ended more than a day ago: say why its figures are corrected."))
    totals = door_totals(session)
    if totals[public] + delta < 0:
        raise CountBelowZero(gettext("Nobody of this public has been counted yet: there is nothing to take back."),
                             public=public, total=totals[public])
    DoorCount.objects.create(session=session, public=public, delta=delta, key=f"correction-{uuid.uuid4()}",
                             counted_at=now, recorded_at=now, counted_by=_user(by))
    SessionChange.objects.create(session=session, changed_by=_user(by), changed_at=now,
                                 field=f"{COUNT_CHANGE}{public}",
                                 before=totals[public], after=totals[public] + delta, reason=reason.strip())
    totals[public] += delta
    return Counted(True, totals)


@dataclass(frozen=True)
class Tallied:
    created: bool
    plays: int
    """The record's plays at the session now."""


@transaction.atomic
def tally_play(session: Session, by: Any, *, record: Any, delta: int, key: str,
               counted_at: dt.datetime | None = None, now: dt.datetime | None = None) -> Tallied:
    """A game played on site (``delta`` +1, or −1 an "oops"), by catalogue record; as a door tap."""
    now = now or timezone.now()
    session = Session.objects.select_for_update().get(pk=session.pk)
    record_id = getattr(record, "pk", record)
    stored = PlayTally.objects.filter(session=session, key=key).first()
    if stored is not None:
        return Tallied(False, _plays(session, stored.record_id))
    refusal = rules.counting_refusal(now, session.starts_at, session.ends_at, session.cancelled)
    if refusal:
        raise CountingClosed(refusal)
    plays = _plays(session, record_id)
    if plays + delta < 0:
        raise CountBelowZero(gettext("This game has not been counted yet: there is nothing to take back."),
                             record=record_id, total=plays)
    PlayTally.objects.create(session=session, record_id=record_id, delta=delta, key=key, counted_at=counted_at or now,
                             recorded_at=now, counted_by=_user(by))
    return Tallied(True, plays + delta)


def _plays(session: Session, record_id: int) -> int:
    return int(PlayTally.objects.filter(session=session, record_id=record_id).aggregate(n=Sum("delta"))["n"] or 0)


# -- games played at a session ---------------------------------------------------------------------

"""The :class:`SessionChange` field of a game record linked to a session (``after``: its id) or
taken from it (``before``)."""


@dataclass(frozen=True)
class Linked:
    link: SessionGame
    created: bool
    """False: the game was linked to this session already, and nothing changed."""
    moved_from: Session | None
    """The session the game was linked to before, when it moved."""


def session_days(session: Session) -> tuple[dt.date, dt.date]:
    """The days a session is held on, on the installation's clock: its first and its last (a
    game night past midnight is held on two)."""
    return timezone.localdate(session.starts_at), timezone.localdate(session.ends_at - dt.timedelta(microseconds=1))


@transaction.atomic
def link_game(session: Session, game_record: GameRecord, by: Any, *, reason: str = "",
              now: dt.datetime | None = None) -> Linked:
    """``game_record`` was played at ``session``: a result logged or a game recorded there counts
    among the session's games played on site. Only a game recorded for the session's organisation
    (422 ``other_organisation``), played on the session's day (422 ``not_that_day``), at a session
    not cancelled (409 ``session_cancelled``). A game linked to another session moves; taking it
    from a session that ended more than a day ago is a correction and needs ``reason`` (422
    ``reason_required_for_past_session``). A link touching a session over for more than a day is
    kept as a :class:`SessionChange` of :data:`GAME_CHANGE` (the yearly report lists it when made
    after the report was sent); a late result naming its session is no correction and needs no reason."""
    now = now or timezone.now()
    session = _locked(session)
    # Two phones linking the same game: one after the other.
    game_record = GameRecord.objects.select_for_update().get(pk=game_record.pk)
    if session.cancelled:
        raise CountingClosed("session_cancelled")
    if game_record.organisation_id != session.organisation_id:
        raise OtherOrganisation(gettext("This game was not recorded in the name of the session's organisation."),
                                record=game_record.pk, session=session.pk)
    first_day, last_day = session_days(session)
    if not first_day <= game_record.played_on <= last_day:
        raise NotThatDay(gettext("This game was played on another day than the session."),
                         played_on=game_record.played_on.isoformat(), session_day=first_day.isoformat())
    link = SessionGame.objects.select_related("session").filter(game_record=game_record).first()
    if link is not None and link.session_id == session.pk:
        return Linked(link, False, None)
    moved_from = link.session if link is not None else None
    changed: list[tuple[Session, int | None, int | None]] = []
    if moved_from is not None and rules.is_correction(moved_from.ends_at, now):
        if not reason.strip():
            raise ReasonRequired(gettext(
                "The session this game was played at ended more than a day ago: say why it is moved."))
        changed.append((moved_from, game_record.pk, None))
    if rules.is_correction(session.ends_at, now):
        changed.append((session, None, game_record.pk))
    SessionChange.objects.bulk_create([
        SessionChange(session=touched, changed_by=_user(by), changed_at=now, field=GAME_CHANGE, before=before,
                      after=after, reason=reason.strip()) for touched, before, after in changed])
    if link is None:
        link = SessionGame.objects.create(session=session, game_record=game_record, linked_by=_user(by), linked_at=now)
    else:
        link.session, link.linked_by, link.linked_at = session, _user(by), now
        link.save(update_fields=["session", "linked_by", "linked_at"])
    return Linked(link, True, moved_from)


@transaction.atomic
def unlink_game(game_record: GameRecord | int, by: Any, *, session: Session | None = None, reason: str = "",
                now: dt.datetime | None = None) -> Session:
    """``game_record`` was not played at the session it is linked to (``session``, when given,
    must be that one: 404 ``not_linked`` otherwise, as for a game linked to none); the session it
    leaves is answered. Taking a game from a session that ended more than a day ago is a
    correction: ``reason`` is required and the change is kept."""
    now = now or timezone.now()
    link = (SessionGame.objects.select_for_update().select_related("session")
            .filter(game_record=getattr(game_record, "pk", game_record)).first())
    if link is None or (session is not None and link.session_id != session.pk):
        raise NotLinked(gettext("This game is not linked to this session."))
    left = link.session
    if rules.is_correction(left.ends_at, now):
        if not reason.strip():
            raise ReasonRequired(gettext(
                "The session this game was played at ended more than a day ago: say why it is taken from it."))
        SessionChange.objects.create(session=left, changed_by=_user(by), changed_at=now, field=GAME_CHANGE,
                                     before=link.game_record_id, after=None, reason=reason.strip())
    link.delete()
    return left


# -- registrations -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Registered:
    registration: Registration
    position: int | None
    """Its place on the waiting list (1: the next), None when it has its places."""


def _places_taken(session: Session) -> int:
    return int(session.registrations.filter(status=Registration.Status.REGISTERED)
               .aggregate(n=Sum("places"))["n"] or 0)


def waiting_position(registration: Registration) -> int | None:
    if registration.status != Registration.Status.WAITING:
        return None
    return 1 + Registration.objects.filter(
        session=registration.session_id, status=Registration.Status.WAITING).filter(
        Q(registered_at__lt=registration.registered_at)
        | Q(registered_at=registration.registered_at, pk__lt=registration.pk)).count()


@transaction.atomic
def register(session: Session, *, name: str, email: str = "", places: int = 1, household: Any = None,
             language: str = "", now: dt.datetime | None = None) -> Registered:
    """``places`` at an event for ``name``: registered while there is room and nobody waits,
    else on the waiting list (a full event always takes a waiting list). ``language``: the
    page's, in which the mails will be written."""
    now = now or timezone.now()
    session = _locked(session)
    if not session.registration or session.cancelled or now >= session.ends_at:
        raise RegistrationClosed(gettext("This session takes no registrations (any more)."))
    registration = Registration(session=session, name=name.strip(), email=email.strip(), places=places,
                                household=household, language=language or translation.get_language() or "",
                                registered_at=now)
    checked(registration, "invalid_registration", exclude=["session", "household", "checked_in_by", "status"])
    anyone_waiting = session.registrations.filter(status=Registration.Status.WAITING).exists()
    registration.status = (Registration.Status.REGISTERED
                           if rules.registers(session.capacity, _places_taken(session), places, anyone_waiting)
                           else Registration.Status.WAITING)
    registration.save()
    return Registered(registration, waiting_position(registration))


@transaction.atomic
def cancel_registration(registration: Registration, by: Any = None) -> list[Registration]:
    """Cancel a registration; the places it had go to the first waiting ones that fit (told by
    mail). The registrations given places are answered."""
    session = _locked(registration.session)
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    if registration.status == Registration.Status.CANCELLED:
        return []
    had_places = registration.status == Registration.Status.REGISTERED
    registration.status = Registration.Status.CANCELLED
    registration.save(update_fields=["status"])
    return promote_waiting(session) if had_places else []


def promote_waiting(session: Session) -> list[Registration]:
    """Give the free places to the waiting registrations that fit, in the order they came; each
    is told by mail, in the language it registered in (through the outbox, in this transaction)."""
    waiting = list(session.registrations.select_for_update().filter(status=Registration.Status.WAITING)
                   .order_by("registered_at", "pk"))
    if not waiting:
        return []
    free = None if session.capacity is None else max(0, session.capacity - _places_taken(session))
    chosen = set(rules.promoted(free, [(entry.pk, entry.places) for entry in waiting]))
    promoted = [entry for entry in waiting if entry.pk in chosen]
    for entry in promoted:
        entry.status = Registration.Status.REGISTERED
        entry.save(update_fields=["status"])
        _mail_place_confirmed(session, entry)
    return promoted


def _mail_place_confirmed(session: Session, registration: Registration) -> None:
    language = registration.language or getattr(session.organisation, "language", "") or settings.LANGUAGE_CODE
    with translation.override(language):
        starts = timezone.localtime(session.starts_at)
        subject = gettext("A place for you: %(session)s") % {"session": session.name}
        body = ngettext(
            "Hello %(name)s,\n\nA place freed up at %(session)s (%(organisation)s) on %(day)s at %(time)s: "
            "the place you waited for is now yours.\n\nIf you cannot come, please tell %(organisation)s so that "
            "someone else may.\n",
            "Hello %(name)s,\n\nPlaces freed up at %(session)s (%(organisation)s) on %(day)s at %(time)s: "
            "the %(places)s places you waited for are now yours.\n\nIf you cannot come, please tell "
            "%(organisation)s so that others may.\n", registration.places) % {
            "name": registration.name, "session": session.name, "organisation": session.organisation.name,
            "day": formats.date_format(starts, "DATE_FORMAT"), "time": formats.time_format(starts, "TIME_FORMAT"),
            "places": registration.places}
    enqueue(PLACE_CONFIRMED, [registration.email], subject, body, language=language, about=registration)


@transaction.atomic
def check_in(registration: Registration, by: Any, now: dt.datetime | None = None) -> Registration:
    """Someone registered has come: checked in (once; checking in again changes nothing)."""
    now = now or timezone.now()
    registration = Registration.objects.select_for_update().select_related("session").get(pk=registration.pk)
    if registration.status != Registration.Status.REGISTERED:
        raise NotRegistered(gettext("Only a registration with its places is checked in (not one waiting or cancelled)."))
    session = registration.session
    if rules.counting_refusal(now, session.starts_at, session.ends_at, session.cancelled):
        raise CheckInClosed(gettext("Check-in is open from an hour before the session until a week after it."))
    if registration.checked_in_at is None:
        registration.checked_in_at, registration.checked_in_by = now, _user(by)
        registration.save(update_fields=["checked_in_at", "checked_in_by"])
    return registration


@transaction.atomic
def undo_check_in(registration: Registration, by: Any, now: dt.datetime | None = None) -> Registration:
    """A check-in tapped by mistake, undone while the session lasts."""
    now = now or timezone.now()
    registration = Registration.objects.select_for_update().select_related("session").get(pk=registration.pk)
    if now > registration.session.ends_at:
        raise CheckInClosed(gettext("A check-in is undone only while the session lasts."))
    registration.checked_in_at, registration.checked_in_by = None, None
    registration.save(update_fields=["checked_in_at", "checked_in_by"])
    return registration
