"""The language of a signed-in person's pages: the one they chose (``Person.language``), over the
browser's and the language cookie's that Django's ``LocaleMiddleware`` goes by.

Their choice is read once, when they sign in, and kept in the session (no query a request); the
account page and the header's language switch change it in both places
(:func:`remember`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.signals import user_logged_in
from django.http import HttpRequest, HttpResponse
from django.utils import translation

from .models import Person

SESSION_KEY = "ludolog:language"


def remember(request: HttpRequest, language: str) -> None:
    """Keep ``language`` (empty: the browser's) as the signed-in person's for this session."""
    request.session[SESSION_KEY] = language


def read_at_sign_in(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """``user_logged_in``: the person's language into their new session."""
    if request is not None and hasattr(request, "session"):
        remember(request, Person.objects.filter(user=user).values_list("language", flat=True).first() or "")


class PersonLanguageMiddleware:
    """Pages in the signed-in person's language, where they chose one (after the session, the
    user and ``LocaleMiddleware``, whose response headers then name it)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            language = request.session.get(SESSION_KEY)
            if language is None:  # a session opened before the language was kept in it
                language = Person.objects.filter(user=user).values_list("language", flat=True).first() or ""
                remember(request, language)
            if language and translation.check_for_language(language):
                translation.activate(language)
                request.LANGUAGE_CODE = language  # type: ignore[attr-defined]
        return self.get_response(request)


def connect() -> None:
    user_logged_in.connect(read_at_sign_in, dispatch_uid="accounts.language.read_at_sign_in")
