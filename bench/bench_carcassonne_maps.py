"""Benchmark the Carcassonne Maps – Benelux with Map-Chips engine (no database).

    python bench/bench_carcassonne_maps.py [--games 20] [--runs 7]

Prints: random complete 4-player games from fixed seeds on the Benelux map with the default
tiles (base game, Inns & Cathedrals and Traders & Builders, 114 tiles; games per second, with
legal-action enumeration, chips and island tiles included), the time to replay one complete
4-player game from its notations (parse + apply every action, from Game.new, the set-up dealt
by the seed), median / min / max, and the time to restore its last position from a JSON
snapshot. The platform's target for a complete replay is 10 ms (set for Hunters and Gatherers).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchlib import engine_benchmark  # noqa: E402

from games.engines.carcassonne_maps import Game, parse_action  # noqa: E402
from games.engines.carcassonne_maps.simulate import random_game  # noqa: E402

if __name__ == "__main__":
    engine_benchmark(random_game, Game, parse_action)
