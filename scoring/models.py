"""Read models computed from the events. Every row here can be dropped and rebuilt."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from records.models import GameRecord, Player, Seat


class SeatResult(models.Model):
    """One seat's final score, rank and points by source, as the replay computed them."""

    record = models.ForeignKey(GameRecord, on_delete=models.CASCADE, related_name="results", verbose_name=_("record"))
    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, related_name="result", verbose_name=_("seat"))
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="results", verbose_name=_("player"))
    score = models.IntegerField(_("score"), null=True, help_text=_("Empty: the result gave places only."))
    rank = models.PositiveSmallIntegerField(_("rank"))
    breakdown = models.JSONField(_("points by source"), default=dict)
    ruleset_version = models.CharField(max_length=64, blank=True, verbose_name=_("ruleset version"))
    computed_at = models.DateTimeField(auto_now=True, verbose_name=_("computed at"))

    class Meta:
        ordering = ["record", "seat__seat_order"]
        verbose_name = _("result")
        verbose_name_plural = _("results")
        constraints = [models.UniqueConstraint(fields=["record", "seat"], name="result_per_seat")]

    def __str__(self) -> str:
        return f"{self.record_id}: {self.player} {self.score} (#{self.rank})"


class ScoredRecord(models.Model):
    """A record whose whole scoring pipeline ran, with the figures the game statistics need.

    A finished record without this row was never scored (broker down, worker killed): the sweep
    finds it by that absence, never by comparing ids, so a record that commits late is not skipped.
    """

    record = models.OneToOneField(GameRecord, on_delete=models.CASCADE, primary_key=True, related_name="scored",
                                  verbose_name=_("record"))
    organisation = models.ForeignKey("accounts.Organisation", null=True, blank=True, on_delete=models.SET_NULL,
                                     related_name="+", help_text=_("The record's, kept beside its figures."),
                                     verbose_name=_("organisation"))
    game_slug = models.SlugField(max_length=64, db_index=True, verbose_name=_("game slug"))
    played_on = models.DateField(verbose_name=_("played on"))
    players = models.PositiveSmallIntegerField(verbose_name=_("players"))
    winning_score = models.IntegerField(null=True, verbose_name=_("winning score"))
    duration_seconds = models.PositiveIntegerField(null=True, help_text=_("From the first to the last event."),
                                                   verbose_name=_("duration seconds"))
    catalogue_record = models.ForeignKey(
        "games.CatalogueRecord", null=True, on_delete=models.SET_NULL, related_name="+",
        verbose_name=_("catalogue record")
    )
    copy = models.ForeignKey("games.Copy", null=True, on_delete=models.SET_NULL, related_name="+",
                             verbose_name=_("copy"))
    ruleset_version = models.CharField(max_length=64, blank=True, verbose_name=_("ruleset version"))
    scored_at = models.DateTimeField(auto_now=True, verbose_name=_("scored at"))

    class Meta:
        ordering = ["-played_on", "-record_id"]
        verbose_name = _("scored record")
        verbose_name_plural = _("scored records")

    def __str__(self) -> str:
        return f"{self.game_slug} #{self.record_id}"


class UnscorableRecord(models.Model):
    """A finished record whose scoring failed for a reason of its own: why, and how many times.

    The engine raised on its events, or a result does not fit the projections (a score beyond
    the integer column). The sweep stops queueing it once it failed
    ``LUDOLOG_SCORING_MAX_ATTEMPTS`` times, so that one bad record cannot keep the workers busy;
    a recomputation scores it again once the cause is fixed, and a success deletes this mark.
    A failure that says nothing about the record (the database away) is retried, not counted.
    """

    record = models.OneToOneField(
        GameRecord, on_delete=models.CASCADE, primary_key=True, related_name="unscorable", verbose_name=_("record")
    )
    reason = models.TextField(_("reason"), help_text=_("The last failure: the error's type and message."))
    attempts = models.PositiveIntegerField(_("failed attempts"), default=1)
    first_failed_at = models.DateTimeField(default=timezone.now, verbose_name=_("first failed at"))
    last_failed_at = models.DateTimeField(default=timezone.now, verbose_name=_("last failed at"))

    class Meta:
        ordering = ["-last_failed_at"]
        verbose_name = _("unscorable record")
        verbose_name_plural = _("unscorable records")

    def __str__(self) -> str:
        return f"#{self.record_id}: {self.reason}"

    @property
    def retrying(self) -> bool:
        """Whether the sweep still queues it (it has failed fewer times than the setting allows)."""
        return self.attempts < settings.LUDOLOG_SCORING_MAX_ATTEMPTS


class FiguresQuerySet(models.QuerySet):
    def of(self, organisation: Any) -> FiguresQuerySet:
        """The figures over one organisation's games (an organisation or its id), or over every
        game of the installation (``None``)."""
        return self.filter(organisation=organisation) if organisation is not None else self.filter(organisation=None)


class PlayerStatistics(models.Model):
    """One player's figures for one game, or over every game when ``game_slug`` is empty; over the
    games of one organisation, or of the whole installation (``organisation`` empty)."""

    ALL_GAMES = ""

    objects = FiguresQuerySet.as_manager()

    organisation = models.ForeignKey("accounts.Organisation", null=True, blank=True, on_delete=models.CASCADE,
                                     related_name="+", verbose_name=_("organisation"))
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="statistics", verbose_name=_("player"))
    game_slug = models.SlugField(max_length=64, blank=True, verbose_name=_("game slug"))
    games = models.PositiveIntegerField(default=0, verbose_name=_("games"))
    wins = models.PositiveIntegerField(default=0, verbose_name=_("wins"))
    win_rate = models.FloatField(default=0, verbose_name=_("win rate"))
    average_score = models.FloatField(null=True, verbose_name=_("average score"))
    best_score = models.IntegerField(null=True, verbose_name=_("best score"))
    average_by_source = models.JSONField(default=dict, help_text=_("Average points per game by source."),
                                         verbose_name=_("average by source"))

    class Meta:
        ordering = ["player", "game_slug"]
        verbose_name = _("player statistics")
        verbose_name_plural = _("player statistics")
        constraints = [
            models.UniqueConstraint(fields=["player", "game_slug"], condition=models.Q(organisation=None),
                                    name="player_statistics_unique"),
            models.UniqueConstraint(fields=["organisation", "player", "game_slug"],
                                    condition=models.Q(organisation__isnull=False),
                                    name="player_statistics_of_an_organisation_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.game_slug or 'all games'}"


class GameStatistics(models.Model):
    """A game's figures over the games of one organisation, or of the whole installation
    (``organisation`` empty)."""

    objects = FiguresQuerySet.as_manager()

    organisation = models.ForeignKey("accounts.Organisation", null=True, blank=True, on_delete=models.CASCADE,
                                     related_name="+", verbose_name=_("organisation"))
    game_slug = models.SlugField(max_length=64, verbose_name=_("game slug"))
    games = models.PositiveIntegerField(default=0, verbose_name=_("games"))
    average_winning_score = models.FloatField(null=True, verbose_name=_("average winning score"))
    score_distribution = models.JSONField(default=dict, help_text=_("Seats per score band of ten points."),
                                          verbose_name=_("score distribution"))
    seat_advantage = models.JSONField(
        default=dict, help_text=_("Per player count, the win rate of each seat order (0 = first player)."),
        verbose_name=_("seat advantage")
    )
    average_duration_seconds = models.FloatField(null=True, verbose_name=_("average duration seconds"))
    # The counts behind the averages and rates above, so that a reader's figures without the games
    # hidden from them are worked out by taking those games away (few), not by a pass over all.
    player_counts = models.JSONField(default=dict, help_text=_("Games per number of players."),
                                     verbose_name=_("player counts"))
    winning_scores = models.PositiveIntegerField(default=0, help_text=_("Games with a winning score."),
                                                 verbose_name=_("winning scores"))
    winning_total = models.BigIntegerField(default=0, help_text=_("The sum of those winning scores."),
                                           verbose_name=_("winning total"))
    timed_games = models.PositiveIntegerField(default=0, help_text=_("Games with a duration."),
                                              verbose_name=_("timed games"))
    duration_total = models.BigIntegerField(default=0, help_text=_("The sum of those durations, in seconds."),
                                            verbose_name=_("duration total"))
    title = models.CharField(
        max_length=255, blank=True, help_text=_("The catalogue's title of the game, for a game with no rules engine."),
        verbose_name=_("title")
    )

    class Meta:
        ordering = ["game_slug"]
        verbose_name = _("game statistics")
        verbose_name_plural = _("game statistics")
        constraints = [
            models.UniqueConstraint(fields=["game_slug"], condition=models.Q(organisation=None),
                                    name="game_statistics_unique"),
            models.UniqueConstraint(fields=["organisation", "game_slug"], condition=models.Q(organisation__isnull=False),
                                    name="game_statistics_of_an_organisation_unique"),
        ]

    def __str__(self) -> str:
        return self.game_slug


class CatalogueUsage(models.Model):
    """How often a catalogue record's boxes are played: a ludothèque's usage figures."""

    catalogue_record = models.OneToOneField(
        "games.CatalogueRecord", on_delete=models.CASCADE, primary_key=True, related_name="usage",
        verbose_name=_("catalogue record")
    )
    times_played = models.PositiveIntegerField(default=0, verbose_name=_("times played"))
    last_played = models.DateField(null=True, verbose_name=_("last played"))

    class Meta:
        verbose_name = _("catalogue record usage")
        verbose_name_plural = _("catalogue record usage")

    def __str__(self) -> str:
        return f"{self.catalogue_record}: {self.times_played}"


class CopyUsage(models.Model):
    copy = models.OneToOneField("games.Copy", on_delete=models.CASCADE, primary_key=True, related_name="usage",
                                verbose_name=_("copy"))
    times_played = models.PositiveIntegerField(default=0, verbose_name=_("times played"))
    last_played = models.DateField(null=True, verbose_name=_("last played"))

    class Meta:
        verbose_name = _("copy usage")
        verbose_name_plural = _("copy usage")

    def __str__(self) -> str:
        return f"{self.copy}: {self.times_played}"


class Club(models.Model):
    class RatingSystem(models.TextChoices):
        OPENSKILL = "openskill", _("OpenSkill")
        ELO = "elo", _("Elo")

    name = models.CharField(_("name"), max_length=200, unique=True)
    organisation = models.OneToOneField(
        "accounts.Organisation", null=True, blank=True, on_delete=models.PROTECT, related_name="club",
        verbose_name=_("organisation"))
    rating_system = models.CharField(
        _("rating system"), max_length=16, choices=RatingSystem.choices, default=RatingSystem.OPENSKILL,
        help_text=_("How the club's own ratings are worked out (the ratings over every club are OpenSkill's). "
                    "Changing it works the club's ratings out again from its first game."))

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class League(models.Model):
    """A club's season: which games count, when, who plays, and how standings are scored.

    A finished record counts for the league when its game is allowed, it was played within the
    dates, every seated player is a member, and the league trusts who recorded it: the account
    of one of the players seated, one of its organisers or trusted scorekeepers, staff, or the
    operator (a record made at the command line, with no account). A record anyone else made is
    a friendly game until an organiser approves it (:class:`LeagueRuling`); an organiser may
    also rule a trusted record out. Nobody files games into a league by hand.
    """

    class ScoringSystem(models.TextChoices):
        POINTS = "points", _("league points by rank")
        AVERAGE_RANK = "average_rank", _("average rank")

    class TieBreaker(models.TextChoices):
        WINS = "wins", _("more wins")
        AVERAGE_SCORE = "average_score", _("higher average score")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="leagues", verbose_name=_("club"))
    name = models.CharField(_("name"), max_length=200)
    # blank: an empty list is the default and means every game (the admin's form took it for missing).
    game_slugs = models.JSONField(_("games allowed"), default=list, blank=True,
                                  help_text=_("Game slugs; empty allows every game."))

    class RecordKinds(models.TextChoices):
        ALL = "all", _("every game, recorded move by move or logged as a result")
        ENGINE = "engine", _("games recorded move by move only")

    record_kinds = models.CharField(
        _("records that count"), max_length=8, choices=RecordKinds.choices, default=RecordKinds.ALL,
        help_text=_("Whether results logged without their moves count too. Friendly games never count."))
    starts_on = models.DateField(_("first day"))
    ends_on = models.DateField(_("last day"))
    scoring_system = models.CharField(max_length=16, choices=ScoringSystem.choices, default=ScoringSystem.POINTS,
                                      verbose_name=_("scoring system"))
    points_table = models.JSONField(
        _("points by rank"), default=dict, blank=True,
        help_text=_('Per player count, the points for rank 1, 2, …: {"4": [5, 3, 2, 1], "3": [4, 2, 1]}.'),
    )
    min_games = models.PositiveSmallIntegerField(_("games needed to be ranked"), default=0)
    tie_breakers = models.JSONField(default=list, blank=True, help_text=_('In order, e.g. ["wins", "average_score"].'),
                                    verbose_name=_("tie breakers"))
    members = models.ManyToManyField(Player, through="LeagueMembership", related_name="leagues",
                                     verbose_name=_("members"))
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="organised_leagues", verbose_name=_("organisers"),
        help_text=_("May approve the games anyone else recorded, or rule a game out; what they record counts."),
    )
    trusted_scorekeepers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="trusted_by_leagues",
        verbose_name=_("trusted scorekeepers"),
        help_text=_("The games they record count for the league without an organiser's approval."),
    )

    class Meta:
        ordering = ["club", "-starts_on", "name"]
        verbose_name = _("league")
        verbose_name_plural = _("leagues")
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="league_name_unique"),
            models.CheckConstraint(condition=models.Q(starts_on__lte=models.F("ends_on")), name="league_dates_ordered"),
        ]

    def __str__(self) -> str:
        return f"{self.club}: {self.name}"


class LeagueMembership(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("league"))
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="league_memberships",
                               verbose_name=_("player"))
    joined_on = models.DateField(auto_now_add=True, verbose_name=_("joined on"))

    class Meta:
        verbose_name = _("league membership")
        verbose_name_plural = _("league memberships")
        constraints = [models.UniqueConstraint(fields=["league", "player"], name="league_member_unique")]

    def __str__(self) -> str:
        return f"{self.player} in {self.league}"


class LeagueRulingQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise ImmutableRulingError("a ruling is never changed: rule again instead")

    def delete(self):
        raise ImmutableRulingError("a ruling is never deleted: rule again instead")


class ImmutableRulingError(Exception):
    """Raised on any attempt to change or delete a league ruling (they are its history)."""


class LeagueRuling(models.Model):
    """An organiser's word on whether a record counts for a league: append-only, the latest wins.

    ``counts`` true approves a game the league would not count by itself (recorded by someone it
    does not trust); false rules a game out. Without a ruling, who recorded it decides.
    """

    objects = LeagueRulingQuerySet.as_manager()

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="rulings", verbose_name=_("league"))
    record = models.ForeignKey(GameRecord, on_delete=models.PROTECT, related_name="league_rulings",
                               verbose_name=_("record"))
    counts = models.BooleanField(_("counts for the league"))
    reason = models.CharField(_("reason"), max_length=500, blank=True)
    ruled_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+",
                                 verbose_name=_("ruled by"))
    ruled_at = models.DateTimeField(_("ruled at"), default=timezone.now)

    class Meta:
        ordering = ["league", "record", "id"]
        verbose_name = _("league ruling")
        verbose_name_plural = _("league rulings")
        indexes = [models.Index(fields=["league", "record", "-id"], name="ruling_latest")]

    def __str__(self) -> str:
        return f"{self.league}: #{self.record_id} {'counts' if self.counts else 'ruled out'}"

    def save(self, *args, **kwargs) -> None:
        if self.pk is not None:
            raise ImmutableRulingError("a ruling is never changed: rule again instead")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ImmutableRulingError("a ruling is never deleted: rule again instead")


class Standing(models.Model):
    """One line of a league table; ``position`` is empty until the player has the games needed."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="standings", verbose_name=_("league"))
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="standings", verbose_name=_("player"))
    position = models.PositiveIntegerField(null=True, verbose_name=_("position"))
    games = models.PositiveIntegerField(default=0, verbose_name=_("games"))
    wins = models.PositiveIntegerField(default=0, verbose_name=_("wins"))
    points = models.FloatField(default=0, verbose_name=_("points"))
    average_rank = models.FloatField(null=True, verbose_name=_("average rank"))
    average_score = models.FloatField(null=True, verbose_name=_("average score"))

    class Meta:
        ordering = ["league", models.F("position").asc(nulls_last=True), "player__display_name"]
        verbose_name = _("standing")
        verbose_name_plural = _("standings")
        constraints = [models.UniqueConstraint(fields=["league", "player"], name="standing_unique")]

    def __str__(self) -> str:
        return f"{self.league}: {self.position or '-'} {self.player}"


class Rating(models.Model):
    """A player's OpenSkill (Plackett–Luce) rating for one game, overall or within one club."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings", verbose_name=_("player"))
    game_slug = models.SlugField(max_length=64, verbose_name=_("game slug"))
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.CASCADE, related_name="ratings",
                             verbose_name=_("club"))
    mu = models.FloatField(verbose_name=_("mu"))
    sigma = models.FloatField(verbose_name=_("sigma"))
    ordinal = models.FloatField(help_text=_("mu − 3σ: the conservative estimate players are ranked by."),
                                verbose_name=_("ordinal"))
    games = models.PositiveIntegerField(default=0, verbose_name=_("games"))
    last_played = models.DateField(null=True, verbose_name=_("last played"))

    class Meta:
        ordering = ["game_slug", "club", "-ordinal"]
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(
                fields=["player", "game_slug"], condition=models.Q(club__isnull=True), name="rating_unique_overall"
            ),
            models.UniqueConstraint(
                fields=["player", "game_slug", "club"], condition=models.Q(club__isnull=False),
                name="rating_unique_in_club",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.game_slug}: {self.ordinal:.2f}"


class RatingChange(models.Model):
    """The rating history: how one game moved one player's rating."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_history",
                               verbose_name=_("player"))
    game_slug = models.SlugField(max_length=64, verbose_name=_("game slug"))
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.CASCADE, related_name="+",
                             verbose_name=_("club"))
    record = models.ForeignKey(GameRecord, on_delete=models.CASCADE, related_name="rating_changes",
                               verbose_name=_("record"))
    played_on = models.DateField(verbose_name=_("played on"))
    rank = models.PositiveSmallIntegerField(verbose_name=_("rank"))
    mu_before = models.FloatField(verbose_name=_("mu before"))
    sigma_before = models.FloatField(verbose_name=_("sigma before"))
    mu = models.FloatField(verbose_name=_("mu"))
    sigma = models.FloatField(verbose_name=_("sigma"))
    ordinal = models.FloatField(verbose_name=_("ordinal"))

    class Meta:
        ordering = ["played_on", "record_id", "player_id"]
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        indexes = [models.Index(fields=["game_slug", "club", "played_on"], name="rating_change_scope")]

    def __str__(self) -> str:
        return f"{self.player} #{self.record_id}: {self.mu_before:.2f} → {self.mu:.2f}"


class RecomputeRun(models.Model):
    """One recomputation fanned out to the workers in chunks; its progress is the chunks done."""

    class Status(models.TextChoices):
        RUNNING = "running", _("running")
        FINALIZING = "finalizing", _("rebuilding projections")
        FINISHED = "finished", _("finished")
        FAILED = "failed", _("failed")
        STALLED = "stalled", _("stalled: no progress")

    requested_by = models.CharField(max_length=150, blank=True, verbose_name=_("requested by"))
    filters = models.JSONField(default=dict, verbose_name=_("filters"))
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.RUNNING, verbose_name=_("status"))
    total = models.PositiveIntegerField(default=0, verbose_name=_("total"))
    done = models.PositiveIntegerField(default=0, verbose_name=_("done"))
    started_at = models.DateTimeField(auto_now_add=True, verbose_name=_("started at"))
    finished_at = models.DateTimeField(null=True, verbose_name=_("finished at"))
    error = models.TextField(blank=True, help_text=_("Why the run stopped, when a task gave up after its retries."),
                             verbose_name=_("error"))
    last_progress_at = models.DateTimeField(
        default=timezone.now,
        help_text=_("The heartbeat: when a chunk last started or finished, or the projections began."),
        verbose_name=_("last progress at")
    )

    class Meta:
        ordering = ["-started_at"]
        verbose_name = _("recomputation")
        verbose_name_plural = _("recomputations")

    def unscorable(self) -> dict[int, str]:
        """The records this run could not score, with why (the chunks done so far)."""
        found: dict[int, str] = {}
        for chunk in self.chunks.exclude(unscorable={}).order_by("index"):
            found.update({int(record_id): reason for record_id, reason in chunk.unscorable.items()})
        return dict(sorted(found.items()))

    def __str__(self) -> str:
        return f"recomputation #{self.pk} ({self.done}/{self.total})"


class RecomputeChunk(models.Model):
    run = models.ForeignKey(RecomputeRun, on_delete=models.CASCADE, related_name="chunks", verbose_name=_("run"))
    index = models.PositiveIntegerField(verbose_name=_("index"))
    record_ids = models.JSONField(verbose_name=_("record ids"))
    done_at = models.DateTimeField(null=True, verbose_name=_("done at"))
    error = models.TextField(blank=True, verbose_name=_("error"))
    unscorable = models.JSONField(default=dict, blank=True, help_text=_("Record id → why it could not be scored."),
                                  verbose_name=_("unscorable"))

    class Meta:
        verbose_name = _("recomputation chunk")
        verbose_name_plural = _("recomputation chunks")
        ordering = ["run", "index"]
        constraints = [models.UniqueConstraint(fields=["run", "index"], name="recompute_chunk_unique")]


class RecomputeChange(models.Model):
    """A seat whose final score or rank differs after the recomputation: before and after."""

    run = models.ForeignKey(RecomputeRun, on_delete=models.CASCADE, related_name="changes", verbose_name=_("run"))
    record = models.ForeignKey(GameRecord, on_delete=models.CASCADE, related_name="+", verbose_name=_("record"))
    seat_order = models.PositiveSmallIntegerField(verbose_name=_("seat order"))
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+", verbose_name=_("player"))
    score_before = models.IntegerField(null=True, verbose_name=_("score before"))
    rank_before = models.PositiveSmallIntegerField(null=True, verbose_name=_("rank before"))
    score_after = models.IntegerField(verbose_name=_("score after"))
    rank_after = models.PositiveSmallIntegerField(verbose_name=_("rank after"))

    class Meta:
        verbose_name = _("recomputation change")
        verbose_name_plural = _("recomputation changes")
        ordering = ["run", "record", "seat_order"]
        constraints = [
            models.UniqueConstraint(fields=["run", "record", "seat_order"], name="recompute_change_unique")
        ]


class ResultImpact(models.Model):
    """What a correction of a result moved, before → after: each player's rating (and place among
    the scope's players) and each league's standing line that changed (CoGs' session impact).
    Computed once, when the correction is scored; a projection like the rest (rebuildable by
    scoring the correction again with the projections as they stood)."""

    record = models.ForeignKey(GameRecord, on_delete=models.CASCADE, related_name="impacts", verbose_name=_("record"))
    seq = models.PositiveIntegerField(help_text=_("The correction event's place in the record."), verbose_name=_("seq"))
    changes = models.JSONField(default=list, verbose_name=_("changes"))
    computed_at = models.DateTimeField(auto_now_add=True, verbose_name=_("computed at"))

    class Meta:
        ordering = ["record", "seq"]
        constraints = [models.UniqueConstraint(fields=["record", "seq"], name="impact_once_per_correction")]
        verbose_name = _("impact of a correction")
        verbose_name_plural = _("impacts of corrections")

    def __str__(self) -> str:
        return f"{self.record_id}@{self.seq}: {len(self.changes)} changes"


class RulingImpact(models.Model):
    """What an organiser's ruling (a game approved or ruled out) moved, before → after: each
    standing line of the league and each rating of the club in the ruled game that changed.
    Computed when the league is refreshed after the ruling; rulings made while one refresh was
    pending share its changes."""

    ruling = models.OneToOneField(LeagueRuling, on_delete=models.CASCADE, primary_key=True, related_name="impact",
                                  verbose_name=_("ruling"))
    changes = models.JSONField(default=list, verbose_name=_("changes"))
    computed_at = models.DateTimeField(auto_now_add=True, verbose_name=_("computed at"))

    class Meta:
        verbose_name = _("impact of a ruling")
        verbose_name_plural = _("impacts of rulings")

    def __str__(self) -> str:
        return f"ruling {self.ruling_id}: {len(self.changes)} changes"


class RulesetMoveImpact(models.Model):
    """What moving a record to another ruleset moved, before → after: each rating of its game
    and each league standing line that changed once the record was scored again by the new rules.
    Computed once, when the moved record is scored."""

    move = models.OneToOneField("records.RulesetMove", on_delete=models.CASCADE, primary_key=True,
                                related_name="impact", verbose_name=_("move"))
    changes = models.JSONField(default=list, verbose_name=_("changes"))
    computed_at = models.DateTimeField(auto_now_add=True, verbose_name=_("computed at"))

    class Meta:
        verbose_name = _("impact of a ruleset move")
        verbose_name_plural = _("impacts of ruleset moves")

    def __str__(self) -> str:
        return f"ruleset move {self.move_id}: {len(self.changes)} changes"

