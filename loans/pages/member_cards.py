"""Member cards, for desk staff: ``/desk/cards.pdf`` with ``card=<card number>`` (repeated), or
``current=1`` for every household whose membership has not ended; ``skip=N`` leaves the first N
cards of the first sheet blank, for a sheet already partly used. Each card's QR code opens the
household at the desk, its Code 39 barcode is what a desk scanner types (``games.labels`` draws
the sheet)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.translation import gettext

from accounts.current import current_organisation, may
from accounts.roles import Action
from games.labels import A4_BUSINESS_CARDS_2x5, MemberCardData, member_card_sheet
from games.services import MAX_LABELS
from loans.models import Household


def _refused(message: str, status: int = 400) -> HttpResponse:
    return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")


def member_cards(households, base_url: str, skip: int = 0) -> bytes:
    """The PDF sheet of the households' member cards, each headed with its game library's name,
    in the reader's language."""
    caption = gettext("Member card")
    return member_card_sheet(
        [MemberCardData(household=household.name, card_number=household.card_number,
                        heading=household.organisation.name if household.organisation else settings.LUDOLOG_LIBRARY_NAME,
                        caption=caption) for household in households],
        base_url=base_url, skip=skip)


@login_required
def member_cards_pdf(request: HttpRequest) -> HttpResponse:
    library = current_organisation(request)
    if not may(request, Action.PRINT_MEMBER_CARDS):
        return _refused(gettext("Only the desk's staff print member cards."), status=403)
    try:
        skip = int(request.GET.get("skip") or 0)
    except ValueError:
        return _refused(gettext("skip is a number."))
    if not 0 <= skip < A4_BUSINESS_CARDS_2x5.per_page:
        return _refused(gettext("skip is from 0 to %(last)s: the cards left blank on a sheet of %(count)s.")
                        % {"last": A4_BUSINESS_CARDS_2x5.per_page - 1, "count": A4_BUSINESS_CARDS_2x5.per_page})
    cards = [value.strip() for value in request.GET.getlist("card") if value.strip()]
    chosen = Q(card_number__in=cards)
    if request.GET.get("current"):
        today = timezone.localdate()
        chosen |= Q(membership_ends__gte=today) | Q(membership_ends__isnull=True)
    elif not cards:
        return _refused(gettext("No household selected: give card=<card number> (as many as needed) or current=1."))
    households = Household.objects.filter(chosen, organisation=library).select_related("organisation").order_by(
        "name", "card_number")
    count = households.count()
    if count == 0:
        return _refused(gettext("No household matches the selection."))
    if count > MAX_LABELS:
        return _refused(gettext("%(count)s households selected: a request prints at most %(most)s cards.")
                        % {"count": count, "most": MAX_LABELS})
    response = HttpResponse(member_cards(households, request.build_absolute_uri("/"), skip),
                            content_type="application/pdf")
    response["Content-Disposition"] = 'inline; filename="member-cards.pdf"'
    return response
