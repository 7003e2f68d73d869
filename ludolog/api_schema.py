"""The OpenAPI schema's view (the error answers it lists: :mod:`ludolog.api_answers`). The view
makes the schema once per language and process."""

from __future__ import annotations

import threading
from typing import Any

from django.conf import settings
from django.utils import translation
from drf_spectacular.views import SpectacularAPIView
from rest_framework.request import Request
from rest_framework.response import Response


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
