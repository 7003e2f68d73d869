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
from typing import Literal

from django.core.exceptions import PermissionDenied
from django.db import DatabaseError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext

from records import integrity, selectors
from records.errors import RecordTampered
from records.models import GameRecord

from .games import game_name

View = Callable[..., HttpResponse]
Answer = Literal["page", "text", "json"]


def refuses_tampered_records(*, answer: Answer = "page", ask_first: bool = True) -> Callable[[View], View]:
    """A view of one record (``pk``) that answers :func:`tampered_answer` for a tampered record:
    a page, plain text (the board the replay fetches) or the API's JSON (the recorder's table).
    ``ask_first=False`` skips the look-up of the last verification's verdict (a view polled or
    posted to every few seconds, reached only from a page that asks): only a failure verifies."""

    def decorate(view: View) -> View:
        @wraps(view)
        def refusing(request: HttpRequest, pk: int, *args, **kwargs) -> HttpResponse:
            problems = integrity.known_tampering(pk) if ask_first else None
            if problems is None:
                try:
                    return view(request, pk, *args, **kwargs)
                except (Http404, PermissionDenied, DatabaseError):
                    raise
                except Exception:
                    problems = integrity.tampering_found_now(pk)
                    if not problems:
                        raise
            return tampered_answer(request, selectors.readable_record(request.user, pk), problems, answer)

        return refusing

    return decorate


def tampered_answer(request: HttpRequest, record: GameRecord, problems: list[str], answer: Answer) -> HttpResponse:
    if answer == "json":
        error = RecordTampered.of(record.pk, problems)
        return JsonResponse({"reason": error.reason, "detail": error.message, **error.details}, status=409)
    if answer == "text":
        return HttpResponse(gettext("This record failed its integrity check: it is not shown."), status=409,
                            content_type="text/plain; charset=utf-8")
    return render(request, "games/tampered.html",
                  {"record": record, "game": game_name(record.game_slug), "problems": problems}, status=409)
