"""Everything the pages need of one game, found by the game's slug: the web layer's registry.

Each game with a rules engine has one web module here (``ludolog.web.games.<game>``) exporting
one :class:`WebGame`: its name in the reader's language, its board drawing, the replay page's
hints, its actions in words, the explanation of its final scoring, the start page's set-up
questions, the words its rulesets and score sources go by, and what the table recorder needs
(its browser module, words and offline data). The shared pages (replay, game history, start
page, recorder, players) ask :func:`web_game` and never name a game themselves.

A game is added with its module and one line in :data:`WEB_MODULES`; a game whose module lives
elsewhere (the tests' toy game) is added with :func:`register`. The engine behind a slug is
the adapter ``games.registry.get_engine(slug)`` gives.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib import import_module
from threading import Lock
from typing import TYPE_CHECKING, Any, Protocol

from games.registry import get_engine

if TYPE_CHECKING:
    from django.utils.functional import Promise

    from ..narration import Narration, Position, Table
    from ..narration.final import FinalGroup
    from ..setup_choices import SetupChoices

    Words = str | Promise
else:
    Words = Any

WEB_MODULES: dict[str, str] = {
    "hunters-gatherers": "ludolog.web.games.hunters_gatherers",
    "stone-age": "ludolog.web.games.stone_age",
    "carcassonne": "ludolog.web.games.carcassonne",
    "carcassonne-maps": "ludolog.web.games.carcassonne_maps",
}
"""Engine slug → the module exporting its :class:`WebGame` as ``WEB_GAME`` (imported when first needed)."""


class BoardDrawing(Protocol):
    def __call__(self, position: Mapping[str, Any], seats: Sequence[Mapping[str, Any]], *, title: str,
                 show: str | None = None, free_cells: bool = False) -> str:
        """The position (the engine's view, with ``at``) as one ``<svg>`` with its text
        alternative in the reader's language; ``show`` outlines what a line of the final
        scoring is about (``award-3``, ``tribe-0``), ``free_cells`` where a tile may go."""
        ...


class ActionNarrator(Protocol):
    def __call__(self, event_type: str, payload: Mapping[str, Any], before: Position, after: Position,
                 table: Table) -> Narration:
        """One action (never an undo: the narration says those the same way for every game)."""
        ...


@dataclass(frozen=True)
class ReplayHints:
    """The replay page's words that depend on the game."""

    start: Words
    """What the position before the first event shows."""
    board: Words
    """How to read the board (what the outline and the figures mean); may be empty."""
    end: Words
    """What the final scoring counts."""
    final: Words
    """What picking a line of the final scoring does."""


def _no_words() -> dict[str, str]:
    return {}


def _nothing(*_args: Any) -> dict[str, Any]:
    return {}


def _no_sprite(*_args: Any) -> str:
    return ""


@dataclass(frozen=True)
class RecorderParts:
    """What the table recorder (``/scorekeeping/<id>/``) needs of a game beyond the shared page."""

    script: str
    """The game's browser module, a static path (``ludolog/recorder-tiles.js``); it registers
    with ``LudologRecorder.use`` (``recorder.js``)."""
    helpers: tuple[str, ...] = ()
    """Browser modules the game's module uses, static paths loaded before it (the tile games'
    picker, ``ludolog/recorder-picker.js``)."""
    css_class: str = ""
    """The recorder's class on the page (``tile-game``), for the game's stylesheet."""
    stylesheet: str = ""
    """A stylesheet of the game's own (static path), if it has one."""
    controls_template: str = ""
    """A template of the buttons the game adds to the action bar (between Undo and Confirm)."""
    side_template: str = ""
    """A template shown above the game's lines on the side (Stone Age's tribes)."""
    words: Callable[[], Mapping[str, str]] = _no_words
    """The browser module's words in the reader's language (the shared ones are added)."""
    page_data: Callable[[Any, str], Mapping[str, Any]] = _nothing
    """``(engine, ruleset_version)`` → what the browser module needs to work offline (every
    tile's picture and edges, every card's words)."""
    sprite: Callable[[Any, str], str] = _no_sprite
    """``(engine, ruleset_version)`` → SVG symbols the page holds once (the tiles' pictures)."""
    table: Callable[[Mapping[str, Any]], Mapping[str, Any]] = _nothing
    """The position (the engine's view) → what the browser module reads of the table after
    each move besides the board, scores and lines (the tiles laid, the tribes)."""
    board_options: Mapping[str, Any] = field(default_factory=dict)
    """How the recorder's board is drawn (``{"free_cells": True}``)."""


@dataclass(frozen=True)
class WebGame:
    """Everything the pages need of one game."""

    slug: str
    """The engine adapter's slug."""
    name: Words
    """The game's name in the reader's language."""
    board: BoardDrawing
    hints: ReplayHints
    narrate_action: ActionNarrator
    final_scoring: Callable[[Position], Sequence[FinalGroup]]
    """The final position (the engine's view) → the final scoring in groups of lines
    (:mod:`ludolog.web.narration.final`)."""
    recorder: RecorderParts
    final_by_player: bool = False
    """The final scoring reads player by player (Stone Age) rather than feature by feature."""
    setup_choices: SetupChoices | None = None
    """What the start page asks of a new record's set-up besides the seed."""
    seat_colours: Sequence[str] = ()
    """The colours of the game's own pieces, as :data:`ludolog.web.tile_frame.NAMED_COLOURS`
    names them, in the order the start page gives them to seats left to the default."""
    source_labels: Mapping[str, Words] = field(default_factory=dict)
    """A score source as the engine names it → its label (``river`` → Rivers)."""
    ruleset_names: Mapping[str, Words] = field(default_factory=dict)
    """A ruleset's key → its short name, when the game has several."""
    variant_names: Mapping[str, Words] = field(default_factory=dict)
    """A variant's key → its short name."""
    setup_words: Mapping[str, Words] = field(default_factory=dict)
    """The English words the adapter describes a set-up with → the reader's."""


_lock = Lock()
_loaded: dict[str, WebGame] = {}
_registered: dict[str, WebGame] = {}


def web_game(slug: str) -> WebGame | None:
    """The web module's :class:`WebGame` of the game ``slug``, or ``None`` for a game without
    one (a game only logged as results)."""
    found = _registered.get(slug) or _loaded.get(slug)
    if found is not None or slug not in WEB_MODULES:
        return found
    game: WebGame = import_module(WEB_MODULES[slug]).WEB_GAME
    if game.slug != slug:
        raise LookupError(f"{WEB_MODULES[slug]} exports the web module of {game.slug!r}, not of {slug!r}")
    with _lock:
        _loaded[slug] = game
    return game


def register(game: WebGame) -> None:
    """Add a game whose web module is not listed in :data:`WEB_MODULES`."""
    with _lock:
        _registered[game.slug] = game


def unregister(slug: str) -> None:
    with _lock:
        _registered.pop(slug, None)


@contextmanager
def registered(game: WebGame) -> Iterator[WebGame]:
    """``game`` registered for the block's duration."""
    register(game)
    try:
        yield game
    finally:
        unregister(game.slug)


TITLES_KEPT = 300
"""Seconds a game's catalogue title stays in the cache (a title is rarely edited)."""


def rules_name(slug: str) -> str | None:
    """The name of a game with rules here, in the reader's language: its web module's, else its
    engine's; None for a game only logged as results."""
    game = web_game(slug)
    if game is not None:
        return str(game.name)
    engine = get_engine(slug)
    return engine.name if engine is not None else None


def game_name(slug: str, title: str | None = None) -> str:
    """A game's name in the reader's language: :func:`rules_name`, else the catalogue's title its
    records name (a game only logged as results: ``title`` when the caller has read it already,
    as a statistics row has, else looked up), else the slug."""
    name = rules_name(slug)
    if name is not None:
        return name
    if title is None:
        title = _catalogue_title(slug)
    return title or slug


def _catalogue_title(slug: str) -> str:
    from django.core.cache import cache

    from scoring.models import GameStatistics

    key = f"game-title:{slug}"
    title = cache.get(key)
    if title is None:
        title = GameStatistics.objects.filter(game_slug=slug).values_list("title", flat=True).first() or ""
        cache.set(key, title, TITLES_KEPT)
    return title


def source_label(slug: str, source: str) -> str:
    """A score source (``river``) as the game's page names it (``Rivers``)."""
    game = web_game(slug)
    label = game.source_labels.get(source) if game is not None else None
    return str(label) if label is not None else source.replace("_", " ").capitalize()


def load_web_games() -> list[str]:
    """Import every game's web module and draw what each draws the same for every record (every
    tile's picture: a Carcassonne tile's geometry takes about 10 ms to work out, all 65 of them
    about 0.7 s); returns the slugs.

    Each is otherwise done by the first request that needs it, in each web process: the first
    replay of a Carcassonne game with the expansions took about 0.5 s more than the next.
    ``ludolog.wsgi`` calls this when the process starts, after the engines are loaded.
    """
    for slug in WEB_MODULES:
        game = web_game(slug)
        engine = get_engine(slug)
        if game is None or engine is None:
            continue
        for version in engine.rulesets:
            game.recorder.sprite(engine, version)
    return sorted(WEB_MODULES)
