"""The engine's command line: the same seed plays the same game; replay checks every action."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def run(*arguments: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "games.engines.carcassonne", *arguments], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_play_is_repeatable_and_replay_gives_the_same_result():
    first, second = run("play", "--players", "3", "--seed", "5"), run("play", "--players", "3", "--seed", "5")
    assert first.returncode == 0 and first.stdout == second.stdout
    played = json.loads(first.stdout)
    assert len(played["actions"]) == 71 and played["tileset"] == {"name": "carcassonne-base", "version": "1"}
    replayed = run("replay", "-", stdin=first.stdout)
    assert replayed.returncode == 0 and json.loads(replayed.stdout)["final_scores"] == played["final_scores"]


def test_replay_stops_at_the_first_illegal_action_with_its_index_and_reason():
    record = {"players": 2, "seed": None, "actions": ["E@0,-1r180 meeple:0", "U@9,9r0"]}
    stopped = run("replay", "-", stdin=json.dumps(record))
    assert stopped.returncode == 2
    assert "action 1 (U@9,9r0): not_adjacent" in stopped.stderr
