"""A catalogue record's checklist, ``/catalogue/<id>/checklist/``: the pieces a returned box is
counted against at the desk.

Librarians edit it here (each line's kind, count, colours and order; add a line, remove one), fill
an empty one from the record's "Contenu" (``loans.services.fill_components``), and, for a game a
rules engine plays, see beside each line what the engine says is in the box
(``loans.checklists``), take the engine's count for a line, or add the engine's pieces the
checklist lacks. Desk staff read it; others may not. A checklist that cannot be saved (an empty
kind, a negative count, one kind twice) is answered 422 with the reasons beside their lines, and
nothing is changed; an edit of a checklist another librarian changed in the meantime is answered
409. Thin: the checks and the engine's edits are pure functions of ``loans.checklists``.
"""

from __future__ import annotations

from dataclasses import dataclass

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language, gettext, ngettext
from django.utils.translation import gettext_lazy as _

from accounts.current import may
from accounts.roles import Action
from games.models import CatalogueRecord
from loans import checklists, selectors, services
from loans.contents import ContentLine
from loans.models import Component

MOST_LINES = 200
"""More lines than any box has: a bigger form is refused rather than read."""
REASON_WORDS = {
    "empty_kind": _("Say what the piece is."),
    "negative_count": _("A count cannot be negative."),
    "negative_colours": _("The number of colours cannot be negative."),
    "duplicate_kind": _("This kind is already on the checklist: one line per kind."),
    "kind_too_long": _("At most 120 characters."),
    "not_a_number": _("Type a whole number."),
    "missing_count": _("Say how many."),
    "too_many_lines": _("A checklist has at most 200 lines."),
}
"""Why a checklist cannot be saved, in the reader's language; the reasons are ``loans.checklists``'s."""


class ChecklistLineForm(forms.Form):
    # Numbers are read as whole numbers only; their bounds are loans.checklists.problems()'s, so
    # that every refusal has one reason and one wording.
    kind = forms.CharField(label=_("Kind"), required=False, max_length=1000)
    count = forms.IntegerField(label=_("Count"), required=False)
    colours = forms.IntegerField(label=_("Colours"), required=False)
    order = forms.IntegerField(label=_("Order"), required=False)


ChecklistFormSet = forms.formset_factory(ChecklistLineForm, extra=1, can_delete=True, max_num=MOST_LINES,
                                         absolute_max=MOST_LINES + 1)


@dataclass
class Row:
    """One line of the page: its form (librarians), what it says, and what the engine says of it."""

    index: int
    form: ChecklistLineForm | None
    line: ContentLine | None
    pairing: checklists.Pairing | None = None
    known: bool = False
    """Whether the engine was asked about the line (a game with an engine, a line that could be read)."""
    reasons: tuple[str, ...] = ()
    removed: bool = False
    """Ticked to be removed (a page answered 422 shows it ticked)."""

    @property
    def reason_words(self) -> list[str]:
        return [str(REASON_WORDS.get(reason, reason)) for reason in self.reasons]


def _forbidden(words: str) -> HttpResponse:
    return HttpResponse(words, status=403, content_type="text/plain; charset=utf-8")


def _french() -> bool:
    return (get_language() or "").startswith("fr")


def _checklist_in_french(record: CatalogueRecord) -> bool:
    """Whether the box's checklist is typed in French: the record's language, French unless the
    record names languages without it."""
    codes = set(record.languages.values_list("code", flat=True))
    return not codes or "fre" in codes or "eng" not in codes


def _initial(lines: list[ContentLine]) -> list[dict[str, object]]:
    return [{"kind": line.kind, "count": line.count, "colours": line.colours, "order": index + 1}
            for index, line in enumerate(lines)]


def _read_posted(formset: forms.BaseFormSet) -> tuple[list[Row], list[ContentLine], dict[int, int]]:
    """The posted rows (removed ones and untouched blank ones left out; each keeps its form's
    index, which the page's buttons name), the lines they keep in their new order, and for each
    kept line (by its place) its row's place in the rows."""
    rows: list[Row] = []
    kept: list[tuple[int, int, ContentLine]] = []
    for index, form in enumerate(formset.forms):
        form.is_valid()
        data = getattr(form, "cleaned_data", {})
        if data.get("DELETE"):
            # Shown again ticked, so that a page answered 422 posts the removal again.
            rows.append(Row(index, form, None, removed=True))
            continue
        if index >= formset.initial_form_count() and not form.has_changed():
            continue
        kind = (data.get("kind") or "").strip()
        reasons: tuple[str, ...] = ()
        if any(field in form.errors for field in ("count", "colours", "order")):
            reasons = ("not_a_number",)
        elif data.get("count") is None:
            reasons = ("missing_count",) if kind else ("empty_kind",)
        line = None if reasons else ContentLine(kind, data["count"], data.get("colours"))
        rows.append(Row(index, form, line, reasons=reasons))
        if line is not None:
            order = data.get("order")
            kept.append((order if order is not None else index + 1, index, line, len(rows) - 1))
    kept.sort(key=lambda item: item[:2])
    return rows, [item[2] for item in kept], {position: item[3] for position, item in enumerate(kept)}


def _with_engine(rows: list[Row], lines: list[ContentLine], row_of_line: dict[int, int],
                 pieces: tuple[selectors.BoxPiece, ...]) -> checklists.Comparison | None:
    if not pieces:
        return None
    comparison = checklists.compare(lines, pieces)
    for position in range(len(lines)):
        row = rows[row_of_line[position]]
        row.known, row.pairing = True, comparison.pairing_at(position)
    return comparison


@login_required
def record_checklist(request: HttpRequest, pk: int) -> HttpResponse:
    record = get_object_or_404(CatalogueRecord, pk=pk)
    if not may(request, Action.USE_DESK):
        return _forbidden(gettext("Only the ludothèque's staff see the checklists."))
    librarian = may(request, Action.EDIT_CHECKLISTS)
    if request.method != "POST":
        return _page(request, record, librarian)
    if not librarian:
        return _forbidden(gettext("Only librarians change the checklists."))
    if request.POST.get("action") == "fill":
        filled = services.fill_components(record)
        messages.success(request, ngettext("%(count)s line read from the contents.",
                                           "%(count)s lines read from the contents.", len(filled)) % {"count": len(filled)})
        return redirect("catalogue:checklist", pk=record.pk)
    return _edit(request, record, selectors.engine_pieces(record))


def _page(request: HttpRequest, record: CatalogueRecord, librarian: bool, *, status: int = 200) -> HttpResponse:
    """The checklist as it stands: a form for a librarian, a table for the desk."""
    saved = selectors.record_checklist(record)
    formset = ChecklistFormSet(initial=_initial(saved)) if librarian else None
    rows = ([Row(index, form, saved[index] if index < len(saved) else None) for index, form in enumerate(formset.forms)]
            if formset is not None else [Row(index, None, line) for index, line in enumerate(saved)])
    pieces = selectors.engine_pieces(record)
    comparison = _with_engine(rows, saved, {position: position for position in range(len(saved))}, pieces)
    return _render(request, record, librarian, formset, rows, comparison, checklists.version(saved), pieces,
                   status=status)


def _edit(request: HttpRequest, record: CatalogueRecord, pieces: tuple[selectors.BoxPiece, ...]) -> HttpResponse:
    """Save the posted checklist, with the engine's count taken for one line or its missing pieces
    added when one of those buttons was pressed."""
    formset = ChecklistFormSet(request.POST)
    if not formset.management_form.is_valid():
        return HttpResponse(gettext("The checklist form is incomplete: load the page again."), status=400,
                            content_type="text/plain; charset=utf-8")
    rows, lines, row_of_line = _read_posted(formset)
    problems = checklists.problems(lines)
    for problem in problems:
        row = rows[row_of_line[problem.index]]
        row.reasons = (*row.reasons, problem.reason)
    if len(rows) > MOST_LINES:
        rows[-1].reasons = (*rows[-1].reasons, "too_many_lines")
    if any(row.reasons for row in rows):
        comparison = _with_engine(rows, lines, row_of_line, pieces)
        return _render(request, record, True, formset, rows, comparison, request.POST.get("version", ""), pieces,
                       status=422)
    said = gettext("Checklist saved.")
    take = request.POST.get("take_count", "")
    if take.isdigit() and pieces:
        position = next((position for position, row in row_of_line.items() if rows[row].index == int(take)), None)
        if position is not None:
            lines = checklists.take_engine_count(lines, pieces, position)
            said = gettext("Checklist saved, with the engine's count for “%(kind)s”.") % {"kind": lines[position].kind}
    elif request.POST.get("action") == "add_missing" and pieces:
        before = len(lines)
        lines = checklists.add_missing(lines, pieces, french=_checklist_in_french(record))
        added = len(lines) - before
        said = ngettext("Checklist saved, with the engine's %(count)s missing piece added.",
                        "Checklist saved, with the engine's %(count)s missing pieces added.", added) % {"count": added}
    if not services.replace_checklist(record, request.POST.get("version", ""), lines):
        messages.error(request, gettext("Another librarian changed this checklist meanwhile: "
                                        "here it is as it stands now; make your change again."))
        return _page(request, record, True, status=409)
    messages.success(request, said)
    return redirect("catalogue:checklist", pk=record.pk)


def _render(request: HttpRequest, record: CatalogueRecord, librarian: bool, formset: forms.BaseFormSet | None,
            rows: list[Row], comparison: checklists.Comparison | None, version: str,
            pieces: tuple[selectors.BoxPiece, ...], *, status: int = 200) -> HttpResponse:
    french = _french()
    context = {
        "record": record,
        "librarian": librarian,
        "formset": formset,
        "rows": rows,
        "version": version,
        "has_engine": bool(pieces),
        "comparison": comparison,
        "missing": [{"piece": piece, "name": piece.name_fr if french else piece.name_en}
                    for piece in (comparison.missing if comparison else ())],
        "empty": not Component.objects.filter(record=record).exists(),
        "problems": sorted({reason for row in rows for reason in row.reasons}),
    }
    return render(request, "loans/checklist.html", context, status=status)
