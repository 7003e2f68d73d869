"""A whole tournament played with seeded random results, to measure the pairing's quality.

Pure (the standard library, the pairing and the placements): ``manage.py simulate_tournament``
prints :func:`simulate`'s figures as JSON, and ``bench/bench_pairing.py`` runs it over seeds.

Each round is assigned by :func:`tournaments.pairing.assign` from the history so far; every
table's scores are drawn at random (seeded) and scored by :mod:`tournaments.placements`.

The figures:

- ``repeat_meetings``: pairs of players who sat at one table more than once.
- ``repeats_by_round``: the repeat meetings each round made (pairs at one table that met before).
- ``avoidable_repeats``: over the rounds, the round's repeats minus the fewest any split of that
  round could have made given the rounds before. The fewest is exact where every split is tried
  (few players, ``exact_rounds``); elsewhere the counting bound of
  :func:`tournaments.pairing.repeats_lower_bound` stands for it, so the figure is an upper bound
  (a round with no repeat counts 0 either way: exact).
- ``seat_imbalance``: the largest difference, over players and seat positions, between the
  player's count in the position and their mean there (:func:`tournaments.pairing.seat_imbalance`:
  rounds / table size when every table has one size).
- ``table_sizes``: the sizes used, in each round; ``seconds``: the time spent assigning.

>>> figures = simulate(players=9, rounds=4, table_size=3, seed=1)
>>> figures["table_sizes"], figures["avoidable_repeats"], figures["exact_rounds"]
([[3, 3, 3], [3, 3, 3], [3, 3, 3], [3, 3, 3]], 0, 4)
"""

from __future__ import annotations

import random
import time
from typing import Any

from .pairing import assign, fewest_repeats, history_of, seat_imbalance
from .placements import TableResult, table_points


def simulate(players: int, rounds: int, table_size: int, seed: int) -> dict[str, Any]:
    """Play ``rounds`` rounds of ``players`` players (numbered 1..players); the figures as a dict."""
    rng = random.Random(f"tournament-results:{seed}")
    everyone = list(range(1, players + 1))
    played: list[list[tuple[int, ...]]] = []
    points: dict[int, float] = {}
    seconds = 0.0
    repeats_by_round, avoidable, exact_rounds = [], 0, 0
    for number in range(1, rounds + 1):
        history = history_of(played, points)
        started = time.perf_counter()
        assignment = assign(everyone, history, table_size, seed=seed, round_number=number)
        seconds += time.perf_counter() - started
        repeats_by_round.append(assignment.repeats)
        if assignment.repeats:
            fewest = assignment.repeats if assignment.exact else None
            if fewest is None and assignment.repeats > assignment.repeats_lower_bound:
                fewest = fewest_repeats(everyone, history, [len(t.players) for t in assignment.tables],
                                        known=assignment.repeats)
            exact_rounds += fewest is not None or assignment.repeats == assignment.repeats_lower_bound
            avoidable += assignment.repeats - (assignment.repeats_lower_bound if fewest is None else fewest)
        else:
            exact_rounds += 1
        tables = [table.players for table in assignment.tables]
        played.append(tables)
        for seated in tables:
            scores = tuple(rng.randrange(10, 100) for _ in seated)
            for player, value in table_points(TableResult(seated, scores=scores)).items():
                points[player] = points.get(player, 0) + float(value)
    final = history_of(played, points)
    return {
        "players": players,
        "rounds": rounds,
        "table_size": table_size,
        "seed": seed,
        "table_sizes": [[len(table) for table in tables] for tables in played],
        "repeat_meetings": sum(1 for times in final.met.values() if times > 1),
        "repeats_by_round": repeats_by_round,
        "avoidable_repeats": avoidable,
        "exact_rounds": exact_rounds,
        "seat_imbalance": round(seat_imbalance(played), 3),
        "seconds": round(seconds, 3),
    }
