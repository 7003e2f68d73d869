"""Fingerprints of whole games in every engine, to prove that a change of how an engine works
(its speed) changes nothing it does: the data file ``data/engine_fingerprints.json`` was written
by this module before the engines were made faster, and ``test_engine_fingerprints`` replays it.

A game is walked action by action. After each action the walk reads the position (the snapshot,
``to_dict`` and ``snapshot`` where the engine has one, the view and the notation of every legal
action); at every fourth position and the last (:data:`PROBE_EVERY`) it also tries a fixed set of
actions the rules refuse (their reason and message are part of the fingerprint, and the position
must come out of each refusal unchanged), takes the action back with ``undo`` (the snapshot must be
the one before it) and applies it again. At the end it undoes every action back to the start, each
position's snapshot as it was. Everything read goes
into one SHA-256 chain. A plain replay (``apply`` only, then the snapshot as stored, nothing else
asked) gives a second chain: what is asked between actions must leave no trace in a stored
snapshot (the tile core stores each union–find parent as its root and open contacts at roots
only, however finds halved paths and in which order a tile closed contacts).

The data were recorded before the engines were made faster, and recorded again once when the
tile core began to store its state that way: both checkouts then gave the same chains with every
state read as roots, for the games here and twelve more. They were recorded again on 2026-12-04
when the walk began to probe every fourth position instead of every one (the refusals tried at
every position were most of the suite's time): the same engines first gave the chains recorded
with every position probed, for every game, then these. The Carcassonne Maps games were recorded
again on 2026-12-05 when the draw face down became an action (``draw``, seed 003: no change of
mind once a tile is drawn): their players now play it, and a seeded game hides its drawn tile
until then; the other engines' chains were left as they were.

    python -m tests.engines.fingerprints     # re-record (only when a rule change is meant)
"""

from __future__ import annotations

import hashlib
import json
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from games.engines.errors import IllegalAction

DATA = Path(__file__).parent / "data" / "engine_fingerprints.json"


def _dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=repr)


@dataclass
class Walk:
    """How to walk the games of one engine."""

    new: Callable[[dict[str, Any]], Any]
    """A fresh game from a record's parameters."""
    parse: Callable[[str], Any]
    state: Callable[[Any], Any]
    """What undo must restore exactly (the engine's snapshot)."""
    position: Callable[[Any], Any]
    """Everything a reader may ask of a position."""
    refused: Callable[[Any], Iterator[Any]]
    """Actions to try that the rules may refuse (those listed as legal are skipped, one accepted
    all the same is taken back)."""


PROBE_EVERY = 4
"""Which positions the walk probes (the refusals tried, the action taken back and applied again):
every fourth and the last. Every position is read in full (snapshot, view, legal actions, scores)
and every one is undone to at the end, whatever it is."""


def _chain_walk(walk: Walk, params: dict[str, Any], texts: list[str], probe_every: int = PROBE_EVERY) -> tuple[str, str]:
    game = walk.new(params)
    chain = hashlib.sha256()
    states: list[str] = []

    def read(game: Any, probe: bool, state: str | None = None) -> None:
        state = _dumps(walk.state(game)) if state is None else state
        states.append(state)
        chain.update(state.encode() + b"\n" + _dumps(walk.position(game)).encode() + b"\n")
        if not probe:
            return
        legal = {_dumps(a) for a in _legal_keys(game)}
        # After each refusal the state is compared as the engine gives it (equal dicts) rather than
        # as JSON, a twentieth of the walk: the state read before the refusals is a fresh object (no
        # engine hands out its own lists), and it and the state after the last refusal are held to
        # the JSON read before them.
        unchanged = walk.state(game)
        for action in walk.refused(game):
            if _dumps(_key(action)) in legal:
                continue
            try:
                game.apply(action)
            except IllegalAction as refusal:
                chain.update(_dumps([_key(action), refusal.reason, str(refusal)]).encode() + b"\n")
            else:  # accepted though not listed (a Stone Age payment where nothing is paid): take it back
                chain.update(_dumps([_key(action), "accepted", _dumps(walk.state(game))]).encode() + b"\n")
                game.undo()
            assert walk.state(game) == unchanged, f"the refusal of {_key(action)} changed the game"
        assert _dumps(unchanged) == state == _dumps(walk.state(game)), "the refusals changed the game"

    read(game, True)
    for index, text in enumerate(texts, start=1):
        action = walk.parse(text)
        game.apply(action)
        probe = index % probe_every == 0 or index == len(texts)
        after = None
        if probe:
            after = _dumps(walk.state(game))
            game.undo()
            assert _dumps(walk.state(game)) == states[-1], f"undo of {text} is not the position before it"
            game.apply(action)
            assert _dumps(walk.state(game)) == after, f"{text} applied again after undo differs"
        read(game, probe, after)  # (the state applied again is the one just read: read once)
    assert game.is_over
    for index in range(len(states) - 2, -1, -1):
        game.undo()
        assert _dumps(walk.state(game)) == states[index], f"undoing back to position {index} differs"
        chain.update(_dumps(walk.position(game)).encode() + b"\n")
    # The platform's replay: apply, and store the snapshot.
    plain = walk.new(params)
    plain_chain = hashlib.sha256(_dumps(walk.state(plain)).encode() + b"\n")
    for text in texts:
        plain.apply(walk.parse(text))
        plain_chain.update(_dumps(walk.state(plain)).encode() + b"\n")
    return chain.hexdigest(), plain_chain.hexdigest()


def _legal_keys(game: Any) -> list[Any]:
    return [_key(a) for a in game.legal_actions()]


def _key(action: Any) -> Any:
    return action.to_text() if hasattr(action, "to_text") else repr(action)


# -- Carcassonne and Carcassonne Maps -------------------------------------------------------

def _carcassonne_refused(game: Any, legal: list[Any] | None = None) -> Iterator[Any]:
    from games.engines.carcassonne.figures import KINDS

    if game.is_over:
        yield game.action_class(tile="A", x=1, y=0)
        return
    legal = game.legal_actions() if legal is None else legal
    plain = [a for a in legal if not a.discard and not a.figures]
    features = sorted(game.tileset.types[legal[0].tile].tile.feature_kinds) if legal else []
    for placement in plain[:2]:
        for kind in KINDS:
            for feature in features:
                yield replace(placement, **{kind: feature})
        yield replace(placement, meeple=features[0], big=features[-1])
        yield replace(placement, seat=(game.current + 1) % game.players)
        yield replace(placement, rotation=45)
        yield replace(placement, x=placement.x + 40)
        yield replace(placement, discard=True)
    laid = next(iter(game.board.tiles))
    if legal:
        yield replace(legal[0], x=laid[0], y=laid[1], meeple=None, big=None, builder=None, pig=None, discard=False)
        yield replace(legal[0], tile="ZZ99")


def _carcassonne_walk() -> Walk:
    from games.engines.carcassonne import Game, Options, parse_action

    def new(params: dict[str, Any]) -> Any:
        return Game.new(params["players"], seed=params["seed"], options=Options.from_dict(params["options"]))

    def position(game: Any) -> Any:
        return [game.view(), [a.to_text() for a in game.legal_actions()], [s.total for s in game.scores()],
                game.final_ranks() if game.is_over else None]

    return Walk(new, parse_action, lambda g: g.to_dict(), position, _carcassonne_refused)


def _carcassonne_maps_walk() -> Walk:
    from games.engines.carcassonne import Options
    from games.engines.carcassonne_maps import Game, parse_action

    def new(params: dict[str, Any]) -> Any:
        return Game.new(params["players"], seed=params["seed"], options=Options.from_dict(params["options"]))

    def position(game: Any) -> Any:
        return [game.view(), [a.to_text() for a in game.legal_actions()], [s.total for s in game.scores()]]

    def refused(game: Any) -> Iterator[Any]:
        # A draw while the player may still pay a chip for an island tile (then the seeded
        # game's face-down placements are not listed: each is tried below and taken back), or
        # refused when there is nothing to choose.
        legal = game.legal_actions()
        placing = [a for a in legal if not a.draw]
        if len(placing) < len(legal):
            yield replace(legal[0], seat=(game.current + 1) % game.players)
            game_tile = game.pile[0] if game.ordered and game.pile else None
            if game_tile is not None:
                yield Action(tile=game_tile, discard=True)
        elif not game.is_over:
            yield Action(draw=True)
        yield from _carcassonne_refused(game, placing)

    from games.engines.carcassonne_maps import Action

    return Walk(new, parse_action, lambda g: g.to_dict(), position, refused)


# -- Hunters and Gatherers ------------------------------------------------------------------

def _hunters_gatherers_refused(game: Any) -> Iterator[Any]:
    from games.engines.hunters_gatherers.actions import FIGURE_KINDS

    if game.is_over:
        return
    legal = game.legal_actions()
    plain = [a for a in legal if not a.discard and a.figure is None]
    tile = game.tileset.by_id[legal[0].tile]
    for placement in plain[:2]:
        for kind in FIGURE_KINDS:
            for feature in sorted(tile.features):
                yield placement.replace(figure=kind, feature=feature)
        yield placement.replace(seat=(game.current_player + 1) % game.players)
        yield placement.replace(x=placement.x + 40)
        yield placement.replace(x=0, y=0)
        yield placement.replace(discard=True, x=0, y=0, rotation=0)


def _hunters_gatherers_walk() -> Walk:
    from games.engines.hunters_gatherers import Game, parse_action

    def position(game: Any) -> Any:
        return [game.to_dict(), game.view(), [a.to_text() for a in game.legal_actions()],
                [s.to_dict() for s in game.scores()], [[i, repr(a)] for i, a in game.awards()],
                # The ranks were a list in seat order when the chains were recorded.
                list(game.final_ranks().values()) if game.is_over else None]

    return Walk(lambda p: Game.new(p["players"], seed=p["seed"]), parse_action, lambda g: g.snapshot(), position,
                _hunters_gatherers_refused)


# -- Stone Age ------------------------------------------------------------------------------

def _stone_age_refused(game: Any) -> Iterator[Any]:
    from games.engines.stone_age.actions import Action
    from games.engines.stone_age.game import LOCATIONS

    if game.is_over:
        yield Action("place", location="forest", people=1)
        return
    if game.phase == "placement":
        for location in (*LOCATIONS, "moon"):
            for people in (1, 2, 3, 8):
                yield Action("place", location=location, people=people)
        yield Action("place", location="forest", people=1, seat=(game.current + 1) % game.players)
    elif game.phase == "actions":
        for location in LOCATIONS:
            yield Action("resolve", location=location, dice=(1,))
            yield Action("resolve", location=location, pay={"wood": 1})
            yield Action("resolve", location=location, tools=(0,), dice=(6, 6))
        yield Action("feed", starve=True)
    elif game.phase == "feeding":
        yield Action("feed", pay={"gold": 9})
        yield Action("feed", pay={"wood": 1})
        yield Action("place", location="forest", people=1)


def _stone_age_walk() -> Walk:
    from games.engines.stone_age import Game, parse_action

    def position(game: Any) -> Any:
        return [game.view(), [a.to_text() for a in game.legal_actions()],
                [[s.seat, s.total, s.breakdown, s.tiebreak] for s in game.scores()],
                game.final_ranks() if game.is_over else None]

    def new(params: dict[str, Any]) -> Any:
        return Game.new(params["players"], seed=params["seed"], ruleset=params.get("ruleset", 1),
                        variants=frozenset(params.get("variants", ())))

    return Walk(new, parse_action, lambda g: g.to_dict(), position, _stone_age_refused)


WALKS: dict[str, Callable[[], Walk]] = {
    "carcassonne": _carcassonne_walk, "carcassonne_maps": _carcassonne_maps_walk,
    "hunters_gatherers": _hunters_gatherers_walk, "stone_age": _stone_age_walk,
}


def fingerprint(engine: str, params: dict[str, Any], texts: list[str], probe_every: int = PROBE_EVERY) -> tuple[str, str]:
    """The chain digest of the walk (probing every ``probe_every``-th position) and that of the
    plain replay."""
    return _chain_walk(WALKS[engine](), params, texts, probe_every)


def _games() -> list[tuple[str, str, dict[str, Any], list[str]]]:
    """The games fingerprinted: the random and simple players' games of each engine."""
    from games.engines import carcassonne_maps
    from games.engines.carcassonne import INNS_CATHEDRALS, TRADERS_BUILDERS, Options
    from games.engines.carcassonne.heuristic import heuristic_game as carcassonne_heuristic
    from games.engines.carcassonne.simulate import random_game as carcassonne_random
    from games.engines.carcassonne_maps.heuristic import heuristic_game as maps_heuristic
    from games.engines.carcassonne_maps.simulate import random_game as maps_random
    from games.engines.hunters_gatherers.__main__ import random_game as hunters_random
    from games.engines.hunters_gatherers.heuristic import heuristic_game as hunters_heuristic
    from games.engines.stone_age.heuristic import heuristic_game as stone_heuristic
    from games.engines.stone_age.simulate import random_game as stone_random

    both = Options.with_expansions(INNS_CATHEDRALS, TRADERS_BUILDERS)
    tiles_only = Options.tiles_only(INNS_CATHEDRALS, TRADERS_BUILDERS, meeples=9)
    games: list[tuple[str, str, dict[str, Any], list[str]]] = []

    def add(engine: str, name: str, params: dict[str, Any], actions: list[Any]) -> None:
        games.append((engine, name, params, [a.to_text() for a in actions]))

    for players, seed, options in ((2, 5, Options()), (4, 0, Options()), (4, 9, both), (6, 3, both), (3, 4, tiles_only)):
        add("carcassonne", f"random-{players}p-seed{seed}", {"players": players, "seed": seed,
            "options": options.to_dict()}, carcassonne_random(players, seed, options)[1])
    add("carcassonne", "heuristic-4p-seed2-both", {"players": 4, "seed": 2, "options": both.to_dict()},
        carcassonne_heuristic(4, 2, both)[1])
    maps_default = carcassonne_maps.DEFAULT_OPTIONS
    for players, seed, options in ((2, 1, maps_default), (4, 0, maps_default), (5, 8, both)):
        add("carcassonne_maps", f"random-{players}p-seed{seed}", {"players": players, "seed": seed,
            "options": options.to_dict()}, maps_random(players, seed, options)[1])
    add("carcassonne_maps", "heuristic-3p-seed6", {"players": 3, "seed": 6, "options": maps_default.to_dict()},
        maps_heuristic(3, 6)[1])
    for players, seed in ((2, 3), (4, 0), (5, 7)):
        add("hunters_gatherers", f"random-{players}p-seed{seed}", {"players": players, "seed": seed},
            list(hunters_random(players, seed).history))
    add("hunters_gatherers", "heuristic-3p-seed4", {"players": 3, "seed": 4}, hunters_heuristic(3, 4)[1])
    for players, seed in ((2, 2), (4, 0)):
        add("stone_age", f"random-{players}p-seed{seed}", {"players": players, "seed": seed},
            stone_random(players, seed)[1])
    add("stone_age", "heuristic-3p-seed5", {"players": 3, "seed": 5}, stone_heuristic(3, 5)[1])
    add("stone_age", "random-4p-seed1-ruleset2", {"players": 4, "seed": 1, "ruleset": 2,
        "variants": ["newborn_eats_next_round", "hunting_grounds_again"]},
        stone_random(4, 1, ruleset=2, variants=frozenset({"newborn_eats_next_round", "hunting_grounds_again"}))[1])
    return games


def record() -> None:
    commit = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    records = []
    for engine, name, params, texts in _games():
        chain, plain = fingerprint(engine, params, texts)
        records.append({"engine": engine, "name": name, "params": params, "actions": texts,
                        "chain_sha256": chain, "plain_sha256": plain})
        print(engine, name, len(texts), chain[:12], plain[:12])
    DATA.write_text(json.dumps({
        "about": "Fingerprints of games in every engine (tests/engines/fingerprints.py says how they are read and "
                 "when they were recorded).",
        "recorded_at_commit": commit, "games": records}, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    record()
