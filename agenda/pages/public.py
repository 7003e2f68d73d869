"""The organisation's public calendar (``/organisations/<slug>/calendar/``): its public sessions
of the coming eight weeks by day, its opening hours and closures, its events with the places
left and a link to register; its iCalendar feed; and the registration page of an event."""

from __future__ import annotations

import datetime as dt
from itertools import groupby

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone, translation
from django.utils.translation import gettext

from accounts.models import Organisation
from agenda import calendar_feed, selectors, services
from agenda.errors import AgendaError, InvalidFields
from agenda.models import Closure, OpeningHours, Session

from .forms import RegisterForm, show_refusal

WEEKS_SHOWN = 8


def places_left(session: Session) -> int | None:
    if not session.registration or session.capacity is None:
        return None
    return max(0, session.capacity - session.registered_places)


def calendar_page(request: HttpRequest, slug: str) -> HttpResponse:
    organisation = get_object_or_404(Organisation, slug=slug)
    today = timezone.localdate()
    sessions = list(selectors.with_figures(selectors.sessions_between(
        organisation, services.local_datetime(today, dt.time.min),
        services.local_datetime(today + dt.timedelta(weeks=WEEKS_SHOWN), dt.time.min), public_only=True)))
    days = [(day, [{"session": session, "places_left": places_left(session)} for session in group])
            for day, group in groupby(sessions, key=lambda session: timezone.localtime(session.starts_at).date())]
    hours = (OpeningHours.objects.filter(organisation=organisation, public=True, valid_from__lte=today
                                         + dt.timedelta(weeks=WEEKS_SHOWN))
             .exclude(valid_until__lt=today).order_by("weekday", "starts"))
    closures = Closure.objects.filter(organisation=organisation, last_day__gte=today).order_by("first_day")[:10]
    return render(request, "agenda/calendar.html", {
        "shown": organisation, "days": days, "hours": hours, "closures": closures, "weeks": WEEKS_SHOWN})


def calendar_ics(request: HttpRequest, slug: str) -> HttpResponse:
    organisation = get_object_or_404(Organisation, slug=slug)
    first, last = calendar_feed.feed_range()
    sessions = selectors.sessions_between(organisation, first, last, public_only=True).select_related("organisation")
    body = calendar_feed.feed(organisation, sessions, name=organisation.name)
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{organisation.slug}.ics"'
    return response


def register_page(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Anyone registers for a public event: places while there are, else the waiting list."""
    organisation = get_object_or_404(Organisation, slug=slug)
    session = get_object_or_404(Session, pk=pk, organisation=organisation)
    if not session.public or not session.registration:
        raise Http404
    form = RegisterForm(request.POST or None)
    status, refusal, registered = 200, None, None
    if request.method == "POST":
        if form.is_valid():
            try:
                registered = services.register(session, language=translation.get_language() or "", **form.cleaned_data)
            except InvalidFields as error:
                show_refusal(form, error.details["errors"])
                status, refusal = error.status_code, error
            except AgendaError as error:
                status, refusal = error.status_code, error
            else:
                status = 201
        else:
            status = 400
    session = selectors.with_figures(Session.objects.filter(pk=session.pk)).get()
    return render(request, "agenda/register.html", {
        "shown": organisation, "session": session, "form": form, "refusal": refusal, "registered": registered,
        "places_left": places_left(session),
        "closed_words": gettext("This session takes no registrations any more.")
        if session.cancelled or session.ends_at <= timezone.now() else ""}, status=status)
