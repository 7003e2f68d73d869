"""Reads on a replica: pages and read-only API calls from a PostgreSQL hot standby.

With ``DATABASE_REPLICA_URL`` set, the settings add a ``replica`` database (a streaming
replication standby of ``default``) and this router. A request is served from the replica when
:class:`ReplicaReadsMiddleware` says so: a ``GET`` or ``HEAD``, on a path that need not read
its own writes, from a client that has not just written. Everything else reads the primary:

* every write, and every read of a request that writes (appends, imports, forms, the admin);
* the scorekeeping pages and what the recorder asks between two actions (``/scorekeeping/``,
  a record's ``options``, its ``scoring`` status, a recomputation's status): they must show
  the action just recorded; the append path's state cache (``records.state_cache``) is fed by
  appends, which run on the primary;
* sessions, users, tokens and the admin's tables (a login just written must be found);
* a client for ``LUDOLOG_REPLICA_STICKY_SECONDS`` (default 10) after it wrote anything (a
  cookie, ``ludolog_primary``): the page it is sent to next shows what it did, whatever the lag;
* Celery tasks, management commands and anything else outside a request.

A replica that lags shows the site as it was a moment ago, never a wrong answer to a write: a
conflict (409) is always decided on the primary. Migrations run on the primary only.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse

REPLICA = "replica"
STICKY_COOKIE = "ludolog_primary"
PRIMARY_APPS = frozenset({"sessions", "auth", "authtoken", "admin", "contenttypes"})
PRIMARY_PATHS = re.compile(
    r"^/(scorekeeping/|admin/|login/|logout/|health/|i18n/|api-auth/|api/auth/"
    r"|api/records/\d+/(options|scoring)/|api/recompute/)"
)

_local = threading.local()


def replica_configured() -> bool:
    return REPLICA in settings.DATABASES


def reading_replica() -> bool:
    return bool(getattr(_local, "replica", False))


def sticky_seconds() -> int:
    return int(getattr(settings, "LUDOLOG_REPLICA_STICKY_SECONDS", 10))


def request_may_read_replica(request: HttpRequest) -> bool:
    if request.method not in ("GET", "HEAD"):
        return False
    if PRIMARY_PATHS.match(request.path_info):
        return False
    try:
        sticky_until = float(request.COOKIES.get(STICKY_COOKIE, "0"))
    except ValueError:
        sticky_until = 0.0
    return sticky_until < time.time()


class ReplicaReadsMiddleware:
    """Decides, per request, whether its reads may go to the replica (see the module)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not replica_configured():
            return self.get_response(request)
        _local.replica = request_may_read_replica(request)
        try:
            response = self.get_response(request)
        finally:
            _local.replica = False
        if request.method not in ("GET", "HEAD", "OPTIONS") and response.status_code < 500:
            seconds = sticky_seconds()
            if seconds > 0:
                response.set_cookie(STICKY_COOKIE, f"{time.time() + seconds:.3f}", max_age=seconds,
                                    httponly=True, samesite="Lax", secure=not settings.DEBUG)
        return response


class ReplicaRouter:
    """Reads of a request the middleware let go to the replica use it; all else the primary."""

    def db_for_read(self, model: Any, **hints: Any) -> str | None:
        if reading_replica() and model._meta.app_label not in PRIMARY_APPS:
            return REPLICA
        return "default"

    def db_for_write(self, model: Any, **hints: Any) -> str:
        return "default"

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool:
        return True  # the replica is a copy of the primary: the same rows

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool:
        return db != REPLICA
