"""A librarian brings a library system's catalogue in, on the catalogue's own pages
(``/catalogue/import/``), never the admin's: a UNIMARC file (ISO 2709 or MARCXML, as PMB and Koha
export them) uploaded with its mapping (a preset, PMB's or Koha's, then each copy status code and
each custom field as plain form fields), **checked first** (a dry run, always a job of its own:
in ``make run`` it runs in the request, with a broker a worker checks it while the page waits),
its report read in the reader's language, the mapping changed and checked again if need be, then
**stored** by a Celery task in chunks, the page following the job's counts (htmx asks again every
second), then the report. Records are matched by their source identifier: the same file again
changes nothing. The copies are the current organisation's, which must lend games.

Thin: the mapping is :class:`games.unimarc.ImportMapping`, the jobs ``games.services`` and
``games.tasks``.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext, gettext_lazy as _
from django.views.decorators.http import require_POST

from accounts.current import current_organisation, may
from accounts.models import Organisation
from accounts.roles import Action
from games import services, unimarc
from games.models import Copy, UnimarcImport
from games.tasks import queue_unimarc_import

MAX_UPLOAD_BYTES = 100_000_000
"""A whole library's export: 10,000 PMB records take about 15 MB."""

PRESET_CHOICES = [("pmb", "PMB"), ("koha", "Koha")]
STATUS_CHOICES = [("", _("— not mapped —")), *Copy.Status.choices]
GAME_FACTS = (
    ("min_players", _("minimum players")),
    ("max_players", _("maximum players")),
    ("min_age", _("minimum age")),
    ("max_age", _("maximum age")),
    ("duration_minutes", _("average duration (minutes)")),
)
"""The record's fields a PMB custom field (900 $n) may fill, in the order the form shows them."""
STATUS_LINES_ADDED = 3
"""Empty lines under the preset's codes, for codes of one's own."""


class StatusLineForm(forms.Form):
    code = forms.CharField(label=_("Code in the file"), max_length=100, required=False, strip=True)
    status = forms.ChoiceField(label=_("Status in Ludolog"), choices=STATUS_CHOICES, required=False)


StatusLines = forms.formset_factory(StatusLineForm, extra=0, max_num=200, absolute_max=200)


class MappingForm(forms.Form):
    """The mapping as plain fields: the copy status codes are a formset beside it (``status``)."""

    preset = forms.ChoiceField(label=_("Exported from"), choices=PRESET_CHOICES)
    other_status = forms.ChoiceField(
        label=_("Any other status code"), required=False,
        choices=[("", _("refuses its record")), *Copy.Status.choices])

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for key, label in GAME_FACTS:
            self.fields[f"fact_{key}"] = forms.CharField(
                label=label, max_length=100, required=False,
                help_text=_("The custom field's name in the file (900 $n); empty: not read."))

    def facts(self) -> list[forms.BoundField]:
        return [self[f"fact_{key}"] for key, _label in GAME_FACTS]


def mapping_initial(mapping: unimarc.ImportMapping) -> tuple[dict[str, Any], list[dict[str, str]]]:
    """The forms' initial values for ``mapping``: the main form's, then the status lines."""
    by_field = {key: name for name, key in mapping.game_facts.items()}
    initial = {"preset": mapping.name, "other_status": mapping.other_status,
               **{f"fact_{key}": by_field.get(key, "") for key, _label in GAME_FACTS}}
    order = [value for value, _label in Copy.Status.choices]
    lines = [{"code": code, "status": status} for code, status in sorted(
        mapping.copy_status.items(), key=lambda line: (order.index(line[1]) if line[1] in order else len(order), line[0]))]
    return initial, lines + [{"code": "", "status": ""}] * STATUS_LINES_ADDED


def mapping_forms(data: Any = None, mapping: unimarc.ImportMapping | None = None) -> tuple[MappingForm, Any]:
    """The mapping's forms, bound to ``data`` or showing ``mapping`` (PMB's preset by default)."""
    if data is not None:
        return MappingForm(data), StatusLines(data, prefix="status")
    initial, lines = mapping_initial(mapping or unimarc.PRESETS["pmb"])
    return MappingForm(initial=initial), StatusLines(initial=lines, prefix="status")


def mapping_of(form: MappingForm, lines: Any) -> unimarc.ImportMapping | None:
    """The mapping the valid forms say (None with errors added): the preset's, with the codes,
    the other status and the custom fields as typed."""
    if not (form.is_valid() and lines.is_valid()):
        return None
    preset = unimarc.PRESETS[form.cleaned_data["preset"]]
    copy_status: dict[str, str] = {}
    for line in lines:
        code, status = line.cleaned_data.get("code", ""), line.cleaned_data.get("status", "")
        if not code and not status:
            continue  # a line left empty
        if not status:
            line.add_error("status", gettext("Choose the status this code stands for, or empty the code."))
        elif code in copy_status:
            line.add_error("code", gettext("This code is mapped twice."))
        else:  # an empty code with a status: the copies whose file gives none (Koha, to lend)
            copy_status[code] = status
    facts: dict[str, str] = {}
    for key, _label in GAME_FACTS:
        name = form.cleaned_data.get(f"fact_{key}", "")
        if name in facts:
            form.add_error(f"fact_{key}", gettext("This custom field already fills another field."))
        elif name:
            facts[name] = key
    if form.errors or any(line.errors for line in lines):
        return None
    # The custom field that names a rules engine is not offered here: it keeps the preset's.
    facts.update({name: key for name, key in preset.game_facts.items() if key not in dict(GAME_FACTS)})
    return unimarc.ImportMapping(name=preset.name, status_subfield=preset.status_subfield, copy_status=copy_status,
                                 other_status=form.cleaned_data["other_status"], game_facts=facts)


class UploadForm(forms.Form):
    file = forms.FileField(label=_("UNIMARC file (ISO 2709, MARCXML or PMB XML)"))

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_UPLOAD_BYTES:
            raise forms.ValidationError(gettext("A catalogue file is at most %(megabytes)s MB.") % {
                "megabytes": MAX_UPLOAD_BYTES // 1_000_000}, code="too_big")
        return upload


def _library(request: HttpRequest) -> Organisation | HttpResponse:
    """The current organisation if the reader may catalogue there and it lends games, else the
    refusal to answer."""
    organisation = current_organisation(request)
    if organisation is None or not may(request, Action.EDIT_CATALOGUE):
        return HttpResponse(gettext("Only the ludothèque's librarians import a catalogue."), status=403,
                            content_type="text/plain; charset=utf-8")
    if not organisation.lends_games:
        return HttpResponse(gettext("%(organisation)s does not lend games: it has no catalogue of its own to import.")
                            % {"organisation": organisation.name}, status=403, content_type="text/plain; charset=utf-8")
    return organisation


@login_required
def import_catalogue(request: HttpRequest) -> HttpResponse:
    """The upload and its mapping; "Check the file first" makes a dry run's job."""
    library = _library(request)
    if isinstance(library, HttpResponse):
        return library
    if request.method != "POST":
        preset = request.GET.get("preset", "pmb")
        form, lines = mapping_forms(mapping=unimarc.PRESETS.get(preset, unimarc.PRESETS["pmb"]))
        # The mapping folded away on the upload (a preset mostly fits), open on a report (to fix a refusal).
        return render(request, "catalogue/import.html", {"upload": UploadForm(), "form": form, "lines": lines,
                                                         "library": library, "mapping_open": "open" in request.GET})
    upload = UploadForm(request.POST, request.FILES)
    form, lines = mapping_forms(request.POST)
    mapping = mapping_of(form, lines)
    if not upload.is_valid() or mapping is None:
        return render(request, "catalogue/import.html", {"upload": upload, "form": form, "lines": lines,
                                                         "library": library}, status=400)
    job = services.start_unimarc_import(upload.cleaned_data["file"], request.user, organisation=library,
                                        mapping=mapping, dry_run=True)
    queue_unimarc_import(job)
    return redirect("catalogue:import-job", job.pk)


def _own_job(request: HttpRequest, pk: int, library: Organisation) -> UnimarcImport:
    job = get_object_or_404(UnimarcImport, pk=pk)
    if job.organisation_id != library.pk:
        raise Http404  # another organisation's import (or the admin's) is not there for this reader
    return job


@login_required
def import_job(request: HttpRequest, pk: int) -> HttpResponse:
    """A job's page: its progress as it runs (the part htmx asks for every second), then its
    report; a dry run's report comes with its mapping, to change, check again or store."""
    library = _library(request)
    if isinstance(library, HttpResponse):
        return library
    job = _own_job(request, pk, library)
    context: dict[str, Any] = {"job": job, "report": job.report, "mapping_open": True}
    if job.dry_run and job.status == UnimarcImport.Status.DONE:
        context["form"], context["lines"] = mapping_forms(mapping=unimarc.ImportMapping.from_data(job.mapping))
    template = "catalogue/_import_job.html" if request.headers.get("HX-Request") else "catalogue/import_job.html"
    return render(request, template, context)


@login_required
@require_POST
def import_checked(request: HttpRequest, pk: int) -> HttpResponse:
    """The checked file stored ("Store"), or checked again ("Check again"), with the mapping as
    the report's form says it."""
    library = _library(request)
    if isinstance(library, HttpResponse):
        return library
    checked = _own_job(request, pk, library)
    if not checked.dry_run or checked.status != UnimarcImport.Status.DONE:
        return HttpResponse(gettext("Only a file checked without errors can be stored from its report."), status=409,
                            content_type="text/plain; charset=utf-8")
    form, lines = mapping_forms(request.POST)
    mapping = mapping_of(form, lines)
    if mapping is None:
        return render(request, "catalogue/import_job.html", {"job": checked, "report": checked.report,
                                                             "form": form, "lines": lines, "mapping_open": True},
                      status=400)
    job = services.import_checked_file(checked, request.user, mapping, dry_run=request.POST.get("action") != "store")
    queue_unimarc_import(job)
    return redirect("catalogue:import-job", job.pk)
