"""A person's own page (``/account/``), for everyone signed in, whatever they are: the player they
are, their organisations and their roles there, their household's loans where they have one (the
loans app's list and its Renew buttons, with its full page a link away), their e-mail address and
whether it is verified, their language, their password. It joins the apps, so it is the site's;
what it shows is read by each app's selectors and changed by each app's own views."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone

from accounts import selectors as people
from accounts.roles import Action, can
from loans import selectors as loans
from loans.models import LoanRules
from records.models import Player


@login_required
def account_page(request: HttpRequest) -> HttpResponse:
    user = request.user
    belongings = people.belongings(user)
    household = loans.household_of(user)
    context = {
        "person": people.person_of(user),
        "player": Player.objects.filter(user=user).first(),
        "belongings": belongings,
        "operator": can(user, Action.OPERATE, None),
        "household": household,
        "lends_games": any(belonging.organisation.lends_games for belonging in belongings),
        "languages": settings.LANGUAGES,
        "back": reverse("account"),
    }
    if household is not None:
        context["loans"] = loans.member_loans(household, LoanRules.current(household.organisation_id),
                                              timezone.localdate())
    return render(request, "account/page.html", context)
