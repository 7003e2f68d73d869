"""The club's history brought in on a page, for staff: a BoardGameGeek plays file or a BG Stats
export uploaded, then reviewed (the games and players it finds or adds, the plays it would store
and those it skips, with why) before anything is stored. On the review each game of the file
shows the catalogue record it will land on (by its BGG id, or its title in any of the record's
languages), and the importer may choose another (found by its title, records sharing a title told
apart by publisher and year) or a new record. Confirmed, it is stored by a Celery task
(plays_exchange.tasks) in chunks, its page following the counts as they go. A malformed file
answers 400 naming its line or field, in the reader's language, and nothing is stored.

Between the review and the confirmation the upload waits in a file of its own under the system's
temporary folder, named by a random token kept in the staff member's session.
"""

from __future__ import annotations

import re
import secrets
import tempfile
from pathlib import Path

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.files.base import ContentFile
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext, gettext_lazy as _

from accounts.current import current_organisation, may
from accounts.roles import Action
from games.models import CatalogueRecord
from games.search import matching
from plays_exchange.formats import BGG, BGSTATS, READERS, MalformedFile
from plays_exchange.models import PlaysImport
from plays_exchange.services import NEW, plan_import
from plays_exchange.tasks import queue_plays_import

MAX_UPLOAD_BYTES = 20_000_000
"""A club's whole history: 2,000 BGG plays take under a megabyte."""
SESSION_KEY = "plays_import"


def waiting_folder() -> Path:
    folder = Path(tempfile.gettempdir()) / "ludolog-plays-imports"
    folder.mkdir(exist_ok=True)
    return folder


class UploadForm(forms.Form):
    format = forms.ChoiceField(label=_("Exported from"), choices=[(BGG, _("BoardGameGeek (plays XML)")),
                                                                   (BGSTATS, _("BG Stats (JSON export)"))])
    file = forms.FileField(label=_("File"))


LINE = re.compile(r"line (\d+)")


def said(error: MalformedFile) -> dict[str, str]:
    """Where and what is wrong with a file, in the reader's language (the message's template is in
    the catalogue; a field's path, ``plays[3].gameRefId``, is the file's own word and stays)."""
    line = LINE.fullmatch(error.where)
    where = gettext("line %(number)s") % {"number": line.group(1)} if line else error.where
    return {"where": where, "message": gettext(error.template) % error.params if error.params else gettext(error.template)}


def _forbidden() -> HttpResponse:
    return HttpResponse(gettext("Only staff import a club's history."), status=403,
                        content_type="text/plain; charset=utf-8")


@login_required
def import_plays(request: HttpRequest) -> HttpResponse:
    if not may(request, Action.IMPORT_PLAYS):
        return _forbidden()
    if request.method == "POST" and "confirm" in request.POST:
        return _confirm(request)
    form = UploadForm(request.POST or None, request.FILES or None)
    if request.method != "POST":
        return render(request, "history/import.html", {"form": form})
    if not form.is_valid():
        return render(request, "history/import.html", {"form": form}, status=400)
    upload = form.cleaned_data["file"]
    if upload.size > MAX_UPLOAD_BYTES:
        form.add_error("file", gettext("A play log is at most %(megabytes)s MB.") % {
            "megabytes": MAX_UPLOAD_BYTES // 1_000_000})
        return render(request, "history/import.html", {"form": form}, status=400)
    data = upload.read()
    source = form.cleaned_data["format"]
    try:
        plan = plan_import(READERS[source](data), source, seen_by=request.user)
    except MalformedFile as error:
        return render(request, "history/import.html", {"form": form, "malformed": said(error)}, status=400)
    token = secrets.token_hex(16)
    (waiting_folder() / token).write_bytes(data)
    previous = request.session.get(SESSION_KEY)
    if previous:
        (waiting_folder() / previous["token"]).unlink(missing_ok=True)
    request.session[SESSION_KEY] = {"token": token, "format": source, "name": upload.name}
    return render(request, "history/import_review.html", {"plan": plan, "token": token, "file_name": upload.name})


def _confirm(request: HttpRequest) -> HttpResponse:
    waiting = request.session.get(SESSION_KEY)
    if not waiting or not secrets.compare_digest(waiting["token"], request.POST.get("token", "")):
        messages.error(request, gettext("That review has expired: upload the file again."))
        return redirect("import-plays")
    path = waiting_folder() / waiting["token"]
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        messages.error(request, gettext("That review has expired: upload the file again."))
        return redirect("import-plays")
    # Planned again: another import may have stored some of these plays since the review.
    landings = _landings(request)
    if landings is None:
        return HttpResponse(gettext("A game was pointed at a record the catalogue does not have: review the "
                                    "file again."), status=400, content_type="text/plain; charset=utf-8")
    job = PlaysImport(format=waiting["format"], file_name=waiting["name"][:255], landings=landings,
                      organisation=current_organisation(request), started_by=request.user)
    job.file.save(waiting["name"], ContentFile(data), save=False)
    job.save()
    queue_plays_import(job)
    path.unlink(missing_ok=True)
    del request.session[SESSION_KEY]
    return redirect("import-plays-job", job.pk)


def _landings(request: HttpRequest) -> dict[str, int | str] | None:
    """The record chosen for each game on the review (``game`` and ``landing`` side by side), or
    None when one names no record of the catalogue."""
    chosen: dict[str, int | str] = {}
    for key, landing in zip(request.POST.getlist("game"), request.POST.getlist("landing")):
        if landing == NEW:
            chosen[key] = NEW
        elif landing.isdigit() and len(landing) < 19:
            chosen[key] = int(landing)
        else:
            return None
    ids = {pk for pk in chosen.values() if isinstance(pk, int)}
    if len(ids) != CatalogueRecord.objects.filter(pk__in=ids).count():
        return None
    return chosen


def _own_job(request: HttpRequest, pk: int) -> PlaysImport:
    job = get_object_or_404(PlaysImport, pk=pk)
    if job.organisation_id != getattr(current_organisation(request), "pk", None):
        raise Http404  # another organisation's import is not there for this reader
    return job


@login_required
def import_job(request: HttpRequest, pk: int) -> HttpResponse:
    """An import being stored: its counts as they go (htmx asks again every second until it is
    finished; without scripts, the page reloaded says the same), then the result."""
    if not may(request, Action.IMPORT_PLAYS):
        return _forbidden()
    job = _own_job(request, pk)
    template = "history/_import_progress.html" if request.headers.get("HX-Request") else "history/import_job.html"
    return render(request, template, {"job": job, "report": job.report})


RECORDS_FOUND = 20
"""Records a search on the review offers: a title is typed until the record is among them."""


@login_required
def find_records(request: HttpRequest) -> HttpResponse:
    """The choice of records for one game of the review, those whose title (in any language)
    has the words typed, told apart by publisher and year; the record it lands on now stays one."""
    if not may(request, Action.IMPORT_PLAYS):
        return _forbidden()
    query = request.GET.get("q", "").strip()[:200]
    found = list(matching(CatalogueRecord.objects.select_related("publisher"), query).order_by("title", "pk")
                 [:RECORDS_FOUND]) if query else []
    current = request.GET.get("current", "")
    if current.isdigit() and len(current) < 19 and all(str(record.pk) != current for record in found):
        found += list(CatalogueRecord.objects.select_related("publisher").filter(pk=int(current)))
    row = request.GET.get("row", "")
    return render(request, "history/_landing_select.html", {
        "records": found, "selected": str(found[0].pk) if found else current or NEW,
        "row": row if row.isdigit() else "0", "game_title": request.GET.get("title", "")[:300]})
