"""The table assignment's quality and speed over seeds: the two cases of issue 40's Done-when.

Runs ``tournaments.simulation.simulate`` (what ``manage.py simulate_tournament`` prints) for
64 players over 5 rounds at tables of 4 (targets: 0 avoidable repeats, seat imbalance ≤ 1, ≤ 5 s)
and 200 players over 7 rounds at tables of 5 (≤ 10 s), then 13 players at 4 (fours and threes),
16 at 4 over 5 rounds and 30 at 5 over 6 (where repeats become unavoidable), each over seeds, and prints one line a run and each case's worst figures.
Pure Python, no database:

    .venv/bin/python bench/bench_pairing.py [--seeds 5]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.simulation import simulate  # noqa: E402

CASES = [
    # players, rounds, table size, target seconds
    (64, 5, 4, 5.0),
    (200, 7, 5, 10.0),
    (13, 3, 4, 1.0),
    (16, 5, 4, 1.0),
    (30, 6, 5, 1.0),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=5)
    seeds = range(1, parser.parse_args().seeds + 1)
    print(f"{'players':>7} {'rounds':>6} {'size':>4} {'seed':>4} {'sizes':>10} {'repeats':>7} "
          f"{'avoidable':>9} {'exact':>5} {'seats':>5} {'seconds':>7} {'target':>6}")
    for players, rounds, size, target in CASES:
        worst = {"avoidable": 0, "seats": 0.0, "seconds": 0.0, "repeats": 0}
        for seed in seeds:
            f = simulate(players, rounds, size, seed)
            used = "/".join(str(s) for s in sorted({s for sizes in f["table_sizes"] for s in sizes}, reverse=True))
            print(f"{players:>7} {rounds:>6} {size:>4} {seed:>4} {used:>10} {f['repeat_meetings']:>7} "
                  f"{f['avoidable_repeats']:>9} {f['exact_rounds']:>5} {f['seat_imbalance']:>5} "
                  f"{f['seconds']:>7.2f} {target:>6.1f}")
            worst["avoidable"] = max(worst["avoidable"], f["avoidable_repeats"])
            worst["repeats"] = max(worst["repeats"], f["repeat_meetings"])
            worst["seats"] = max(worst["seats"], f["seat_imbalance"])
            worst["seconds"] = max(worst["seconds"], f["seconds"])
        print(f"  worst over {len(seeds)} seeds: repeat meetings {worst['repeats']}, avoidable {worst['avoidable']}, "
              f"seat imbalance {worst['seats']}, {worst['seconds']:.2f} s (target {target} s)")


if __name__ == "__main__":
    main()
