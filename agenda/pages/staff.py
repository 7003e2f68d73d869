"""The staff's agenda: ``/agenda/`` (this week's and next week's sessions with their figures),
``/agenda/hours/`` (opening hours and closures), ``/agenda/sessions/new/`` (an event, a group
visit, a game night) and a session's own page (its figures, its registrations with their
check-in buttons and the waiting list, the games recorded there, an edit, with a reason once it is past, a cancellation,
a count corrected). Thin over ``agenda.services``: a refusal is shown in the reader's language
with its status, and changes nothing."""

from __future__ import annotations

import datetime as dt
from itertools import groupby
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext

from accounts.current import current_organisation, may
from accounts.roles import Action, can
from agenda import rules, selectors, services
from agenda.errors import AgendaError, InvalidFields
from agenda.models import PUBLIC_WORDS, Closure, OpeningHours, Registration, Session

from .forms import ClosureForm, EndHoursForm, HoursForm, SessionForm, show_refusal


def refused(request: HttpRequest, words: str, status: int = 403) -> HttpResponse:
    return render(request, "agenda/refused.html", {"refusal_words": words}, status=status)


def not_staff(request: HttpRequest) -> HttpResponse:
    return refused(request, gettext("Only the organisation's staff see its agenda."))


@login_required
def agenda_home(request: HttpRequest) -> HttpResponse:
    organisation = current_organisation(request)
    if organisation is None or not (may(request, Action.PLAN_SESSIONS) or may(request, Action.COUNT_AT_THE_DOOR)):
        return not_staff(request)
    today = timezone.localdate()
    monday = today - dt.timedelta(days=today.weekday())
    sessions = list(selectors.with_figures(selectors.sessions_between(
        organisation, services.local_datetime(monday, dt.time.min),
        services.local_datetime(monday + dt.timedelta(weeks=2), dt.time.min))))
    days = [(day, list(group)) for day, group in
            groupby(sessions, key=lambda session: timezone.localtime(session.starts_at).date())]
    return render(request, "agenda/home.html", {
        "days": days, "today": today, "now": timezone.now(), "kinds": [
            (kind, label) for kind, label in Session.Kind.choices if kind != Session.Kind.OPENING],
        "plans": may(request, Action.PLAN_SESSIONS)})


@login_required
def hours_page(request: HttpRequest) -> HttpResponse:
    organisation = current_organisation(request)
    if organisation is None or not may(request, Action.PLAN_SESSIONS):
        return refused(request, gettext("Only those who plan the organisation's sessions change its opening hours."))
    hours_form = HoursForm(request.POST if request.POST.get("action") == "add_hours" else None,
                           initial={"valid_from": timezone.localdate()})
    closure_form = ClosureForm(request.POST if request.POST.get("action") == "add_closure" else None)
    status, refusal = 200, None
    if request.method == "POST":
        try:
            done = _hours_act(request, organisation, hours_form, closure_form)
        except InvalidFields as error:
            show_refusal(hours_form if request.POST.get("action") == "add_hours" else closure_form,
                         error.details["errors"])
            status, refusal = error.status_code, error
        except AgendaError as error:
            status, refusal = error.status_code, error
        else:
            if done is not None:
                messages.success(request, done)
                return redirect("agenda-hours")
            status = 400
    today = timezone.localdate()
    return render(request, "agenda/hours.html", {
        "hours": OpeningHours.objects.filter(organisation=organisation).exclude(valid_until__lt=today)
        .order_by("weekday", "starts"),
        "past_hours": OpeningHours.objects.filter(organisation=organisation, valid_until__lt=today)
        .order_by("-valid_until")[:10],
        "closures": Closure.objects.filter(organisation=organisation, last_day__gte=today).order_by("first_day"),
        "hours_form": hours_form, "closure_form": closure_form, "end_form": EndHoursForm(),
        "today": today, "refusal": refusal}, status=status)


def _hours_act(request: HttpRequest, organisation: Any, hours_form: HoursForm,
               closure_form: ClosureForm) -> str | None:
    """Do what the hours page's form asked; the words to say it is done (None: the form is wrong)."""
    action = request.POST.get("action")
    if action == "add_hours":
        if not hours_form.is_valid():
            return None
        services.add_opening_hours(organisation, request.user, **hours_form.cleaned_data)
        return gettext("The opening hours are saved, and the coming openings are on the calendar.")
    if action == "add_closure":
        if not closure_form.is_valid():
            return None
        services.add_closure(organisation, request.user, **closure_form.cleaned_data)
        return gettext("The closure is saved: no opening on those days.")
    if action in ("end_hours", "remove_hours"):
        hours = get_object_or_404(OpeningHours, pk=request.POST.get("hours"), organisation=organisation)
        if action == "remove_hours":
            services.remove_opening_hours(hours)
            return gettext("The opening hours are removed, with their openings.")
        end = EndHoursForm(request.POST)
        if not end.is_valid():
            return None
        services.end_opening_hours(hours, end.cleaned_data["last_day"])
        return gettext("The opening hours end on that day.")
    if action == "remove_closure":
        services.remove_closure(get_object_or_404(Closure, pk=request.POST.get("closure"), organisation=organisation))
        return gettext("The closure is removed.")
    return None


@login_required
def session_new(request: HttpRequest) -> HttpResponse:
    organisation = current_organisation(request)
    if organisation is None or not may(request, Action.PLAN_SESSIONS):
        return refused(request, gettext("Only those who plan the organisation's sessions add them."))
    kind = request.GET.get("kind", Session.Kind.EVENT)
    if kind not in Session.Kind.values:
        kind = Session.Kind.EVENT
    form = SessionForm(request.POST or None, kind=kind, initial={"public": kind != Session.Kind.GROUP_VISIT})
    status, refusal = 200, None
    if request.method == "POST":
        if form.is_valid():
            try:
                session = services.plan_session(organisation, request.user, kind=kind, **form.session_fields())
            except InvalidFields as error:
                show_refusal(form, error.details["errors"])
                status, refusal = error.status_code, error
            except AgendaError as error:
                status, refusal = error.status_code, error
            else:
                messages.success(request, gettext("The session is on the calendar."))
                return redirect("agenda-session", pk=session.pk)
        else:
            status = 400
    return render(request, "agenda/session_form.html", {
        "form": form, "kind": kind, "kind_label": Session.Kind(kind).label, "refusal": refusal}, status=status)


SESSION_ACTIONS = ("edit", "cancel", "check_in", "undo_check_in", "cancel_registration", "correct_count")


@login_required
def session_page(request: HttpRequest, pk: int) -> HttpResponse:
    session = get_object_or_404(Session.objects.select_related("organisation"), pk=pk)
    organisation = session.organisation
    counts = can(request.user, Action.COUNT_AT_THE_DOOR, organisation)
    plans = can(request.user, Action.PLAN_SESSIONS, organisation)
    if not (counts or plans):
        return not_staff(request)
    now = timezone.now()
    form = SessionForm(request.POST if request.POST.get("action") == "edit" else None, kind=session.kind,
                       initial=SessionForm.initial_of(session))
    status, refusal = 200, None
    if request.method == "POST":
        action = request.POST.get("action")
        if action not in SESSION_ACTIONS or (action in ("edit", "cancel", "correct_count") and not plans):
            return refused(request, gettext("Only those who plan the organisation's sessions change them."))
        try:
            done = _session_act(request, session, action, form)
        except InvalidFields as error:
            show_refusal(form, error.details["errors"])
            status, refusal = error.status_code, error
        except AgendaError as error:
            status, refusal = error.status_code, error
        else:
            if done is not None:
                messages.success(request, done)
                return redirect("agenda-session", pk=session.pk)
            status = 400
        session.refresh_from_db()
    figures = selectors.session_figures(session)
    return render(request, "agenda/session.html", {
        "session": session, "figures": figures, "form": form, "refusal": refusal, "counts": counts, "plans": plans,
        "publics": [(public.value, PUBLIC_WORDS[public], figures.totals[public.value]) for public in rules.Public],
        "past": rules.is_correction(session.ends_at, now), "during": session.starts_at <= now <= session.ends_at,
        "counting_open": rules.counting_refusal(now, session.starts_at, session.ends_at, session.cancelled) is None,
        "changes": session.changes.select_related("changed_by").order_by("-changed_at", "-pk")[:30],
        "games": selectors.linked_games(session)},
        status=status)


def _session_act(request: HttpRequest, session: Session, action: str, form: SessionForm) -> str | None:
    reason = request.POST.get("reason", "")
    if action == "edit":
        if not form.is_valid():
            return None
        changes = services.edit_session(session, request.user, form.session_fields(), reason=reason)
        return gettext("Saved.") if changes else gettext("Nothing changed.")
    if action == "cancel":
        services.cancel_session(session, request.user, reason=reason)
        return gettext("The session is cancelled.")
    if action == "correct_count":
        public, delta = request.POST.get("public", ""), request.POST.get("delta", "")
        if public not in {p.value for p in rules.Public} or not delta.lstrip("-").isdigit() or int(delta) == 0:
            raise InvalidFields("invalid_count", {"delta": [gettext("A whole number, more or less than zero.")]})
        services.correct_door_count(session, request.user, public=public, delta=int(delta), reason=reason)
        return gettext("The count is corrected.")
    registration = get_object_or_404(Registration, pk=request.POST.get("registration"), session=session)
    if action == "check_in":
        services.check_in(registration, request.user)
        return gettext("%(name)s is checked in.") % {"name": registration.name}
    if action == "undo_check_in":
        services.undo_check_in(registration, request.user)
        return gettext("%(name)s's check-in is undone.") % {"name": registration.name}
    promoted = services.cancel_registration(registration, request.user)
    return gettext("The registration is cancelled.") + (" " + gettext("Given places: %(names)s.") % {
        "names": ", ".join(entry.name for entry in promoted)} if promoted else "")
