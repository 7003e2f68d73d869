"""Benchmark the Hunters and Gatherers engine.

    python bench/bench_hunters_gatherers.py [--games 20] [--runs 7]

Prints: random complete 4-player games from fixed seeds (games per second), and
the time to replay one complete game from its action list (parse + apply every
action, from Game.new), median / min / max over the runs. Target (issue 14): 1.5 ms.
Then the time to restore the same game's late-game position (one action before
the end) from its JSON snapshot with Game.from_snapshot, which replays nothing:
median / min / max over at least 5 runs of --restores each, next to the replay.
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

from games.engines.hunters_gatherers import Game, parse_action  # noqa: E402
from games.engines.hunters_gatherers.__main__ import random_game  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--restores", type=int, default=100, help="restores per timed run")
    args = parser.parse_args()

    random_game(4, 0)  # load the tile set (schema check) outside the timing
    start = time.perf_counter()
    games = [random_game(4, seed) for seed in range(args.games)]
    elapsed = time.perf_counter() - start
    actions = sum(len(g.history) for g in games)
    print(f"random 4-player games (seeds 0..{args.games - 1}): {args.games} games in {elapsed:.2f} s "
          f"= {args.games / elapsed:.1f} games/s ({actions / args.games:.0f} actions/game)")

    texts = [a.to_text() for a in games[0].history]
    times, line = replay_timings(lambda: Game.new(4, seed=0), parse_action, texts, args.runs)
    print(f"{line} (target 1.5 ms)")

    late = games[0].copy()
    late.undo()
    snapshot = json.loads(json.dumps(late.snapshot()))   # as the platform stores it
    restores = []
    for _ in range(max(5, args.runs)):
        t0 = time.perf_counter()
        for _ in range(args.restores):
            restored = Game.from_snapshot(snapshot)
        restores.append((time.perf_counter() - t0) * 1000 / args.restores)
    assert restored.to_dict() == late.to_dict()
    print(f"snapshot restore of the late-game position (after {len(late.history)} actions), "
          f"{len(restores)} runs x {args.restores}: median {statistics.median(restores):.3f} ms, "
          f"min {min(restores):.3f} ms, max {max(restores):.3f} ms "
          f"(full replay median {statistics.median(times):.2f} ms, "
          f"{statistics.median(times) / statistics.median(restores):.1f}x)")


if __name__ == "__main__":
    main()
