"""Which rules engine replays which game: slug → engine adapter.

The registry is pure Python (no Django). Each adapter (``games.adapters.<game>``) wraps one
engine package under ``games.engines`` behind the same small interface
(:class:`~games.adapters.base.EngineAdapter`), so a new engine plugs in with its adapter module
and one line here; an adapter that lives elsewhere (the tests' toy game) is added with
:func:`register`. The shared vocabulary is re-exported for the apps.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from importlib import import_module

from .adapters.base import (
    ABANDON,
    END_GAME,
    ENDED_MISSING_TILE,
    RECORD_EVENT_SCHEMAS,
    RESULT,
    UNDO,
    EngineAdapter,
    FinalScore,
    GameStateAdapter,
    PayloadError,
    UnknownEventType,
    validate_payload,
)
from .engines.box import BoxContents, BoxPiece

__all__ = [
    "ABANDON", "END_GAME", "ENDED_MISSING_TILE", "RECORD_EVENT_SCHEMAS", "RESULT", "UNDO", "BoxContents", "BoxPiece", "EngineAdapter", "FinalScore", "GameStateAdapter", "PayloadError", "UnknownEventType",
    "box_contents", "engine_slugs", "get_engine", "load_engines", "register", "registered", "unregister", "validate_payload",
]

_ADAPTERS: dict[str, EngineAdapter] = {}
_REGISTERED: dict[str, EngineAdapter] = {}
_BOXES: dict[str, str] = {
    "hunters-gatherers": "games.engines.hunters_gatherers.box",
    "stone-age": "games.engines.stone_age.box",
    "carcassonne": "games.engines.carcassonne.box",
    "carcassonne-maps": "games.engines.carcassonne_maps.box",
}
"""Each engine's declaration of the pieces in its game's box (its ``box`` module), by the slug
catalogue records name the engine with; imported on the first question."""


def _load() -> dict[str, EngineAdapter]:
    if not _ADAPTERS:
        from .adapters.carcassonne import CarcassonneAdapter
        from .adapters.carcassonne_maps import CarcassonneMapsAdapter
        from .adapters.hunters_gatherers import HuntersGatherersAdapter
        from .adapters.stone_age import StoneAgeAdapter

        adapters: tuple[EngineAdapter, ...] = (HuntersGatherersAdapter(), StoneAgeAdapter(), CarcassonneAdapter(),
                                               CarcassonneMapsAdapter())
        for adapter in adapters:
            _ADAPTERS[adapter.slug] = adapter
    return _ADAPTERS


def get_engine(slug: str) -> EngineAdapter | None:
    """The adapter for ``slug``, or ``None`` when no engine replays that game yet."""
    return _REGISTERED.get(slug) or _load().get(slug)


def box_contents(slug: str) -> BoxContents | None:
    """What the engine ``slug`` says is in its game's box, or ``None`` when no engine declares it
    (no engine, or one that knows no box).

    >>> box_contents("hunters-gatherers").piece("landscape_tiles").count
    79
    >>> box_contents("no-such-game") is None
    True
    """
    module = _BOXES.get(slug)
    if module is None:
        return None
    contents: BoxContents = import_module(module).box_contents()
    return contents



def engine_slugs() -> list[str]:
    return sorted({*_load(), *_REGISTERED})


def register(adapter: EngineAdapter) -> None:
    """Add an adapter whose module is not one of :func:`_load`'s."""
    _REGISTERED[adapter.slug] = adapter


def unregister(slug: str) -> None:
    _REGISTERED.pop(slug, None)


@contextmanager
def registered(adapter: EngineAdapter) -> Iterator[EngineAdapter]:
    """``adapter`` registered for the block's duration."""
    register(adapter)
    try:
        yield adapter
    finally:
        unregister(adapter.slug)


def load_engines() -> list[str]:
    """Build every adapter and load what its engine reads from disk (tile sets checked against
    their schema, cards, maps) for every ruleset it offers; returns the slugs.

    Each is otherwise loaded by the first request that needs it: a web process started by
    gunicorn (and started again every couple of thousand requests) would make that request wait
    about a second. ``ludolog.wsgi`` calls this when the process starts.
    """
    for adapter in (*_load().values(), *_REGISTERED.values()):
        for version in adapter.rulesets:
            adapter.view(adapter.new_state(adapter.min_players, 0, None, version))
    return engine_slugs()
