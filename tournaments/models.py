"""A tournament of an organisation: its entrants, its rounds' seats and its tables' results.

The rules (table sizes, who sits where, placement points, standings) are the pure modules
``pairing`` and ``placements``; these models keep what was decided and told. A table's result is
kept as events: a correction is a new row naming the one it replaces, never an update.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts.models import Organisation
from games.models import CatalogueRecord
from records.models import GameRecord, Player
from scoring.models import League

from . import placements


def default_placement_points() -> dict[str, list[int]]:
    """The placements' presets, keyed by table size as text (JSON keys are text)."""
    return {str(size): list(points) for size, points in placements.PLACEMENT_POINTS.items()}


def default_tiebreakers() -> list[str]:
    return list(placements.TIEBREAKERS)


class Tournament(models.Model):
    class Format(models.TextChoices):
        SWISS = "swiss", _("Swiss (rounds of tables)")
        ROUND_ROBIN = "round_robin", _("round robin")
        FINAL_TABLE = "final_table", _("final table")

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("registration")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, related_name="tournaments",
                                     verbose_name=_("organisation"))
    name = models.CharField(_("name"), max_length=200)
    game = models.ForeignKey(CatalogueRecord, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="tournaments", verbose_name=_("game"))
    table_size = models.PositiveSmallIntegerField(_("players per table"), default=4)
    rounds_planned = models.PositiveSmallIntegerField(_("rounds planned"), default=3)
    format = models.CharField(_("format"), max_length=20, choices=Format.choices, default=Format.SWISS)
    placement_points = models.JSONField(_("points for each place, by table size"), default=default_placement_points)
    tiebreakers = models.JSONField(_("tie-breakers"), default=default_tiebreakers)
    first_player_compensation = models.DecimalField(
        _("first-player compensation"), max_digits=4, decimal_places=2, default=0,
        help_text=_("Points taken from whoever sits first at every table, for a game where the club's "
                    "statistics measure a first-player advantage (0: off). See docs/tournaments.md."))
    keep_apart_in_round_1 = models.BooleanField(_("keep friends and family apart in round 1"), default=True)
    league = models.ForeignKey(League, null=True, blank=True, on_delete=models.SET_NULL, related_name="tournaments",
                               verbose_name=_("league"),
                               help_text=_("The tables' records count for this league when set."))
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.REGISTRATION)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                                   related_name="+", verbose_name=_("created by"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(condition=models.Q(table_size__gte=2, table_size__lte=6),
                                   name="tournament_table_size_2_to_6"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def has_final(self) -> bool:
        return self.format == Tournament.Format.FINAL_TABLE

    @property
    def rounds_in_all(self) -> int:
        """Every round the tournament plays: the planned rounds, and the final table after them."""
        return self.rounds_planned + (1 if self.has_final else 0)

    def is_final(self, round_number: int) -> bool:
        return self.has_final and round_number == self.rounds_planned + 1

    def rotation(self) -> list[CatalogueRecord]:
        """The games played in turn, in order (round n plays the (n - 1) mod k-th); with no
        rotation set, the one game (or none)."""
        games = [entry.game for entry in self.games_in_rotation.select_related("game")]
        return games or ([self.game] if self.game is not None else [])

    def game_of_round(self, round_number: int) -> CatalogueRecord | None:
        games = self.rotation()
        return games[(round_number - 1) % len(games)] if games else None

    def settings(self) -> placements.Settings:
        return placements.Settings(
            points_by_size={int(size): tuple(points) for size, points in self.placement_points.items()},
            tiebreakers=tuple(self.tiebreakers),
            first_player_compensation=Fraction(self.first_player_compensation))


class TournamentGame(models.Model):
    """One game of a tournament's rotation at its place in the order (0 first).

    A row a game rather than a list of ids on the tournament: the catalogue record stays a foreign
    key (protected while a tournament plays it, its title read in the same query as the round's),
    and a game may come twice in a rotation (A, B, A). ``Tournament.game`` stays the first of the
    rotation, what a tournament of one game has always named."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="games_in_rotation",
                                   verbose_name=_("tournament"))
    position = models.PositiveSmallIntegerField(_("position"))
    game = models.ForeignKey(CatalogueRecord, on_delete=models.PROTECT, related_name="+", verbose_name=_("game"))

    class Meta:
        ordering = ["tournament", "position"]
        verbose_name = _("game of a rotation")
        verbose_name_plural = _("games of a rotation")
        constraints = [models.UniqueConstraint(fields=["tournament", "position"], name="rotation_position_once")]

    def __str__(self) -> str:
        return f"{self.tournament} #{self.position + 1}: {self.game}"


class Entrant(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants",
                                   verbose_name=_("tournament"))
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="tournament_entries",
                               verbose_name=_("player"))
    checked_in = models.BooleanField(_("checked in"), default=False)
    dropped_after_round = models.PositiveSmallIntegerField(_("dropped after round"), null=True, blank=True)
    group = models.CharField(_("group"), max_length=100, blank=True,
                             help_text=_("Friends or family with the same group are kept apart in round 1."))

    class Meta:
        ordering = ["player__name_key", "pk"]
        verbose_name = _("entrant")
        verbose_name_plural = _("entrants")
        constraints = [models.UniqueConstraint(fields=["tournament", "player"], name="entrant_once_a_tournament")]

    def __str__(self) -> str:
        return str(self.player)

    @property
    def plays(self) -> bool:
        return self.checked_in and self.dropped_after_round is None


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds",
                                   verbose_name=_("tournament"))
    number = models.PositiveSmallIntegerField(_("number"))
    drawn_at = models.DateTimeField(_("drawn at"), auto_now_add=True)
    drawn_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+",
                                 verbose_name=_("drawn by"))
    why = models.JSONField(_("why each table"), default=dict,
                           help_text=_("Each table's reasons (codes and values), by table number."))

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="round_once")]

    def __str__(self) -> str:
        return f"{self.tournament} #{self.number}"


class Seat(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats", verbose_name=_("round"))
    table_number = models.PositiveSmallIntegerField(_("table"))
    position = models.PositiveSmallIntegerField(_("seat"), help_text=_("0 is the first player."))
    entrant = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="seats", verbose_name=_("entrant"))

    class Meta:
        ordering = ["round", "table_number", "position"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["round", "entrant"], name="seat_one_a_round"),
            models.UniqueConstraint(fields=["round", "table_number", "position"], name="seat_taken_once"),
        ]


class ImmutableResult(Exception):
    pass


class TableResult(models.Model):
    """A table's result as told: ``places`` (1 first) in seat order, and ``scores`` when told.
    Append-only: a correction is a new row with ``corrects`` and a ``reason``."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="results", verbose_name=_("round"))
    table_number = models.PositiveSmallIntegerField(_("table"))
    places = models.JSONField(_("places"))
    scores = models.JSONField(_("scores"), null=True, blank=True)
    # Kept with the scores: the standings rank them again (and the score ratio leaves them out).
    lowest_wins = models.BooleanField(_("the lowest score wins"), default=False)
    game_record = models.ForeignKey(GameRecord, null=True, on_delete=models.SET_NULL, related_name="+",
                                    verbose_name=_("game record"))
    corrects = models.OneToOneField("self", null=True, blank=True, on_delete=models.PROTECT,
                                    related_name="corrected_by", verbose_name=_("corrects"))
    reason = models.CharField(_("reason for the correction"), max_length=500, blank=True)
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+",
                                   verbose_name=_("entered by"))
    entered_at = models.DateTimeField(_("entered at"), auto_now_add=True)

    class Meta:
        ordering = ["round", "table_number", "pk"]
        verbose_name = _("table result")
        verbose_name_plural = _("table results")
        constraints = [
            models.UniqueConstraint(fields=["round", "table_number"], condition=models.Q(corrects=None),
                                    name="table_result_first_once"),
        ]

    def save(self, *args: Any, **kwargs: Any) -> None:
        # The database refuses too, for any client (tournaments.immutability's triggers).
        if not self._state.adding:
            raise ImmutableResult("a table's result is never changed: enter a correction")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        raise ImmutableResult("a table's result is never deleted: enter a correction")


class TableRecording(models.Model):
    """A table's game recorded move by move with the recorder: the engine record started from the
    table. One a table; when that record finishes, the table's result is entered from it
    (``services.enter_recorded_result``)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="recordings", verbose_name=_("round"))
    table_number = models.PositiveSmallIntegerField(_("table"))
    game_record = models.OneToOneField(GameRecord, on_delete=models.PROTECT, related_name="tournament_table",
                                       verbose_name=_("game record"))
    started_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+",
                                   verbose_name=_("started by"))
    started_at = models.DateTimeField(_("started at"), auto_now_add=True)

    class Meta:
        ordering = ["round", "table_number"]
        verbose_name = _("table recording")
        verbose_name_plural = _("table recordings")
        constraints = [models.UniqueConstraint(fields=["round", "table_number"], name="table_recorded_once")]

    def __str__(self) -> str:
        return f"{self.round} · {self.table_number}"
