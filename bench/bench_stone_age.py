"""Benchmark the Stone Age engine (no database).

    python bench/bench_stone_age.py [--games 20] [--runs 7]

Prints: random complete 4-player games from fixed seeds (games per second, with legal-action
enumeration), the time to replay one complete 4-player game from its notations (parse + apply
every action, from Game.new), median / min / max over the runs, and the time to restore its
last position from a JSON snapshot. Target (issue 14): a complete replay in 10 ms.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchlib import engine_benchmark  # noqa: E402

from games.engines.stone_age import Game, parse_action  # noqa: E402
from games.engines.stone_age.simulate import random_game  # noqa: E402

if __name__ == "__main__":
    engine_benchmark(random_game, Game, parse_action, replay_target_ms=10)
