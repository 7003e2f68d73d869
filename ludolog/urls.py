from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from .health import health

urlpatterns = [
    path("health/", health, name="health"),
    path("admin/", admin.site.urls),
    path("api/", include("games.urls")),
    path("api/", include("records.urls")),
    path("api/", include("scoring.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/schema/ui/", SpectacularSwaggerView.as_view(url_name="schema"), name="schema-ui"),
    path("api-auth/", include("rest_framework.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("ludolog.web.urls")),
]
