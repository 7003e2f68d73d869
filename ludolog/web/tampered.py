"""The pages of a record that failed verification (``verify_events``, records.integrity): a page
that says so, answered 409, instead of a replay that could be wrong or could fail (a 500).

A record is refused when its last verification failed, and also when drawing its page fails: it
is then verified on the spot, and refused if that finds it tampered with (the error stands
otherwise: a bug is not hidden). Only those who may read the record learn it is tampered with;
for anyone else it stays not found.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext

from records import integrity, selectors

from .games import game_name

View = Callable[..., HttpResponse]


def refuses_tampered_records(*, as_text: bool = False) -> Callable[[View], View]:
    """A view of one record (``pk``) that answers :func:`tampered_page` for a tampered record
    (plain text with ``as_text``: what the replay fetches in place of its board)."""

    def decorate(view: View) -> View:
        @wraps(view)
        def refusing(request: HttpRequest, pk: int, *args, **kwargs) -> HttpResponse:
            problems = integrity.known_tampering(pk)
            if problems is None:
                try:
                    return view(request, pk, *args, **kwargs)
                except (Http404, PermissionDenied):
                    raise
                except Exception:
                    problems = integrity.tampering_found_now(pk)
                    if not problems:
                        raise
            return tampered_page(request, selectors.readable_record(request.user, pk), problems, as_text=as_text)

        return refusing

    return decorate


def tampered_page(request: HttpRequest, record, problems: list[str], *, as_text: bool = False) -> HttpResponse:
    if as_text:
        return HttpResponse(gettext("This record failed its integrity check: it is not shown."), status=409,
                            content_type="text/plain; charset=utf-8")
    return render(request, "games/tampered.html",
                  {"record": record, "game": game_name(record.game_slug), "problems": problems}, status=409)
