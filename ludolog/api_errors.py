"""One JSON error shape for the whole API: ``{"reason": <code>, "detail": <sentence>, ...}``.

Domain errors carry their own ``reason`` (and ``status_code``, 422 by default for rule
violations), so views raise them as they are and nothing translates them on the way out.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    reason = getattr(exc, "reason", None)
    if isinstance(reason, str) and not isinstance(exc, exceptions.APIException):
        body: dict[str, Any] = {"reason": reason, "detail": getattr(exc, "message", str(exc))}
        body.update(getattr(exc, "details", {}) or {})
        return Response(body, status=getattr(exc, "status_code", status.HTTP_422_UNPROCESSABLE_ENTITY))

    # Django's own 404 and 403 get DRF's codes, as DRF's handler itself would convert them.
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        errors = response.data if isinstance(response.data, dict) else {"non_field_errors": response.data}
        fields = sorted(errors)
        response.data = {
            "reason": "invalid",
            "detail": "invalid field(s): " + ", ".join(fields),
            "fields": fields,
            "errors": errors,
        }
    elif isinstance(response.data, dict) and "detail" in response.data:
        code = exc.get_codes() if isinstance(exc, exceptions.APIException) else "error"
        response.data = {"reason": code if isinstance(code, str) else "error", "detail": response.data["detail"]}
    return response
