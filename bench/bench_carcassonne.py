"""Benchmark the base Carcassonne engine (no database).

    python bench/bench_carcassonne.py [--games 20] [--runs 7]

Prints: random complete 4-player games from fixed seeds (games per second, with legal-action
enumeration), the time to replay one complete 4-player game from its notations (parse + apply
every action, from Game.new), median / min / max, and the time to restore its last position from
a JSON snapshot. The platform's target for a complete replay is 10 ms (set for Hunters and
Gatherers).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchlib import replay_timings  # noqa: E402

from games.engines.carcassonne import Game, parse_action  # noqa: E402
from games.engines.carcassonne.simulate import random_game  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()

    random_game(4, 0)  # load the tile set outside the timing
    start = time.perf_counter()
    played = [random_game(4, seed) for seed in range(args.games)]
    elapsed = time.perf_counter() - start
    print(f"random 4-player games (seeds 0..{args.games - 1}): {args.games} games in {elapsed:.2f} s "
          f"= {args.games / elapsed:.1f} games/s")
    texts = [a.to_text() for a in played[0][1]]
    _times, line = replay_timings(lambda: Game.new(4, seed=0), parse_action, texts, args.runs)
    print(line)
    snapshot = json.loads(json.dumps(played[0][0].to_dict()))
    restores = []
    for _ in range(max(5, args.runs)):
        t0 = time.perf_counter()
        for _ in range(20):
            Game.from_dict(snapshot)
        restores.append((time.perf_counter() - t0) * 50)
    print(f"restore of the final position from its snapshot: median {statistics.median(restores):.2f} ms")


if __name__ == "__main__":
    main()
