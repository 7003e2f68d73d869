"""The engine's command line with the expansions: play takes them, replay reads them from its file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def run(*arguments: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "games.engines.carcassonne", *arguments], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_play_six_players_with_both_expansions_and_replay_it():
    first = run("play", "--players", "6", "--seed", "5", "--expansions", "inns_cathedrals,traders_builders")
    assert first.returncode == 0, first.stderr
    played = json.loads(first.stdout)
    assert played["options"] == {"expansions": ["inns_cathedrals", "traders_builders"],
                                 "rules": ["inns_cathedrals", "traders_builders"], "meeples": 7}
    assert played["tileset"] == {"name": "carcassonne-base+carcassonne-inns-cathedrals+carcassonne-traders-builders",
                                 "version": "1+1+1"}
    assert len(played["actions"]) >= 113 and len(played["final_scores"]) == 6
    assert all(set(b) == {"city", "road", "cloister", "field", "goods"} for b in played["breakdown"])
    assert any(" big:" in a for a in played["actions"])
    replayed = run("replay", "-", stdin=first.stdout)
    assert replayed.returncode == 0 and json.loads(replayed.stdout) == played


def test_play_tiles_only_with_nine_meeples():
    result = run("play", "--players", "3", "--seed", "1", "--expansions", "traders_builders", "--tiles-only",
                 "--meeples", "9")
    played = json.loads(result.stdout)
    assert played["options"] == {"expansions": ["traders_builders"], "rules": [], "meeples": 9}
    assert not any(word in a for a in played["actions"] for word in (" big:", " builder:", " pig:"))
    assert run("play", "--players", "3", "--seed", "1").stdout != result.stdout


def test_base_game_output_keeps_its_shape():
    played = json.loads(run("play", "--players", "2", "--seed", "5").stdout)
    assert played["tileset"] == {"name": "carcassonne-base", "version": "1"}
    assert played["options"] == {"expansions": [], "rules": [], "meeples": 7} and len(played["actions"]) == 71


def test_bad_set_ups_exit_2():
    assert run("play", "--players", "6", "--seed", "1").returncode == 2, "a sixth player needs Inns & Cathedrals"
    unknown = run("play", "--players", "2", "--expansions", "river")
    assert unknown.returncode == 2 and "river" in unknown.stderr
    assert run("replay", "-", "--tiles-only", stdin="{}").returncode == 2


def test_replay_names_the_illegal_action():
    record = {"players": 2, "seed": None,
              "options": {"expansions": ["traders_builders"], "rules": ["traders_builders"]},
              "actions": ["U@1,0r0 meeple:0", "U@2,0r0 builder:0"]}
    stopped = run("replay", "-", stdin=json.dumps(record))
    assert stopped.returncode == 2
    assert "action 1 (U@2,0r0 builder:0): builder_needs_meeple" in stopped.stderr, "seat 1 has no thief there"
