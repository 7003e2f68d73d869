from __future__ import annotations

import functools
import json
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import connection
from django.http import Http404
from rest_framework import permissions

from . import store
from .models import Event, GameRecord, Player, RulesetMove, Seat


def record_for_append(pk: Any, user: AbstractBaseUser | AnonymousUser, *, catch_up_from: int | None = None) -> GameRecord:
    """The record ``pk`` for an append, read with its last seq (``last_seq``), the ruleset it was
    last moved to (``moved_ruleset``, see ``records.replay.ruleset_of``) and whether ``user`` may
    append to it, in one query; :class:`Http404` when there is no such record.

    ``catch_up_from``: the seq this process's cached state of the record stands at, if any. The
    same query then also reads the events after it (up to ``records.replay.catch_up_limit``), as
    ``events_after_cached`` = ``(catch_up_from, [[seq, type, payload, hash], …])``: a process a
    few events behind (another worker took the record's last appends) catches up without a query
    of its own.

    The hot path of every recorded action: hand-written SQL (built once) because composing the
    same query with the ORM (two ``Exists`` and a ``Subquery``) costs more CPU than running it.
    """
    key = GameRecord._meta.pk.get_prep_value(pk)  # the ORM's own check: a non-number pk raises as before
    user_id = user.pk if user.is_authenticated else None
    with store.read_cursor() as cursor:
        cursor.execute(_record_for_append_sql(), [user_id, user_id, *_catch_up_window(catch_up_from), key])
        row = cursor.fetchone()
    if row is None:
        raise Http404
    fields = GameRecord._meta.concrete_fields
    record = _from_row(GameRecord, row[: len(fields)])
    record.last_seq, record.moved_ruleset, record.append_access, after = row[len(fields):]
    record.events_after_cached = None if catch_up_from is None else (catch_up_from, _rows(after))
    record.append_access_user = user_id
    record.append_access = bool(record.append_access)
    return record


def _catch_up_window(catch_up_from: int | None) -> list[int | None]:
    """The two parameters of :func:`_record_extras`' events column: after ``catch_up_from``, up
    to the catch-up limit (none at all without a cached state)."""
    from .replay import catch_up_limit

    return [None, None] if catch_up_from is None else [catch_up_from, catch_up_from + catch_up_limit()]


def _rows(after: Any) -> list[tuple[int, str, Any, str]]:
    """The events column's JSON (or its text, where the driver leaves it so) as rows."""
    if after is None:
        return []
    if isinstance(after, str):
        after = json.loads(after)
    return sorted(((seq, kind, payload, digest) for seq, kind, payload, digest in after), key=lambda row: row[0])


def _record_extras(user: str) -> str:
    """The columns both hot-path reads add to a record ``r``: its last seq, the ruleset it was
    last moved to, whether ``user`` (an SQL expression: a parameter or a joined column) keeps it
    or sits at it, and the events in a window of seqs (two parameters, see
    :func:`_catch_up_window`) as JSON."""
    event, seat, player, move = (model._meta for model in (Event, Seat, Player, RulesetMove))
    keepers = GameRecord.scorekeepers.through._meta
    return (
        f"(SELECT e.{qn('seq')} FROM {qn(event.db_table)} e WHERE e.{qn('record_id')} = r.{qn('id')}"
        f" ORDER BY e.{qn('seq')} DESC LIMIT 1) AS last_seq,"
        f" (SELECT m.{qn('to_version')} FROM {qn(move.db_table)} m WHERE m.{qn('record_id')} = r.{qn('id')}"
        f" ORDER BY m.{qn('id')} DESC LIMIT 1) AS moved_ruleset,"
        f" (EXISTS (SELECT 1 FROM {qn(keepers.db_table)} k"
        f" WHERE k.{qn('gamerecord_id')} = r.{qn('id')} AND k.{qn('user_id')} = {user})"
        f" OR EXISTS (SELECT 1 FROM {qn(seat.db_table)} s JOIN {qn(player.db_table)} p"
        f" ON p.{qn('id')} = s.{qn('player_id')} WHERE s.{qn('record_id')} = r.{qn('id')}"
        f" AND p.{qn('user_id')} = {user})) AS append_access,"
        f" (SELECT {_json_rows('c')} FROM {qn(event.db_table)} c WHERE c.{qn('record_id')} = r.{qn('id')}"
        f" AND c.{qn('seq')} > {_integer('%s')} AND c.{qn('seq')} <= {_integer('%s')}) AS events_after_cached"
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
def _record_for_append_sql() -> str:
    record = GameRecord._meta
    columns = ", ".join(f"r.{qn(field.column)}" for field in record.concrete_fields)
    return f"SELECT {columns}, {_record_extras('%s')} FROM {qn(record.db_table)} r WHERE r.{qn('id')} = %s"


def record_and_token_user(pk: Any, key: str, *, catch_up_from: int | None = None) -> tuple[Any, GameRecord | None] | None:
    """The user of API token ``key`` and the record ``pk`` as :func:`record_for_append` reads it
    (its last seq, ruleset move and whether that user may append), in **one** query: an API
    client's authentication and the record its request is about, read together.

    ``None`` when no token has that key; ``(user, None)`` when there is no such record. The
    caller checks that the user is active, as token authentication does. ``catch_up_from`` as
    for :func:`record_for_append`.
    """
    from django.contrib.auth import get_user_model

    record_key = GameRecord._meta.pk.get_prep_value(pk)
    user_model = get_user_model()
    with store.read_cursor() as cursor:
        cursor.execute(_record_and_token_user_sql(), [*_catch_up_window(catch_up_from), record_key, key])
        row = cursor.fetchone()
    if row is None:
        return None
    user_fields = user_model._meta.concrete_fields
    record_fields = GameRecord._meta.concrete_fields
    user = _from_row(user_model, row[: len(user_fields)])
    rest = row[len(user_fields):]
    if rest[0] is None:
        return user, None
    record = _from_row(GameRecord, rest[: len(record_fields)])
    record.last_seq, record.moved_ruleset, access, after = rest[len(record_fields):]
    record.events_after_cached = None if catch_up_from is None else (catch_up_from, _rows(after))
    record.append_access_user = user.pk
    record.append_access = bool(access)
    return user, record


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


@functools.cache
def _record_and_token_user_sql() -> str:
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    record, user, token = GameRecord._meta, get_user_model()._meta, Token._meta
    user_columns = ", ".join(f"u.{qn(field.column)}" for field in user.concrete_fields)
    record_columns = ", ".join(f"r.{qn(field.column)}" for field in record.concrete_fields)
    token_user = f"u.{qn('id')}"
    return (
        f"SELECT {user_columns}, {record_columns}, {_record_extras(token_user)}"
        f" FROM {qn(token.db_table)} t JOIN {qn(user.db_table)} u ON u.{qn('id')} = t.{qn('user_id')}"
        f" LEFT JOIN {qn(record.db_table)} r ON r.{qn('id')} = %s"
        f" WHERE t.{qn('key')} = %s"
    )


def qn(name: str) -> str:
    return connection.ops.quote_name(name)


def can_append(user: AbstractBaseUser | AnonymousUser, record: GameRecord) -> bool:
    """Scorekeepers and seated players who are logged in may record actions; staff may too."""
    if not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    # Read with the record for this very user (record_for_append): no query needed.
    if getattr(record, "append_access_user", None) == user.pk:
        return bool(record.append_access)
    if record.scorekeepers.filter(pk=user.pk).exists():
        return True
    return record.seats.filter(player__user=user).exists()


def can_read(user: AbstractBaseUser | AnonymousUser, record: GameRecord) -> bool:
    return not record.is_private or can_append(user, record)


class RecordAccess(permissions.BasePermission):
    message = "only the record's scorekeepers and seated players may record actions"

    def has_object_permission(self, request, view, obj: GameRecord) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return can_read(request.user, obj)
        return can_append(request.user, obj)
