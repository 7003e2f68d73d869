"""The OpenAPI schema: the API's error answers written into it, and its view.

Every operation may answer with the one error shape (``{"reason", "detail", …}``, see
:mod:`ludolog.api_errors`), and the schema says with which status codes, so that clients (and
Schemathesis) know what to expect. The view makes the schema once per language and process.
"""

from __future__ import annotations

import threading
from typing import Any

from django.conf import settings
from django.utils import translation
from drf_spectacular.views import SpectacularAPIView
from rest_framework.request import Request
from rest_framework.response import Response

ERROR_COMPONENT = "Error"
ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "An error: a machine-readable reason and a sentence; some carry more (the field at fault, "
                   "the current seq of a conflict, the event of a record file).",
    "properties": {
        "reason": {"type": "string", "description": "e.g. invalid, not_found, seq_conflict, edge_mismatch"},
        "detail": {"type": "string"},
    },
    "required": ["reason", "detail"],
    "additionalProperties": True,
}

ANSWERS = {
    "400": "The request is malformed: the field named is missing or does not fit.",
    "401": "Credentials were given and are wrong.",
    "403": "Not allowed for this user (or not logged in, for a write).",
    "404": "No such resource (or not visible to this user).",
    "405": "This method is not allowed here.",
    "406": "The Accept header asks for a format the API does not give.",
    "409": "Conflicts with the current state (another writer's event, a finished record, a full record).",
    "413": "The body is larger than the server takes.",
    "415": "The body is in a format the API does not read.",
    "422": "Well formed, but the rules refuse it (an illegal action).",
    "429": "Too many requests.",
    "503": "The database does not answer; try again shortly.",
}
READS = ("400", "401", "403", "404", "405", "406", "429", "503")
WRITES = tuple(ANSWERS)


def document_errors(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: add the error answers to every operation."""
    components = result.setdefault("components", {}).setdefault("schemas", {})
    components[ERROR_COMPONENT] = ERROR_SCHEMA
    reference = {"$ref": f"#/components/schemas/{ERROR_COMPONENT}"}
    for path in result.get("paths", {}).values():
        for method, operation in path.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            codes = READS if method in ("get", "head") else WRITES
            for code in codes:
                operation["responses"].setdefault(code, {
                    "description": ANSWERS[code],
                    "content": {"application/json": {"schema": reference}},
                })
    return result


class SchemaView(SpectacularAPIView):
    """drf-spectacular's schema view, with the schema made once per language (it only changes with
    the code) and never by two threads at once: its generator keeps state of its own while it
    runs (the extensions it loads on first use, the components it collects), and two requests
    generating together in one process answered 500 now and then."""

    _made: dict[str, dict[str, Any]] = {}
    _making = threading.Lock()

    def _get_schema_response(self, request: Request) -> Response:
        version = self.api_version or request.version or self._get_version_parameter(request)
        language = translation.get_language()
        # Only the site's languages and no version are kept: a ?lang= or ?version= of the
        # client's choosing is made each time, under the lock all the same.
        kept = version is None and language in dict(settings.LANGUAGES)
        with self._making:
            schema = self._made.get(language) if kept else None
            if schema is None:
                generator = self.generator_class(urlconf=self.urlconf, api_version=version, patterns=self.patterns)
                schema = generator.get_schema(request=request, public=self.serve_public)
                if kept:
                    self._made[language] = schema
        return Response(schema, headers={
            "Content-Disposition": f'inline; filename="{self._get_filename(request, version)}"'})
