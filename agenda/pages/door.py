"""The door counter (``/agenda/sessions/<id>/door/``): a phone page with one big button per
public, a small "−1" beside each, the running totals, and the games played on site tallied by
title. It works offline as the table recorder does (``agenda/static/agenda/door.js``): each tap
gets its idempotency key when made and waits in the phone's storage until the API has it."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from accounts.roles import Action, can
from agenda import rules, selectors
from agenda.models import PUBLIC_WORDS, Session

from .staff import refused

DOOR_ORDER = (rules.Public.FAMILY, rules.Public.CHILD_0_2, rules.Public.CHILD_3_5, rules.Public.CHILD_6_11,
              rules.Public.CHILD_12_17, rules.Public.ADULT, rules.Public.SENIOR)
"""The buttons of an opening, event or game night, in the order people come through the door
(a family first, then its people); a group visit's are its groups' two."""


@login_required
def door_page(request: HttpRequest, pk: int) -> HttpResponse:
    session = get_object_or_404(Session.objects.select_related("organisation"), pk=pk)
    if not can(request.user, Action.COUNT_AT_THE_DOOR, session.organisation):
        return refused(request, gettext("Only the organisation's staff count at its door."))
    figures = selectors.session_figures(session)
    top = selectors.top_games(session.organisation)
    shown = (rules.GROUP_PUBLICS + (rules.Public.ADULT,) if session.kind == Session.Kind.GROUP_VISIT else DOOR_ORDER)
    now = timezone.now()
    data = {
        "session": session.pk,
        "csrf": get_token(request),
        "urls": {"counts": reverse("agenda-counts", kwargs={"pk": session.pk}),
                 "plays": reverse("agenda-plays", kwargs={"pk": session.pk})},
        "publics": [{"public": public.value, "label": str(PUBLIC_WORDS[public]), "total": figures.totals[public.value]}
                    for public in shown],
        "persons": [public.value for public in rules.PERSONS],
        "totals": figures.totals,
        "plays": {str(record): plays for record, _title, plays in figures.plays},
        "titles": {str(record): title for record, title in selectors.records_to_tally(session.organisation)}
        | {str(record): title for record, title in top} | {str(record): title for record, title, _plays in figures.plays},
        "top": [str(record) for record, _title in top],
        "words": {
            "offline": gettext("Offline: the taps wait on this phone and go when the connection is back."),
            "sending": gettext("Sending…"),
            # Every plural form a count from 1 to 5 takes (Czech has three of them); 5 stands for more.
            "waiting": {str(n): ngettext("%(count)s tap waiting", "%(count)s taps waiting", n) for n in range(1, 6)},
            "refused": gettext("Not counted: %(reason)s"),
            "forbidden": gettext("You are no longer signed in as the organisation's staff: sign in again."),
            "no_match": gettext("No game of the catalogue has this title."),
        },
    }
    return render(request, "agenda/door.html", {
        "session": session, "data": data, "figures": figures, "publics": data["publics"],
        "counting_refusal": rules.counting_refusal(now, session.starts_at, session.ends_at, session.cancelled)})
