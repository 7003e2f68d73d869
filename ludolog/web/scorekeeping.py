"""Scorekeeping pages: start a record, then enter each action in the engine's notation.

Every write goes through ``records.services`` (``start_game``, ``append_event``): the rules
engine checks the action, and a refusal comes back with the engine's reason code and message,
shown next to the form with the HTTP status the API would give (422 for an illegal action).
Nothing is stored on a refusal.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy as _

from games.registry import UNDO, engine_slugs, get_engine
from records import replay, services
from records.errors import RecordError
from records.models import GameRecord
from records.permissions import can_append
from scoring import selectors

from .board_svg import seat_colour
from .history import game_name
from .replay import board_for

MAX_SEATS = 5


class StartForm(forms.Form):
    game = forms.ChoiceField(label=_("Game"))
    seed = forms.IntegerField(
        label=_("Seed (optional)"), required=False, min_value=0, max_value=2**62,
        help_text=_("With a seed Ludolog deals the tiles or cards and rolls the dice; without one, record each "
                    "draw and each roll."),
    )
    played_on = forms.DateField(label=_("Date played"), initial=timezone.localdate,
                                widget=forms.DateInput(attrs={"type": "date"}))
    location = forms.CharField(label=_("Location"), required=False, max_length=200)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [(slug, game_name(slug)) for slug in engine_slugs()]
        for number in range(1, MAX_SEATS + 1):
            self.fields[f"seat_{number}"] = forms.CharField(
                label=gettext("Player in seat %(number)s") % {"number": number}, max_length=100,
                required=number <= 2,
            )

    def seat_fields(self) -> list[forms.BoundField]:
        return [self[f"seat_{number}"] for number in range(1, MAX_SEATS + 1)]

    def clean(self) -> dict:
        data = super().clean()
        names = [data.get(f"seat_{n}", "").strip() for n in range(1, MAX_SEATS + 1)]
        names = [name for name in names if name]
        if len(set(names)) != len(names):
            raise forms.ValidationError(_("Each player can take only one seat."), code="duplicate_player")
        data["players"] = names
        return data


class ActionForm(forms.Form):
    action = forms.CharField(
        label=_("Next action"), max_length=200,
        help_text=_("In the game's notation, or undo."),
    )
    expected_seq = forms.IntegerField(min_value=0, widget=forms.HiddenInput)

    def for_game(self, slug: str) -> ActionForm:
        """Show the game's own notation as the example."""
        engine = get_engine(slug)
        if engine is not None:
            self.fields["action"].help_text = gettext("In the game's notation, e.g. %(example)s, or undo.") % {
                "example": engine.notation_example}
        return self


def _keepable(request: HttpRequest):
    records = selectors.visible_records(request.user).filter(status=GameRecord.Status.IN_PROGRESS, result_only=False)
    if request.user.is_staff:
        return records
    return records.filter(Q(scorekeepers=request.user) | Q(seats__player__user=request.user)).distinct()


@login_required
def start(request: HttpRequest) -> HttpResponse:
    form = StartForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                record = services.start_game(
                    game_slug=data["game"],
                    seats=[services.SeatSpec(name) for name in data["players"]],
                    created_by=request.user,
                    seed=data["seed"],
                    played_on=data["played_on"],
                    location=data["location"],
                )
            except RecordError as error:
                form.add_error(error.details.get("field") if error.details.get("field") in form.fields else None,
                               error.message)
            else:
                messages.success(request, gettext("Record #%(id)s started.") % {"id": record.pk})
                return redirect("scorekeeping-record", pk=record.pk)
        status = 400
    in_progress = _keepable(request).prefetch_related("seats__player").order_by("-played_on", "-pk")[:50]
    return render(request, "scorekeeping/start.html", {"form": form, "records": in_progress}, status=status)


def _refusal(error: Exception) -> dict[str, str]:
    return {"reason": getattr(error, "reason", "error"), "message": getattr(error, "message", str(error))}


def _append(request: HttpRequest, record: GameRecord, form: ActionForm) -> tuple[dict[str, str] | None, int]:
    """Parse and append one action; returns the refusal (or None) and the HTTP status."""
    engine = get_engine(record.game_slug)
    text = form.cleaned_data["action"].strip()
    try:
        kind, payload = (UNDO, {}) if text == UNDO else engine.parse_notation(text)
    except ValueError as error:
        return {"reason": "invalid_notation", "message": str(error)}, 400
    try:
        services.append_event(record, form.cleaned_data["expected_seq"], kind, payload, recorded_by=request.user)
    except Exception as error:
        # Engine refusals (IllegalAction) and store refusals carry a stable reason code;
        # anything without one is a bug and must surface as such.
        if getattr(error, "reason", None) is None:
            raise
        return _refusal(error), getattr(error, "status_code", 422)
    return None, 201


@login_required
def record_page(request: HttpRequest, pk: int) -> HttpResponse:
    record = get_object_or_404(selectors.visible_records(request.user), pk=pk)
    if not can_append(request.user, record):
        return render(request, "scorekeeping/forbidden.html", {"record": record}, status=403)
    if record.result_only or get_engine(record.game_slug) is None:
        return render(request, "scorekeeping/forbidden.html", {"record": record, "no_engine": True}, status=409)
    refusal, status = None, 200
    last = services.last_seq(record)
    if request.method == "POST":
        form = ActionForm(request.POST)
        if form.is_valid():
            refusal, status = _append(request, record, form)
            if refusal is None:
                messages.success(request, gettext("Recorded: %(action)s") % {"action": form.cleaned_data["action"]})
                return redirect("scorekeeping-record", pk=record.pk)
        else:
            status = 400
        record.refresh_from_db()
    form_data = {"expected_seq": last}
    if refusal is not None:
        form = ActionForm(initial=form_data, data={"action": request.POST.get("action", ""), "expected_seq": last})
    elif request.method != "POST":
        form = ActionForm(initial=form_data)
    form.for_game(record.game_slug)
    document, state = services.position_and_state(record)
    position = document["position"]
    current = position.get("current_player")
    engine = get_engine(record.game_slug)
    hints = engine.hints(state) if engine is not None and record.status == GameRecord.Status.IN_PROGRESS else []
    context = {
        "record": record,
        "game": game_name(record.game_slug),
        "form": form,
        "refusal": refusal,
        "document": document,
        "position": position,
        "board": board_for(document, record, free_cells=record.status == GameRecord.Status.IN_PROGRESS),
        "current_player": document["seats"][current]["player"] if current is not None else "",
        "seats": [
            dict(seat, colour_value=seat_colour(seat["seat"], seat["colour"]), score=score)
            for seat, score in zip(document["seats"], position["scores"])
        ],
        "lines": list(reversed(replay.history(record)))[:20],
        "in_progress": record.status == GameRecord.Status.IN_PROGRESS,
        "hints": hints,
    }
    return render(request, "scorekeeping/record.html", context, status=status)
