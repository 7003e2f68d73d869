"""For every template: whether visitors may create an account themselves (``signup_open``: the
login page and the header then offer it)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest


def sign_up(request: HttpRequest) -> dict[str, Any]:
    return {"signup_open": settings.LUDOLOG_SIGNUP == "open"}
