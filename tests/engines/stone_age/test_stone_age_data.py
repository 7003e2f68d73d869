"""Checks on the reconstructed Stone Age data file (plain pytest, no Django).

``games/engines/stone_age/data/stone_age_v1.json`` is built by ``build_data.py`` from
``shared/reference/stone_age/stone_age_data.json``; the checksums below are FACTS.md's. The file is
read by path so these tests do not depend on the engine package being importable.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

REPO_ROOT = Path(__file__).resolve().parents[3]
DATA_DIR = REPO_ROOT / "games" / "engines" / "stone_age" / "data"
DATA_FILE = DATA_DIR / "stone_age_v1.json"
BUILD_SCRIPT = DATA_DIR / "build_data.py"
REFERENCE_DIR = (REPO_ROOT / ".." / "shared" / "reference" / "stone_age").resolve()
REFERENCE = REFERENCE_DIR / "stone_age_data.json"

VALUES = {"wood": 3, "clay": 4, "stone": 5, "gold": 6}
Data = dict[str, Any]


@pytest.fixture(scope="module")
def data() -> Data:
    return json.loads(DATA_FILE.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def cards(data: Data) -> list[Data]:
    return data["cards"]


@pytest.fixture(scope="module")
def buildings(data: Data) -> list[Data]:
    return data["buildings"]


def test_version_and_name(data: Data):
    assert data["version"] == "1-reconstructed"
    assert data["name"] == "stone-age-first-edition"
    assert "reconstructed" in data["note"].lower()


def test_36_cards_and_28_buildings_with_unique_ids(cards: list[Data], buildings: list[Data]):
    assert [c["id"] for c in cards] == [f"C{n:02d}" for n in range(1, 37)]
    assert [b["id"] for b in buildings] == [f"B{n:02d}" for n in range(1, 29)]


def test_constants(data: Data):
    """FACTS §1: 2–4 players, 5 people of at most 10, 12 food, agriculture up to 10, −10 for
    hunger, tools up to 4, the values food 2 / wood 3 / clay 4 / stone 5 / gold 6, stacks of 7."""
    assert data["constants"] == {
        "players_min": 2, "players_max": 4, "people_start": 5, "people_max": 10, "food_start": 12,
        "agriculture_max": 10, "starvation_penalty": -10, "tool_value_max": 4,
        "resource_values": {"wood": 3, "clay": 4, "stone": 5, "gold": 6, "food": 2},
        "building_stack_size": 7,
    }


def test_dice_roll_card_faces(data: Data):
    """FACTS: "1 = wood, 2 = clay, 3 = stone, 4 = gold, 5 = one tool step, 6 = agriculture +1"."""
    faces = data["dice_roll_card_faces"]
    assert [faces[str(n)] for n in range(1, 5)] == ["wood", "clay", "stone", "gold"]
    assert faces["5"].startswith("tool") and faces["6"].startswith("agriculture")


def test_per_type_top_counts(cards: list[Data]):
    """FACTS (BSW's official tally): "10 dice-roll, 7 food, 5 resource, 3 resource-dice, 3 points,
    3 one-time tool, 2 agriculture, 1 permanent tool, 1 draw card, 1 any-2-resources"."""
    assert Counter(c["top"]["type"] for c in cards) == {
        "dice_roll_all_players": 10, "food": 7, "resource": 5, "resource_dice": 3, "points": 3,
        "one_time_tool": 3, "agriculture": 2, "tool_permanent": 1, "draw_card": 1, "any_two_resources": 1,
    }


def test_food_on_cards_totals_25(cards: list[Data]):
    """FACTS: "Food on cards totals 25: 1+2+3+3+4+5+7"."""
    food = sorted(c["top"]["amount"] for c in cards if c["top"]["type"] == "food")
    assert food == [1, 2, 3, 3, 4, 5, 7] and sum(food) == 25


def test_card_tops_are_well_formed(cards: list[Data]):
    for card in cards:
        top = card["top"]
        kind = top["type"]
        if kind in ("food", "points"):
            assert set(top) == {"type", "amount"} and top["amount"] > 0
        elif kind == "resource":
            assert top["resource"] in VALUES and top["amount"] in (1, 2)
        elif kind == "resource_dice":
            assert top["resource"] in VALUES and top["dice"] == 2
        elif kind in ("agriculture", "tool_permanent"):
            assert top["steps"] == 1
        elif kind == "one_time_tool":
            assert top["value"] in (2, 3, 4)
        elif kind == "any_two_resources":
            assert top["amount"] == 2
        else:
            assert set(top) == {"type"}, card["id"]
    assert sorted(c["top"]["value"] for c in cards if c["top"]["type"] == "one_time_tool") == [2, 3, 4]
    dice = sorted(c["top"]["resource"] for c in cards if c["top"]["type"] == "resource_dice")
    assert dice == ["gold", "stone", "wood"]
    assert sorted(c["top"]["amount"] for c in cards if c["top"]["type"] == "points") == [3, 3, 3]


def test_green_symbols_8_kinds_twice(cards: list[Data]):
    """FACTS: "Green bottoms: 8 symbols × 2 = 16"."""
    green = Counter(c["bottom"]["symbol"] for c in cards if c["bottom"]["background"] == "green")
    assert len(green) == 8 and set(green.values()) == {2} and sum(green.values()) == 16
    assert set(green) == {"medicine", "art", "writing", "pottery", "weaving", "time", "transport", "music"}


def test_sand_figure_totals(cards: list[Data]):
    """FACTS: "Sand figure totals: farmers 7, tool makers 8, hut builders 9, shamans 7" and "Sand
    bottoms: 20 cards; 5 cards per figure type"."""
    sand = [c["bottom"] for c in cards if c["bottom"]["background"] == "sand"]
    assert len(sand) == 20
    totals: Counter[str] = Counter()
    for bottom in sand:
        totals[bottom["figure"]] += bottom["count"]
    assert totals == {"farmer": 7, "tool_maker": 8, "hut_builder": 9, "shaman": 7}
    assert Counter(b["figure"] for b in sand) == {"farmer": 5, "tool_maker": 5, "hut_builder": 5, "shaman": 5}


def test_34_unique_card_types(cards: list[Data]):
    """FACTS: "Unique (top, bottom) types: 34. The duplicates are C15/C16 and C25/C26"."""
    kinds = Counter(json.dumps([c["top"], c["bottom"]], sort_keys=True) for c in cards)
    assert len(kinds) == 34
    by_id = {c["id"]: c for c in cards}
    for a, b in (("C15", "C16"), ("C25", "C26")):
        assert (by_id[a]["top"], by_id[a]["bottom"]) == (by_id[b]["top"], by_id[b]["bottom"])


def test_the_disputed_cards_take_the_majority_reading(cards: list[Data]):
    """FACTS' disagreements: C04 rolls for gold, C24 is a one-time tool 2 with 2 tool makers, C05
    draws a card."""
    by_id = {c["id"]: c for c in cards}
    assert by_id["C04"]["top"] == {"type": "resource_dice", "resource": "gold", "dice": 2}
    assert by_id["C24"]["top"] == {"type": "one_time_tool", "value": 2}
    assert by_id["C24"]["bottom"] == {"background": "sand", "figure": "tool_maker", "count": 2}
    assert by_id["C05"]["top"] == {"type": "draw_card"}


def test_building_kinds(buildings: list[Data]):
    """FACTS §3: 17 fixed-cost tiles, 8 variable tiles, 3 "1–7" tiles."""
    assert Counter(b["kind"] for b in buildings) == {"fixed": 17, "variable": 8, "any": 3}


# FACTS §3's table: cost → (points, copies).
FIXED_TABLE = {
    (("wood", 2), ("clay", 1)): (10, 1),
    (("wood", 2), ("stone", 1)): (11, 1),
    (("wood", 1), ("clay", 2)): (11, 1),
    (("wood", 2), ("gold", 1)): (12, 1),
    (("wood", 1), ("clay", 1), ("stone", 1)): (12, 2),
    (("wood", 1), ("stone", 2)): (13, 1),
    (("clay", 2), ("stone", 1)): (13, 1),
    (("wood", 1), ("clay", 1), ("gold", 1)): (13, 2),
    (("wood", 1), ("stone", 1), ("gold", 1)): (14, 2),
    (("clay", 2), ("gold", 1)): (14, 1),
    (("clay", 1), ("stone", 2)): (14, 1),
    (("clay", 1), ("stone", 1), ("gold", 1)): (15, 2),
    (("stone", 2), ("gold", 1)): (16, 1),
}


def _cost_key(cost: dict[str, int]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted(cost.items(), key=lambda item: list(VALUES).index(item[0])))


def test_fixed_buildings_are_facts_table_and_score_the_sum_of_their_values(buildings: list[Data]):
    """FACTS: "Fixed-cost tiles (17); points = sum of resource values", with its table of costs."""
    fixed = [b for b in buildings if b["kind"] == "fixed"]
    assert Counter(_cost_key(b["cost"]) for b in fixed) == {cost: copies for cost, (_p, copies) in FIXED_TABLE.items()}
    for cost, (points, _copies) in FIXED_TABLE.items():
        assert sum(VALUES[r] * n for r, n in cost) == points, cost
    for tile in fixed:
        assert sum(tile["cost"].values()) == 3 and set(tile["cost"]) <= set(VALUES)


def test_variable_buildings_one_per_count_and_kinds(buildings: list[Data]):
    """FACTS: "pay exactly 4 or 5 resources drawn from exactly k different resource types, k = 1, 2,
    3 or 4. One tile for each (count, k) pair"."""
    variable = [b for b in buildings if b["kind"] == "variable"]
    assert sorted((b["resources"], b["distinct_types"]) for b in variable) == [
        (n, k) for n in (4, 5) for k in (1, 2, 3, 4)]


def test_any_buildings_take_1_to_7(buildings: list[Data]):
    assert [(b["min_resources"], b["max_resources"]) for b in buildings if b["kind"] == "any"] == [(1, 7)] * 3


def test_the_engine_reads_the_file(cards: list[Data], buildings: list[Data]):
    from games.engines.stone_age import DATA_VERSION
    from games.engines.stone_age.components import load

    loaded = load()
    assert DATA_VERSION == loaded.version == "1-reconstructed"
    assert len(loaded.cards) == len(cards) and len(loaded.buildings) == len(buildings)
    assert loaded.dice_faces == {1: "wood", 2: "clay", 3: "stone", 4: "gold", 5: "tool", 6: "agriculture"}
    for card in cards:
        assert loaded.cards[card["id"]].top == card["top"]
    for tile in buildings:
        if tile["kind"] == "fixed":
            assert dict(loaded.buildings[tile["id"]].cost) == tile["cost"]


def test_reference_agrees_with_the_file(cards: list[Data], buildings: list[Data]):
    """The file keeps the reference's cards and tiles unchanged (fixed tiles lose only their
    ``points``, which is the sum of their values)."""
    if not REFERENCE.is_file():
        pytest.skip(f"reference file not found: {REFERENCE} (shared/reference/stone_age is not here)")
    reference = json.loads(REFERENCE.read_text(encoding="utf-8"))
    assert [{k: c[k] for k in ("id", "top", "bottom")} for c in reference["civilization_cards"]] == cards
    for tile, source in zip(buildings, reference["buildings"], strict=True):
        assert tile["id"] == source["id"] and tile["kind"] == source["kind"]
        if tile["kind"] == "fixed":
            assert tile["cost"] == source["cost"]
            assert source["points"] == sum(VALUES[r] * n for r, n in tile["cost"].items())


def test_rebuild_is_byte_identical(tmp_path: Path):
    """``build_data.py`` from ``../shared/reference`` gives the committed file byte for byte."""
    if not REFERENCE.is_file():
        pytest.skip(f"reference file not found: {REFERENCE} (needed to rebuild the Stone Age data)")
    out = tmp_path / "stone_age_v1.json"
    subprocess.run([sys.executable, str(BUILD_SCRIPT), str(REFERENCE), "--output", str(out)],
                   check=True, capture_output=True)
    assert out.read_bytes() == DATA_FILE.read_bytes()


def test_the_script_defaults_to_shared_reference_and_the_committed_file():
    """Run without arguments, the script reads ``../shared/reference/stone_age`` and writes the
    committed file."""
    from games.engines.stone_age.data import build_data

    assert build_data.DEFAULT_REFERENCE.resolve() == REFERENCE
    assert build_data.DEFAULT_OUTPUT.resolve() == DATA_FILE.resolve()
    assert build_data.VERSION == "1-reconstructed"
