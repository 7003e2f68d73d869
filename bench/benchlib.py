"""What the benchmark scripts share: their own PostgreSQL databases, a gunicorn server, percentiles.

Imported by the scripts beside it (``python bench/bench_x.py`` puts this folder on the path).
"""

from __future__ import annotations

import http.client
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg

ROOT = Path(__file__).resolve().parent.parent
PG = "postgres://postgres@127.0.0.1:5432/"
BENCH_SECRET_KEY = "bench-only-secret-key-that-is-long-enough-to-pass-the-deploy-checks-0123456789"


def percentile(values: list[float], fraction: float) -> float:
    """The nearest-rank percentile (``fraction`` 0.99 for p99)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def median_round(rounds: list[tuple[float, float]]) -> tuple[float, float]:
    """Of rounds of ``(appends/s, raw inserts/s)``, each pair read seconds apart, the round whose
    ratio is the median (the upper one of an even count): its two figures stay a pair, which the
    median of each side, taken apart, would not be on a machine whose speed drifts."""
    return sorted(rounds, key=lambda pair: pair[0] / pair[1])[len(rounds) // 2]


def replay_timings(
    new_game: Callable[[], Any], parse: Callable[[str], Any], texts: list[str], runs: int
) -> tuple[list[float], str]:
    """Replay ``texts`` from ``new_game()`` ``runs`` times: each run's milliseconds, and a line to print."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        game = new_game()
        for text in texts:
            game.apply(parse(text))
        times.append((time.perf_counter() - start) * 1000)
        assert game.is_over
    return times, (f"replay of one complete 4-player game ({len(texts)} actions), {runs} runs: median "
            f"{statistics.median(times):.2f} ms, min {min(times):.2f} ms, max {max(times):.2f} ms")


def engine_benchmark(
    random_game: Callable[[int, int], tuple[Any, list[Any]]], game_class: Any, parse: Callable[[str], Any],
    replay_target_ms: float | None = None,
) -> None:
    """The figures every engine benchmark prints, for an engine package whose ``random_game``
    returns the finished game and its actions and whose ``Game`` has ``new``/``to_dict``/``from_dict``:
    random complete 4-player games per second, the replay of one complete game from its notation
    (beside ``replay_target_ms``, if given), and the restore of its final position from a JSON
    snapshot."""
    import argparse
    import json

    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()

    random_game(4, 0)  # load the engine's data outside the timing
    start = time.perf_counter()
    played = [random_game(4, seed) for seed in range(args.games)]
    elapsed = time.perf_counter() - start
    actions = sum(len(a) for _game, a in played)
    print(f"random 4-player games (seeds 0..{args.games - 1}): {args.games} games in {elapsed:.2f} s "
          f"= {args.games / elapsed:.1f} games/s ({actions / args.games:.0f} actions/game)")
    texts = [a.to_text() for a in played[0][1]]
    _times, line = replay_timings(lambda: game_class.new(4, seed=0), parse, texts, args.runs)
    print(line if replay_target_ms is None else f"{line} (target {replay_target_ms:g} ms)")
    snapshot = json.loads(json.dumps(played[0][0].to_dict()))
    restores = []
    for _ in range(max(5, args.runs)):
        begin = time.perf_counter()
        for _ in range(50):
            game_class.from_dict(snapshot)
        restores.append((time.perf_counter() - begin) * 20)
    print(f"restore of the final position from its snapshot: median {statistics.median(restores):.3f} ms")


def recreate_database(name: str, server: str = PG) -> None:
    """Drop (closing its connections) and create the benchmark's own database."""
    with psycopg.connect(server + "postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')


def drop_database(name: str, server: str = PG) -> None:
    with psycopg.connect(server + "postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def production_env(database: str, **extra: str) -> dict[str, str]:
    """The environment of a production-like server on ``database``: DEBUG off, no broker unless given."""
    env = dict(
        os.environ,
        DATABASE_URL=PG + database,
        DEBUG="0",
        SECRET_KEY=BENCH_SECRET_KEY,
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_SSL_REDIRECT="0",
        CONN_MAX_AGE="60",
        LOG_LEVEL="WARNING",
    )
    env.pop("CELERY_BROKER_URL", None)
    env.update(extra)
    return env


def manage(env: dict[str, str], *arguments: str, quiet: bool = False) -> None:
    subprocess.run([sys.executable, "manage.py", *arguments], cwd=ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL if quiet else None)


def start_gunicorn(env: dict[str, str], port: int, workers: int) -> subprocess.Popen:
    """gunicorn as production runs it (``ludolog/deploy/gunicorn.conf.py``: sync workers, the
    garbage-collector freeze after a worker's first request, its access log, here thrown away),
    with ``workers`` workers on 127.0.0.1:``port``; returned once it answers."""
    server = subprocess.Popen(
        [str(ROOT / ".venv/bin/gunicorn"), "-c", str(ROOT / "ludolog/deploy/gunicorn.conf.py"), "ludolog.wsgi",
         "-w", str(workers), "-b", f"127.0.0.1:{port}", "--log-level", "warning"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
    )
    for _ in range(100):
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/api/")
            connection.getresponse().read()
            return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("gunicorn did not start")


def stop(server: subprocess.Popen) -> None:
    server.terminate()
    server.wait()
