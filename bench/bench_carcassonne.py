"""Benchmark the base Carcassonne engine (no database).

    python bench/bench_carcassonne.py [--games 20] [--runs 7]

Prints: random complete 4-player games from fixed seeds (games per second, with legal-action
enumeration), the time to replay one complete 4-player game from its notations (parse + apply
every action, from Game.new), median / min / max, and the time to restore its last position from
a JSON snapshot, then the median time of a random complete 2-player game. Targets (issue 14):
a 2-player random game in 20 ms, a complete replay in 2.5 ms.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchlib import engine_benchmark  # noqa: E402

from games.engines.carcassonne import Game, parse_action  # noqa: E402
from games.engines.carcassonne.simulate import random_game  # noqa: E402



def two_player_games(seeds: int = 40) -> None:
    """Issue 14's figure: a random complete 2-player game, legal actions listed at every turn."""
    times = []
    for seed in range(seeds):
        start = time.perf_counter()
        random_game(2, seed)
        times.append((time.perf_counter() - start) * 1000)
    print(f"random complete 2-player games (seeds 0..{seeds - 1}): median {statistics.median(times):.1f} ms a game, "
          f"min {min(times):.1f}, max {max(times):.1f} (target 20 ms)")


if __name__ == "__main__":
    engine_benchmark(random_game, Game, parse_action, replay_target_ms=2.5)
    two_player_games()
