from django.urls import include, path

from . import catalogue, catalogue_form, catalogue_import, labels

urlpatterns = [
    path("", catalogue.catalogue_search, name="search"),
    path("unimarc/", catalogue.catalogue_search_unimarc, name="search-unimarc"),
    path("import/", catalogue_import.import_catalogue, name="import"),
    path("import/<int:pk>/", catalogue_import.import_job, name="import-job"),
    path("import/<int:pk>/go-on/", catalogue_import.import_checked, name="import-checked"),
    path("labels.pdf", labels.copy_labels_pdf, name="labels"),
    path("new/", catalogue_form.new_record, name="new"),
    path("<int:pk>/", catalogue.catalogue_record, name="record"),
    path("<int:pk>/edit/", catalogue_form.edit_record, name="edit"),
    # The checklist is the loans app's page, mounted by name; here, it keeps its address and its
    # name, catalogue:checklist.
    path("", include("loans.pages.checklist_urls")),
    path("<int:pk>/reserve/", catalogue.reserve, name="reserve"),
    path("<int:pk>/unimarc/", catalogue.catalogue_record_unimarc, name="record-unimarc"),
]
