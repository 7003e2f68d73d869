"""Starting a record from a phone: the game, the players picked from the club's members (or
added explicitly), the copy used, the date. Recording the moves is :mod:`ludolog.web.recorder`.

The record is created by ``records.services.start_game``, which seats the known player for any
spelling of a name; a refusal shows next to the form and creates nothing.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from functools import reduce
from operator import or_
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy as _

from accounts.current import current_organisation, may
from accounts.models import Organisation
from accounts.roles import Action
from accounts.scoping import in_organisation
from agenda.errors import AgendaError
from games.models import Copy
from games.registry import UNDO, engine_slugs, get_engine
from games.spelling import name_key, tidy_name
from records import players, services
from records.errors import RecordError
from records.models import GameRecord, Player
from records.selectors import appendable_records, visible_players

from .games import game_name
from .games import web_game
from .new_players import confirm_new_players
from .quick_select import QuickSelect, quick
from .session_choice import add_session_field, link_to_session
from .setup_choices import SetupChoices, SetupError, colour_name, field_name
from .tile_frame import seat_colour

MAX_SEATS = 6
"""Carcassonne with Inns & Cathedrals seats six."""


class CopyChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, copy: Copy) -> str:
        return " · ".join(part for part in (copy.record.title, copy.barcode, copy.shelf_location) if part)


class CopySelect(QuickSelect):
    """Each copy names its game (``data-game``), so the page can offer only the chosen game's boxes."""

    def create_option(self, name, value, *args, **kwargs) -> dict:
        option = super().create_option(name, value, *args, **kwargs)
        copy = getattr(value, "instance", None)
        if copy is not None:
            option["attrs"]["data-game"] = copy.record.engine_slug
        return option


class ColourSelect(QuickSelect):
    """Each colour names the games whose pieces come in it (``data-games``), so the page can
    offer only the chosen game's."""

    def __init__(self, games_of: dict[str, list[str]], *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.games_of = games_of

    def create_option(self, name, value, *args, **kwargs) -> dict:
        option = super().create_option(name, value, *args, **kwargs)
        if value:
            option["attrs"]["data-games"] = " ".join(self.games_of.get(str(value), []))
            option["attrs"]["data-hex"] = seat_colour(0, str(value))
        return option


def game_colours(slug: str) -> Sequence[str]:
    """The colours of the game's own pieces (none for a game without a web module)."""
    game = web_game(slug)
    return game.seat_colours if game is not None else ()


def colour_fields(slugs: Sequence[str]) -> tuple[list[tuple[str, str]], dict[str, list[str]]]:
    """The colours of every game ``slugs`` names, in first-seen order, and the games of each colour."""
    games_of: dict[str, list[str]] = {}
    for slug in slugs:
        for colour in game_colours(slug):
            games_of.setdefault(colour, []).append(slug)
    return [(colour, colour_name(colour)) for colour in games_of], games_of


def default_colours(chosen: Sequence[str], colours: Sequence[str]) -> list[str]:
    """Each seat's colour: the one chosen, else the game's first colour nobody chose.

    >>> default_colours(["blue", "", "red"], ["red", "yellow", "green", "blue"])
    ['blue', 'yellow', 'red']
    """
    free = [colour for colour in colours if colour not in chosen]
    return [colour or (free.pop(0) if free else "") for colour in chosen]


@dataclass(frozen=True)
class SeatRow:
    """One seat on the form; ``new_name`` is set when the name typed is nobody's yet."""

    number: int
    field: forms.BoundField
    colour: forms.BoundField
    new_name: str = ""
    new_confirmed: bool = False


class StartForm(forms.Form):
    """A record's setup: the game, the players in order of play, the box used, when and where.

    A name typed in a seat finds its player whatever its case and accents, among the players
    the keeper may see (``keeper``); a name nobody they may see has yet is a new player only once
    the seat's "Add … as a new player" box is ticked, so that a slip of the thumb does not create
    a second Alice.
    """

    game = forms.ChoiceField(label=_("Game"), widget=forms.RadioSelect)
    copy = CopyChoiceField(
        label=_("Copy used (optional)"), required=False, queryset=Copy.objects.none(), widget=CopySelect,
        empty_label=_("No copy from the library"),
        help_text=_("Links this game to the box taken from the shelf."),
    )
    # A date input takes ISO dates only; the localised format (01/12/2026 in French) left it empty.
    played_on = forms.DateField(label=_("Date played"), initial=timezone.localdate,
                                widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    location = forms.CharField(label=_("Location"), required=False, max_length=200)
    ludolog_draws = forms.BooleanField(
        label=_("Ludolog draws and rolls"), required=False,
        help_text=_("Ludolog deals the tiles or cards and rolls the dice; off: record each draw and each roll "
                    "made at the table."),
    )
    seed = forms.IntegerField(
        label=_("Seed (optional)"), required=False, min_value=0, max_value=2**62,
        help_text=_("Picked for you. The same seed deals the same game: change it only to replay a known deal."),
    )
    shuffle_seats = forms.BooleanField(
        label=_("Random first player"), required=False,
        help_text=_("The seats are shuffled when the record starts: the new seat 1 plays first."),
    )
    play_started_at = forms.DateTimeField(
        label=_("Play started"), required=False, input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S"],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    is_friendly = forms.BooleanField(
        label=_("Friendly game (not in the league)"), required=False,
        help_text=_("Counts for no league, whoever plays."),
    )

    def __init__(self, *args, keeper: AbstractBaseUser | None = None, organisation: Organisation | None = None,
                 recorded_for: Organisation | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.keeper = keeper
        # The session it is played at: one of the organisation's the game is recorded for.
        add_session_field(self, recorded_for, keeper)
        slugs = engine_slugs()
        self.fields["game"].choices = [(slug, game_name(slug)) for slug in slugs]
        self.fields["game"].initial = slugs[0] if slugs else None
        # Picked now, shown (and editable) once "Ludolog draws and rolls" is on; a seed typed
        # seeds the record whatever the toggle says (the toggle alone picks one).
        self.fields["seed"].widget.attrs["data-picked"] = str(secrets.randbelow(2**31))
        self.fields["play_started_at"].initial = timezone.localtime().replace(second=0, microsecond=0)
        colours, games_of = colour_fields(slugs)
        # The boxes of the library whose table this is: another library's are not on its shelves.
        self.fields["copy"].queryset = (
            in_organisation(Copy.objects.all(), organisation)
            .filter(record__engine_slug__in=slugs).exclude(status=Copy.Status.WITHDRAWN)
            .select_related("record").order_by("record__title", "barcode")
        )
        for number in range(1, MAX_SEATS + 1):
            self.fields[f"seat_{number}"] = forms.CharField(
                label=gettext("Player in seat %(number)s") % {"number": number}, max_length=players.NAME_LENGTH,
                required=number <= 2,
                widget=forms.TextInput(attrs={"list": "known-players", "autocomplete": "off",
                                              "autocapitalize": "words", "class": "seat-name"}),
            )
            # The name the player ticked "add as a new player" for: a tick for another name does not count.
            self.fields[f"new_{number}"] = forms.CharField(required=False)
            self.fields[f"colour_{number}"] = forms.ChoiceField(
                label=gettext("Colour in seat %(number)s") % {"number": number}, required=False,
                choices=[("", _("auto")), *colours],
                widget=ColourSelect(games_of, attrs={"class": "seat-colour"}))
        self.new_names: dict[int, str] = {}
        for game, choices in setup_choices(slugs).items():
            for name, field in choices.fields().items():
                # Only the chosen game's questions must be answered (see clean()).
                field.required = False
                self.fields[field_name(game, name)] = quick(field)

    def colours_by_game(self) -> dict[str, list[str]]:
        """Each game's colours in the order seats left to the default take them (for start.js)."""
        return {slug: list(game_colours(slug)) for slug in engine_slugs()}

    def setup_groups(self) -> list[tuple[str, Any, list[forms.BoundField]]]:
        """Each game's set-up questions: (game, legend, bound fields), for the page to show the
        chosen game's."""
        return [(game, choices.legend, [self[field_name(game, name)] for name in choices.fields()])
                for game, choices in setup_choices(engine_slugs()).items()
                if field_name(game, next(iter(choices.fields()))) in self.fields]

    def seat_rows(self) -> list[SeatRow]:
        rows = []
        for number in range(1, MAX_SEATS + 1):
            new_name = self.new_names.get(number, "")
            confirmed = bool(new_name) and name_key(self.data.get(f"new_{number}", "")) == name_key(new_name)
            rows.append(SeatRow(number, self[f"seat_{number}"], self[f"colour_{number}"], new_name, confirmed))
        return rows

    def clean(self) -> dict:
        data = super().clean()
        seated = [(n, tidy_name(data.get(f"seat_{n}") or "")) for n in range(1, MAX_SEATS + 1)]
        for number, name in seated:
            if data.get(f"seat_{number}") and not players.shows(name):
                self.add_error(f"seat_{number}", forms.ValidationError(
                    _("A name needs at least one visible character."), code="invisible_name"))
        seated = [(number, name) for number, name in seated if players.shows(name)]
        self.new_names = confirm_new_players(
            self, [(number, f"seat_{number}", name) for number, name in seated], data, self.keeper,
            duplicate=_("Each player can take only one seat."))
        data["players"] = [name for _number, name in seated]
        data["colours"] = self._seat_colours(data, [number for number, _name in seated])
        self._check_player_count(data)
        self._check_copy(data)
        choices = setup_choices([data.get("game", "")]).get(data.get("game", ""))
        answers = {} if choices is None else {
            name: data.get(field_name(data["game"], name)) for name in choices.fields()}
        at_table = (choices is not None and choices.to_table_setup is not None and data.get("seed") is None
                    and not data.get("ludolog_draws"))
        data["setup"] = {} if choices is None else choices.to_setup(answers)
        if at_table:
            # No seed: the table sets its own game up, and the rules engine checks what it shows.
            try:
                data["setup"] = choices.to_table_setup(answers)
            except SetupError as refused:
                self.add_error(None if refused.field is None else field_name(data["game"], refused.field),
                               refused.error)
        data["ruleset_version"] = None if choices is None else choices.to_ruleset(answers)
        if data.get("seed") is None and not at_table and (
                data.get("ludolog_draws") or (choices is not None and choices.deals)):
            data["seed"] = secrets.randbelow(2**31)
        return data

    def _seat_colours(self, data: dict, numbers: list[int]) -> list[str]:
        """The seated players' colours, in seat order: each one the game has, none taken twice."""
        game = data.get("game", "")
        colours = game_colours(game)
        chosen = [data.get(f"colour_{number}") or "" for number in numbers]
        for number, colour in zip(numbers, chosen):
            if colour and colour not in colours:
                self.add_error(f"colour_{number}", forms.ValidationError(
                    _("%(colour)s is not a colour of %(game)s."), code="colour_of_another_game",
                    params={"colour": colour_name(colour).capitalize(), "game": game_name(game)}))
            elif colour and chosen.count(colour) > 1:
                self.add_error(f"colour_{number}", forms.ValidationError(
                    _("Each colour can be taken only once."), code="duplicate_colour"))
        return default_colours(chosen, colours)

    def _check_player_count(self, data: dict) -> None:
        engine = get_engine(data.get("game", ""))
        if engine is not None and len(data["players"]) >= 2 and not (
                engine.min_players <= len(data["players"]) <= engine.max_players):
            self.add_error(None, forms.ValidationError(
                _("%(game)s is for %(min)s to %(max)s players."), code="player_count",
                params={"game": engine.name, "min": engine.min_players, "max": engine.max_players}))

    def _check_copy(self, data: dict) -> None:
        copy = data.get("copy")
        if copy is not None and data.get("game") and copy.record.engine_slug != data["game"]:
            self.add_error("copy", forms.ValidationError(
                _("This copy is a box of %(title)s, not of %(game)s."), code="copy_of_another_game",
                params={"title": copy.record.title, "game": game_name(data["game"])}))
        data["catalogue_record"] = copy.record if copy is not None else None


def setup_choices(slugs: list[str]) -> dict[str, SetupChoices]:
    """The set-up questions of the games ``slugs`` that ask any, by game."""
    found = {}
    for slug in slugs:
        game = web_game(slug)
        if game is not None and game.setup_choices is not None and game.setup_choices.fields():
            found[slug] = game.setup_choices
    return found


def _keepable(request: HttpRequest) -> QuerySet[GameRecord]:
    return appendable_records(request.user).filter(status=GameRecord.Status.IN_PROGRESS, result_only=False)


def _in_progress(request: HttpRequest) -> list[dict[str, Any]]:
    """The keeper's games in progress, newest first: the game, its players and its moves
    standing (each undo takes one back)."""
    records = (_keepable(request).prefetch_related("seats__player")
               .annotate(events_done=Count("events", filter=~Q(events__type=UNDO)),
                         undos=Count("events", filter=Q(events__type=UNDO)))
               .order_by("-played_on", "-pk")[:50])
    return [{"record": record, "game": game_name(record.game_slug), "seats": list(record.seats.all()),
             "moves": max(0, record.events_done - record.undos)} for record in records]


KNOWN_PLAYERS_OFFERED = 500
"""Names suggested beyond the club's members: enough for a club's regulars, not a directory."""


def players_offered(user: AbstractBaseUser, organisation: Organisation | None) -> tuple[list[Player], list[Player]]:
    """The names a thumb taps on the start and result forms: the organisation's members (players
    of its members' accounts and of its leagues) as chips, then the other players of its games as
    suggestions; only those the user may see (a player known only from a private game is nobody
    yet to them), and only the current organisation's (``accounts.scoping``)."""
    players = in_organisation(visible_players(user), organisation)
    # An installation without organisations is one club: its members are its leagues' players.
    # Each way of being a member is a subquery of its own: joined to every player, the
    # installation's memberships and leagues were read whole for one club's fifty members.
    ways = ([Q(league_memberships__isnull=False)] if organisation is None else
            [Q(user__memberships__organisation=organisation), Q(league_memberships__league__club__organisation=organisation)])
    members_q = reduce(or_, (Q(pk__in=Player.objects.filter(way).values("pk")) for way in ways))
    members = list(players.filter(members_q).order_by("display_name"))
    others = list(players.exclude(pk__in=[member.pk for member in members])
                  .order_by("display_name")[:KNOWN_PLAYERS_OFFERED])
    return members, others


def recorded_for(request: HttpRequest) -> Organisation | None:
    """The organisation a game started or logged now is one of: the current one, when the person
    recording is one of its members; none otherwise (a visitor's game is nobody's statistics)."""
    return current_organisation(request) if may(request, Action.RECORD_GAMES) else None


@login_required
def start(request: HttpRequest) -> HttpResponse:
    # Reached from a catalogue record ("record a game with this box"): that game chosen.
    initial = {"game": request.GET["game"]} if request.GET.get("game") in engine_slugs() else {}
    organisation = recorded_for(request)
    form = StartForm(request.POST or None, initial=initial, keeper=request.user,
                     organisation=current_organisation(request), recorded_for=organisation)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            seats = [services.SeatSpec(name, colour) for name, colour in zip(data["players"], data["colours"])]
            if data["shuffle_seats"]:
                secrets.SystemRandom().shuffle(seats)
            try:
                with transaction.atomic():
                    record = services.start_game(
                        game_slug=data["game"],
                        seats=seats,
                        created_by=request.user,
                        seed=data["seed"],
                        played_on=data["played_on"],
                        location=data["location"],
                        copy=data["copy"],
                        is_friendly=data["is_friendly"],
                        play_started_at=data["play_started_at"],
                        catalogue_record=data["catalogue_record"],
                        setup=data["setup"],
                        organisation=organisation,
                        **({"ruleset_version": data["ruleset_version"]} if data["ruleset_version"] else {}),
                    )
                    link_to_session(form, record, request.user)
            except RecordError as error:
                form.add_error(error.details.get("field") if error.details.get("field") in form.fields else None,
                               error.message)
            except AgendaError as error:
                form.add_error("session", error.message)
            else:
                messages.success(request, gettext("Record #%(id)s started: %(player)s plays first.") % {
                    "id": record.pk, "player": record.seats.get(seat_order=0).player})
                return redirect("scorekeeping-record", pk=record.pk)
        status = 400
    in_progress = _in_progress(request)
    members, others = players_offered(request.user, current_organisation(request))
    context = {"form": form, "records": in_progress, "members": members, "other_players": others}
    return render(request, "scorekeeping/start.html", context, status=status)
