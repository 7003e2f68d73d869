"""“Played during”: the session a result logged or a game recorded names (issue 39), on the
result form and the recorder's start page.

The select lists the organisation's sessions (not cancelled) of the last week and of the day
played, each option with its days (``data-days``), so that ``session_choice.js`` shows only
those of the date chosen; the one running now is chosen beforehand. The link is the agenda's
(``agenda.services.link_game``): made after the record is stored, in the same transaction, so
that a refusal (another day, a cancelled session) stores neither and shows beside the select.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.contrib.auth.models import AbstractBaseUser
from django.utils import formats, timezone
from django.utils.translation import gettext, gettext_lazy as _

from accounts.models import Organisation
from agenda import selectors, services
from agenda.models import Session
from agenda.views import sees_whole_calendar
from records.models import GameRecord

from .quick_select import QuickSelect

OFFERED_DAYS = 7
"""The sessions of this many days (today and the days before) are offered: a result is logged
at the table or in the following days."""
FIELD = "session"


class SessionSelect(QuickSelect):
    """Each option says the days its session is held on (``data-days``: ISO days, a space between)."""

    def __init__(self, days_of: dict[int, str], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.days_of = days_of

    def create_option(self, name, value, *args, **kwargs) -> dict:
        option = super().create_option(name, value, *args, **kwargs)
        if value:
            option["attrs"]["data-days"] = self.days_of.get(int(str(value)), "")
        return option


def session_label(session: Session) -> str:
    """Its weekday and times first, then its name: a phone's narrow select cuts the end, and the
    script offers only the date played's sessions (the weekday tells them apart without it)."""
    starts, ends = timezone.localtime(session.starts_at), timezone.localtime(session.ends_at)
    return gettext("%(day)s %(starts)s–%(ends)s · %(session)s") % {
        "session": session.name, "day": formats.date_format(starts, "D"),
        "starts": formats.time_format(starts, "TIME_FORMAT"), "ends": formats.time_format(ends, "TIME_FORMAT")}


def _day_asked(form: forms.Form) -> dt.date | None:
    """The day played as the bound form says it, when it says one that reads."""
    if not form.is_bound:
        return None
    try:
        return form.fields["played_on"].clean(form.data.get("played_on"))
    except forms.ValidationError:
        return None


def add_session_field(form: forms.Form, organisation: Organisation | None, user: AbstractBaseUser,
                      now: dt.datetime | None = None) -> None:
    """Give ``form`` its optional “Played during” select of ``organisation``'s sessions (the
    public ones, or every one for its staff), when there are any to offer; ``organisation``:
    the one the game is recorded for (none: a visitor's game, which names no session)."""
    form.sessions_offered = {}
    if organisation is None:
        return
    now = now or timezone.now()
    today = timezone.localdate(now)
    days = [today - dt.timedelta(days=n) for n in range(OFFERED_DAYS)]
    asked = _day_asked(form)
    if asked is not None:
        days.append(asked)
    sessions = selectors.sessions_to_name(organisation, days,
                                          public_only=not sees_whole_calendar(user, organisation))
    if not sessions:
        return
    form.sessions_offered = {session.pk: session for session in sessions}
    days_of = {}
    for session in sessions:
        first, last = services.session_days(session)
        days_of[session.pk] = " ".join((first + dt.timedelta(days=n)).isoformat() for n in range((last - first).days + 1))
    running = next((session for session in sessions if session.starts_at <= now <= session.ends_at), None)
    form.fields[FIELD] = forms.TypedChoiceField(
        label=_("Played during"), required=False, coerce=int, empty_value=None,
        choices=[("", _("No session")), *((session.pk, session_label(session)) for session in sessions)],
        initial=running.pk if running is not None else None,
        help_text=_("The session the game was played at: it counts among the session's games played on site."),
        widget=SessionSelect(days_of, attrs={"class": "session-choice"}))


def link_to_session(form: forms.Form, record: GameRecord, by: AbstractBaseUser) -> None:
    """Link ``record`` to the session chosen on ``form``, if any (an ``AgendaError`` refuses)."""
    chosen = form.cleaned_data.get(FIELD)
    if chosen:
        services.link_game(form.sessions_offered[chosen], record, by)
