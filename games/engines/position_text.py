"""A position as one line of text, as chess writes one in FEN: what every engine's ``to_text``
writes and its ``from_text`` reads back.

Version 1 of the form is three words, one space apart::

    <tag> 1 <state>

* ``tag`` names the engine (``carcassonne``, ``carcassonne-maps``, ``hunters-gatherers``,
  ``stone-age``: the slug the platform knows it by), so that no engine reads another's text;
* ``1`` is the version of this form;
* ``state`` is the engine's own snapshot (the JSON its ``to_dict`` writes; Hunters and
  Gatherers' ``snapshot``, its ``to_dict`` being the replay-checked record) written as compact
  JSON with sorted keys, compressed by zlib at level 9, in URL-safe base64 without padding.

Why not a FEN of each game's own words: a tile game's position is up to a hundred tiles and the
feature graph that joins their cities, roads and fields, whose exact state (which feature is
whose root, the contacts left open) is what playing on needs; the engines' snapshots already
restore it exactly, are versioned (``snapshot_version``) and are tested to do so. The text adds
no second description of a position that would have to be kept equal to the first.

What the text promises: one line of ASCII letters, digits, ``-``, ``_`` and two spaces; read back,
the same position (the same ``to_dict``, legal actions and scores, and the same game played on
from it); the same position writes the same text (keys sorted: a snapshot read back from
PostgreSQL, which keeps no key order, writes the text of the game it was taken from). The
actions to take back do not come with it, as a FEN has no move stack, except where an engine's
snapshot holds them (Hunters and Gatherers': its position names its actions).

>>> text = write("example", {"heap": 3, "taken": [2, 4]})
>>> text.split(" ")[:2], len(text.splitlines())
(['example', '1'], 1)
>>> read("example", text, dict)
{'heap': 3, 'taken': [2, 4]}
>>> read("stone-age", text, dict)
Traceback (most recent call last):
...
games.engines.errors.InvalidNotation: a position of example, not of stone-age
"""

from __future__ import annotations

import base64
import binascii
import json
import zlib
from collections.abc import Callable, Mapping
from typing import Any, Final, TypeVar

from .errors import InvalidNotation

VERSION: Final = 1
"""The version of the form; a reader refuses any other."""

GameT = TypeVar("GameT")


def write(tag: str, state: Mapping[str, Any]) -> str:
    """``state`` (JSON-able: an engine's snapshot) as the one line of an engine tagged ``tag``."""
    data = json.dumps(state, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)
    packed = base64.urlsafe_b64encode(zlib.compress(data.encode("ascii"), 9)).rstrip(b"=")
    return f"{tag} {VERSION} {packed.decode('ascii')}"


def read(tag: str, text: str, restore: Callable[[dict[str, Any]], GameT]) -> GameT:
    """The game ``restore`` builds from the state in ``text``; :class:`InvalidNotation` for text
    that is not a position of the engine tagged ``tag`` in this form, or whose state the engine
    refuses (another snapshot version, a field missing)."""
    words = text.split(" ")
    if len(words) != 3:
        raise InvalidNotation(f"a position is written '<game> {VERSION} <state>', not {_shown(text)}")
    written_tag, version, packed = words
    if written_tag != tag:
        raise InvalidNotation(f"a position of {written_tag}, not of {tag}")
    if version != str(VERSION):
        raise InvalidNotation(f"a position in the form of version {version!r}; this engine reads version {VERSION}")
    try:
        data = zlib.decompress(base64.urlsafe_b64decode(packed + "=" * (-len(packed) % 4)))
        state = json.loads(data)
    except (binascii.Error, zlib.error, ValueError) as error:
        raise InvalidNotation(f"the state of the position does not read: {error}") from None
    if not isinstance(state, dict):
        raise InvalidNotation("the state of the position is not an object")
    try:
        return restore(state)
    except InvalidNotation:
        raise
    except (ValueError, KeyError, TypeError, IndexError) as error:
        raise InvalidNotation(f"the {tag} engine cannot restore this position: {error!r}") from None


def _shown(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:40] + "…")
