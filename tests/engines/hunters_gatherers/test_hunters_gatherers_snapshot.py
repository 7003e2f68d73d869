"""Snapshots: a full-state dump restored without replaying, indistinguishable from the original."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.hunters_gatherers import Action, Game, load_tileset
from games.engines.hunters_gatherers.game import SNAPSHOT_VERSION

players = st.integers(min_value=2, max_value=5)
seeds = st.integers(min_value=0, max_value=2**32)


def random_actions(n: int, seed: int, seeded: bool) -> list[Action]:
    """A complete game's actions; unseeded, the chooser draws the tile as a caller would."""
    game = Game.new(n, seed=seed) if seeded else Game.new(n)
    chooser = random.Random(seed)
    while not game.is_over:
        if seeded:
            options = game.legal_actions()
        else:
            pile = game.bonus_left if game.phase == "bonus" else game.landscape_left
            options = game.legal_actions(chooser.choice(pile))
        game.apply(chooser.choice(options))
    return list(game.history)


def legal_texts(game: Game) -> set[str]:
    return {a.to_text() for a in game.legal_actions()}


def assert_same_position(restored: Game, original: Game, *, all_legal_actions: bool) -> None:
    assert restored.to_dict() == original.to_dict()
    assert restored.view() == original.view()
    assert restored.snapshot() == original.snapshot()
    assert restored.history == original.history
    if all_legal_actions:
        assert legal_texts(restored) == legal_texts(original)
    else:  # an unseeded game early on: every tile of the pile is too slow, the drawn ones will do
        for tile in sorted(set(original.landscape_left))[:3]:
            assert ({a.to_text() for a in restored.legal_actions(tile)}
                    == {a.to_text() for a in original.legal_actions(tile)})


@settings(max_examples=15, deadline=None)
@given(players, seeds, st.booleans(), st.lists(st.floats(min_value=0, max_value=1), min_size=1, max_size=3))
def test_a_restored_game_is_indistinguishable_from_the_original(n: int, seed: int, seeded: bool,
                                                                 where: list[float]):
    """At several steps: same dict, view and legal actions; the same future, the same undo."""
    actions = random_actions(n, seed, seeded)
    steps = {0, 1, len(actions) - 1, len(actions), *(int(w * len(actions)) for w in where)}
    game = Game.new(n, seed=seed) if seeded else Game.new(n)
    restored: dict[int, Game] = {}
    for k in range(len(actions) + 1):
        if k in steps or (game.phase == "bonus" and not any(g.phase == "bonus" for g in restored.values())):
            snapshot = game.snapshot()
            text = json.dumps(snapshot)
            again = Game.from_snapshot(json.loads(text))
            twin = Game.from_snapshot(snapshot)
            assert_same_position(again, game, all_legal_actions=seeded or len(game.landscape_left) < 10)
            assert twin.to_dict() == again.to_dict()
            if k > 0:
                undone, expected = twin.undo(), game.copy()
                assert undone == expected.undo() == actions[k - 1]
                assert twin.to_dict() == expected.to_dict()
            restored[k] = again
        if k < len(actions):
            game.apply(actions[k])
    assert game.is_over
    for k, copy in restored.items():
        for action in actions[k:]:
            copy.apply(action)
        assert copy.to_dict() == game.to_dict()
        assert [s.to_dict() for s in copy.scores()] == [s.to_dict() for s in game.scores()]
        assert copy.final_ranks() == game.final_ranks()


def test_restoring_does_not_replay(monkeypatch: pytest.MonkeyPatch):
    game = Game.new(3, seed=11)
    chooser = random.Random(11)
    for _ in range(30):
        game.apply(chooser.choice(game.legal_actions()))
    snapshot = json.loads(json.dumps(game.snapshot()))

    def refuse(self: Game, action: Action) -> None:
        raise AssertionError("from_snapshot must not replay")

    monkeypatch.setattr(Game, "apply", refuse)
    assert Game.from_snapshot(snapshot).to_dict() == game.to_dict()


def test_the_snapshot_holds_the_whole_state():
    game = Game.new(2, seed=3)
    game.apply(game.legal_actions()[-1])
    snapshot = game.snapshot()
    assert snapshot["snapshot_version"] == SNAPSHOT_VERSION == 2
    assert snapshot["engine"] == "hunters-gatherers"
    assert {"players", "seed", "landscape_order", "bonus_order", "landscape_left", "bonus_left", "discarded",
            "current_player", "phase", "tribe_members", "huts", "points", "awards", "sent_home", "history",
            "landscape"} <= snapshot.keys()
    assert set(snapshot["landscape"]) == {"board", "features", "river_systems", "figures"}
    assert set(snapshot["landscape"]["features"]) == {"union_find", "open", "members", "figures"}
    assert len(snapshot["landscape"]["board"]["placed"]) == 2
    assert snapshot["history"] == [game.history[0].to_text()]


def test_a_snapshot_of_another_tile_set_version_is_refused():
    game = Game.new(2, seed=5)
    game.apply(game.legal_actions()[0])
    snapshot = game.snapshot()
    other = replace(load_tileset(), version="2-other")
    with pytest.raises(ValueError, match="tile set"):
        Game.from_snapshot(snapshot, tileset=other)
    tampered = dict(snapshot, tileset={"name": snapshot["tileset"]["name"], "version": "0"})
    with pytest.raises(ValueError, match="tile set"):
        Game.from_snapshot(tampered)


@pytest.mark.parametrize("change", [
    {"snapshot_version": 1},
    {"snapshot_version": 3},
    {"snapshot_version": None},
    {"engine": "carcassonne"},
])
def test_a_snapshot_of_another_version_or_engine_is_refused(change: dict[str, object]):
    snapshot = dict(Game.new(2, seed=5).snapshot(), **change)
    with pytest.raises(ValueError):
        Game.from_snapshot(snapshot)


def test_a_malformed_snapshot_raises_value_error():
    game = Game.new(2, seed=5)
    game.apply(game.legal_actions()[0])
    snapshot = game.snapshot()
    for broken in (
        dict(snapshot, history=["not an action"]),
        dict(snapshot, tribe_members=[5]),
        dict(snapshot, landscape={**snapshot["landscape"], "board": {"placed": [["Z9", 0, 0, 0]]}}),
        dict(snapshot, landscape={**snapshot["landscape"], "features": {"open": []}}),
    ):
        with pytest.raises(ValueError):
            Game.from_snapshot(broken)
    assert Game.from_snapshot(snapshot).to_dict() == game.to_dict()
