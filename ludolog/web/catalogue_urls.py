from django.urls import path

from . import catalogue

urlpatterns = [
    path("", catalogue.catalogue_search, name="search"),
    path("<int:pk>/", catalogue.catalogue_record, name="record"),
]
