"""The API's query parameters, as its schema types them: a value that is not of its type (a page
that is no number, ``players=0.5``, a date that is no date, a choice not offered) answers 400
``invalid_query`` naming the parameters at fault; an id of something that does not exist (or
that the reader may not see) answers an empty list, the same in every filter.

Both are the settings' defaults (``DEFAULT_FILTER_BACKENDS``, ``DEFAULT_PAGINATION_CLASS``), so
that every list of every app answers alike; a list with pages of its own size derives from
``api_settings.DEFAULT_PAGINATION_CLASS`` (``records.views.EventPages``).
"""

from __future__ import annotations

import re
from typing import Any

import django_filters
from django.db.models import QuerySet
from django_filters.rest_framework import DjangoFilterBackend
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request

WHOLE_NUMBER = re.compile(r"-?[0-9]{1,19}")
"""What an integer id looks like in a query (ASCII digits: ``str.isdigit`` also takes "²")."""


class InvalidQuery(ValidationError):
    """A query parameter that is not of the type the schema gives it: 400 ``invalid_query``,
    with the parameters at fault (``fields``) and what is wrong with each (``errors``)."""

    reason = "invalid_query"


class FilterBackend(DjangoFilterBackend):
    """django-filter's backend, answering a query by the rule above: an unknown id is an empty
    list (django-filter's choice fields would say "Select a valid choice"), a value of the wrong
    type a 400 ``invalid_query``."""

    def filter_queryset(self, request: Request, queryset: QuerySet, view: Any) -> QuerySet:
        filterset = self.get_filterset(request, queryset, view)
        if filterset is None:
            return queryset
        # django-filter takes an empty value as no filter; only a text may be empty in the schema.
        empty = {name: [f"{name} may not be empty"] for name, field in filterset.filters.items()
                 if request.query_params.get(name) == "" and not isinstance(field, django_filters.CharFilter)}
        if empty:
            raise InvalidQuery(empty)
        if filterset.is_valid():
            return filterset.qs
        errors = filterset.errors.as_data()
        unknown = {name for name, problems in errors.items() if self._names_no_such_thing(filterset, name, problems)}
        wrong = {name: [message for problem in errors[name] for message in problem.messages]
                 for name in errors if name not in unknown}
        if wrong:
            raise InvalidQuery(wrong)
        return queryset.none()

    @staticmethod
    def _names_no_such_thing(filterset: django_filters.FilterSet, name: str, problems: list) -> bool:
        """Whether a filter's only fault is an id, well formed, of nothing the reader may see."""
        chooses_a_thing = isinstance(filterset.filters.get(name), django_filters.ModelChoiceFilter)
        value = filterset.data.get(name, "")
        return (chooses_a_thing and all(problem.code == "invalid_choice" for problem in problems)
                and isinstance(value, str) and WHOLE_NUMBER.fullmatch(value) is not None)


POSITIVE = re.compile(r"[1-9][0-9]*")


class Pages(PageNumberPagination):
    """DRF's numbered pages, whose ``page`` (and ``page_size``, where a list lets the reader
    choose it) must be a whole number from 1: anything else answers 400 ``invalid_query``
    rather than the first page. A page past the last is still a 404, as DRF answers it."""

    last_page_strings = ()  # the schema says a page is a number

    def paginate_queryset(self, queryset: Any, request: Request, view: Any = None) -> list | None:
        wrong = {}
        for name in (self.page_query_param, self.page_size_query_param):
            value = request.query_params.get(name) if name else None
            if value is not None and not POSITIVE.fullmatch(value):
                wrong[name] = [f"{name} must be a whole number from 1"]
            elif value is not None and name == self.page_size_query_param and self.max_page_size \
                    and int(value) > self.max_page_size:
                wrong[name] = [f"{name} must be at most {self.max_page_size}"]
        if wrong:
            raise InvalidQuery(wrong)
        return super().paginate_queryset(queryset, request, view)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            parameter["schema"] = {**parameter["schema"], "minimum": 1}
            if parameter["name"] == self.page_size_query_param and self.max_page_size:
                parameter["schema"]["maximum"] = self.max_page_size
        return parameters
