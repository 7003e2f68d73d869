"""The command line (play / replay) and the JSON forms of a game."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.engines.hunters_gatherers import (
    ENGINE_SLUG, TILESET_NAME, TILESET_VERSION, Game, IllegalAction, parse_action)
from games.engines.hunters_gatherers.__main__ import main, random_game

ROOT = Path(__file__).resolve().parents[3]


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "games.engines.hunters_gatherers", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_play_prints_one_json_object_and_is_deterministic():
    first = run_cli("play", "--players", "4", "--seed", "7")
    second = run_cli("play", "--players", "4", "--seed", "7")
    assert first.returncode == 0 and first.stdout == second.stdout
    record = json.loads(first.stdout)
    assert record["tileset"] == {"name": TILESET_NAME, "version": TILESET_VERSION}
    assert record["engine"] == ENGINE_SLUG == "hunters-gatherers"
    assert record["players"] == 4 and len(record["final_scores"]) == 4
    assert all(isinstance(s, int) for s in record["final_scores"])
    assert [sum(b.values()) for b in record["breakdown"]] == record["final_scores"]
    assert len(record["actions"]) >= 78


def test_replay_prints_the_same_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    record = json.dumps({"players": 3, "seed": 11, **_summary_fields(3, 11)})
    path = tmp_path / "game.json"
    path.write_text(record)
    assert main(["replay", str(path)]) == 0
    replayed = json.loads(capsys.readouterr().out)
    assert main(["play", "--players", "3", "--seed", "11"]) == 0
    assert replayed == json.loads(capsys.readouterr().out)


def _summary_fields(players: int, seed: int) -> dict[str, object]:
    game = random_game(players, seed)
    return {"actions": [a.to_text() for a in game.history]}


def test_replay_of_a_bare_action_list_reaches_the_same_scores(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    assert main(["play", "--players", "2", "--seed", "3"]) == 0
    played = json.loads(capsys.readouterr().out)
    path = tmp_path / "actions.json"
    path.write_text(json.dumps(played["actions"]))
    assert main(["replay", str(path), "--players", "2"]) == 0
    assert json.loads(capsys.readouterr().out)["final_scores"] == played["final_scores"]


def test_replay_stops_at_an_illegal_action_naming_its_index_and_reason(tmp_path: Path):
    played = json.loads(run_cli("play", "--players", "2", "--seed", "5").stdout)
    played["actions"][4] = "L01@40,40r0"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(played))
    result = run_cli("replay", str(path))
    assert result.returncode != 0 and result.stdout == ""
    assert "action 4" in result.stderr and ("wrong_tile" in result.stderr or "not_adjacent" in result.stderr)


def test_replay_reports_bad_notation(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(["L01@@"]))
    assert main(["replay", str(path)]) == 2
    assert "action 0" in capsys.readouterr().err


def test_to_dict_is_json_and_pins_the_tileset():
    game = Game.new(3, seed=2)
    game.apply(game.legal_actions()[0])
    data = json.loads(json.dumps(game.to_dict()))
    assert data["tileset"] == {"name": TILESET_NAME, "version": TILESET_VERSION}
    assert Game.from_dict(data).to_dict() == data


def test_from_dict_refuses_a_doctored_position():
    game = Game.new(2, seed=2)
    data = game.to_dict()
    data["position"]["scores"][0]["total"] = 99
    with pytest.raises(ValueError):
        Game.from_dict(data)


def test_from_dict_refuses_another_tileset_version():
    data = Game.new(2, seed=2).to_dict()
    data["tileset"]["version"] = "2-corrected"
    with pytest.raises(ValueError):
        Game.from_dict(data)


def test_view_holds_what_a_viewer_draws():
    game = random_game(4, 1)
    view = game.view()
    tile = view["tiles"][0]
    assert {"tile", "x", "y", "rotation", "order", "edges", "features"} <= tile.keys()
    assert all({"owner", "kind", "x", "y", "feature"} <= f.keys() for f in view["figures"])
    assert view["phase"] == "over" and view["current_player"] is None
    assert len(view["supply"]) == len(view["scores"]) == 4
    assert view["landscape_left"] == 0 and view["last_placed"] is not None


def test_illegal_action_carries_reason_and_message():
    game = Game.new(2, seed=4)
    with pytest.raises(IllegalAction) as refused:
        game.apply(parse_action(f"{game.next_tile}@7,7r0"))
    assert refused.value.reason == "not_adjacent" and "(7,7)" in refused.value.message
