"""Pebbles: a toy game that lives in the tests alone, to prove that a game plugs into Ludolog
with its own modules and no edit to a shared file.

The rules: a pile of pebbles (seven by default) lies on the table; in turn each player takes one
or two; each pebble taken is a point, and whoever takes the last one scores three more. The pure
engine is :mod:`.engine`, its platform adapter :mod:`.adapter`, everything the pages need of it
:mod:`.web`. :func:`registered` adds the adapter and the web module to their registries for a
block, as a game's one registry line would.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from games import registry

from .adapter import PebblesAdapter

SLUG = PebblesAdapter.slug


@contextmanager
def registered() -> Iterator[PebblesAdapter]:
    from ludolog.web import games as web_games

    from .web import WEB_GAME

    with registry.registered(PebblesAdapter()) as adapter, web_games.registered(WEB_GAME):
        yield adapter  # type: ignore[misc]
