"""Reading the event store: records, their events, and who may see or record them.

**Who may see a record** is defined here and nowhere else. A user is *tied* to a record when they
keep it (a scorekeeper) or sit at it (their player is seated): :data:`TIES`. Staff may read and
record every record; a tied user may read theirs and record actions; anyone may read a public
record. Every reader of records asks this module (:func:`visible_records`, :func:`can_read`,
:func:`can_append`); the append path's hand-written SQL compiles its condition from the same
definition (:func:`tied_sql`), and a test holds the two forms equal for every kind of viewer.

**What an append needs to know** (the record, its last seq, whether the user may append, the
ruleset it is judged by now, and the events a process's cached state lacks) is read in one query
and travels as one frozen value, :class:`AppendTarget`.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import reduce
from operator import or_
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import DEFAULT_DB_ALIAS, connection
from django.db.models import Exists, Model, OuterRef, Q, QuerySet
from django.db.models.expressions import RawSQL
from django.http import Http404

from accounts.roles import reads_every_record
from games.registry import END_GAME, ENDED_MISSING_TILE

from . import replay, store
from .models import Event, GameRecord, Player, RulesetMove, Seat

User = AbstractBaseUser | AnonymousUser


# -- which catalogue record a game was played with ------------------------------------------------


def played_with(catalogue_record: Any) -> Q:
    """The condition on a game record that it was played with ``catalogue_record`` (a catalogue
    record, its id, or an expression such as ``OuterRef("pk")``): it names that record, or names
    none and was played with one of its copies. A record counts for one catalogue record only,
    the one it names first (:func:`catalogue_record_played`, the same rule for a record in hand;
    a test holds the two equal)."""
    return Q(catalogue_record=catalogue_record) | Q(catalogue_record__isnull=True, copy__record=catalogue_record)


def catalogue_record_played(record: GameRecord) -> int | None:
    """The id of the catalogue record ``record`` was played with (:func:`played_with`), if any."""
    if record.catalogue_record_id is not None:
        return record.catalogue_record_id
    return record.copy.record_id if record.copy_id is not None else None


def ended_short_of_a_tile() -> Exists:
    """The condition on a game record that it ended because its box lacked a tile (its last
    event, ``end_game``, says so), for a query over records."""
    return Exists(Event.objects.filter(record=OuterRef("pk"), type=END_GAME, payload__reason=ENDED_MISSING_TILE))


# -- who may see and record a record -------------------------------------------------------------


@dataclass(frozen=True)
class Tie:
    """One way a user is tied to a record: a row of ``model`` whose ``record`` field names the
    record and whose ``user`` path leads to the user."""

    model_label: str
    record: str
    user: str

    @property
    def model(self) -> type[Model]:
        if self.model_label == "scorekeepers":
            return GameRecord.scorekeepers.through
        return Seat


TIES = (Tie("scorekeepers", record="gamerecord", user="user"), Tie("seats", record="record", user="player__user"))
"""The user keeps the record, or sits at it: they may read it and record its actions."""


def tied(user: Any) -> Q:
    """The condition on a record that ``user`` (a user, a user's pk, or an SQL expression) is tied
    to it: one correlated ``EXISTS`` a tie, each served by an index."""
    return reduce(or_, (Q(Exists(tie.model.objects.filter(**{tie.record: OuterRef("pk"), tie.user: user})))
                        for tie in TIES))


PUBLIC = Q(is_private=False)
"""A record anyone may read."""


def sees_everything(user: User) -> bool:
    return reads_every_record(user)


def only_visible(records: QuerySet[GameRecord], user: User) -> QuerySet[GameRecord]:
    """``records`` narrowed to those the user may read: public ones, and private ones they are
    tied to (staff read them all)."""
    if sees_everything(user):
        return records
    if not user.is_authenticated:
        return records.filter(PUBLIC)
    return records.filter(PUBLIC | tied(user))


def visible_records(user: User) -> QuerySet[GameRecord]:
    """Every record the user may read."""
    return only_visible(GameRecord.objects.all(), user)


def hidden_records(user: User) -> QuerySet[GameRecord]:
    """The records :func:`visible_records` leaves out for this user: private ones they are not
    tied to. Read from the private records (a few, indexed), not as everything but the visible
    ones: at 10 million events that complement cost a pass over every record, twice."""
    if sees_everything(user):
        return GameRecord.objects.none()
    private = GameRecord.objects.exclude(PUBLIC)
    if not user.is_authenticated:
        return private
    return private.exclude(tied(user))


def visible_players(user: User) -> QuerySet[Player]:
    """Players the user may know of: those seated at a record they may read (their own player
    among them), and those at no record yet (a new league member); staff know them all. Someone
    known only from records the user may not read is left out of every list and every look-up
    of a typed name: their name alone would tell that such a game was played."""
    players = Player.objects.all()
    if sees_everything(user):
        return players
    # Those left out sit at a hidden record and at no other: looked for among the seats of the
    # hidden records (private ones, few and indexed) in one subquery, rather than by asking of
    # every player whether one of their seats is visible (15 ms at 10 million events). Whether
    # such a player sits at a record the user may read is asked of that player's own seats
    # (``only_visible`` on their records, an index look-up each): asked as "a seat not among the
    # hidden records", the planner hashed every seat of the installation (70,000 seats, 60 ms,
    # on every page that lists players; ``bench/bench_organisations.py``).
    hidden = hidden_records(user).values("pk")
    elsewhere = only_visible(GameRecord.objects.filter(seats__player=OuterRef("player_id")), user)
    unknown = Seat.objects.filter(record__in=hidden).exclude(Exists(elsewhere)).values("player_id")
    return players.exclude(pk__in=unknown)  # a seat's player is never null: NOT IN is safe


def appendable_records(user: User) -> QuerySet[GameRecord]:
    """The records the user may record actions of (whatever their status)."""
    if sees_everything(user):
        return GameRecord.objects.all()
    if not user.is_authenticated:
        return GameRecord.objects.none()
    return GameRecord.objects.filter(tied(user))


def can_append(user: User, record: GameRecord) -> bool:
    """Staff, and the record's scorekeepers and seated players who are logged in, may record
    its actions."""
    if not user.is_authenticated:
        return False
    if sees_everything(user):
        return True
    return GameRecord.objects.filter(pk=record.pk).filter(tied(user)).exists()


def can_read(user: User, record: GameRecord) -> bool:
    return not record.is_private or can_append(user, record)


def readable_record(user: User, pk: Any, records: QuerySet[GameRecord] | None = None) -> GameRecord:
    """The record ``pk`` if the user may read it (from ``records``, with what the caller
    prefetches); :class:`Http404` otherwise, whether it is hidden or missing."""
    found = only_visible(GameRecord.objects.all() if records is None else records, user).filter(pk=pk).first()
    if found is None:
        raise Http404
    return found


USER = object()
"""Where the user's pk goes among the parameters of :func:`tied_sql`."""


@functools.cache
def tied_sql(user_sql: str = "%s") -> tuple[str, tuple[Any, ...]]:
    """:func:`tied` as SQL on the records table (named, not aliased) and its parameters, the user
    being a parameter (``%s``: :data:`USER` among the parameters marks it) or an SQL expression
    (a joined column). Compiled from the ORM's condition once per process: the raw hot path and
    the ORM cannot disagree."""
    query = GameRecord.objects.all().query
    user = RawSQL(user_sql, (USER,) if user_sql == "%s" else ())
    sql, params = query.get_compiler(DEFAULT_DB_ALIAS).compile(tied(user).resolve_expression(query))
    return sql, tuple(params)


@functools.cache
def public_sql() -> tuple[str, tuple[Any, ...]]:
    """:data:`PUBLIC` as SQL on the records table (named, not aliased) and its parameters,
    compiled from the ORM's condition."""
    query = GameRecord.objects.all().query
    sql, params = query.get_compiler(DEFAULT_DB_ALIAS).compile(PUBLIC.resolve_expression(query))
    return sql, tuple(params)


def _bind(params: Sequence[Any], user_id: Any) -> list[Any]:
    return [user_id if param is USER else param for param in params]


# -- a record's events ---------------------------------------------------------------------------


def last_seq(record: GameRecord) -> int:
    """The seq of the record's last event (0 for none)."""
    return Event.objects.filter(record=record).order_by("-seq").values_list("seq", flat=True).first() or 0


def events(record: GameRecord) -> QuerySet[Event]:
    """The record's events in order, with who recorded each."""
    return Event.objects.filter(record=record).order_by("seq").select_related("recorded_by")


def events_between(record: GameRecord, first: int, last: int) -> list[Event]:
    """Events ``first`` to ``last`` (both included), in order, with who recorded each."""
    return list(events(record).filter(seq__gte=first, seq__lte=last))


def latest_events(record: GameRecord, count: int) -> list[Event]:
    """The last ``count`` events, in order, with who recorded each."""
    found = list(Event.objects.filter(record=record).order_by("-seq").select_related("recorded_by")
                 .only("seq", "type", "payload", "recorded_by__username")[:count])
    found.reverse()
    return found


def retracted(record: GameRecord) -> dict[int, int]:
    """The seq of each action an undo took back → the seq of that undo."""
    # One plain query: a record holds at most LUDOLOG_MAX_EVENTS_PER_RECORD events, and a
    # server-side cursor (iterator()) costs three round trips where one does (the table
    # recorder asks this after every move).
    return replay.retractions(list(Event.objects.filter(record=record).order_by("seq").values_list("seq", "type")))


# -- what an append needs to know ----------------------------------------------------------------

EventRow = tuple[int, str, Any, str]
"""An event as the append path reads it: ``(seq, type, payload, hash)``."""


@dataclass(frozen=True)
class AppendTarget:
    """A record as an append needs it, read with its last seq and the user's access.

    ``last_seq`` is ``None`` when nobody read it yet (a record a service was handed): the append
    then reads it with the position. ``events_after`` is ``(seq, rows)``: the events after
    ``seq`` (the seq this process's cached state stands at) up to the catch-up limit, read in
    the same query.
    """

    record: GameRecord
    last_seq: int | None
    ruleset_version: str
    """The ruleset the record is judged by now: its latest move's, else the one it pinned."""
    setup: dict[str, Any]
    """The set-up it is played with now: its latest move's, else the one it pinned."""
    may_append: bool
    may_read: bool
    events_after: tuple[int, tuple[EventRow, ...]] | None = None

    @classmethod
    def of(cls, record: GameRecord) -> AppendTarget:
        """A record handed to the append by the code itself (an import, the demo, a test): the
        caller decided it may append."""
        return cls(record, None, replay.ruleset_of(record), replay.setup_of(record), may_append=True, may_read=True)


def append_target(pk: Any, user: User, *, catch_up_from: int | None = None) -> AppendTarget:
    """The record ``pk`` as an append by ``user`` needs it, in one query; :class:`Http404` when
    there is no such record.

    The hot path of every recorded action: hand-written SQL (built once), because composing the
    same query with the ORM costs more CPU than running it; its access condition is the ORM's,
    compiled (:func:`tied_sql`).
    """
    key = GameRecord._meta.pk.get_prep_value(pk)  # the ORM's own check: a non-number pk raises as before
    user_id = user.pk if user.is_authenticated else None
    with store.read_cursor() as cursor:
        cursor.execute(_append_target_sql(), [*_bind(tied_sql()[1], user_id), *_catch_up_window(catch_up_from), key])
        row = cursor.fetchone()
    if row is None:
        raise Http404
    fields = GameRecord._meta.concrete_fields
    return _target(_from_row(GameRecord, row[: len(fields)]), row[len(fields):], user, catch_up_from)


def append_target_with_token(pk: Any, key: str, *, catch_up_from: int | None = None
                             ) -> tuple[Any, AppendTarget | None] | None:
    """The user of API token ``key`` and the record ``pk`` as :func:`append_target` reads it, in
    **one** query: an API client's authentication and the record its request is about.

    ``None`` when no token has that key; ``(user, None)`` when there is no such record. The
    caller checks that the user is active, as token authentication does.
    """
    from django.contrib.auth import get_user_model

    record_key = GameRecord._meta.pk.get_prep_value(pk)
    with store.read_cursor() as cursor:
        cursor.execute(_token_target_sql(), [*tied_sql(TOKEN_USER)[1], *_catch_up_window(catch_up_from), record_key, key])
        row = cursor.fetchone()
    if row is None:
        return None
    user_fields = get_user_model()._meta.concrete_fields
    user = _from_row(get_user_model(), row[: len(user_fields)])
    rest = row[len(user_fields):]
    if rest[0] is None:
        return user, None
    fields = GameRecord._meta.concrete_fields
    return user, _target(_from_row(GameRecord, rest[: len(fields)]), rest[len(fields):], user, catch_up_from)


def _target(record: GameRecord, extras: Sequence[Any], user: User, catch_up_from: int | None) -> AppendTarget:
    last, moved, moved_setup, tied_to, after = extras
    record.moved_ruleset = moved  # type: ignore[attr-defined]  (what replay.ruleset_of would read again)
    may_append = bool(user.is_authenticated and (sees_everything(user) or tied_to))
    if isinstance(moved_setup, str):  # SQLite gives a JSON column's text
        moved_setup = json.loads(moved_setup)
    return AppendTarget(record, last or 0, replay.judged_by(record, moved),
                        dict(record.setup if moved_setup is None else moved_setup), may_append=may_append,
                        may_read=not record.is_private or may_append,
                        events_after=None if catch_up_from is None else (catch_up_from, tuple(_rows(after))))


def _catch_up_window(catch_up_from: int | None) -> list[int | None]:
    """The two parameters of the events column: after ``catch_up_from``, up to the catch-up
    limit (none at all without a cached state)."""
    return [None, None] if catch_up_from is None else [catch_up_from, catch_up_from + replay.catch_up_limit()]


def _rows(after: Any) -> Iterator[EventRow]:
    """The events column's JSON (or its text, where the driver leaves it so) as rows, in order."""
    if after is None:
        return iter(())
    if isinstance(after, str):
        after = json.loads(after)
    return iter(sorted(((seq, kind, payload, digest) for seq, kind, payload, digest in after), key=lambda r: r[0]))


def _extras(user_sql: str) -> str:
    """The columns both hot-path reads add to the record: its last seq, the ruleset it was last
    moved to and the set-up it took with it, whether the user (``user_sql``) is tied to it (:func:`tied_sql`), and the events in
    a window of seqs (two parameters, see :func:`_catch_up_window`) as JSON."""
    event, move = Event._meta, RulesetMove._meta
    record = qn(GameRecord._meta.db_table) + "." + qn("id")
    return (
        f"(SELECT e.{qn('seq')} FROM {qn(event.db_table)} e WHERE e.{qn('record_id')} = {record}"
        f" ORDER BY e.{qn('seq')} DESC LIMIT 1) AS last_seq,"
        f" (SELECT m.{qn('to_version')} FROM {qn(move.db_table)} m WHERE m.{qn('record_id')} = {record}"
        f" ORDER BY m.{qn('id')} DESC LIMIT 1) AS moved_ruleset,"
        f" (SELECT m.{qn('to_setup')} FROM {qn(move.db_table)} m WHERE m.{qn('record_id')} = {record}"
        f" ORDER BY m.{qn('id')} DESC LIMIT 1) AS moved_setup,"
        f" ({tied_sql(user_sql)[0]}) AS tied,"
        f" (SELECT {_json_rows('c')} FROM {qn(event.db_table)} c WHERE c.{qn('record_id')} = {record}"
        f" AND c.{qn('seq')} > {_integer('%s')} AND c.{qn('seq')} <= {_integer('%s')}) AS events_after"
    )


def _json_rows(event: str) -> str:
    """The aggregate of events ``event`` as a JSON array of ``[seq, type, payload, hash]``."""
    seq, kind, payload, digest = (f"{event}.{qn(column)}" for column in ("seq", "type", "payload", "hash"))
    if connection.vendor == "postgresql":
        return f"json_agg(json_build_array({seq}, {kind}, {payload}, {digest}) ORDER BY {seq})"
    # SQLite (make run): its JSON1 functions; the rows are put in order when read (_rows).
    return f"json_group_array(json_array({seq}, {kind}, json({payload}), {digest}))"


def _integer(parameter: str) -> str:
    """A parameter that may be NULL, typed (PostgreSQL cannot infer a bare NULL's type in every
    context; SQLite takes the cast too)."""
    return f"CAST({parameter} AS integer)"


@functools.cache
def _append_target_sql() -> str:
    record = GameRecord._meta
    columns = ", ".join(f"{qn(record.db_table)}.{qn(field.column)}" for field in record.concrete_fields)
    # The parameters in the order they appear: the ties' (with the user), the events window, the pk.
    return (f"SELECT {columns}, {_extras('%s')} FROM {qn(record.db_table)}"
            f" WHERE {qn(record.db_table)}.{qn('id')} = %s")


@functools.cache
def _token_target_sql() -> str:
    # The parameters in the order they appear: the ties', the events window, the pk, the key.
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    record, user, token = GameRecord._meta, get_user_model()._meta, Token._meta
    user_columns = ", ".join(f"u.{qn(field.column)}" for field in user.concrete_fields)
    record_columns = ", ".join(f"{qn(record.db_table)}.{qn(field.column)}" for field in record.concrete_fields)
    return (
        f"SELECT {user_columns}, {record_columns}, {_extras(TOKEN_USER)}"
        f" FROM {qn(token.db_table)} t JOIN {qn(user.db_table)} u ON u.{qn('id')} = t.{qn('user_id')}"
        f" LEFT JOIN {qn(record.db_table)} ON {qn(record.db_table)}.{qn('id')} = %s"
        f" WHERE t.{qn('key')} = %s"
    )


def _from_row(model: Any, values: Any) -> Any:
    """A model instance from its raw column values, converted as the ORM converts what it reads
    (a JSON field's text to its value, SQLite's dates and booleans…): ``from_db`` alone would
    leave a record's ``setup`` a string."""
    names, converters = _row_converters(model)
    values = list(values)
    for index, convert in converters:
        values[index] = convert(values[index])
    return model.from_db(connection.alias, names, values)


@functools.cache
def _row_converters(model: Any) -> tuple[list[str], list[tuple[int, Any]]]:
    fields = model._meta.concrete_fields
    converters: list[tuple[int, Any]] = []
    for index, field in enumerate(fields):
        column = field.get_col(model._meta.db_table)
        steps = connection.ops.get_db_converters(column) + field.get_db_converters(connection)
        if steps:
            def convert(value: Any, steps: list[Any] = steps, column: Any = column) -> Any:
                for step in steps:
                    value = step(value, column, connection)
                return value
            converters.append((index, convert))
    return [field.attname for field in fields], converters


TOKEN_USER = 'u."id"'
"""The token query's user: the joined users table's key."""


def qn(name: str) -> str:
    return connection.ops.quote_name(name)
