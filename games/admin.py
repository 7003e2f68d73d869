from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from accounts.selectors import only_library
from .models import (
    CatalogueRecord,
    Category,
    Contribution,
    Copy,
    Identifier,
    Language,
    MapFile,
    OtherTitle,
    Person,
    Publisher,
    UnimarcImport,
)
from . import covers
from .jobs_admin import ImportJobAdmin
from .forms import LikelyDuplicatesCheck
from .services import MAX_LABELS, copy_labels, export_unimarc, start_unimarc_import
from .signals import catalogued
from .tasks import queue_unimarc_import


class PlayerCountFilter(admin.SimpleListFilter):
    title = _("playable with")
    parameter_name = "players"

    def lookups(self, request, model_admin):
        return [(str(n), _("%(n)s players") % {"n": n}) for n in range(1, 9)]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        if not self.value():
            return queryset
        n = int(self.value())
        return queryset.filter(
            Q(min_players__isnull=True) | Q(min_players__lte=n),
            Q(max_players__isnull=True) | Q(max_players__gte=n),
        ).exclude(min_players__isnull=True, max_players__isnull=True)


class MinimumAgeFilter(admin.SimpleListFilter):
    title = _("suitable from age")
    parameter_name = "age"

    def lookups(self, request, model_admin):
        return [(str(a), _("%(a)s years") % {"a": a}) for a in (3, 6, 8, 10, 12, 14)]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        if not self.value():
            return queryset
        return queryset.filter(min_age__lte=int(self.value()))


DURATION_BANDS = {
    "short": (_("up to 30 minutes"), 0, 30),
    "medium": (_("31 to 60 minutes"), 31, 60),
    "long": (_("61 to 120 minutes"), 61, 120),
    "epic": (_("over 2 hours"), 121, 10_000),
}


class DurationFilter(admin.SimpleListFilter):
    title = _("duration")
    parameter_name = "duration"

    def lookups(self, request, model_admin):
        return [(key, label) for key, (label, _low, _high) in DURATION_BANDS.items()]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        band = DURATION_BANDS.get(self.value() or "")
        if band is None:
            return queryset
        return queryset.filter(duration_minutes__gte=band[1], duration_minutes__lte=band[2])


DESK_KEPT_FIELDS = ("status", "missing_pieces")
"""A copy's status and missing pieces are the loans desk's: computed from the copy's events and
written back here (``loans.services``). A new copy may say how it comes in (on loan, missing
parts, with a note): that becomes its first events; after that, the desk changes them."""


class CopyInline(admin.TabularInline):
    model = Copy
    extra = 0
    readonly_fields = DESK_KEPT_FIELDS


class ContributionInline(admin.TabularInline):
    model = Contribution
    extra = 0
    autocomplete_fields = ["person"]


class OtherTitleInline(admin.TabularInline):
    model = OtherTitle
    extra = 0


class IdentifierInline(admin.TabularInline):
    model = Identifier
    extra = 0


class UnimarcImportForm(forms.Form):
    file = forms.FileField(label=_("UNIMARC file (ISO 2709, MARCXML or PMB XML)"))


class CatalogueRecordForm(LikelyDuplicatesCheck, forms.ModelForm):
    """The operator's record form: the duplicate check of the librarian's (:mod:`games.forms`),
    its warnings linking to the admin's page of the record named."""

    class Meta:
        model = CatalogueRecord
        fields = "__all__"

    def record_url(self, record: CatalogueRecord) -> str:
        return reverse("admin:games_cataloguerecord_change", args=[record.pk])


@admin.register(CatalogueRecord)
class CatalogueRecordAdmin(admin.ModelAdmin):
    form = CatalogueRecordForm
    list_display = ["cover_thumbnail", "title", "publisher", "players", "min_age", "duration_minutes", "engine_slug",
                    "copy_count"]
    list_display_links = ["cover_thumbnail", "title"]
    # An empty field is a gap in the record for the librarian to fill, not a dash to read past.
    empty_value_display = _("not stated")
    search_fields = ["title", "other_titles__title", "contributions__person__name", "publisher__name"]
    # "Added with a logged result": the titles club members added on the spot, for a librarian to complete or merge.
    list_filter = ["categories", "languages", PlayerCountFilter, MinimumAgeFilter, DurationFilter, "added_with_a_result"]
    filter_horizontal = ["languages", "categories"]
    inlines = [OtherTitleInline, ContributionInline, IdentifierInline, CopyInline]
    fieldsets = [
        (None, {"fields": ["title", "document_type", "publisher", "publication_year", "languages", "categories"]}),
        (_("Play"), {"fields": [("min_players", "max_players"), ("min_age", "max_age"), "duration_minutes"]}),
        (_("Description"), {"fields": ["contents", "summary", "notes", "engine_slug"]}),
        (_("Cover"), {"fields": ["cover", "cover_preview"]}),
        (_("Likely duplicates"), {"fields": ["catalogue_anyway"]}),
    ]
    readonly_fields = ["cover_preview"]

    change_list_template = "admin/games/cataloguerecord/change_list.html"
    actions = ["export_unimarc"]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("publisher").prefetch_related("copies")

    def save_related(self, request: HttpRequest, form: forms.ModelForm, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        catalogued([form.instance.pk])  # the desk reads its checklist from its contents (loans listens)

    def get_urls(self):
        return [
            path("import-unimarc/", self.admin_site.admin_view(self.import_unimarc_view),
                 name="games_cataloguerecord_import_unimarc"),
            *super().get_urls(),
        ]

    def import_unimarc_view(self, request: HttpRequest) -> HttpResponse:
        """Upload a UNIMARC file (ISO 2709 or MARCXML, e.g. from PMB): kept with a job that a Celery
        task imports (all its records, or none if one cannot be taken), and followed on the job's
        page. Thousands of records take minutes: longer than a web request may last."""
        if not self.has_add_permission(request):
            raise PermissionDenied
        form = UnimarcImportForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            job = start_unimarc_import(form.cleaned_data["file"], started_by=request.user)
            queue_unimarc_import(job)
            return redirect("admin:games_unimarcimport_change", job.pk)
        context = {
            **self.admin_site.each_context(request), "opts": self.model._meta, "form": form,
            "title": _("Import a UNIMARC file"),
        }
        return render(request, "admin/games/cataloguerecord/import_unimarc.html", context,
                      status=400 if form.errors else 200)

    @admin.action(description=_("Export the selected records as UNIMARC (ISO 2709)"))
    def export_unimarc(self, request: HttpRequest, queryset) -> HttpResponse:
        response = HttpResponse(export_unimarc(queryset), content_type="application/marc")
        response["Content-Disposition"] = 'attachment; filename="ludolog-catalogue.mrc"'
        return response

    def save_model(self, request: HttpRequest, obj: CatalogueRecord, form, change: bool) -> None:
        previous = CatalogueRecord.objects.filter(pk=obj.pk).values_list("cover", flat=True).first() if change else ""
        super().save_model(request, obj, form, change)
        if "cover" in form.changed_data:
            covers.record_cover_changed(obj, previous)

    def delete_model(self, request: HttpRequest, obj: CatalogueRecord) -> None:
        cover = obj.cover.name
        super().delete_model(request, obj)
        if cover:
            covers.delete_cover_files_on_commit(cover)

    def delete_queryset(self, request: HttpRequest, queryset) -> None:
        names = [name for name in queryset.values_list("cover", flat=True) if name]
        super().delete_queryset(request, queryset)
        for name in names:
            covers.delete_cover_files_on_commit(name)

    @admin.display(description=_("cover"))
    def cover_thumbnail(self, obj: CatalogueRecord) -> str:
        if not obj.cover:
            return "—"
        return format_html('<img src="{}" alt="" width="48" height="48" style="object-fit: contain">',
                           covers.thumbnail_url(obj.cover.name, 160))

    @admin.display(description=_("thumbnail"))
    def cover_preview(self, obj: CatalogueRecord) -> str:
        if not obj.cover:
            return _("No cover yet: the catalogue shows a neutral drawing instead.")
        return format_html('<img src="{}" alt="" style="max-width: 240px; max-height: 240px">',
                           covers.thumbnail_url(obj.cover.name, 480))

    @admin.display(description=_("players"))
    def players(self, obj: CatalogueRecord) -> str | None:
        if obj.min_players is None and obj.max_players is None:
            return None
        return f"{obj.min_players or '?'}–{obj.max_players or '?'}"

    @admin.display(description=_("copies"))
    def copy_count(self, obj: CatalogueRecord) -> int:
        return len(obj.copies.all())


@admin.register(Copy)
class CopyAdmin(admin.ModelAdmin):
    list_display = ["barcode", "record", "shelf_location", "status", "acquired_on"]
    list_filter = ["status"]
    search_fields = ["barcode", "record__title"]
    autocomplete_fields = ["record"]
    actions = ["print_labels"]

    def get_changeform_initial_data(self, request: HttpRequest) -> dict:
        # An installation with one game library: a new copy is its.
        return {"organisation": only_library(), **super().get_changeform_initial_data(request)}

    def get_readonly_fields(self, request: HttpRequest, obj: Copy | None = None):
        return DESK_KEPT_FIELDS if obj is not None else ()

    @admin.action(description=_("Print labels for the selected copies"))
    def print_labels(self, request: HttpRequest, queryset) -> HttpResponse | None:
        count = queryset.count()
        if count > MAX_LABELS:
            self.message_user(request, _("%(count)s copies selected: labels are printed at most %(most)s at a time.")
                              % {"count": count, "most": MAX_LABELS}, messages.ERROR)
            return None
        response = HttpResponse(copy_labels(queryset, request.build_absolute_uri("/")), content_type="application/pdf")
        response["Content-Disposition"] = 'inline; filename="labels.pdf"'
        return response


@admin.register(Person)
class PersonAdmin(admin.ModelAdmin):
    search_fields = ["name"]


@admin.register(Publisher)
class PublisherAdmin(admin.ModelAdmin):
    search_fields = ["name"]


@admin.register(Language)
class LanguageAdmin(admin.ModelAdmin):
    list_display = ["code", "name"]
    search_fields = ["code", "name"]


@admin.register(Category)
class CategoryAdmin(admin.ModelAdmin):
    list_display = ["code", "label"]
    search_fields = ["code", "label"]


class MapFileForm(forms.ModelForm):
    """A map file uploaded as JSON, checked by the Carcassonne Maps engine (its schema, then its
    consistency: starts, islands, large cities…) before anything is stored."""

    upload = forms.FileField(label=_("Map file (JSON)"), help_text=_(
        "A map in the format of games/engines/carcassonne_maps/data/map.schema.json (see the Benelux file "
        "beside it). Its name and version are read from the file; a version once loaded never changes."))

    class Meta:
        model = MapFile
        fields: list[str] = []

    def clean_upload(self):
        import json

        from games.engines.carcassonne_maps import MapFileError, map_from_dict, packaged_map

        raw = self.cleaned_data["upload"].read(2_000_001)
        if len(raw) > 2_000_000:
            raise forms.ValidationError(_("A map file is at most 2 MB."))
        try:
            data = json.loads(raw.decode("utf-8"))
            definition = map_from_dict(data)
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise forms.ValidationError(_("Not a JSON file: %(error)s") % {"error": error}) from None
        except (MapFileError, KeyError, TypeError, ValueError) as error:
            raise forms.ValidationError(str(error)) from None
        name, version = definition.ref["name"], definition.ref["version"]
        try:
            packaged_map(name, version)
        except KeyError:
            pass
        else:
            raise forms.ValidationError(_("Ludolog already ships %(name)s %(version)s.") % {"name": name, "version": version})
        if MapFile.objects.filter(name=name, version=version).exists():
            raise forms.ValidationError(_("%(name)s %(version)s is loaded already: give the file a new version.")
                                        % {"name": name, "version": version})
        self.instance.name, self.instance.version = name, version
        self.instance.title, self.instance.approximate = definition.title, definition.approximate
        self.instance.data = data
        return self.cleaned_data["upload"]


@admin.register(MapFile)
class MapFileAdmin(admin.ModelAdmin):
    list_display = ["title", "name", "version", "approximate", "uploaded_by", "uploaded_at"]
    readonly_fields = ["name", "version", "title", "approximate", "uploaded_by", "uploaded_at"]

    def get_form(self, request, obj=None, **kwargs):
        if obj is None:
            kwargs["form"] = MapFileForm
        return super().get_form(request, obj, **kwargs)

    def get_fields(self, request, obj=None):
        return ["upload"] if obj is None else self.readonly_fields

    def get_readonly_fields(self, request, obj=None):
        return [] if obj is None else self.readonly_fields

    def has_change_permission(self, request, obj=None) -> bool:
        return False  # records pin a map by version: a stored one never changes

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    def save_model(self, request, obj, form, change) -> None:
        obj.uploaded_by = request.user
        super().save_model(request, obj, form, change)


@admin.register(UnimarcImport)
class UnimarcImportAdmin(ImportJobAdmin):
    report_template = "admin/games/unimarcimport/report.html"
    upload_permission = "games.add_cataloguerecord"
