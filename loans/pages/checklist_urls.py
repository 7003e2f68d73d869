"""A catalogue record's checklist, mounted inside the catalogue's URLs
(``ludolog.web.catalogue_urls``): it lives under ``/catalogue/<id>/`` and its name is
``catalogue:checklist``."""

from django.urls import path

from . import checklists

urlpatterns = [
    path("<int:pk>/checklist/", checklists.record_checklist, name="checklist"),
]
