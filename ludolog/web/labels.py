"""Copy labels to print, for staff: ``/catalogue/labels.pdf`` answers the PDF sheet of the copies
chosen by ``copy=<id>`` (repeated), ``record=<catalogue id>`` (all its copies) or
``shelf=<prefix>`` (the copies whose shelf mark starts so), any of them together; ``skip=N``
leaves the first N labels of the first sheet blank, for a sheet already partly used. Each label's
QR code opens the copy's desk page on this site (games.labels, games.services.copy_labels).
The member cards are the desk's (``loans.pages.member_cards``)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext

from accounts.current import current_organisation, may
from accounts.roles import Action
from games.labels import A4_3x8
from games.models import Copy
from games.services import MAX_LABELS, copy_labels


def _refused(message: str, status: int = 400) -> HttpResponse:
    return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")


def labels_pdf_response(pdf: bytes, name: str = "labels.pdf") -> HttpResponse:
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return response


@login_required
def copy_labels_pdf(request: HttpRequest) -> HttpResponse:
    library = current_organisation(request)
    if not may(request, Action.PRINT_COPY_LABELS):
        return _refused(gettext("Only the desk and the librarians print copy labels."), status=403)
    try:
        copy_ids = [int(value) for value in request.GET.getlist("copy")]
        record_ids = [int(value) for value in request.GET.getlist("record")]
        skip = int(request.GET.get("skip") or 0)
    except ValueError:
        return _refused(gettext("copy, record and skip are numbers."))
    if not 0 <= skip < A4_3x8.per_page:
        return _refused(gettext("skip is from 0 to %(last)s: the labels left blank on a sheet of %(count)s.")
                        % {"last": A4_3x8.per_page - 1, "count": A4_3x8.per_page})
    shelves = [value for value in request.GET.getlist("shelf") if value.strip()]
    chosen = Q(pk__in=copy_ids) | Q(record__in=record_ids)
    for shelf in shelves:
        chosen |= Q(shelf_location__startswith=shelf)
    if not (copy_ids or record_ids or shelves):
        return _refused(gettext("No copy selected: give copy=<copy id> (as many as needed), "
                                "record=<catalogue record id> or shelf=<start of a shelf mark>."))
    copies = Copy.objects.filter(chosen, organisation=library)
    count = copies.count()
    if count == 0:
        return _refused(gettext("No copy matches the selection."))
    if count > MAX_LABELS:
        return _refused(gettext("%(count)s copies selected: a request prints at most %(most)s labels. "
                                "Choose fewer copies, a narrower shelf for instance.")
                        % {"count": count, "most": MAX_LABELS})
    return labels_pdf_response(copy_labels(copies, request.build_absolute_uri("/"), skip=skip))
