"""A per-process cache of the latest engine state of the records this process appended to.

Rebuilding the position for every append (latest snapshot + the events after it, replayed) is
most of an append's cost. Events are immutable and numbered without gaps, so the state after
event ``seq`` of a record never changes once that event is committed: a state this process
built for ``(record, seq)`` stays exact, and bringing it up to date only takes the events after
``seq`` — which the append path reads from the database anyway, so a stale entry is never
*used*, only caught up (or dropped when it is too far behind for that to be cheaper than a
snapshot).

Rules that keep it exact:

* An entry is *taken* (removed) by the request that uses it, so no two requests (threads)
  ever mutate the same state object; it is put back only after that request knows what the
  state stands for.
* It is put back only once the data it reflects is committed (``transaction.on_commit``): a
  state built from, or advanced by, a transaction that rolls back is never cached.
* A refused action leaves the engine state unchanged (the engine guarantees it), so the entry
  goes back at the same seq; any other failure (database error, a bug) drops it.
* The key names what a reused record id could not share: the database, the record's creation
  time, its seed and the engine's ruleset version.

An entry also carries the hash of event ``seq`` (the *head* of the record's chain, see
:mod:`records.integrity`) when the request that cached it knew it: the next append links its
event to it without reading it back. Like the state, it never changes once committed.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.db import connections, transaction

from .models import GameRecord

_lock = threading.Lock()
_entries: OrderedDict[int, tuple[tuple[Any, ...], int, Any, str | None]] = OrderedDict()


def max_entries() -> int:
    return max(0, int(getattr(settings, "LUDOLOG_STATE_CACHE_SIZE", 64)))


def _identity(record: GameRecord, ruleset_version: str, using: str) -> tuple[Any, ...]:
    return (connections[using].settings_dict["NAME"], record.created_at, record.seed, ruleset_version)


def take(record: GameRecord, ruleset_version: str, *, using: str = "default") -> tuple[int, Any] | None:
    """The cached ``(seq, state)`` of ``record``, removed from the cache (the caller owns it now)."""
    entry = take_with_head(record, ruleset_version, using=using)
    return None if entry is None else entry[:2]


def take_with_head(
    record: GameRecord, ruleset_version: str, *, using: str = "default"
) -> tuple[int, Any, str | None] | None:
    """The cached ``(seq, state, hash of event seq or None)`` of ``record``, removed from the cache."""
    with _lock:
        entry = _entries.pop(record.pk, None)
    if entry is None:
        return None
    identity, seq, state, head = entry
    if identity != _identity(record, ruleset_version, using):
        return None
    return seq, state, head


def put_on_commit(
    record: GameRecord, ruleset_version: str, seq: int, state: Any, *, using: str = "default",
    head: str | None = None,
) -> None:
    """Cache ``state`` as the state after event ``seq`` (and ``head`` as that event's hash, when
    known) once the current transaction commits (at once in autocommit); never if it rolls back."""
    if max_entries() == 0:
        return
    identity = _identity(record, ruleset_version, using)
    record_id = record.pk
    if not connections[using].in_atomic_block:  # autocommit: already committed
        _put(record_id, identity, seq, state, head)
        return
    transaction.on_commit(lambda: _put(record_id, identity, seq, state, head), using=using)


def _put(record_id: int, identity: tuple[Any, ...], seq: int, state: Any, head: str | None) -> None:
    limit = max_entries()
    with _lock:
        current = _entries.get(record_id)
        if current is not None and current[0] == identity and current[1] > seq:
            return  # another request of this process already cached a later state
        _entries[record_id] = (identity, seq, state, head)
        _entries.move_to_end(record_id)
        while len(_entries) > limit:
            _entries.popitem(last=False)


class Held:
    """A record's cached state while a request holds it (see :func:`held`): ``seq``, ``state``
    and ``head`` as taken (``None`` when the cache had none), and what goes back."""

    def __init__(self, entry: tuple[int, Any, str | None] | None) -> None:
        self.seq, self.state, self.head = entry if entry is not None else (None, None, None)
        self._back: tuple[int, Any, str | None] | None = entry

    def keep(self, seq: int, state: Any, head: str | None) -> None:
        """``state`` is the state after the committed event ``seq`` (whose hash is ``head``, when
        known): it goes back to the cache when the block ends."""
        self.seq, self.state, self.head = seq, state, head
        self._back = (seq, state, head)

    def taken(self) -> tuple[int, Any] | None:
        """``(seq, state)`` as taken from the cache, or ``None``."""
        return None if self.seq is None else (self.seq, self.state)

    def caught_up(self, state: Any, seq: int, head: str | None) -> None:
        """:meth:`keep` the state brought up to the record's last event ``seq`` (``head``:
        ``None`` when no event was read, the cached state being current: its head stands)."""
        self.keep(seq, state, head if head is not None or seq != self.seq else self.head)

    def forget(self) -> None:
        """The state is about to stand for something not stored yet: nothing goes back unless
        :meth:`keep` is called again."""
        self._back = None


@contextmanager
def held(record: GameRecord, ruleset_version: str, *, using: str = "default") -> Iterator[Held]:
    """The record's cached state, taken for the block (no other request of this process uses it
    meanwhile): what the block keeps (:meth:`Held.keep`; at first, what was taken) goes back once
    the current transaction commits; on any error, nothing goes back."""
    holder = Held(take_with_head(record, ruleset_version, using=using))
    yield holder
    if holder._back is not None:
        seq, state, head = holder._back
        put_on_commit(record, ruleset_version, seq, state, using=using, head=head)


def clear() -> None:
    with _lock:
        _entries.clear()


def cached_seq(record_id: int) -> int | None:
    """The seq the cached state of ``record_id`` stands at: an append asks it before its first
    query, which then also reads the events after it (``records.selectors.append_target``)."""
    with _lock:
        entry = _entries.get(record_id)
    return None if entry is None else entry[1]
