"""Games as a real table plays them, for the browser tests and ``bench/bench_table_recording.py``:
what the table tells the recorder when Ludolog neither draws nor rolls. Pure Python over a rules
engine's adapter (no Django, no browser)."""

from __future__ import annotations

from typing import Any


def unseeded_stone_age_action(engine: Any, state: Any, rng: Any) -> tuple[str, dict[str, Any]]:
    """The next action of a game played at the table without a seed: a legal choice, with the
    dice, picks, cards drawn and cards turned up that a real table would tell the recorder."""
    options = engine.options(state)
    if options["phase"] == "reveal":
        reveal = options["reveal"]
        payload: dict[str, Any] = {}
        if reveal["cards"]:
            payload["cards"] = [c["card"] for c in rng.sample(reveal["cards_left"], reveal["cards"])]
        if reveal["stacks"]:
            tops = rng.sample(reveal["buildings_left"], len(reveal["stacks"]))
            payload["buildings"] = {stack: top["building"] for stack, top in zip(reveal["stacks"], tops)}
        return "reveal", payload
    actions = [a for a in state.legal_actions() if not a.one_time and not a.tools]
    buying = [a for a in actions if a.kind == "resolve" and a.pay]
    action = rng.choice(buying) if buying and rng.random() < 0.7 else rng.choice(actions)
    payload = action.to_dict()
    if action.kind == "resolve":
        entry = next(e for e in options["resolve"] if e["place"] == action.location)
        if entry.get("dice") and not action.decline:
            payload["dice"] = [rng.randint(1, 6) for _ in range(entry["dice"])]
            if entry.get("picks"):
                payload["picks"] = list(payload["dice"])
        if entry.get("draw") and not action.decline:
            payload["drawn"] = entry["draw"][0]["card"]
    return action.kind, payload


def unseeded_stone_age_game(engine: Any, players: int, seed: int) -> list[tuple[str, dict[str, Any]]]:
    """A complete Stone Age game played at a table without a seed (dice rolled, cards and buildings
    turned up at the table), its choices random (``seed``)."""
    import random

    rng = random.Random(seed)
    state = engine.new_state(players, None)
    events = []
    while not engine.is_over(state):
        kind, payload = unseeded_stone_age_action(engine, state, rng)
        engine.apply(state, kind, payload)
        events.append((kind, payload))
    return events


def physical_tile_game(engine: Any, slug: str, players: int, seed: int) -> tuple[dict[str, Any], list[tuple[str, dict[str, Any]]]]:
    """The set-up of a record without a seed and the actions of a complete game at a table whose
    tiles come from the physical bag: any order of the tiles is one the bag may give, so the
    engine's random game (``seed``) is one such game, its tiles named as they are picked."""
    if slug == "carcassonne-maps":
        # The table a seed would have set up, as the table sees it (the start page's table set-up:
        # chip squares and face-up tiles, no chip's face); a table records no draw: it picks the
        # tile once drawn, and names each chip turned over and each tile an island turns up.
        dealt = engine.prepare_setup(players, seed, {})
        table = engine.engine.setup_from_dict(dealt["table"]).table().to_dict()
        return {"table": table}, [(k, p) for k, p in engine.random_game(players, seed, dealt) if k != "draw_tile"]
    return {}, engine.random_game(players, seed)
