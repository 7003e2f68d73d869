"""The outbox's page (``/outbox/``), for the installation's operator (``Action.OPERATE``): the
messages not sent yet, waiting or failed, each with a button that tries it again, and the last
ones sent. It reads the outbox's selectors and changes it through its services only."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from accounts.roles import Action, can
from outbox import selectors, services
from outbox.models import Message


def _operator_only(request: HttpRequest) -> None:
    if not can(request.user, Action.OPERATE, None):
        raise PermissionDenied


@login_required
def outbox_page(request: HttpRequest) -> HttpResponse:
    _operator_only(request)
    unsent = [(message, selectors.given_up(message)) for message in selectors.unsent()[:500]]
    return render(request, "outbox/page.html", {
        "unsent": unsent, "sent": selectors.recently_sent(),
    })


@login_required
@require_POST
def retry_message(request: HttpRequest, pk: int) -> HttpResponse:
    _operator_only(request)
    message = get_object_or_404(Message, pk=pk)
    if services.retry(message):
        messages.success(request, gettext("The message will be tried again."))
    else:
        messages.info(request, gettext("That message has been sent already."))
    return redirect("outbox")
