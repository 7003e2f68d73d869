"""A librarian catalogues a game on the catalogue's own pages (``/catalogue/new/``,
``/catalogue/<pk>/edit/``), never the admin's: the record's fields and its lines (other titles,
people, identifiers, new copies) in sections, phone first. Who may: the current organisation's
librarians where it lends games (:func:`ludolog.web.catalogue.may_catalogue`, the rule of the
catalogue's other librarian pages). The catalogue is the installation's, not an organisation's:
any library's librarian completes a record; the copies each adds are their library's, and a
copy, once on the shelves, is the loans desk's to change.

Thin: the form and its duplicate check are ``games.forms``, the write ``games.services``.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext

from accounts.current import current_organisation
from accounts.models import Organisation
from games import services
from games.forms import LibrarianRecordForm, RecordLines
from games.models import CatalogueRecord, Copy
from games.registry import engine_slugs

from .catalogue import language_label, may_catalogue, record_text_language
from .games import game_name


def _record_url(record: CatalogueRecord) -> str:
    return reverse("catalogue:record", args=[record.pk])


def _refused(request: HttpRequest) -> HttpResponse:
    return render(request, "catalogue/refused.html", {
        "refusal_reason": "not_a_librarian",
        "refusal_words": gettext("Only the ludothèque's librarians catalogue its games."),
    }, status=403)


def _page(request: HttpRequest, record: CatalogueRecord) -> HttpResponse:
    """The form, empty or with the record; posted: stored, or shown again with what to mend (422)."""
    if not may_catalogue(request):
        return _refused(request)
    data, files = (request.POST, request.FILES) if request.method == "POST" else (None, None)
    form = LibrarianRecordForm(data, files, instance=record, record_url=_record_url,
                               engine_names={slug: game_name(slug) for slug in engine_slugs()})
    lines = RecordLines.of(record, data, files)
    _in_the_readers_words(form, lines, record, current_organisation(request))
    status = 200
    if request.method == "POST":
        try:
            stored = services.catalogue_record(form, lines, current_organisation(request))
        except services.RecordRefused as refusal:
            status = refusal.status_code
        else:
            messages.success(request, gettext("The record is saved."))
            return redirect("catalogue:record", pk=stored.pk)
    copies = (Copy.objects.filter(record=record).select_related("organisation").order_by("barcode")
              if record.pk else [])
    return render(request, "catalogue/record_form.html", {
        "record": record if record.pk else None, "form": form, "lines": lines, "copies": copies,
        "asks_anyway": form.asks_anyway or bool(form["catalogue_anyway"].value()),
    }, status=status)


def _in_the_readers_words(form: LibrarianRecordForm, lines: RecordLines, record: CatalogueRecord,
                          organisation: Organisation | None) -> None:
    """Languages named in the reader's language, as the record page names them; the record's own
    text marked with the language its library writes it in (a new record: the organisation's)."""
    def named(language) -> str:
        return language_label(language.code, language.name)

    form.fields["languages"].label_from_instance = named
    for line in [*lines.other_titles.forms, lines.other_titles.empty_form]:
        line.fields["language"].label_from_instance = named
    copies = Copy.objects.filter(record=record).select_related("organisation") if record.pk else []
    text_language = record_text_language(copies) or getattr(organisation, "language", "")
    for name in ("contents", "summary", "notes"):
        form.fields[name].widget.attrs["data-own-text"] = ""  # as the record page marks it
        if text_language:
            form.fields[name].widget.attrs["lang"] = text_language


def new_record(request: HttpRequest) -> HttpResponse:
    return _page(request, CatalogueRecord())


def edit_record(request: HttpRequest, pk: int) -> HttpResponse:
    return _page(request, get_object_or_404(CatalogueRecord.objects.select_related("publisher"), pk=pk))
