from django.conf import settings
from django.conf.urls.static import static
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularSwaggerSplitView

from accounts.account_views import set_language

from .api import ApiRoot, TokenView
from .api_schema import SchemaView
from .health import health

urlpatterns = [
    path("health/", health, name="health"),
    path("admin/", admin.site.urls),
    path("api/", ApiRoot.as_view(), name="api-root"),
    path("api/auth/token/", TokenView.as_view(), name="api-token"),
    path("api/", include("games.urls")),
    path("api/", include("records.urls")),
    path("api/", include("scoring.urls")),
    path("api/loans/", include("loans.urls")),
    path("api/", include("ludolog.api_organisations")),
    path("api/", include("ludolog.api_reports")),
    path("api/", include("agenda.urls")),
    path("api/", include("tournaments.urls")),
    path("api/schema/", SchemaView.as_view(), name="schema"),
    # The split view serves Swagger UI's start-up script as a file: the pages allow no inline script.
    path("api/schema/ui/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="schema-ui"),
    path("api-auth/", include("rest_framework.urls")),
    # Django's language switch, which also keeps a signed-in person's choice (Person.language).
    path("i18n/setlang/", set_language, name="set_language"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("ludolog.web.urls")),
]

# The catalogue's covers, served by Django with DEBUG on only (static() adds nothing otherwise);
# in production nginx serves MEDIA_ROOT at /media/ (docs/operations.md, "Uploaded files").
urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)

handler404 = "ludolog.api_errors.not_found"
