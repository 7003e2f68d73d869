"""The API's front door: ``/api/`` lists every endpoint, and ``/api/auth/token/`` trades a
username and password for the token a script sends as ``Authorization: Token …``."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

ENDPOINTS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("records", "record-list", {}),
    ("catalogue", "catalogue-record-list", {}),
    ("clubs", "club-list", {}),
    ("leagues", "api-league-list", {}),
    ("player_statistics", "player-statistics", {}),
    ("game_statistics", "game-statistics", {}),
    ("ratings", "ratings", {}),
    ("rating_history", "rating-history", {}),
    ("recompute", "recompute-list", {}),
    ("token", "api-token", {}),
    ("schema", "schema", {}),
    ("schema_ui", "schema-ui", {}),
    ("health", "health", {}),
    ("organisations", "api-organisation-list", {}),
)
"""Every entry point, by name; a record's own routes (events, state, options, export, results,
scoring) are listed in the schema and linked from the record."""


class ApiRoot(APIView):
    """Every endpoint of the API, by name (the OpenAPI schema describes each)."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: inline_serializer("ApiRoot", {name: serializers.URLField() for name, _, _ in ENDPOINTS})})
    def get(self, request: Request) -> Response:
        return Response({name: reverse(route, kwargs=kwargs, request=request) for name, route, kwargs in ENDPOINTS})


class TokenView(ObtainAuthToken):
    """``POST`` a username and a password; the answer is the user's API token (the same one every
    time). Throttled: a few tries a minute per client, and the login brake of wrong passwords
    applies too."""

    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "token"

    @extend_schema(
        request=inline_serializer("TokenRequest", {"username": serializers.CharField(),
                                                   "password": serializers.CharField()}),
        responses={200: inline_serializer("Token", {"token": serializers.CharField()}),
                   400: OpenApiResponse(description="wrong username or password")},
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().post(request, *args, **kwargs)
