#!/usr/bin/env python
"""Recompute benchmark: simulated, finished 4-player Hunters and Gatherers games on PostgreSQL,
recomputed by worker processes through Redis (target: ≥ 150 games/s, ≤ 250 MB peak RSS per worker).

It fills a database with ``--small`` games, recomputes them all, adds games up to ``--games`` and
recomputes them all again, so the two times show how the work grows. A recompute is the whole
thing ``manage.py recompute`` does: every record replayed from its events in chunks on the
workers, then statistics, standings and ratings rebuilt from the new results.

The events of ``--distinct`` random games are simulated once with the engine (random legal
actions take ~0.1 s a game) and bulk-inserted again and again under new records and players: a
replay does the same work whether or not another record holds the same actions.

Usage: ``.venv/bin/python bench/bench_recompute.py [--games 10000] [--small 1000] [--workers 2]``
It creates (and drops) its own database ``ludolog_bench_scoring`` on 127.0.0.1:5432 and uses the
Redis in ``CELERY_BROKER_URL`` (default ``redis://127.0.0.1:6379/13``) on a queue of its own.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import subprocess
import sys
import time
import uuid
from datetime import date, datetime, timedelta, timezone
from pathlib import Path


from benchlib import PG, ROOT, drop_database, recreate_database

sys.path.insert(0, str(ROOT))
DB = "ludolog_bench_scoring"
HG = "hunters-gatherers"
PLAYERS = 4


def simulate(seed: int) -> list[tuple[str, dict]]:
    from games.registry import get_engine

    return get_engine(HG).random_game(PLAYERS, seed)


def insert_games(first: int, last: int, games: list[tuple[int, list]], ruleset: str) -> None:
    """Records ``first``..``last - 1``, finished, with seats and events; Event rows only inserted."""
    from records.models import Event, GameRecord, Player, Seat

    players = list(Player.objects.order_by("pk").values_list("pk", flat=True))
    rng = random.Random(first)
    base = datetime(2025, 1, 1, 18, tzinfo=timezone.utc)
    for start in range(first, last, 250):
        batch = range(start, min(start + 250, last))
        records = GameRecord.objects.bulk_create([
            GameRecord(
                game_slug=HG, ruleset_version=ruleset, seed=games[n % len(games)][0], location="bench",
                status=GameRecord.Status.FINISHED, played_on=date(2024, 1, 1) + timedelta(days=n % 730),
            )
            for n in batch
        ])
        seats, events = [], []
        for n, record in zip(batch, records):
            for order, player in enumerate(rng.sample(players, PLAYERS)):
                seats.append(Seat(record=record, player_id=player, seat_order=order))
            for seq, (kind, payload) in enumerate(games[n % len(games)][1], start=1):
                events.append(Event(record=record, seq=seq, type=kind, payload=payload,
                                    recorded_at=base + timedelta(minutes=n, seconds=20 * seq)))
        Seat.objects.bulk_create(seats)
        Event.objects.bulk_create(events, batch_size=5000)


def start_workers(count: int, queue: str, env: dict[str, str]) -> list[subprocess.Popen]:
    return [
        subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "ludolog", "worker", "--pool=solo", "-Q", queue,
             "--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "warning", "-n", f"bench{i}@%h"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        for i in range(count)
    ]


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def measure(games: int, workers: int, queue: str, env: dict[str, str], chunk_size: int) -> dict:
    from scoring import recompute, tasks
    from scoring.models import RecomputeRun

    _clear_projections()
    processes = start_workers(workers, queue, env)
    try:
        for _ in range(workers):  # every worker up and answering before the clock starts
            tasks.ping.apply_async(("ready",), queue=queue).get(timeout=120)
        time.sleep(1)
        started = time.monotonic()
        run = recompute.start(chunk_size=chunk_size, requested_by="bench")
        tasks.dispatch_recompute(run)
        replayed_at = None
        while True:
            status = RecomputeRun.objects.values_list("status", flat=True).get(pk=run.pk)
            if status != RecomputeRun.Status.RUNNING and replayed_at is None:
                replayed_at = time.monotonic()
            if status == RecomputeRun.Status.FINISHED:
                break
            if status == RecomputeRun.Status.FAILED:
                raise SystemExit(f"recomputation #{run.pk} failed: {RecomputeRun.objects.get(pk=run.pk).error}")
            time.sleep(0.05)
        elapsed = time.monotonic() - started
        rss = [peak_rss_mb(p.pid) for p in processes]
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(timeout=30)
    return {"games": games, "seconds": elapsed, "replay_seconds": replayed_at - started,
            "rate": games / elapsed, "rss": rss}


def _clear_projections() -> None:
    from scoring.models import (
        CatalogueUsage, CopyUsage, GameStatistics, PlayerStatistics, Rating, RatingChange, ScoredRecord,
        SeatResult, Standing,
    )

    for model in (RatingChange, Rating, Standing, PlayerStatistics, GameStatistics, CatalogueUsage, CopyUsage,
                  ScoredRecord, SeatResult):
        model.objects.all().delete()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--small", type=int, default=1_000, help="the first, smaller recompute")
    parser.add_argument("--distinct", type=int, default=400, help="distinct simulated games to cycle through")
    parser.add_argument("--players", type=int, default=400, help="players to seat the games with")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--chunk-size", type=int, default=100)
    args = parser.parse_args()
    broker = os.environ.get("CELERY_BROKER_URL", "redis://127.0.0.1:6379/13")
    queue = f"bench-recompute-{uuid.uuid4().hex[:6]}"
    env = {**os.environ, "DATABASE_URL": PG + DB, "CELERY_BROKER_URL": broker, "CELERY_RESULT_BACKEND": broker,
           "LUDOLOG_SCORING_QUEUE": queue, "LUDOLOG_RECOMPUTE_CHUNK_SIZE": str(args.chunk_size),
           "DJANGO_SETTINGS_MODULE": "ludolog.settings", "LOG_LEVEL": "WARNING"}
    os.environ.update(env)

    print(f"database {DB}, broker {broker}, {args.workers} worker processes, chunks of {args.chunk_size}")
    recreate_database(DB)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    import django

    django.setup()
    from django.db import connection

    from games.registry import get_engine
    from records.models import Player

    clock = time.monotonic()
    seeds = list(range(1, min(args.distinct, args.games) + 1))
    with multiprocessing.get_context("fork").Pool(os.cpu_count() or 2) as pool:
        games = list(zip(seeds, pool.map(simulate, seeds, chunksize=8)))
    print(f"simulated {len(games)} distinct games in {time.monotonic() - clock:.1f} s "
          f"({sum(len(g) for _s, g in games) / len(games):.0f} events a game)")
    Player.objects.bulk_create([Player(display_name=f"P{n:04d}") for n in range(args.players)])
    ruleset = get_engine(HG).ruleset_version

    results = []
    inserted = 0
    for size in sorted({min(args.small, args.games), args.games}):
        clock = time.monotonic()
        insert_games(inserted, size, games, ruleset)
        with connection.cursor() as cursor:  # fresh planner statistics, as autovacuum would give a live database
            cursor.execute("ANALYZE")
        print(f"inserted games {inserted + 1}..{size} in {time.monotonic() - clock:.1f} s")
        inserted = size
        result = measure(size, args.workers, queue, env, args.chunk_size)
        results.append(result)
        print(f"recompute {size:>6} games: {result['seconds']:7.1f} s = {result['rate']:6.1f} games/s "
              f"(replay and results {result['replay_seconds']:.1f} s, projections rebuilt "
              f"{result['seconds'] - result['replay_seconds']:.1f} s); peak RSS per worker: "
              + ", ".join(f"{mb:.0f} MB" for mb in result["rss"]))
    if len(results) == 2:
        small, large = results
        print(f"growth: {large['games'] / small['games']:.0f}x the games took "
              f"{large['seconds'] / small['seconds']:.1f}x the time "
              f"({1000 * small['seconds'] / small['games']:.1f} -> {1000 * large['seconds'] / large['games']:.1f} ms a game)")
    from django.db import connections

    connections.close_all()
    drop_database(DB)


if __name__ == "__main__":
    main()
