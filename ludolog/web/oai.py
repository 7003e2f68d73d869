"""The OAI-PMH endpoint, ``/oai/``: the catalogue harvested by other libraries' systems.

The protocol is ``games.oai`` (pure) and the records' reading ``games.harvest``; this view gives
them the request: its arguments (a query string, or a form sent by POST, as the protocol allows),
the host the harvester asked for (record identifiers are ``oai:<host>:catalogue/<id>``), and
resumption tokens signed with the site's key (``django.core.signing``: a harvester cannot forge
or alter one, and one older than ``LUDOLOG_OAI_TOKEN_SECONDS`` is refused as expired).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.http.request import split_domain_port
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from games.harvest import CatalogueRepository
from games.oai import Endpoint

TOKEN_SALT = "ludolog.oai.resumption-token"


@dataclass(frozen=True)
class SignedTokens:
    """Resumption tokens as Django's signed, compressed, timestamped values."""

    lifetime: timedelta

    def seal(self, state: dict[str, Any]) -> str:
        return signing.dumps(state, salt=TOKEN_SALT, compress=True)

    def open(self, token: str) -> dict[str, Any]:
        try:
            state = signing.loads(token, salt=TOKEN_SALT, max_age=self.lifetime)
        except signing.BadSignature as error:  # expired too (SignatureExpired)
            raise ValueError(str(error)) from None
        if not isinstance(state, dict):
            raise ValueError("not a list's state")
        return state


@csrf_exempt  # harvesters POST without a session: nothing is changed, only read
@require_http_methods(["GET", "HEAD", "POST"])
def endpoint(request: HttpRequest) -> HttpResponse:
    """Every OAI-PMH verb; errors too are answered 200, with the protocol's error element."""
    host, _port = split_domain_port(request.get_host())
    arguments = request.POST if request.method == "POST" else request.GET
    # A record's page is the catalogue's address and its id (catalogue_urls), made once a request:
    # reversing it for each record of a page cost a tenth of the page's time.
    catalogue = request.build_absolute_uri(reverse("catalogue:search"))
    oai = Endpoint(
        repository=CatalogueRepository(lambda pk: f"{catalogue}{pk}/"),
        seal=SignedTokens(timedelta(seconds=settings.LUDOLOG_OAI_TOKEN_SECONDS)),
        base_url=request.build_absolute_uri(reverse("oai")),
        host=host,
        name=settings.LUDOLOG_OAI_REPOSITORY_NAME,
        admin_emails=settings.LUDOLOG_OAI_ADMIN_EMAILS,
        page_size=settings.LUDOLOG_OAI_PAGE_SIZE,
    )
    return HttpResponse(oai.respond(dict(arguments.lists()), timezone.now()), content_type="text/xml; charset=utf-8")
