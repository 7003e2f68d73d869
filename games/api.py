"""The catalogue, read-only, for other systems: records with their copies, searched and filtered
as on the OPAC page (the same ``games.search`` behind both)."""

from __future__ import annotations

from typing import Any

import django_filters
from django import forms
from django.db.models import Prefetch, QuerySet
from django.http import Http404
from rest_framework import serializers, viewsets
from rest_framework.exceptions import NotFound

from . import search
from .models import CatalogueRecord, Category, Contribution, Copy
from .registry import get_engine


class CopySerializer(serializers.ModelSerializer):
    class Meta:
        model = Copy
        fields = ["barcode", "shelf_location", "status", "acquired_on", "missing_pieces"]
        # Computed from the copy's events at the loans desk (/api/loans/copies/{barcode}/ has the detail).
        read_only_fields = ["status", "missing_pieces"]


class CatalogueRecordSerializer(serializers.ModelSerializer):
    publisher = serializers.CharField(source="publisher.name", default="", read_only=True)
    other_titles = serializers.SerializerMethodField()
    contributors = serializers.SerializerMethodField()
    languages = serializers.SlugRelatedField(many=True, read_only=True, slug_field="code")
    categories = serializers.SerializerMethodField()
    identifiers = serializers.SerializerMethodField()
    copies = CopySerializer(many=True, read_only=True)
    rules = serializers.SerializerMethodField(
        help_text="For a record with a rules engine: every ruleset version a game may be judged by (the one new "
                  "records pin is current) and the variants a record may choose, each with its source.")

    class Meta:
        model = CatalogueRecord
        fields = [
            "id", "title", "other_titles", "document_type", "contributors", "publisher", "publication_year",
            "languages", "categories", "min_players", "max_players", "min_age", "max_age", "duration_minutes",
            "contents", "summary", "notes", "identifiers", "engine_slug", "rules", "copies",
        ]

    def get_other_titles(self, record: CatalogueRecord) -> list[dict[str, str | None]]:
        return [{"title": o.title, "kind": o.kind, "language": o.language_id} for o in record.other_titles.all()]

    def get_contributors(self, record: CatalogueRecord) -> list[dict[str, str]]:
        return [{"name": c.person.name, "role": c.role} for c in record.contributions.all()]

    def get_categories(self, record: CatalogueRecord) -> list[dict[str, str]]:
        return [{"code": c.code, "label": c.label} for c in record.categories.all()]

    def get_identifiers(self, record: CatalogueRecord) -> list[dict[str, str]]:
        return [{"scheme": i.scheme, "value": i.value} for i in record.identifiers.all()]

    def get_rules(self, record: CatalogueRecord) -> dict[str, list[dict[str, Any]]] | None:
        engine = get_engine(record.engine_slug) if record.engine_slug else None
        if engine is None:
            return None
        return {
            "rulesets": [{**info.to_dict(), "current": version == engine.ruleset_version}
                         for version, info in engine.rulesets.items()],
            "variants": [info.to_dict() for info in engine.variants.values()],
        }


class WholeNumberFilter(django_filters.NumberFilter):
    """A count (players, years of age): a whole number, as the schema says (``players=0.5`` is
    refused, not rounded)."""

    field_class = forms.IntegerField


class CatalogueFilter(django_filters.FilterSet):
    """The OPAC's search words and facets: ``q``, ``category`` (id), ``language`` (ISO 639-2),
    ``players`` (playable with), ``age`` (suitable at), ``duration`` (short, medium, long, epic)."""

    q = django_filters.CharFilter(method="words", max_length=200)
    category = django_filters.ModelChoiceFilter(field_name="categories", queryset=Category.objects.all())
    language = django_filters.CharFilter(field_name="languages__code")
    players = WholeNumberFilter(method="playable_with")
    age = WholeNumberFilter(method="suitable_at")
    duration = django_filters.ChoiceFilter(
        method="lasting", choices=[(band.key, band.label) for band in search.DURATION_BANDS])
    engine_slug = django_filters.CharFilter()

    class Meta:
        model = CatalogueRecord
        fields = ["q", "category", "language", "players", "age", "duration", "engine_slug"]

    def words(self, records: QuerySet[CatalogueRecord], name: str, value: str) -> QuerySet[CatalogueRecord]:
        return search.matching(records, value)

    def playable_with(self, records: QuerySet[CatalogueRecord], name: str, value: int) -> QuerySet[CatalogueRecord]:
        return records.filter(search.plays_with(int(value)))

    def suitable_at(self, records: QuerySet[CatalogueRecord], name: str, value: int) -> QuerySet[CatalogueRecord]:
        return records.filter(search.suitable_at(int(value)))

    def lasting(self, records: QuerySet[CatalogueRecord], name: str, value: str) -> QuerySet[CatalogueRecord]:
        return records.filter(search.lasting(search.DURATION_BANDS_BY_KEY[value]))


class CatalogueRecordViewSet(viewsets.ReadOnlyModelViewSet):
    """The library catalogue: each record with its people, languages, categories and copies."""

    serializer_class = CatalogueRecordSerializer
    filterset_class = CatalogueFilter
    lookup_value_regex = "[0-9]+"
    queryset = (
        CatalogueRecord.objects.select_related("publisher")
        .prefetch_related(
            Prefetch("contributions", Contribution.objects.select_related("person")), "other_titles",
            "languages", "categories", "identifiers", Prefetch("copies", Copy.objects.order_by("barcode")),
        )
        .order_by("title", "pk")
    )

    def get_object(self) -> CatalogueRecord:
        try:
            return super().get_object()
        except Http404:
            raise NotFound(f"there is no catalogue record {self.kwargs.get('pk')}") from None
