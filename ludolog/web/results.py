"""Logging the result of any game the club plays, engine or not, from a phone in half a minute: the
game (one of the club's recent games in a tap, any catalogue title typed, or a new title added on
the spot), the players picked from the club's members, their scores, who won, when, how long,
where, with which copy, and whether it counts for the league.

The record is a result-only record made through the same services as any other
(``records.services.start_game`` then ``append_event`` with its one ``result`` event); a refusal
shows next to the form and stores nothing.
"""

from __future__ import annotations

from collections import Counter

from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Count, Max
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy as _

from accounts.current import current_organisation
from accounts.models import Organisation
from accounts.scoping import in_organisation
from agenda.errors import AgendaError
from games.models import CatalogueRecord, Copy
from games.registry import RESULT
from games.selectors import game_slug_for, record_label, records_with_title
from games.spelling import name_key, tidy_name
from records import players, services
from records.errors import RecordError
from records.models import GameRecord
from records.selectors import can_append, readable_record, visible_players, visible_records
from scoring.services import ranks_as_told

from .new_players import confirm_new_players
from .scorekeeping import players_offered, recorded_for
from .session_choice import add_session_field, link_to_session

RESULT_ROWS = 12
"""Player rows the page offers (a party game past twelve is logged through the API)."""
RECENT_GAMES = 8
MAX_SCORE = services.MAX_SCORE


TOLD_SCORES, TOLD_PLACES, TOLD_COOPERATIVE_WON, TOLD_COOPERATIVE_LOST = "scores", "places", "won", "lost"
"""How a result is told: scores (or, with none, who won), places, or a cooperative game's outcome."""


class ResultForm(forms.Form):
    """One game's result. A name finds its player whatever its case and accents, among the players
    the keeper may see; a name nobody has yet is a new player once its box is ticked. A title finds
    its catalogue record the same way; a title the catalogue lacks is added once its box is ticked."""

    recent = forms.TypedChoiceField(label=_("Recent games"), required=False, coerce=int, empty_value=None,
                                    widget=forms.RadioSelect)
    title = forms.CharField(label=_("Game"), required=False, max_length=300,
                            widget=forms.TextInput(attrs={"list": "catalogue-titles", "autocomplete": "off"}))
    new_title = forms.CharField(required=False)
    record = forms.IntegerField(required=False, min_value=1, max_value=2**62,
                                widget=forms.RadioSelect)
    """The record chosen among those the title typed names, when it names several."""
    lowest_wins = forms.BooleanField(label=_("The lowest score wins"), required=False)
    told = forms.ChoiceField(
        label=_("The numbers typed are"), required=False, initial=TOLD_SCORES, choices=[
            (TOLD_SCORES, _("Scores")),
            (TOLD_PLACES, _("Places (1: the winner)")),
            (TOLD_COOPERATIVE_WON, _("Cooperative: all won")),
            (TOLD_COOPERATIVE_LOST, _("Cooperative: all lost")),
        ])
    played_on = forms.DateField(label=_("Date played"), initial=timezone.localdate,
                                widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    duration_minutes = forms.IntegerField(label=_("Duration (minutes)"), required=False, min_value=1, max_value=24 * 60,
                                          widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    location = forms.CharField(label=_("Location"), required=False, max_length=200)
    copy = forms.ModelChoiceField(label=_("Copy used (optional)"), required=False, queryset=Copy.objects.none(),
                                  empty_label=_("No copy from the library"))
    is_friendly = forms.BooleanField(label=_("Friendly game (not in the league)"), required=False,
                                     help_text=_("Counts for no league, whoever plays."))

    def __init__(self, *args: Any, keeper: AbstractBaseUser, organisation: Organisation | None = None,
                 recorded_for: Organisation | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.keeper = keeper
        # The session it was played at: one of the organisation's the result is logged for.
        add_session_field(self, recorded_for, keeper)
        self.recent_games = recent_games(keeper)
        shared = {title for title, n in Counter(r.title for r in self.recent_games).items() if n > 1}
        self.fields["recent"].choices = [(record.pk, record_label(record) if record.title in shared else record.title)
                                         for record in self.recent_games]
        # The boxes of the library whose table this is (``accounts.scoping``).
        self.fields["copy"].queryset = (in_organisation(Copy.objects.all(), organisation)
                                        .exclude(status=Copy.Status.WITHDRAWN)
                                        .select_related("record").order_by("record__title", "barcode"))
        self.fields["copy"].label_from_instance = lambda copy: " · ".join(
            part for part in (copy.record.title, copy.barcode, copy.shelf_location) if part)
        for number in range(1, RESULT_ROWS + 1):
            self.fields[f"player_{number}"] = forms.CharField(
                label=gettext("Player %(number)s") % {"number": number}, required=False,
                max_length=players.NAME_LENGTH,
                widget=forms.TextInput(attrs={"list": "known-players", "autocomplete": "off", "placeholder": _("Player"),
                                              "autocapitalize": "words", "class": "result-name"}))
            self.fields[f"score_{number}"] = forms.IntegerField(
                label=gettext("Score of player %(number)s") % {"number": number}, required=False,
                min_value=-MAX_SCORE, max_value=MAX_SCORE,
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "result-score",
                                                "placeholder": _("Score")}))
            self.fields[f"won_{number}"] = forms.BooleanField(
                label=gettext("Player %(number)s won") % {"number": number}, required=False)
            self.fields[f"new_{number}"] = forms.CharField(required=False)
        self.new_names: dict[int, str] = {}
        self.unknown_title = ""
        self.same_title: list[tuple[int, str]] = []
        """The records the title typed names, when it names several: (id, told apart), to choose from."""

    def more_fields(self) -> list[forms.BoundField]:
        """When, how long, where, which copy: folded away, as most results need none of them."""
        return [self[name] for name in ("played_on", "duration_minutes", "location", "copy")]

    def rows(self) -> list[ResultRow]:
        return [ResultRow(number, self[f"player_{number}"], self[f"score_{number}"], self[f"won_{number}"],
                          self.new_names.get(number, ""),
                          bool(self.new_names.get(number)) and name_key(self.data.get(f"new_{number}", ""))
                          == name_key(self.new_names[number]))
                for number in range(1, RESULT_ROWS + 1)]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        data["catalogue_record"] = self._game(data)
        self._players(data)
        copy = data.get("copy")
        record = data["catalogue_record"]
        if copy is not None and record is not None and copy.record_id != record.pk:
            self.add_error("copy", forms.ValidationError(
                _("This copy is a box of %(title)s, not of %(game)s."), code="copy_of_another_game",
                params={"title": copy.record.title, "game": record.title}))
        return data

    def _game(self, data: dict[str, Any]) -> CatalogueRecord | None:
        if data.get("recent"):
            return next((r for r in self.recent_games if r.pk == data["recent"]), None)
        title = tidy_name(data.get("title") or "")
        if not title:
            self.add_error("title", forms.ValidationError(_("Choose the game, or type its title."), code="no_game"))
            return None
        found = records_with_title(title)
        if len(found) == 1:
            return found[0]
        if found:
            chosen = next((record for record in found if record.pk == data.get("record")), None)
            if chosen is None:
                # Never one picked for the keeper: the records are told apart and one is chosen.
                self.same_title = [(record.pk, record_label(record)) for record in found]
                self.add_error("title", forms.ValidationError(
                    _("Several games of the catalogue are called “%(title)s”: which one?"), code="which_record",
                    params={"title": title}))
            return chosen
        self.unknown_title = title
        if name_key(data.get("new_title") or "") != name_key(title):
            self.add_error("title", forms.ValidationError(
                _("“%(title)s” is not in the catalogue yet."), code="new_title", params={"title": title}))
        return None

    def _players(self, data: dict[str, Any]) -> None:
        rows = []
        for number in range(1, RESULT_ROWS + 1):
            name = tidy_name(data.get(f"player_{number}") or "")
            score = data.get(f"score_{number}")
            if not name:
                if score is not None:
                    self.add_error(f"player_{number}", forms.ValidationError(
                        _("Whose score is this?"), code="score_without_player"))
                continue
            if not players.shows(name):
                self.add_error(f"player_{number}", forms.ValidationError(
                    _("A name needs at least one visible character."), code="invisible_name"))
                continue
            rows.append((number, name, score, bool(data.get(f"won_{number}"))))
        if not rows:
            self.add_error(None, forms.ValidationError(_("Add the players and their scores."), code="no_players"))
        self.new_names = confirm_new_players(
            self, [(number, f"player_{number}", name) for number, name, _s, _w in rows], data, self.keeper,
            duplicate=_("Each player can be listed only once."))
        data["players"] = [name for _n, name, _s, _w in rows]
        if rows:
            payload = told_payload(self, data.get("told") or TOLD_SCORES,
                                   [(f"score_{number}", name, score, won) for number, name, score, won in rows],
                                   lowest_wins=bool(data.get("lowest_wins")))
            if payload is not None:
                data["payload"] = payload



@dataclass(frozen=True)
class ResultRow:
    number: int
    name: forms.BoundField
    score: forms.BoundField
    won: forms.BoundField
    new_name: str
    new_confirmed: bool


def result_payload(lines: list[tuple[int, bool]], *, lowest_wins: bool = False) -> dict[str, Any]:
    """The result event of the scores in seat order, each with whether the table said its player
    won: the players ticked as winners share first place, the others follow by score (highest
    first, or lowest when the lowest wins); equal scores share a rank.

    >>> result_payload([(30, False), (42, False), (42, False)])["scores"][1]
    {'seat': 1, 'score': 42, 'rank': 1}
    >>> [line["rank"] for line in result_payload([(12, False), (20, True)], lowest_wins=True)["scores"]]
    [2, 1]
    """
    ranks = ranks_as_told(lines, lowest_wins=lowest_wins)
    return {"scores": [{"seat": seat, "score": score, "rank": rank}
                       for seat, ((score, _won), rank) in enumerate(zip(lines, ranks))]}


Told = list[tuple[str, str, "int | None", bool]]
"""A result's lines as a form read them: (the field of the number, the player's name, the number
typed or None, whether the table said they won)."""


def told_payload(form: forms.Form, told: str, lines: Told, *, lowest_wins: bool) -> dict[str, Any] | None:
    """The result event as the table told it (scores, or none and who won; places; a cooperative
    game's outcome), or None with the errors added to ``form``."""
    numbers = [number for _field, _name, number, _won in lines]
    if told in (TOLD_COOPERATIVE_WON, TOLD_COOPERATIVE_LOST):
        return cooperative_payload(told, numbers) if _all_or_none(form, lines) else None
    if told == TOLD_PLACES:
        missing = [(field, name) for field, name, place, _won in lines if place is None or not 1 <= place <= len(lines)]
        for field, name in missing:
            form.add_error(field, forms.ValidationError(
                _("Give %(name)s's place, from 1 to %(last)s."), code="no_place", params={"name": name, "last": len(lines)}))
        return None if missing else {"scores": [{"seat": seat, "rank": place} for seat, place in enumerate(numbers)]}
    if all(number is None for number in numbers):
        if not any(won for *_line, won in lines):
            form.add_error(None, forms.ValidationError(_("Give the scores, or tick who won."), code="no_scores_no_winner"))
            return None
        # No scores: the winners first, everyone else second.
        return {"scores": [{"seat": seat, "rank": 1 if won else 2} for seat, (*_line, won) in enumerate(lines)]}
    if not _all_or_none(form, lines):
        return None
    return result_payload([(number, won) for _field, _name, number, won in lines], lowest_wins=lowest_wins)


def _all_or_none(form: forms.Form, lines: Told) -> bool:
    """Scores for every player or for none; each missing one an error otherwise."""
    missing = [(field, name) for field, name, number, _won in lines if number is None]
    if len(missing) in (0, len(lines)):
        return True
    for field, name in missing:
        form.add_error(field, forms.ValidationError(
            _("Give %(name)s's score, or no score at all."), code="no_score", params={"name": name}))
    return False


def cooperative_payload(outcome: str, scores: list[int | None]) -> dict[str, Any]:
    """A cooperative game's result: won or lost together, with the seats' scores where given.

    >>> cooperative_payload("won", [None, None])
    {'cooperative': 'won', 'scores': [{'seat': 0}, {'seat': 1}]}
    """
    return {"cooperative": outcome,
            "scores": [{"seat": seat, **({} if score is None else {"score": score})} for seat, score in enumerate(scores)]}


def recent_games(user: AbstractBaseUser) -> list[CatalogueRecord]:
    """The catalogue records the user's clubs played most recently, for a one-tap choice."""
    seen = visible_records(user).exclude(catalogue_record=None)
    ids = list(seen.values("catalogue_record").annotate(last=Max("played_on"), n=Count("pk"))
               .order_by("-last", "-n").values_list("catalogue_record", flat=True)[:RECENT_GAMES])
    by_id = CatalogueRecord.objects.in_bulk(ids)
    return [by_id[pk] for pk in ids if pk in by_id]


@login_required
def log_result(request: HttpRequest) -> HttpResponse:
    organisation = recorded_for(request)
    form = ResultForm(request.POST or None, keeper=request.user, organisation=current_organisation(request),
                      recorded_for=organisation, initial={"location": last_location(request.user)})
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                with transaction.atomic():
                    record = store_result(request.user, data, title=form.unknown_title, organisation=organisation)
                    link_to_session(form, record, request.user)
            except RecordError as error:
                form.add_error(None, error.message)
            except AgendaError as error:
                form.add_error("session", error.message)
            else:
                messages.success(request, logged_message(record, data))
                return redirect("game-detail", pk=record.pk)
        status = 400
    members, others = players_offered(request.user, current_organisation(request))
    titles = [(record.title, record_label(record)) for record in
              CatalogueRecord.objects.select_related("publisher").order_by("title", "pk")[:3000]]
    context = {"form": form, "members": members, "other_players": others, "titles": titles}
    return render(request, "scorekeeping/result.html", context, status=status)


def store_result(user: AbstractBaseUser, data: dict[str, Any], *, title: str,
                 organisation: Organisation | None = None) -> GameRecord:
    """The result-only record of ``organisation`` and its result event, or nothing (a refusal
    raises, storing nothing)."""
    with transaction.atomic():
        catalogue = data["catalogue_record"]
        if catalogue is None:
            catalogue = CatalogueRecord.objects.create(title=title, added_with_a_result=True)
        record = services.start_game(
            game_slug=game_slug_for(catalogue), seats=[services.SeatSpec(name) for name in data["players"]],
            created_by=user, result_only=True, catalogue_record=catalogue, copy=data.get("copy"),
            played_on=data["played_on"], location=data.get("location") or "",
            duration_minutes=data.get("duration_minutes"), is_friendly=bool(data.get("is_friendly")),
            is_cooperative="cooperative" in data["payload"], organisation=organisation,
        )
        services.append_event(record, 0, RESULT, data["payload"], recorded_by=user)
    return record


def logged_message(record: GameRecord, data: dict[str, Any]) -> str:
    game = record.catalogue_record.title if record.catalogue_record else record.game_slug
    payload = data["payload"]
    if payload.get("cooperative") == TOLD_COOPERATIVE_LOST:
        return gettext("Result logged: %(game)s, lost together.") % {"game": game}
    if payload.get("cooperative") == TOLD_COOPERATIVE_WON:
        return gettext("Result logged: %(game)s, won together.") % {"game": game}
    firsts = [name for name, line in zip(data["players"], payload["scores"]) if line["rank"] == 1]
    return gettext("Result logged: %(game)s, won by %(winners)s.") % {"game": game, "winners": ", ".join(firsts)}


def last_location(user: AbstractBaseUser) -> str:
    """Where the user's last logged game was played: the club usually meets at the same place."""
    return (GameRecord.objects.filter(created_by=user).exclude(location="").order_by("-pk")
            .values_list("location", flat=True).first() or "")



class CorrectionForm(forms.Form):
    """A finished result corrected: every seat's score (or place, or a cooperative game's outcome)
    again, who won as the table said, and why (kept with the correction)."""

    reason = forms.CharField(label=_("Why is it corrected?"), max_length=500)
    lowest_wins = forms.BooleanField(label=_("The lowest score wins"), required=False)

    def __init__(self, *args: Any, seats: list[tuple[int, str, int | None, bool]], cooperative: str = "",
                 told: str = TOLD_SCORES, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seats = seats
        self.cooperative = bool(cooperative)
        # A cooperative game stays one: only its outcome and scores are corrected.
        choices = ResultForm.base_fields["told"].choices
        self.fields["told"] = forms.ChoiceField(
            label=ResultForm.base_fields["told"].label, initial=told, required=False,
            choices=[choice for choice in choices if (choice[0] in (TOLD_COOPERATIVE_WON, TOLD_COOPERATIVE_LOST))
                     == self.cooperative])
        for order, name, score, won in seats:
            self.fields[f"score_{order}"] = forms.IntegerField(
                label=gettext("Score of %(name)s") % {"name": name}, min_value=-MAX_SCORE, max_value=MAX_SCORE,
                initial=score, required=False, widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
            self.fields[f"won_{order}"] = forms.BooleanField(
                label=gettext("%(name)s won") % {"name": name}, required=False, initial=won and score is None)

    def lines(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [(self[f"score_{order}"], self[f"won_{order}"]) for order, _name, _score, _won in self.seats]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        payload = told_payload(self, data.get("told") or self.fields["told"].initial, [
            (f"score_{order}", name, data.get(f"score_{order}"), bool(data.get(f"won_{order}")))
            for order, name, _score, _won in self.seats], lowest_wins=bool(data.get("lowest_wins")))
        if payload is not None:
            data["payload"] = payload
        return data

    def payload(self) -> dict[str, Any]:
        return {**self.cleaned_data["payload"], "reason": self.cleaned_data["reason"]}


def correction_form(record: GameRecord, data: Any = None) -> CorrectionForm:
    """The correction form of a finished result-only record, filled with its standing result."""
    last = record.events.filter(type__in=[RESULT, services.CORRECTION]).order_by("-seq").first()
    payload = last.payload if last else {"scores": []}
    lines = {line["seat"]: line for line in payload["scores"]}
    by_places = any("score" not in line and "rank" in line for line in lines.values())
    # Places told as places; winners only (places 1 and 2, no score) as ticks.
    told = payload.get("cooperative") or (TOLD_PLACES if by_places and any(
        line.get("rank", 1) > 2 for line in lines.values()) else TOLD_SCORES)
    seats = []
    for seat in record.seats.select_related("player").order_by("seat_order"):
        line = lines.get(seat.seat_order, {})
        number = line.get("rank") if told == TOLD_PLACES else line.get("score")
        seats.append((seat.seat_order, seat.player.display_name, number, line.get("rank") == 1))
    return CorrectionForm(data, seats=seats, cooperative=payload.get("cooperative", ""), told=told)


def can_correct(user: AbstractBaseUser, record: GameRecord) -> bool:
    return record.result_only and record.status == GameRecord.Status.FINISHED and can_append(user, record)


@require_POST
@login_required
def correct_result(request: HttpRequest, pk: int) -> HttpResponse:
    """A finished result corrected from its game page: a new event; a refusal shows on the page."""
    from .history import detail_page

    record = readable_record(request.user, pk)
    if not can_correct(request.user, record):
        return HttpResponse(gettext("Only a finished result's scorekeepers and players correct it."),
                            status=403, content_type="text/plain; charset=utf-8")
    form = correction_form(record, request.POST)
    if form.is_valid():
        try:
            services.append_event(record, services.last_seq(record), services.CORRECTION, form.payload(),
                                  recorded_by=request.user)
        except RecordError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, gettext("Result corrected. The standings and ratings follow; what moved is "
                                              "listed below once they are recomputed."))
            return redirect("game-detail", pk=record.pk)
    return detail_page(request, record, correction=form, status=400)
