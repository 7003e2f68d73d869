"""The Stone Age command line: the same seed plays the same game; replay checks every action."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def run(*arguments: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "games.engines.stone_age", *arguments], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_play_is_repeatable_and_replay_gives_the_same_result():
    first, second = run("play", "--players", "2", "--seed", "3"), run("play", "--players", "2", "--seed", "3")
    assert first.returncode == 0 and first.stdout == second.stdout
    played = json.loads(first.stdout)
    assert played["data"] == {"name": "stone-age-first-edition", "version": "1-reconstructed"}
    replayed = run("replay", "-", stdin=first.stdout)
    assert replayed.returncode == 0 and json.loads(replayed.stdout)["final_scores"] == played["final_scores"]


def test_replay_stops_at_the_first_illegal_action_and_play_checks_the_player_count():
    record = {"players": 2, "seed": 3, "actions": ["place forest 5", "place forest 2"]}
    stopped = run("replay", "-", stdin=json.dumps(record))
    assert stopped.returncode == 2 and "action 1 (place forest 2): site_limit" in stopped.stderr
    assert run("play", "--players", "5").returncode == 2
