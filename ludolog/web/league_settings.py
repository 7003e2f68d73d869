"""The organiser's league pages: "New league" and "Edit the league", phone first, outside the
Django admin. Games are picked by their names (every game by default), players and co-organisers
among the organisation's, points by place from a preset or typed per table size, tie-breakers in
order. Thin views over :mod:`scoring.leagues`, which checks and saves; a refusal is shown in the
reader's language with its status (400, 403) and saves nothing.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy as _, pgettext_lazy

from accounts.models import Organisation
from accounts.roles import Action, can
from accounts.scoping import in_organisation
from games.registry import engine_slugs
from games.selectors import catalogue_games
from games.spelling import name_key
from ludolog.members import members, memberships_of
from records.models import Player
from scoring import leagues as league_service
from scoring.models import League

from .games import game_name, rules_name

TIE_BREAKERS_OFFERED = 2
"""As many ordered choices as there are tie-breakers."""

PRESET_LABELS = {
    "win": _("Win = 1 point"),
    "places": _("5 / 3 / 2 / 1 by places"),
    "f1": _("F1-like: 25 / 18 / 15 / 12 / 10 / 8 / 6 / 4 / 2 / 1"),
    "custom": _("My own, by table size (below)"),
}
ALL_GAMES, CHOSEN_GAMES = "all", "chosen"
FORM_FIELD_OF = {"points_table": "points_preset", "tie_breakers": "tie_breaker_1"}
"""Where the form shows a refusal of a setting it asks in other fields."""


def games_offered(league: League | None) -> list[tuple[str, str]]:
    """Every game a league may name, as (slug, name) sorted by name: those with rules here (in the
    reader's language), the catalogue's titles, and those the league names already."""
    named: dict[str, str] = {}
    for slug, title in catalogue_games().items():
        named[slug] = title
    for slug in engine_slugs():
        named[slug] = rules_name(slug) or slug
    for slug in (league.game_slugs if league else []):
        named.setdefault(slug, game_name(slug))
    return sorted(named.items(), key=lambda item: (name_key(item[1]), item[0]))


def players_offered(organisation: Organisation) -> list[tuple[int, str]]:
    return [(pk, name) for pk, name in in_organisation(Player.objects.all(), organisation)
            .order_by("display_name", "pk").values_list("pk", "display_name")]


def accounts_offered(organisation: Organisation) -> list[tuple[int, str]]:
    """The organisation's members by their names (their player's, else their username), for the
    league's organisers and trusted scorekeepers."""
    memberships = list(memberships_of(organisation))
    found = [(membership.user_id, member.name) for membership, member in zip(memberships, members(memberships))
             if membership.user.is_active]
    return sorted(found, key=lambda item: (name_key(item[1]), item[0]))


class LeagueForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    starts_on = forms.DateField(label=_("First day"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    ends_on = forms.DateField(label=_("Last day"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    games_scope = forms.ChoiceField(
        label=_("Games allowed"), widget=forms.RadioSelect, initial=ALL_GAMES,
        choices=[(ALL_GAMES, _("Every game")), (CHOSEN_GAMES, _("Only the games ticked below"))])
    games = forms.MultipleChoiceField(
        label=_("Games allowed"), required=False, widget=forms.CheckboxSelectMultiple,
        error_messages={"invalid_choice": _("A game chosen is neither one with rules here nor in the catalogue.")})
    record_kinds = forms.ChoiceField(label=_("Records that count"), widget=forms.RadioSelect,
                                     choices=League.RecordKinds.choices, initial=League.RecordKinds.ALL)
    scoring_system = forms.ChoiceField(label=_("Standings by"), widget=forms.RadioSelect,
                                       choices=League.ScoringSystem.choices, initial=League.ScoringSystem.POINTS)
    points_preset = forms.ChoiceField(label=_("Points by place"), widget=forms.RadioSelect, initial="places",
                                      choices=list(PRESET_LABELS.items()))
    min_games = forms.IntegerField(label=_("Games needed to be ranked"), min_value=0,
                                   max_value=league_service.MOST_GAMES_NEEDED, initial=0)
    members = forms.TypedMultipleChoiceField(
        label=_("Players"), required=False, coerce=int, widget=forms.CheckboxSelectMultiple,
        error_messages={"invalid_choice": _("Every player of the league must be one of the organisation's players.")})
    organisers = forms.TypedMultipleChoiceField(
        label=_("Co-organisers of the league"), required=False, coerce=int, widget=forms.CheckboxSelectMultiple,
        help_text=_("Beside the organisation's organisers: they approve games or rule them out, and what they "
                    "record counts."),
        error_messages={"invalid_choice": _("Choose the league's organisers among the organisation's members.")})
    trusted_scorekeepers = forms.TypedMultipleChoiceField(
        label=_("Trusted scorekeepers"), required=False, coerce=int, widget=forms.CheckboxSelectMultiple,
        help_text=_("The games they record count without an organiser's approval."),
        error_messages={"invalid_choice": _("Choose the trusted scorekeepers among the organisation's members.")})

    def __init__(self, *args: Any, organisation: Organisation, league: League | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The games ticked come first: in a catalogue of thousands they are what is looked at.
        ticked = set(self.data.getlist(self.add_prefix("games")) if self.is_bound else self.initial.get("games", []))
        self.fields["games"].choices = sorted(games_offered(league), key=lambda choice: choice[0] not in ticked)
        self.fields["members"].choices = players_offered(organisation)
        accounts = accounts_offered(organisation)
        self.fields["organisers"].choices = accounts
        self.fields["trusted_scorekeepers"].choices = accounts
        breakers = [("", pgettext_lazy("tie-breaker", "none")), *League.TieBreaker.choices]
        for place in range(1, TIE_BREAKERS_OFFERED + 1):
            self.fields[f"tie_breaker_{place}"] = forms.ChoiceField(
                label=_("Tie-breaker %(place)s") % {"place": place}, required=False, choices=breakers)
        table = (league.points_table or {}) if league else {}
        self.table_sizes = sorted({*league_service.TABLE_SIZES, *(int(size) for size in table if size.isdigit()
                                                                  and int(size) <= league_service.LARGEST_TABLE)})
        for size in self.table_sizes:
            for place in range(1, size + 1):
                self.fields[self.points_field(size, place)] = forms.IntegerField(
                    label=_("%(size)s players, place %(place)s") % {"size": size, "place": place}, required=False,
                    min_value=0, max_value=league_service.MOST_POINTS,
                    widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "points"}))

    @staticmethod
    def points_field(size: int, place: int) -> str:
        return f"points_{size}_{place}"

    @classmethod
    def initial_for(cls, league: League | None) -> dict[str, Any]:
        """What the form shows first: a season of three months from today with 5/3/2/1 points,
        or ``league`` as it is."""
        if league is None:
            today = timezone.localdate()
            table = league_service.preset_table(league_service.BY_PLACES)
            return {"starts_on": today, "ends_on": today + dt.timedelta(days=90),
                    **cls._rows(table), "points_preset": "places", "tie_breaker_1": League.TieBreaker.WINS,
                    "tie_breaker_2": League.TieBreaker.AVERAGE_SCORE}
        table = league.points_table or {}
        breakers = list(league.tie_breakers or [])
        return {
            "name": league.name, "starts_on": league.starts_on, "ends_on": league.ends_on,
            "games_scope": CHOSEN_GAMES if league.game_slugs else ALL_GAMES, "games": list(league.game_slugs),
            "record_kinds": league.record_kinds, "scoring_system": league.scoring_system,
            "points_preset": league_service.preset_of(table) or "custom", **cls._rows(table),
            "min_games": league.min_games,
            **{f"tie_breaker_{place}": breakers[place - 1] if place <= len(breakers) else ""
               for place in range(1, TIE_BREAKERS_OFFERED + 1)},
            "members": list(league.memberships.values_list("player_id", flat=True)),
            "organisers": list(league.organisers.values_list("pk", flat=True)),
            "trusted_scorekeepers": list(league.trusted_scorekeepers.values_list("pk", flat=True)),
        }

    @classmethod
    def _rows(cls, table: dict[str, list[int]]) -> dict[str, int]:
        return {cls.points_field(int(size), place): points
                for size, row in table.items() if size.isdigit() and isinstance(row, list)
                for place, points in enumerate(row, start=1)}

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("games_scope") == CHOSEN_GAMES and not data.get("games"):
            self.add_error("games", gettext("Tick the games that count, or choose every game."))
        return data

    def points_table(self) -> dict[str, list[int]]:
        """The table the preset chosen gives, or the one typed: a table size whose places are all
        empty gives no points at that size; an empty place among filled ones, none for it."""
        data = self.cleaned_data
        preset = data.get("points_preset")
        if preset in league_service.PRESETS:
            return league_service.preset_table(league_service.PRESETS[preset])
        table = {}
        for size in self.table_sizes:
            row = [data.get(self.points_field(size, place)) for place in range(1, size + 1)]
            if any(points is not None for points in row):
                table[str(size)] = [points or 0 for points in row]
        return table

    def settings(self) -> league_service.LeagueSettings:
        data = self.cleaned_data
        breakers = [data[f"tie_breaker_{place}"] for place in range(1, TIE_BREAKERS_OFFERED + 1)
                    if data.get(f"tie_breaker_{place}")]
        return league_service.LeagueSettings(
            name=data["name"], starts_on=data["starts_on"], ends_on=data["ends_on"],
            game_slugs=list(data["games"]) if data["games_scope"] == CHOSEN_GAMES else [],
            record_kinds=data["record_kinds"], scoring_system=data["scoring_system"],
            points_table=self.points_table(), min_games=data["min_games"], tie_breakers=breakers,
            members=data["members"], organisers=data["organisers"],
            trusted_scorekeepers=data["trusted_scorekeepers"])

    def points_rows(self) -> list[dict[str, Any]]:
        """The points fields by table size, for the page's rows of number inputs."""
        return [{"size": size, "fields": [self[self.points_field(size, place)] for place in range(1, size + 1)]}
                for size in self.table_sizes]

    def tie_breaker_fields(self) -> list[forms.BoundField]:
        return [self[f"tie_breaker_{place}"] for place in range(1, TIE_BREAKERS_OFFERED + 1)]


def _refused(request: HttpRequest, organisation: Organisation, refusal: league_service.LeagueRefused) -> HttpResponse:
    return render(request, "leagues/refused.html", {"shown": organisation, "refusal": refusal},
                  status=refusal.status_code)


def _form_page(request: HttpRequest, organisation: Organisation, league: League | None) -> HttpResponse:
    form = LeagueForm(request.POST or None, organisation=organisation, league=league,
                      initial=LeagueForm.initial_for(league))
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                if league is None:
                    saved = league_service.create_league(organisation, form.settings(), by=request.user)
                else:
                    saved = league_service.edit_league(league, form.settings(), by=request.user)
            except league_service.MayNotRunLeagues as refused:
                return _refused(request, organisation, refused)
            except league_service.LeagueRefused as refused:
                at_fault = FORM_FIELD_OF.get(refused.field, refused.field)
                form.add_error(at_fault if at_fault in form.fields else None, refused.message)
            else:
                messages.success(request, (gettext("The league %(name)s is created.") if league is None
                                           else gettext("The league %(name)s is saved.")) % {"name": saved.name})
                return redirect("league-detail", pk=saved.pk)
        status = 400
    presets = {name: league_service.preset_table(scale, form.table_sizes)
               for name, scale in league_service.PRESETS.items()}
    context = {"form": form, "league": league, "shown": organisation, "presets_json": json.dumps(presets)}
    return render(request, "leagues/form.html", context, status=status)


@login_required
def league_new(request: HttpRequest, slug: str) -> HttpResponse:
    organisation = get_object_or_404(Organisation, slug=slug)
    if not can(request.user, Action.RUN_LEAGUES, organisation):
        return _refused(request, organisation, league_service.MayNotRunLeagues())
    return _form_page(request, organisation, None)


@login_required
def league_edit(request: HttpRequest, pk: int) -> HttpResponse:
    league = get_object_or_404(League.objects.select_related("club__organisation"), pk=pk)
    organisation = league.club.organisation
    if organisation is None or not can(request.user, Action.RUN_LEAGUES, organisation):
        return _refused(request, organisation, league_service.MayNotRunLeagues())
    return _form_page(request, organisation, league)
