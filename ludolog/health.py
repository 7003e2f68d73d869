"""``GET /health/``: whether this web process reaches its database and its broker, for uptime
checks and load balancers. 200 when both answer, 503 naming what does not."""

from __future__ import annotations

from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

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


@never_cache
@require_GET
def health(request: HttpRequest) -> JsonResponse:
    checks = {"database": database_state(), "broker": broker_state()}
    healthy = all(state == "ok" or state.startswith("not used") for state in checks.values())
    return JsonResponse({"status": "ok" if healthy else "failing", **checks}, status=200 if healthy else 503)
