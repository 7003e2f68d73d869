"""Choosing which organisation the pages are about."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from .current import choose
from .models import Organisation


@require_POST
def switch(request: HttpRequest) -> HttpResponse:
    """Make the organisation posted (by its short name) the one the next pages are about, and go
    back where the person was (a page of this site only)."""
    organisation = get_object_or_404(Organisation, slug=request.POST.get("organisation", ""))
    choose(request, organisation)
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()},
                                           require_https=request.is_secure()):
        back = "/"
    return redirect(back)
