"""The event store: played games as append-only streams of immutable events.

A ``GameRecord`` is one stream; its ``Event`` rows are numbered 1, 2, 3… with no gaps, and the
database refuses a second event at a taken number (``unique(record, seq)``) as well as any
``UPDATE`` or ``DELETE`` of a stored event (triggers installed by migrations 0002, 0004 and 0007).
Each event's ``hash`` chains it to the event before it, the first to the record's header (its
game, ruleset, seed, set-up and seats); what the application changes after that is kept as
append-only moves (:class:`RulesetMove`, :class:`SeatMove`), chained too, and each record's head
is checkpointed (:class:`RecordCheckpoint`): an edit that gets past the triggers, or a plain
``UPDATE`` of a seed or a seat, is found by ``verify_events`` (:mod:`records.integrity`).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.jobs import ImportJob

from . import integrity


class ImmutableEventError(Exception):
    """Raised on any attempt to change or delete a stored event."""


class Player(models.Model):
    """A club member who sits at games; may be linked to a login."""

    display_name = models.CharField(_("display name"), max_length=100, unique=True)
    name_key = models.TextField(
        _("name key"), editable=False,
        help_text=_("The display name case-folded, without accents: how a typed name finds its player."),
    )
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="player",
        verbose_name=_("user")
    )

    class Meta:
        ordering = ["display_name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        # Not unique: players recorded before the key existed may be near-duplicates awaiting a merge.
        indexes = [models.Index(fields=["name_key"], name="player_name_key")]

    def __str__(self) -> str:
        return self.display_name

    def clean(self) -> None:
        """A name typed in a form (the admin's) is tidied as a seat's is, and must show something."""
        from .players import shows, tidy_name  # players.py builds on these models

        self.display_name = tidy_name(self.display_name or "")
        if not shows(self.display_name):
            raise ValidationError({"display_name": ValidationError(
                _("A name needs at least one visible character."), code="invisible_name")})

    def save(self, *args, **kwargs) -> None:
        from .players import name_key  # players.py builds on these models

        self.name_key = name_key(self.display_name)
        if kwargs.get("update_fields") is not None and "display_name" in kwargs["update_fields"]:
            kwargs["update_fields"] = {*kwargs["update_fields"], "name_key"}
        super().save(*args, **kwargs)


class GameRecord(models.Model):
    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", _("in progress")
        FINISHED = "finished", _("finished")
        ABANDONED = "abandoned", _("abandoned")

    game_slug = models.SlugField(_("game"), max_length=64)
    ruleset_version = models.CharField(_("ruleset version"), max_length=64, blank=True)
    organisation = models.ForeignKey(
        "accounts.Organisation", null=True, blank=True, on_delete=models.PROTECT, related_name="game_records",
        verbose_name=_("organisation"), help_text=_("The club or game library whose table recorded the game."))
    catalogue_record = models.ForeignKey(
        "games.CatalogueRecord", null=True, blank=True, on_delete=models.PROTECT, related_name="game_records",
        verbose_name=_("catalogue record")
    )
    copy = models.ForeignKey(
        "games.Copy", null=True, blank=True, on_delete=models.PROTECT, related_name="game_records",
        verbose_name=_("copy")
    )
    played_on = models.DateField(_("date played"), default=timezone.localdate)
    location = models.CharField(_("location"), max_length=200, blank=True)
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.IN_PROGRESS)
    is_private = models.BooleanField(_("private"), default=False)
    seed = models.BigIntegerField(
        _("seed"), null=True, blank=True,
        help_text=_("Set at setup when the platform draws from a seeded bag instead of recording each draw."),
    )
    setup = models.JSONField(
        _("set-up"), default=dict, blank=True,
        help_text=_("What the record chose at its start besides the seed (expansions, a map and its chips, "
                    "variants), as the game's rules engine checked and completed it. Pinned once events exist."),
    )
    result_only = models.BooleanField(
        _("result only"), default=False,
        help_text=_("Played without recording moves: one result event holds the final scores."),
    )
    is_friendly = models.BooleanField(
        # A default the database knows too: SQLite then adds the column in place instead of
        # rebuilding the table (which would drop the triggers that guard a record's events), and
        # a row written by hand still gets a value.
        _("friendly game (not in the league)"), default=False, db_default=False,
        help_text=_("Played for fun: counts for no league, whoever recorded it and whoever is seated."),
    )
    is_cooperative = models.BooleanField(
        _("cooperative game"), default=False, db_default=False,
        help_text=_("Everyone won or lost together (a result-only record): counted in the statistics, never in a "
                    "league's standings or in ratings, where nobody beat anybody."),
    )
    play_started_at = models.DateTimeField(
        _("play started"), null=True, blank=True, help_text=_("When play started at the table (editable)."))
    play_ended_at = models.DateTimeField(
        _("play ended"), null=True, blank=True, help_text=_("When play ended at the table (editable)."))
    duration_minutes = models.PositiveIntegerField(
        # Nullable without a default: SQLite adds the column in place (no table rebuild).
        _("duration (minutes)"), null=True, blank=True,
        help_text=_("How long the game took, as the table said when its result was logged."))
    source = models.CharField(
        _("imported from"), max_length=16, blank=True, default="", db_default="",
        help_text=_("The play log this result came from (bgg: BoardGameGeek, bgstats: BG Stats); empty: "
                    "recorded in Ludolog."))
    source_id = models.CharField(
        _("play id at the source"), max_length=100, blank=True, default="", db_default="",
        help_text=_("The source's id of the play (a play logged n times: id#1 to id#n): an import never "
                    "stores one twice."))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+",
        # Empty only for a record the operator made at the command line (an import, the demo):
        # a league trusts that. A deleted account must not turn its records into the operator's.
        help_text=_("Who started or imported the record; empty: the operator, at the command line."),
        verbose_name=_("created by")
    )
    scorekeepers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="kept_records", verbose_name=_("scorekeepers")
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        ordering = ["-played_on", "-id"]
        verbose_name = _("game record")
        verbose_name_plural = _("game records")
        # Every list of games (the games page, a league's, the home page's) reads newest first
        # a page at a time: the index gives the first rows without sorting every record.
        indexes = [
            models.Index(F("played_on").desc(), F("id").desc(), name="record_newest_first"),
            # Pages leave out the private records a reader may not see: a few among many, found
            # through this small index instead of a pass over every record.
            models.Index(fields=["id"], condition=Q(is_private=True), name="record_private"),
            # The start page lists the keeper's games in progress: a few among every record of
            # the installation. Without it the planner walked all of them (and, guessing the
            # walk dear, compiled it with JIT: 70 ms on the start page among 20,000 records).
            models.Index(fields=["id"], condition=Q(status="in_progress"), name="record_in_progress"),
        ]
        constraints = [
            # A play imported from BoardGameGeek or BG Stats is stored once: a re-import finds it.
            models.UniqueConstraint(fields=["source", "source_id"], condition=~Q(source=""),
                                    name="record_imported_once"),
        ]

    def __str__(self) -> str:
        return f"{self.game_slug} #{self.pk} ({self.played_on})"


class RulesetMoveQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise ImmutableEventError("a ruleset move is never changed: move the record again instead")

    def delete(self):
        raise ImmutableEventError("a ruleset move is never deleted: move the record again instead")


class RulesetMove(models.Model):
    """From now on the record is judged by ``to_version`` with ``to_setup`` (its variants): an
    append-only entry, never an edit of the record. A record's effective ruleset is its latest
    move's, or the one it pinned at its start (``records.replay.ruleset_of``). The entry keeps
    why the move was allowed: ``outcome`` ``identical`` (the same positions and scores) or
    ``changed`` (replays legally, scores differ: ``scores_before`` and ``scores_after`` by seat).
    """

    class Outcome(models.TextChoices):
        IDENTICAL = "identical", _("identical")
        CHANGED = "changed", _("changed")

    objects = RulesetMoveQuerySet.as_manager()

    record = models.ForeignKey(GameRecord, on_delete=models.PROTECT, related_name="ruleset_moves",
                               verbose_name=_("record"))
    from_version = models.CharField(_("from ruleset"), max_length=64)
    to_version = models.CharField(_("to ruleset"), max_length=64)
    from_setup = models.JSONField(_("set-up before"), default=dict, blank=True)
    to_setup = models.JSONField(_("set-up after"), default=dict, blank=True)
    outcome = models.CharField(_("outcome"), max_length=16, choices=Outcome.choices)
    scores_before = models.JSONField(_("scores before"), default=list, blank=True)
    scores_after = models.JSONField(_("scores after"), default=list, blank=True)
    moved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+",
        verbose_name=_("moved by")
    )
    moved_at = models.DateTimeField(_("moved at"), default=timezone.now)
    hash = models.CharField(
        _("hash"), max_length=64, editable=False,
        help_text=_("SHA-256 of the move and of the record's previous ruleset move's hash (records.integrity)."),
    )

    class Meta:
        ordering = ["record", "id"]
        verbose_name = _("ruleset move")
        verbose_name_plural = _("ruleset moves")

    def __str__(self) -> str:
        return f"#{self.record_id}: {self.from_version} → {self.to_version}"

    def save(self, *args, **kwargs) -> None:
        if self.pk is not None:
            raise ImmutableEventError("a ruleset move is never changed: move the record again instead")
        chain_and_save(self, super().save, *args, **kwargs)

    def content(self) -> dict[str, Any]:
        return integrity.ruleset_move_content(
            record_id=self.record_id, from_version=self.from_version, to_version=self.to_version,
            from_setup=self.from_setup, to_setup=self.to_setup, outcome=self.outcome,
            scores_before=self.scores_before, scores_after=self.scores_after, moved_by_id=self.moved_by_id,
            moved_at=self.moved_at)

    def delete(self, *args, **kwargs):
        raise ImmutableEventError("a ruleset move is never deleted: move the record again instead")


class Seat(models.Model):
    record = models.ForeignKey(GameRecord, on_delete=models.CASCADE, related_name="seats", verbose_name=_("record"))
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats", verbose_name=_("player"))
    seat_order = models.PositiveSmallIntegerField(_("seat order"))
    colour = models.CharField(_("colour"), max_length=16, blank=True)

    class Meta:
        ordering = ["record", "seat_order"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["record", "seat_order"], name="seat_order_unique"),
            models.UniqueConstraint(fields=["record", "player"], name="seat_player_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.seat_order}: {self.player}"


class SeatMoveQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise ImmutableEventError("a seat move is never changed: move the seat again instead")

    def delete(self):
        raise ImmutableEventError("a seat move is never deleted: move the seat again instead")


class SeatMove(models.Model):
    """Seat ``seat_order`` of the record went from one player to another after the record was
    started: two players merged (``records.players.merge_players``) or the seat corrected in the
    admin. An append-only entry, chained to the record's previous seat move (records.integrity):
    what lets ``verify_events`` tell these changes from a seat swapped behind the application's back.
    """

    class Reason(models.TextChoices):
        MERGE = "merge", _("players merged")
        CORRECTION = "correction", _("seat corrected")

    objects = SeatMoveQuerySet.as_manager()

    record = models.ForeignKey(GameRecord, on_delete=models.CASCADE, related_name="seat_moves",
                               verbose_name=_("record"))
    seat_order = models.PositiveSmallIntegerField(_("seat order"))
    # Ids, not foreign keys: a merge deletes the player the seat leaves.
    from_player = models.BigIntegerField(_("from player (id)"))
    to_player = models.BigIntegerField(_("to player (id)"))
    reason = models.CharField(_("reason"), max_length=16, choices=Reason.choices)
    moved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+",
        verbose_name=_("moved by")
    )
    moved_at = models.DateTimeField(_("moved at"), default=timezone.now)
    hash = models.CharField(
        _("hash"), max_length=64, editable=False,
        help_text=_("SHA-256 of the move and of the record's previous seat move's hash (records.integrity)."),
    )

    class Meta:
        ordering = ["record", "id"]
        verbose_name = _("seat move")
        verbose_name_plural = _("seat moves")

    def __str__(self) -> str:
        return f"#{self.record_id} seat {self.seat_order}: player {self.from_player} → {self.to_player}"

    def save(self, *args, **kwargs) -> None:
        if self.pk is not None:
            raise ImmutableEventError("a seat move is never changed: move the seat again instead")
        chain_and_save(self, super().save, *args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ImmutableEventError("a seat move is never deleted: move the seat again instead")

    def content(self) -> dict[str, Any]:
        return integrity.seat_move_content(
            record_id=self.record_id, seat=self.seat_order, from_player_id=self.from_player,
            to_player_id=self.to_player, reason=self.reason, moved_by_id=self.moved_by_id, moved_at=self.moved_at)


def chain_and_save(move: RulesetMove | SeatMove, save: Any, *args: Any, **kwargs: Any) -> None:
    """Hash a new move, chained to its record's latest move of its kind, and store it. The
    record's row stays locked until the transaction ends: two moves never chain to the same one."""
    using = kwargs.get("using") or move._state.db or "default"
    if settings.USE_TZ and timezone.is_naive(move.moved_at):
        move.moved_at = timezone.make_aware(move.moved_at, timezone.get_default_timezone())
    with transaction.atomic(using=using):
        list(GameRecord.objects.using(using).select_for_update().filter(pk=move.record_id).values_list("pk"))
        previous = (type(move).objects.using(using).filter(record_id=move.record_id).order_by("-id")
                    .values_list("hash", flat=True).first())
        move.hash = integrity.move_hash(move.content(), previous or integrity.GENESIS)
        save(*args, **kwargs)


class RecordCheckpoint(models.Model):
    """What the last verification of a record found intact (records.integrity, "Checkpoints"):
    its header digest, its last seq and that event's hash, and the count and last hash of its
    ruleset and seat moves; the next verification checks the store still holds all of it. A
    record that failed keeps its last good checkpoint, with ``failed_at`` and the ``problems``
    found: its pages and API answer 409 ``record_tampered``.
    """

    # Not a constraint: the checkpoint is evidence, and outlives a record row deleted behind the
    # application's back ("the record itself is missing").
    record = models.OneToOneField(GameRecord, primary_key=True, on_delete=models.DO_NOTHING, db_constraint=False,
                                  related_name="checkpoint", verbose_name=_("record"))
    header = models.CharField(_("header digest"), max_length=64, blank=True)
    last_seq = models.PositiveIntegerField(_("last seq"), default=0)
    head = models.CharField(_("last event's hash"), max_length=64, blank=True)
    ruleset_moves = models.PositiveIntegerField(_("ruleset moves"), default=0)
    ruleset_moves_head = models.CharField(_("last ruleset move's hash"), max_length=64, blank=True)
    seat_moves = models.PositiveIntegerField(_("seat moves"), default=0)
    seat_moves_head = models.CharField(_("last seat move's hash"), max_length=64, blank=True)
    checked_at = models.DateTimeField(_("found intact at"), null=True, blank=True)
    failed_at = models.DateTimeField(_("failed verification at"), null=True, blank=True)
    problems = models.JSONField(_("problems"), default=list, blank=True,
                                help_text=_("What its last verification found wrong, as sentences."))

    class Meta:
        verbose_name = _("record checkpoint")
        verbose_name_plural = _("record checkpoints")

    def __str__(self) -> str:
        return f"checkpoint #{self.record_id}@{self.last_seq}" + (" (failed)" if self.failed_at else "")


class EventQuerySet(models.QuerySet):
    """Bulk writes would bypass ``Event.save``/``Event.delete``; refuse them here too, and chain
    the events of a bulk insert (a record file's import) as ``save`` chains one."""

    def bulk_create(self, objs, *args, **kwargs):
        objs = list(objs)
        chain_unhashed(objs, using=self.db)
        return super().bulk_create(objs, *args, **kwargs)

    def update(self, **kwargs):
        raise ImmutableEventError("stored events never change")

    def delete(self):
        raise ImmutableEventError("stored events are never deleted")


class Event(models.Model):
    objects = EventQuerySet.as_manager()

    # No index of its own: unique(record, seq) serves every lookup by record (migration 0010).
    record = models.ForeignKey(GameRecord, on_delete=models.PROTECT, related_name="events", db_index=False,
                               verbose_name=_("record"))
    seq = models.PositiveIntegerField(_("sequence number"))
    type = models.CharField(_("type"), max_length=64)
    payload = models.JSONField(_("payload"), default=dict)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+",
        verbose_name=_("recorded by")
    )
    recorded_at = models.DateTimeField(_("recorded at"), default=timezone.now)
    idempotency_key = models.CharField(_("idempotency key"), max_length=100, null=True, blank=True)
    request_digest = models.CharField(
        _("request digest"), max_length=64, null=True, blank=True, editable=False,
        help_text=_("With an idempotency key: SHA-256 of the request's type and payload as the client sent "
                    "them. A retry is compared with it, not with the stored payload, which the rules engine "
                    "may have completed (a seeded game's drawn tile)."),
    )
    recorded_by_per_file = models.CharField(
        _("recorded by (per file)"), max_length=150, blank=True, null=True, editable=False,
        help_text=_("An imported event: the name its record file gave as its author, kept as text. The "
                    "account credited (recorded by) is the user who imported the file."),
    )
    hash = models.CharField(
        _("hash"), max_length=64, editable=False,
        help_text=_("SHA-256 of the event's content and of the previous event's hash (records.integrity)."),
    )

    class Meta:
        ordering = ["record", "seq"]
        verbose_name = _("event")
        verbose_name_plural = _("events")
        constraints = [
            models.UniqueConstraint(fields=["record", "seq"], name="event_seq_unique"),
            models.UniqueConstraint(
                fields=["record", "idempotency_key"],
                condition=Q(idempotency_key__isnull=False),
                name="event_idempotency_key_unique",
            ),
            models.CheckConstraint(condition=Q(seq__gte=1), name="event_seq_positive"),
        ]

    def __str__(self) -> str:
        return f"#{self.record_id}.{self.seq} {self.type}"

    def save(self, *args, **kwargs) -> None:
        if not self._state.adding:
            raise ImmutableEventError("stored events never change")
        if not self.hash:
            # append_event brings the previous hash along; any other writer looks it up.
            chain_unhashed([self], using=kwargs.get("using") or self._state.db or "default")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ImmutableEventError("stored events are never deleted")

    def chain_to(self, previous: str) -> None:
        """Set ``hash``, linking this event to ``previous``, the hash of the record's event before it."""
        if settings.USE_TZ and timezone.is_naive(self.recorded_at):
            # Made aware as the database will store it (DateTimeField does the same, with a warning).
            self.recorded_at = timezone.make_aware(self.recorded_at, timezone.get_default_timezone())
        self.hash = integrity.event_hash(
            record_id=self.record_id, seq=self.seq, type=self.type, payload=self.payload,
            recorded_at=self.recorded_at, recorded_by_id=self.recorded_by_id,
            idempotency_key=self.idempotency_key, previous=previous,
        )


def chain_unhashed(events: list[Event], *, using: str = "default") -> None:
    """Chain the events without a hash yet, in seq order per record, each to the one before it:
    in the same list, or else stored (one query for all the records that need it); a first
    event chains to its record's header digest (two queries for all the records that need it)."""
    unhashed = sorted((e for e in events if not e.hash), key=lambda e: (e.record_id, e.seq))
    if not unhashed:
        return
    known = {(e.record_id, e.seq): e for e in events if e.hash}
    new = {(e.record_id, e.seq) for e in unhashed}
    wanted = {(e.record_id, e.seq - 1) for e in unhashed if e.seq > 1} - new - set(known)
    stored: dict[tuple[int, int], str] = {}
    if wanted:
        match = Q()
        for record_id, seq in wanted:
            match |= Q(record_id=record_id, seq=seq)
        stored = {
            (record_id, seq): digest
            for record_id, seq, digest in Event.objects.using(using).filter(match).values_list("record_id", "seq", "hash")
        }
    heads = {key: e.hash for key, e in known.items()} | stored
    starting = {e.record_id for e in unhashed if e.seq == 1}
    if starting:
        heads |= {(record_id, 0): digest for record_id, digest in integrity.header_digests(starting, using=using).items()}
    for event in unhashed:
        # A missing previous event leaves a gap that verify_events reports; the link says so too.
        event.chain_to(heads.get((event.record_id, event.seq - 1), integrity.GENESIS))
        heads[(event.record_id, event.seq)] = event.hash


class WholeJSONField(models.JSONField):
    """A JSON value that is only ever written whole and read whole, never searched inside:
    stored as PostgreSQL ``json`` (the text as sent, checked) rather than ``jsonb``.

    ``jsonb`` parses its input into a binary form and prints it back out on every read, which
    pays only for queries inside the value. For an 18 KB Hunters and Gatherers position the
    insert took 2.2 ms as ``jsonb`` and 0.85 ms as ``json`` on the same machine (inserts of the
    same 50 stored positions, 300 each); other databases keep Django's JSON column.
    """

    def db_type(self, connection: Any) -> str | None:
        return "json" if connection.vendor == "postgresql" else super().db_type(connection)

    def get_db_prep_value(self, value: Any, connection: Any, prepared: bool = False) -> Any:
        if connection.vendor != "postgresql":
            return super().get_db_prep_value(value, connection, prepared)
        from psycopg.types.json import Json

        # Sent as json, not Django's Jsonb: a jsonb parameter would be parsed as jsonb first.
        return Json(value if prepared else self.get_prep_value(value))

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        # psycopg decodes a json column itself (Django only asks jsonb for text).
        return value if value is None or not isinstance(value, (str, bytes)) else super().from_db_value(
            value, expression, connection)


class Snapshot(models.Model):
    """A cached engine state after event ``seq``: a cache, never a source of truth.

    Dropping every snapshot changes no answer; it only makes rebuilding a position replay more
    events. Snapshots of another ruleset version are ignored.
    """

    # No index of its own: unique(record, seq, ruleset_version) serves it (migration 0010).
    record = models.ForeignKey(GameRecord, on_delete=models.CASCADE, related_name="snapshots", db_index=False,
                               verbose_name=_("record"))
    seq = models.PositiveIntegerField(verbose_name=_("seq"))
    ruleset_version = models.CharField(max_length=64, verbose_name=_("ruleset version"))
    state = WholeJSONField(verbose_name=_("state"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("snapshot")
        verbose_name_plural = _("snapshots")
        ordering = ["record", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["record", "seq", "ruleset_version"], name="snapshot_unique")
        ]

    def __str__(self) -> str:
        return f"snapshot #{self.record_id}@{self.seq}"


class EventVerification(models.Model):
    """One run of ``verify_events`` (the command or the periodic task), as ``/health/`` reports it.

    Kept in the database because that is what the worker that runs the check and the web
    processes that report it share (the cache is per process unless one is configured).
    """

    started_at = models.DateTimeField(verbose_name=_("started at"))
    finished_at = models.DateTimeField(default=timezone.now, verbose_name=_("finished at"))
    only_record_id = models.BigIntegerField(null=True, blank=True, help_text=_("Empty: the whole store."),
                                            verbose_name=_("only record id"))
    records_checked = models.PositiveIntegerField(default=0, verbose_name=_("records checked"))
    events_checked = models.PositiveIntegerField(default=0, verbose_name=_("events checked"))
    mismatch_count = models.PositiveIntegerField(default=0, verbose_name=_("mismatch count"))
    mismatches = models.JSONField(default=list, help_text=_("The first mismatches found, as sentences."),
                                  verbose_name=_("mismatches"))

    class Meta:
        ordering = ["-finished_at", "-id"]
        verbose_name = _("event verification")
        verbose_name_plural = _("event verifications")

    def __str__(self) -> str:
        return f"verification {self.finished_at:%Y-%m-%d %H:%M}: {self.mismatch_count} mismatches"


class RecordFileImport(ImportJob):
    """Record files uploaded in the admin (one ``ludolog-record/1`` file, or a ZIP archive of
    them, as ``export_records`` writes a club's history), imported by a Celery task
    (``records.tasks``): each file stored whole or refused with its reason, as
    ``import_records`` does. Its report lists the records made and the files refused."""

    class Meta(ImportJob.Meta):
        verbose_name = _("record file import")
        verbose_name_plural = _("record file imports")

    def __str__(self) -> str:
        return f"{self.file_name} ({self.get_status_display()})"
