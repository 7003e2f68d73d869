"""The table recorder's options are the engine's legal actions, arranged for taps: nothing more
(every option offered is accepted) and nothing less (every legal action can be tapped)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from games.adapters.stone_age_options import MAX_LISTED_PAYMENTS, pay_choice
from games.engines.stone_age.game import GATHERING
from games.registry import PayloadError, get_engine

TILE_GAMES = ["hunters-gatherers", "carcassonne"]


def tile_actions(slug: str, options: dict[str, Any]) -> set[tuple]:
    """Every move the options offer, as (x, y, rotation, feature, kind) — or ("discard",)."""
    moves: set[tuple] = set()
    if options["discard"]:
        moves.add(("discard",))
    for spot in options["spots"]:
        for rotation in spot["rotations"]:
            moves.add((spot["x"], spot["y"], rotation["rotation"], None, None))
            for figure in rotation["figures"]:
                moves.add((spot["x"], spot["y"], rotation["rotation"], figure["feature"], figure["kind"]))
    return moves


def engine_moves(slug: str, state: Any, tile: str) -> set[tuple]:
    moves: set[tuple] = set()
    for action in state.legal_actions(tile=tile) if not getattr(state, "ordered", False) else state.legal_actions():
        if action.discard:
            moves.add(("discard",))
        elif slug == "carcassonne":
            moves.add((action.x, action.y, action.rotation, action.meeple, None if action.meeple is None else "meeple"))
        else:
            moves.add((action.x, action.y, action.rotation, action.feature, action.figure))
    return moves


@pytest.mark.parametrize("slug", TILE_GAMES)
def test_a_seeded_game_offers_exactly_the_legal_moves_of_the_tile_drawn_at_every_turn(slug: str):
    engine = get_engine(slug)
    state = engine.new_state(3, 11)
    for kind, payload in engine.random_game(3, 11):
        options = engine.options(state)
        assert options["drawn"] == options["tile"] == state.next_tile
        assert options["pile"] == [], "a seeded game shows the tile drawn, not the pile"
        assert tile_actions(slug, options) == engine_moves(slug, state, state.next_tile)
        assert options["discard"] == (kind == "discard_tile")
        engine.apply(state, kind, payload)
    assert engine.options(state)["over"] is True and engine.options(state)["spots"] == []


@pytest.mark.parametrize("slug", TILE_GAMES)
def test_an_unseeded_game_offers_the_pile_and_the_moves_of_any_tile_picked(slug: str):
    engine = get_engine(slug)
    state = engine.new_state(2, None)
    events = engine.random_game(2, 4)
    for index, (kind, payload) in enumerate(events):
        options = engine.options(state)
        assert options["drawn"] is None and options["tile"] is None and options["spots"] == []
        pile = {entry["tile"]: entry["left"] for entry in options["pile"]}
        assert pile[payload["tile"]] >= 1 and sum(pile.values()) == options["tiles_left"]
        if index % 10 == 0:
            for tile in list(pile)[:: max(1, len(pile) // 6)]:
                assert tile_actions(slug, engine.options(state, tile)) == engine_moves(slug, state, tile)
        picked = engine.options(state, payload["tile"])
        assert picked["tile"] == payload["tile"]
        engine.apply(state, kind, payload)


def test_a_tile_that_cannot_be_in_hand_is_refused():
    engine = get_engine("carcassonne")
    seeded = engine.new_state(2, 3)
    other = "A" if seeded.next_tile != "A" else "B"
    with pytest.raises(PayloadError) as refused:
        engine.options(seeded, other)
    assert refused.value.field == "tile" and seeded.next_tile in refused.value.message
    unseeded = engine.new_state(2, None)
    with pytest.raises(PayloadError):
        engine.options(unseeded, "Z")


def test_hunters_and_gatherers_figures_follow_the_terrain_and_the_supply():
    engine = get_engine("hunters-gatherers")
    assert engine.figures_by_terrain == {"forest": ("gatherer",), "lake": ("hut",), "meadow": ("hunter",),
                                         "river": ("fisher", "hut")}
    state = engine.new_state(2, 6)
    records = engine.tile_records()
    for kind, payload in engine.random_game(2, 6)[:30]:
        options = engine.options(state)
        seat = options["seat"]
        for spot in options["spots"]:
            for rotation in spot["rotations"]:
                for figure in rotation["figures"]:
                    terrain = next(f["type"] for f in records[options["tile"]]["features"] if f["id"] == figure["feature"])
                    assert figure["kind"] in engine.figures_by_terrain[terrain]
                    assert options["supply"][seat][engine.figure_pools[figure["kind"]]] > 0
        engine.apply(state, kind, payload)


def test_edges_are_the_printed_terrains_north_east_south_west():
    assert get_engine("carcassonne").edges("D") == ["city", "road", "field", "road"]
    hg = get_engine("hunters-gatherers")
    assert all(len(hg.edges(tile)) == 4 for tile in hg.tile_records())


def stone_age_options_accept(state: Any, engine: Any, options: dict[str, Any]) -> int:
    """Apply, each on a copy, one action for every option offered; returns how many were tried."""
    tried = 0

    def accepted(kind: str, payload: dict[str, Any]) -> None:
        nonlocal tried
        copy = engine.restore(engine.snapshot(state))
        engine.apply(copy, kind, payload)
        tried += 1

    if options["phase"] == "placement":
        for place in options["places"]:
            for count in place["counts"]:
                accepted("place", {"location": place["place"], "people": count})
    elif options["phase"] == "actions":
        for entry in options["resolve"]:
            payload: dict[str, Any] = {"location": entry["place"]}
            if entry["kind"] in ("gather",):
                accepted("resolve", payload | {"dice": [3] * entry["dice"]})
            elif entry["kind"] in ("field", "hut", "tool_maker"):
                accepted("resolve", payload)
            else:
                accepted("resolve", payload | {"decline": True})
                for choice in entry["payment"].get("choices", [])[:3]:
                    extra: dict[str, Any] = {"pay": choice["pay"]}
                    if entry.get("dice"):
                        extra["dice"] = [face for face in range(1, entry["dice"] + 1)]
                        if entry.get("picks"):
                            extra["picks"] = list(extra["dice"])
                    if entry.get("choose"):
                        extra["choose"] = {"gold": entry["choose"]}
                    if entry.get("draw"):
                        extra["drawn"] = entry["draw"][0]["card"]
                    assert choice["choice"] == pay_choice(choice["pay"])
                    accepted("resolve", payload | extra)
    elif options["phase"] == "feeding":
        accepted("feed", {"starve": True})
        for choice in options["feed"]["payment"].get("choices", []):
            accepted("feed", {"pay": choice["pay"]})
    return tried


@pytest.mark.parametrize("players, seed", [(2, 3), (4, 8)])
def test_every_stone_age_option_offered_is_accepted_and_every_legal_choice_is_offered(players: int, seed: int):
    engine = get_engine("stone-age")
    state = engine.new_state(players, seed)
    tried = 0
    for kind, payload in engine.random_game(players, seed):
        options = engine.options(state)
        assert options["seat"] == state.current and options["phase"] == state.phase
        tried += stone_age_options_accept(state, engine, options)
        # The action the game actually took can be tapped from the options.
        if kind == "place":
            place = next(p for p in options["places"] if p["place"] == payload["location"])
            assert payload.get("people", 1) in place["counts"]
            assert {(p["place"], n) for p in options["places"] for n in p["counts"]} == set(state.legal_placements())
        elif kind == "resolve":
            entry = next(e for e in options["resolve"] if e["place"] == payload["location"])
            if payload["location"] in GATHERING:
                assert entry["dice"] == len(payload["dice"])
            if payload.get("pay"):
                listed = entry["payment"].get("choices")
                if listed is not None:
                    assert pay_choice(payload["pay"]) in {c["choice"] for c in listed}
                else:
                    assert all(payload["pay"].get(r, 0) <= entry["payment"]["have"][r] for r in payload["pay"])
            for slot in payload.get("tools", []):
                assert slot in {t["slot"] for t in entry["tools"]}
        elif kind == "feed" and not payload.get("starve"):
            listed = options["feed"]["payment"].get("choices")
            assert listed is None or pay_choice(payload["pay"]) in {c["choice"] for c in listed}
        engine.apply(state, kind, payload)
    assert tried > 200


def test_a_stone_age_game_without_a_seed_asks_what_was_turned_up_from_what_is_left():
    engine = get_engine("stone-age")
    state = engine.new_state(3, None)
    options = engine.options(state)
    reveal = options["reveal"]
    assert options["phase"] == "reveal" and options["seat"] is None
    assert reveal["cards"] == 4 and reveal["stacks"] == ["building1", "building2", "building3"]
    cards = [c["card"] for c in reveal["cards_left"]]
    buildings = [b["building"] for b in reveal["buildings_left"]]
    assert len(cards) == 36 and len(buildings) == 28
    engine.apply(state, "reveal", {"cards": cards[:4], "buildings": dict(zip(reveal["stacks"], buildings))})
    assert engine.options(state)["phase"] == "placement"


def test_many_ways_to_pay_become_counters_with_the_rule():
    """Past a dozen ways to pay, the options give the rule and the stock instead of a list."""
    engine = get_engine("stone-age")
    for players, seed in itertools.product((2, 3, 4), range(1, 6)):
        state = engine.new_state(players, seed)
        for kind, payload in engine.random_game(players, seed):
            options = engine.options(state)
            for entry in options.get("resolve", []):
                payment = entry.get("payment")
                if payment and "choices" not in payment:
                    assert payment["possible"] and set(payment["have"]) == {"wood", "clay", "stone", "gold"}
                    assert "count" in payment["rule"] or "min" in payment["rule"]
                    return
                if payment:
                    assert len(payment["choices"]) <= MAX_LISTED_PAYMENTS
            engine.apply(state, kind, payload)
    pytest.fail("no game had more than a dozen ways to pay")
