"""Site-wide request handling: a Content-Security-Policy on every page, a 503 (JSON for API
clients) while the database does not answer, and a brake on guessed passwords."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.core.cache import cache
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext

from records import after_response

from .api_errors import DATABASE_DOWN

CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    # Templates carry small <style> blocks and colour swatches in style attributes.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])
"""Everything comes from Ludolog itself: no CDN, no inline script (the pages' data travel as
``application/json`` script blocks, which are not run)."""
DESK_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.replace("script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'")
"""The desk's pages may also compile WebAssembly: the camera's barcode reader (our own static
``zxing_reader.wasm``, see docs/loans.md); JavaScript's eval stays forbidden."""


class AfterResponseMiddleware:
    """The request's scope for work that need not hold up its response
    (:mod:`records.after_response`): what was deferred runs when the server closes the response,
    that is once it has been sent, before the request's database connections are released."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        after_response.open_scope()
        try:
            response = self.get_response(request)
        finally:
            jobs = after_response.close_scope()
        if jobs:
            # Closers run in response.close(), which the WSGI server calls after the last byte,
            # and before request_finished (which may close the database connection).
            response._resource_closers.append(lambda: after_response.run(jobs))
        return response


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        policy = DESK_CONTENT_SECURITY_POLICY if request.path.startswith("/desk/") else CONTENT_SECURITY_POLICY
        response.headers.setdefault("Content-Security-Policy", policy)
        return response


def wants_json(request: HttpRequest) -> bool:
    return request.path.startswith("/api/") or "application/json" in request.headers.get("Accept", "")


class DatabaseUnavailableMiddleware:
    """A database that does not answer is a 503 that says so (JSON for the API), not a 500."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, DATABASE_DOWN):
            return None
        if wants_json(request):
            response: HttpResponse = JsonResponse(
                {"reason": "database_unavailable", "detail": "the database does not answer; try again shortly"},
                status=503)
        else:
            # A page of its own: the site's base template asks the database who is logged in.
            response = HttpResponse(render_to_string("503.html"), status=503)
        response["Retry-After"] = "30"
        return response


# -- a brake on guessed passwords -------------------------------------------------------------

def _client(request: HttpRequest | None) -> str:
    if request is None:
        return "unknown"
    return str(request.META.get("REMOTE_ADDR", "unknown"))


def _key(kind: str, value: str) -> str:
    return "ludolog:login-failures:" + kind + ":" + hashlib.sha256(value.encode()).hexdigest()[:32]


def _count(key: str) -> None:
    window = settings.LUDOLOG_LOGIN_FAILURE_WINDOW
    cache.add(key, 0, window)
    try:
        cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, window)


def _named(request: HttpRequest) -> list[str]:
    """Whom a braked form names: the username and the e-mail address typed, where it has them."""
    return [name for name in (str(request.POST.get(field, "")).strip().casefold() for field in ("username", "email"))
            if name]


@receiver(user_login_failed)
def count_failed_login(sender: object, credentials: dict, request: HttpRequest | None = None, **kwargs: object) -> None:
    """Count each wrong password against the client's address and against the username tried."""
    for key in (_key("client", _client(request)), _key("user", str(credentials.get("username", "")).casefold())):
        _count(key)


class LoginThrottleMiddleware:
    """After ``LUDOLOG_LOGIN_FAILURES`` wrong passwords from one address, or for one username,
    within ``LUDOLOG_LOGIN_FAILURE_WINDOW`` seconds, a login attempt answers 429 without trying
    the password. The forms that send mail (sign-up, a password reset, a verification link again,
    a new address: ``LUDOLOG_MAILING_PATHS``) are braked the same way, each of their posts counted
    as a wrong password is, against the address it comes from and the username or e-mail it
    names: a flood of accounts or of mail to someone's address stops there, and the message says
    why. The counts live in the cache (set ``LUDOLOG_CACHE_URL`` to Redis so that every web
    process shares them). A Redis that does not answer is no 500 here: the cache
    (:mod:`ludolog.cache`) counts in the process's memory meanwhile, logged, so the brake still
    holds, per process."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "POST" and request.path in settings.LUDOLOG_LOGIN_PATHS:
            keys = [_key("client", _client(request))] + [_key("user", name) for name in _named(request)]
            if max(cache.get(key, 0) for key in keys) >= settings.LUDOLOG_LOGIN_FAILURES:
                return self._braked(request)
            if request.path in settings.LUDOLOG_MAILING_PATHS:
                for key in keys:
                    _count(key)
        return self.get_response(request)

    def _braked(self, request: HttpRequest) -> HttpResponse:
        response: HttpResponse
        if wants_json(request):
            response = JsonResponse({"reason": "too_many_logins",
                                     "detail": "too many failed logins: wait a few minutes before trying again"},
                                    status=429)
        elif request.path in settings.LUDOLOG_MAILING_PATHS:
            response = HttpResponse(gettext("Too many tries: wait a few minutes before trying again."), status=429,
                                    content_type="text/plain; charset=utf-8")
            response["X-Ludolog-Reason"] = "too_many_tries"
        else:
            response = HttpResponse(gettext("Too many failed logins: wait a few minutes before trying again."),
                                    status=429, content_type="text/plain; charset=utf-8")
            response["X-Ludolog-Reason"] = "too_many_logins"
        response["Retry-After"] = str(settings.LUDOLOG_LOGIN_FAILURE_WINDOW)
        return response
