"""The club's history brought in on a page, for staff: a BoardGameGeek plays file or a BG Stats
export uploaded, then reviewed (the games and players it finds or adds, the plays it would store
and those it skips, with why) before anything is stored; confirmed, it is stored as
``import_plays`` stores it (plays_exchange), in one transaction. A malformed file answers 400
naming its line or field, and nothing is stored.

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
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext, gettext_lazy as _

from accounts.current import current_organisation, may
from accounts.roles import Action
from plays_exchange.formats import BGG, BGSTATS, READERS, MalformedFile
from plays_exchange.services import plan_import, store

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
    plan = plan_import(READERS[waiting["format"]](data), waiting["format"], seen_by=request.user)
    store(plan, user=request.user, organisation=current_organisation(request))
    path.unlink(missing_ok=True)
    del request.session[SESSION_KEY]
    messages.success(request, gettext("Imported. Records created: %(created)s; already imported: %(matched)s; "
                                      "plays skipped: %(skipped)s.") % {"created": plan.created, "matched": plan.matched,
                                                     "skipped": plan.skipped})
    return redirect("import-plays")
