from django.urls import path

from . import catalogue, checklists, labels

urlpatterns = [
    path("", catalogue.catalogue_search, name="search"),
    path("unimarc/", catalogue.catalogue_search_unimarc, name="search-unimarc"),
    path("labels.pdf", labels.copy_labels_pdf, name="labels"),
    path("<int:pk>/", catalogue.catalogue_record, name="record"),
    path("<int:pk>/checklist/", checklists.record_checklist, name="checklist"),
    path("<int:pk>/reserve/", catalogue.reserve, name="reserve"),
    path("<int:pk>/unimarc/", catalogue.catalogue_record_unimarc, name="record-unimarc"),
]
