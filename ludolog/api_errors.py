"""One JSON error shape for the whole API: ``{"reason": <code>, "detail": <sentence>, ...}``.

Domain errors carry their own ``reason`` (and ``status_code``, 422 by default for rule
violations), so views raise them as they are and nothing translates them on the way out.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views.defaults import page_not_found
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


DATABASE_DOWN = (OperationalError, InterfaceError)
"""What the database driver raises when the database does not answer (not a constraint refused)."""


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, RequestDataTooBig):
        return Response({"reason": "too_large", "detail": f"the request body is larger than "
                         f"{settings.DATA_UPLOAD_MAX_MEMORY_SIZE} bytes"}, status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
    if isinstance(exc, DATABASE_DOWN):
        return Response({"reason": "database_unavailable", "detail": "the database does not answer; try again shortly"},
                        status=status.HTTP_503_SERVICE_UNAVAILABLE, headers={"Retry-After": "30"})
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
            "reason": getattr(exc, "reason", "invalid"),
            "detail": "invalid field(s): " + ", ".join(fields),
            "fields": fields,
            "errors": errors,
        }
    elif isinstance(response.data, dict) and "detail" in response.data:
        code = exc.get_codes() if isinstance(exc, exceptions.APIException) else "error"
        response.data = {"reason": code if isinstance(code, str) else "error", "detail": response.data["detail"]}
    return response


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's 404 for a URL no route matches (``/api/records/abc/``): the API's shape under
    ``/api/``, the site's page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse({"reason": "not_found", "detail": "No such resource."}, status=404)
    return page_not_found(request, exception)
