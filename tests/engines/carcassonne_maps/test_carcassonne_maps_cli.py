"""The Carcassonne Maps command line: the same seed plays the same game, its output names the
map, the chips and the islands of its set-up, and replay checks every action (a seeded record,
or a table's without a seed)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games.engines.carcassonne_maps.__main__ import main

from .carcassonne_maps_tables import table

ROOT = Path(__file__).resolve().parents[3]


def run(*arguments: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "games.engines.carcassonne_maps", *arguments], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=120)


def in_process(capsys: pytest.CaptureFixture[str], *arguments: str, record: Any = None,
               tmp_path: Path | None = None) -> tuple[int, str, str]:
    if record is not None:
        assert tmp_path is not None
        path = tmp_path / "game.json"
        path.write_text(json.dumps(record), "utf-8")
        arguments = (*arguments, str(path))
    status = main(list(arguments))
    out, err = capsys.readouterr()
    return status, out, err


def test_play_is_repeatable_and_names_the_map_chips_and_islands_and_replay_gives_the_same_result() -> None:
    first, second = run("play", "--players", "3", "--seed", "5"), run("play", "--players", "3", "--seed", "5")
    assert first.returncode == 0 and first.stdout == second.stdout, first.stderr
    played = json.loads(first.stdout)
    assert played["engine"] == "carcassonne_maps"
    assert played["map"] == {"name": "benelux", "version": "benelux-approximate@1", "approximate": True}
    assert played["options"] == {"expansions": ["inns_cathedrals", "traders_builders"], "rules": [], "meeples": 7}
    setup = played["setup"]
    assert len(setup["start_squares"]) == 2 and len(setup["chips"]) == 20 and len(setup["island_stacks"]) == 6
    assert all({"x", "y", "colour", "points"} <= set(chip) for chip in setup["chips"])
    assert len(played["actions"]) >= 82 and len(played["final_scores"]) == 3
    assert all(set(b) == {"city", "road", "cloister", "field", "chips"} for b in played["breakdown"])
    assert any(" island:" in a for a in played["actions"]) and any(" chip:" in a for a in played["actions"])
    replayed = run("replay", "-", stdin=first.stdout)
    assert replayed.returncode == 0 and json.loads(replayed.stdout) == played


def test_play_takes_the_expansions_rules_meeples_and_start_squares(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = in_process(capsys, "play", "--players", "6", "--seed", "2", "--rules",
                                "inns_cathedrals,traders_builders", "--meeples", "9", "--start-squares",
                                "Eindhoven,Charleroi")
    played = json.loads(out)
    assert status == 0 and played["options"]["rules"] == ["inns_cathedrals", "traders_builders"]
    assert played["options"]["meeples"] == 9 and played["setup"]["start_squares"] == ["Eindhoven", "Charleroi"]
    assert set(played["breakdown"][0]) == {"city", "road", "cloister", "field", "goods", "chips"}
    status, out, _ = in_process(capsys, "play", "--players", "2", "--seed", "2", "--expansions", "")
    assert status == 0 and json.loads(out)["tileset"]["name"] == "carcassonne-base"


def test_a_tables_record_replays_without_a_seed(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = {"players": 2, "seed": None, "setup": table((10, 6)).to_dict(),
              "actions": ["U@12,6r0 meeple:0", "U@11,6r0", "U@10,6r0 chip:orange:2", "U@9,6r0",
                          "E@12,7r180 island:orange/1 reveal:N"]}
    record["setup"]["island_face_up"][4]["tile"] = "E"
    status, out, err = in_process(capsys, "replay", record=record, tmp_path=tmp_path)
    assert status == 0, err
    result = json.loads(out)
    assert result["seed"] is None and result["setup"] == record["setup"] and result["ranks"] is None
    assert result["breakdown"][0]["chips"] == 2 and result["actions"] == record["actions"]


def test_replay_stops_at_the_first_illegal_action_with_its_index_and_reason(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = {"players": 2, "seed": None, "setup": table().to_dict(), "actions": ["U@12,6r0", "U@9,5r0"]}
    status, _, err = in_process(capsys, "replay", record=record, tmp_path=tmp_path)
    assert status == 2 and "action 1 (U@9,5r0): wave_square" in err
    record["actions"] = ["U@12,6r0 chip:violet"]
    status, _, err = in_process(capsys, "replay", record=record, tmp_path=tmp_path)
    assert status == 2 and "action 0 (U@12,6r0 chip:violet): bad_notation" in err


def test_bad_set_ups_and_options_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    broken = table().to_dict()
    broken["chip_squares"][0] = [9, 4]
    status, _, err = in_process(capsys, "replay", record={"players": 2, "seed": None, "setup": broken,
                                                          "actions": []}, tmp_path=tmp_path)
    assert status == 2 and "setup: chip_on_wave" in err
    status, _, err = in_process(capsys, "replay", record={"players": 2, "seed": None, "actions": []},
                                tmp_path=tmp_path)
    assert status == 2 and "without a seed" in err
    status, _, err = in_process(capsys, "play", "--players", "2", "--seed", "1", "--start-squares", "Meppel,Gent")
    assert status == 2 and "not_a_start_square" in err
    status, _, err = in_process(capsys, "play", "--players", "2", "--expansions", "river")
    assert status == 2 and "river" in err
    status, _, err = in_process(capsys, "replay", "--meeples", "9", record={}, tmp_path=tmp_path)
    assert status == 2 and "from its file" in err
    with pytest.raises(SystemExit):
        in_process(capsys, "play", "--players", "6", "--seed", "1", "--expansions", "traders_builders")
