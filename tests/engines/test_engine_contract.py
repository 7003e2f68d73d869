"""Every rules engine keeps the one contract (:mod:`games.engines.contract`), whatever its game.

Each game below (every engine, with the set-ups its adapter offers: Carcassonne's expansions with
their rules and tiles only, the Maps with their chips, seeded and at a table, Hunters and Gatherers'
variant, both Stone Age rulesets, and the toy game) is played to its end by random legal choices
from a few seeds. At a few positions along the way (not every one: the suite's time) it must:

* write its position on one line that reads back into the same position (``to_dict``, legal
  actions, scores, ranks, the same text), and the game read back, played on with the same
  actions, reaches the same end;
* give a ``copy()`` that plays on without touching the original;
* take an action back with ``undo()``, which returns that action, to the same text;
* read every legal action back from its notation; refuse text that is not an action with
  ``InvalidNotation`` (never ``IllegalAction``), and a well-formed action the rules refuse with
  ``IllegalAction``, the position unchanged;
* rank the seats by the one competition rank, as the scores stand.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

import pytest

from games.engines.contract import Engine, Notated
from games.engines.errors import IllegalAction, InvalidNotation
from games.engines.ranks import seat_ranks
from games.registry import get_engine
from tests.toy_game.adapter import PebblesAdapter

SEEDS = (1, 2)
SAMPLES = 4
"""Positions probed in each game: its first, its last before the end and some drawn at random
(and its end)."""
SLOW = {"carcassonne-maps-at-a-table-2p"}
"""Played from the first seed only: a table's every legal action names each chip a square may
hide and each tile an island may turn up."""


@dataclass(frozen=True)
class Subject:
    """One game to play: how to set it up, choose an action, read text, and refuse."""

    new: Callable[[int], Any]
    """A fresh game from a seed (through the adapter, with the set-up a record would pin)."""
    choose: Callable[[Any, random.Random], Any]
    """A legal action, complete (the chance a seeded game decides filled in), chosen by the rng."""
    from_text: Callable[[str], Any]
    parse: Callable[[str], Any]
    not_notation: str
    refused: Callable[[Any], Iterator[Any]]
    """Well-formed actions the rules refuse in this position."""
    rank_key: Callable[[Any], Any] = lambda score: score.total


def _adapter_game(slug: str, players: int, setup: dict[str, Any] | None = None,
                  seeded: bool = True) -> Callable[[int], Any]:
    engine = get_engine(slug)
    assert engine is not None

    def new(seed: int) -> Any:
        pinned = engine.prepare_setup(players, seed, setup)
        return engine.new_state(players, seed if seeded else None, pinned)

    return new


def _any_choice(game: Any, rng: random.Random) -> Any:
    return rng.choice(game.legal_actions())


# -- Carcassonne and the Maps -------------------------------------------------------------

def _carcassonne_refused(game: Any) -> Iterator[Any]:
    placing = [a for a in game.legal_actions() if not getattr(a, "draw", False)]
    if not placing:
        return
    action = placing[0]
    yield replace(action, seat=(game.current + 1) % game.players)
    laid = next(iter(game.board.tiles))
    yield replace(action, x=laid[0], y=laid[1], discard=False)


def _carcassonne(players: int, setup: dict[str, Any] | None = None, seeded: bool = True) -> Subject:
    from games.engines import carcassonne

    return Subject(_adapter_game("carcassonne", players, setup, seeded), _any_choice, carcassonne.Game.from_text,
                   carcassonne.parse_action, "V@1,0r45 meeple:2", _carcassonne_refused)


def _maps(players: int, setup: dict[str, Any] | None = None) -> Subject:
    from games.engines import carcassonne_maps
    from games.engines.carcassonne_maps.simulate import choose_source_then_action

    def choose(game: Any, rng: random.Random) -> Any:
        return carcassonne_maps.Action.of(choose_source_then_action(game.legal_actions(), rng))

    return Subject(_adapter_game("carcassonne-maps", players, setup), choose, carcassonne_maps.Game.from_text,
                   carcassonne_maps.parse_action, "U@11,5r0 chip:violet", _carcassonne_refused)


def _maps_at_a_table(players: int) -> Subject:
    """A game without a seed: its actions name the chips turned over and the tiles turned up."""
    from games.engines import carcassonne_maps

    subject = _maps(players)
    engine = get_engine("carcassonne-maps")
    assert engine is not None

    def new(seed: int) -> Any:
        dealt = carcassonne_maps.setup_from_dict(engine.prepare_setup(players, seed, None)["table"])
        assert isinstance(dealt, carcassonne_maps.SetUp)
        return engine.new_state(players, None, {"table": dealt.table().to_dict()})

    return replace(subject, new=new)


# -- Hunters and Gatherers, Stone Age, Pebbles ------------------------------------------------

def _hunters_gatherers(players: int, setup: dict[str, Any] | None = None) -> Subject:
    from games.engines import hunters_gatherers

    def refused(game: Any) -> Iterator[Any]:
        if game.is_over:
            return
        action = game.legal_actions()[0]
        yield action.replace(seat=(game.current_player + 1) % game.players)
        if not action.discard:
            yield action.replace(x=0, y=0)

    return Subject(_adapter_game("hunters-gatherers", players, setup), _any_choice,
                   hunters_gatherers.Game.from_text, hunters_gatherers.parse_action, "L17@2,-1", refused)


def _stone_age(players: int, setup: dict[str, Any] | None = None, ruleset: str | None = None) -> Subject:
    from games.engines import stone_age
    from games.engines.stone_age.simulate import random_action

    engine = get_engine("stone-age")
    assert engine is not None

    def new(seed: int) -> Any:
        return engine.new_state(players, seed, engine.prepare_setup(players, seed, setup, ruleset), ruleset)

    def refused(game: Any) -> Iterator[Any]:
        if game.phase == "placement":
            yield stone_age.Action("place", location="forest", people=1, seat=(game.current + 1) % game.players)
            yield stone_age.Action("feed", starve=True)
        else:
            yield stone_age.Action("place", location="forest", people=1)

    return Subject(new, random_action, stone_age.Game.from_text, stone_age.parse_action, "resolve forest dice=a",
                   refused, rank_key=lambda score: (score.total, score.tiebreak))


def _pebbles() -> Subject:
    from tests.toy_game import engine as pebbles

    adapter = PebblesAdapter()

    def refused(game: Any) -> Iterator[Any]:
        yield pebbles.Action(3)
        yield pebbles.Action(1, seat=(game.current_player + 1) % game.players)

    return Subject(lambda seed: adapter.new_state(2 + seed % 3, seed, None), _any_choice, pebbles.Game.from_text,
                   pebbles.parse_action, "take two", refused)


SUBJECTS: dict[str, Callable[[], Subject]] = {
    "carcassonne-2p": lambda: _carcassonne(2),
    "carcassonne-both-expansions-5p": lambda: _carcassonne(5, {"expansions": ["inns_cathedrals", "traders_builders"]}),
    "carcassonne-tiles-only-6p": lambda: _carcassonne(6, {"expansions": ["inns_cathedrals", "traders_builders"],
                                                          "rules": [], "meeples": 9}),
    "carcassonne-at-a-table-2p": lambda: _carcassonne(2, seeded=False),
    "carcassonne-maps-3p": lambda: _maps(3),
    "carcassonne-maps-with-rules-4p": lambda: _maps(4, {"expansions": ["inns_cathedrals", "traders_builders"]}),
    "carcassonne-maps-at-a-table-2p": lambda: _maps_at_a_table(2),
    "hunters-gatherers-3p": lambda: _hunters_gatherers(3),
    "hunters-gatherers-home-at-end-of-turn-2p": lambda: _hunters_gatherers(
        2, {"variants": ["figures_home_at_end_of_turn"]}),
    "stone-age-2p": lambda: _stone_age(2),
    "stone-age-first-ruleset-3p": lambda: _stone_age(3, ruleset="stone-age-first-edition@1-reconstructed"),
    "pebbles": _pebbles,
}


def _scores(game: Any) -> list[tuple[int, int, dict[Any, int]]]:
    return [(score.seat, score.total, dict(score.breakdown)) for score in game.scores()]


def _legal(game: Any) -> list[str]:
    return [action.to_text() for action in game.legal_actions()]


def _same_position(restored: Any, game: Any) -> None:
    assert restored.to_dict() == game.to_dict()
    assert _legal(restored) == _legal(game)
    assert restored.legal_actions() == game.legal_actions()
    assert _scores(restored) == _scores(game)
    assert restored.final_ranks() == game.final_ranks()
    assert restored.is_over == game.is_over


def _probe(subject: Subject, game: Any, next_action: Any | None) -> Any:
    """Check the contract at this position; returns the game read back from its text."""
    text = game.to_text()
    assert isinstance(text, str) and text.isascii() and text.splitlines() == [text] and text == game.to_text()
    restored = subject.from_text(text)
    _same_position(restored, game)
    assert restored.to_text() == text

    ranks = game.final_ranks()
    assert sorted(ranks) == list(range(len(game.scores())))
    assert ranks == seat_ranks([subject.rank_key(score) for score in game.scores()])

    for action in game.legal_actions():
        assert isinstance(action, Notated)
        assert type(action).from_text(action.to_text()) == action
    with pytest.raises(InvalidNotation):
        subject.parse(subject.not_notation)
    for action in subject.refused(game):
        with pytest.raises(IllegalAction):
            game.apply(action)
        assert game.to_text() == text, f"the refusal of {action.to_text()} changed the game"

    if next_action is not None:
        twin = game.copy()
        twin.apply(next_action)
        assert game.to_text() == text, "playing on the copy changed the original"
        assert twin.undo() == next_action and twin.to_text() == text
        game.apply(next_action)
        assert game.undo() == next_action
        assert game.to_text() == text and _legal(game) == _legal(restored)
    return restored


def _game_and_actions(subject: Subject, seed: int, rng: random.Random) -> tuple[Any, list[Any]]:
    game = subject.new(seed)
    actions = []
    while not game.is_over:
        action = subject.choose(game, rng)
        game.apply(action)
        actions.append(action)
    return game, actions


@pytest.mark.parametrize("name, seed", [(name, seed) for name in sorted(SUBJECTS) for seed in SEEDS
                                        if seed == SEEDS[0] or name not in SLOW])
def test_every_engine_keeps_the_contract(name: str, seed: int) -> None:
    subject = SUBJECTS[name]()
    rng = random.Random(f"contract:{name}:{seed}")
    ended, played = _game_and_actions(subject, seed, rng)
    probed = {0, len(played) - 1, *(rng.randrange(len(played)) for _ in range(SAMPLES - 2))}

    game = subject.new(seed)
    assert isinstance(game, Engine)
    with pytest.raises(IllegalAction) as nothing:
        game.undo()
    assert nothing.value.reason == "nothing_to_undo" and game.to_text() == subject.new(seed).to_text()
    restored: dict[int, Any] = {}
    for index, action in enumerate(played):
        if index in probed:
            restored[index] = _probe(subject, game, action)
        game.apply(action)
    _same_position(game, ended)
    final = _probe(subject, game, None)
    assert final.is_over and game.legal_actions() == [] and final.legal_actions() == []
    with pytest.raises(IllegalAction):
        game.apply(played[-1])
    assert game.to_text() == final.to_text()

    # A position read back plays on to the same end as the game it was written from.
    for index, position in restored.items():
        for action in played[index:]:
            position.apply(action)
        _same_position(position, game)
