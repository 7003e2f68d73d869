"""``GET /health/``: whether this web process reaches its database and its broker, for uptime
checks and load balancers. 200 when both answer, 503 naming what does not.

It also says whether the shared cache (Redis, ``LUDOLOG_CACHE_URL``) answers, as ``cache``: a cache
that does not answer is a slower day, not an outage (each process caches in its memory meanwhile,
:mod:`ludolog.cache`), so it makes the status ``degraded`` with a 200. ``degraded`` lists what does
not answer among the cache and the broker (mail then waits in the outbox for the sweep).

It also reports the last whole-store ``verify_events`` run (when it finished, records and events
checked, mismatches) as ``event_chains``, for whoever reads the page; that never makes it fail:
an old run or a broken chain is not a reason to take the site out of a load balancer. Absent
until a first verification has run."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from records.integrity import last_full_verification

from .cache import cache_state
from .celery import app


def database_state() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as error:  # noqa: BLE001 (any failure is the answer)
        return f"unreachable: {type(error).__name__}"
    return "ok"


def broker_state() -> str:
    if app.conf.task_always_eager:
        return "not used (tasks run in-process)"
    try:
        with app.connection_for_write() as broker:
            broker.ensure_connection(max_retries=0, timeout=2)
    except Exception as error:  # noqa: BLE001
        return f"unreachable: {type(error).__name__}"
    return "ok"


def event_chains() -> dict[str, Any] | None:
    """The last whole-store verification of the events' hash chains, or None (never run, or the
    database does not answer: the database check says so)."""
    try:
        last = last_full_verification()
    except Exception:  # noqa: BLE001
        return None
    if last is None:
        return None
    return {
        "verified_at": last.finished_at.isoformat(),
        "records": last.records_checked,
        "events": last.events_checked,
        "mismatches": last.mismatch_count,
    }


@never_cache
@require_GET
def health(request: HttpRequest) -> JsonResponse:
    checks = {"database": database_state(), "broker": broker_state()}
    healthy = all(state == "ok" or state.startswith("not used") for state in checks.values())
    cache = cache_state()
    degraded = [name for name, state in (("cache", cache), ("broker", checks["broker"]))
                if state.startswith("unreachable")]
    status = "failing" if not healthy else "degraded" if degraded else "ok"
    body: dict[str, Any] = {"status": status, **checks, "cache": cache}
    if degraded:
        body["degraded"] = degraded
    if checks["database"] == "ok" and (chains := event_chains()) is not None:
        body["event_chains"] = chains
    return JsonResponse(body, status=200 if healthy else 503)
