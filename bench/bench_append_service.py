#!/usr/bin/env python
"""Validated in-process appends beside raw psycopg INSERTs, on PostgreSQL, in one run.

What it measures, each with 1 writer process and then ``--writers`` (default 8):

* **appends**: ``records.services.append_event`` of real simulated Hunters and Gatherers games
  (random players, 4 seats, ``--games`` of them, about 80 events each), one event per
  transaction, each writer process on its own records, in order from the first event to the
  last, every one checked by the rules engine and chained to the one before it. Scoring is
  handed off as in production: the append that finishes a game queues it to Redis once the
  event is committed (no worker runs; the queue is emptied afterwards).
* **raw inserts**: one-row ``INSERT`` transactions (autocommit: one statement, one round trip,
  one commit) with psycopg into ``bench_raw_event``, a table made ``LIKE records_event
  INCLUDING ALL`` (the same columns, defaults, checks and unique indexes) with the same foreign
  keys, the same rows (the stored events' own payloads and hashes), by the same number of
  processes, for the same length of time.

Each round appends on fresh records and then inserts raw for as long, right after: the two
figures of a round are read a few seconds apart, on a machine whose speed changes from one
minute to the next (shared with others). The round reported is the median one by its ratio A/R
(every round is printed): the last line is ``appends/s A, raw inserts/s R, ratio A/R`` of that
round for one writer; the same for ``--writers`` is printed above it. The latencies are the
medians of the rounds'.

Usage: ``.venv/bin/python bench/bench_append_service.py [--games 24] [--writers 8] [--rounds 3]``
It creates (and drops) its own database ``ludolog_bench_append`` on 127.0.0.1:5432 and uses
Redis database 12 on 127.0.0.1:6379.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import time
from typing import Any

from benchlib import PG, ROOT, drop_database, manage, median_round, percentile, production_env, recreate_database

DB = "ludolog_bench_append"
BROKER = "redis://127.0.0.1:6379/12"
GAME = "hunters-gatherers"


def setup_django() -> None:
    env = production_env(DB, CELERY_BROKER_URL=BROKER)
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludolog.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def simulate(games: int, players: int) -> list[list[tuple[str, dict[str, Any]]]]:
    from records.files import simulate_document

    return [[(e["type"], e["payload"]) for e in simulate_document(GAME, players, seed)["events"]]
            for seed in range(games)]


def start_records(seeds: list[int], players: int, label: str) -> list[int]:
    from django.contrib.auth.models import User

    from records.services import SeatSpec, start_game

    user, _ = User.objects.get_or_create(username="bench")
    return [
        start_game(game_slug=GAME, seats=[SeatSpec(f"{label}-{seed}-{s}") for s in range(players)],
                   created_by=user, seed=seed).pk
        for seed in seeds
    ]


def append_writer(record_ids: list[int], seeds: list[int], games: list[list[tuple[str, dict]]],
                  ready: Any, go: Any, results: Any) -> None:
    """One writer process: append every event of its games, record after record (each append
    in its own transaction); puts each append's milliseconds on ``results``."""
    from django.contrib.auth.models import User
    from django.db import connection

    from ludolog.celery import warm_up_producer
    from records.models import GameRecord
    from records.services import append_event

    user = User.objects.get(username="bench")
    records = list(GameRecord.objects.filter(pk__in=record_ids).order_by("pk"))
    warm_up_producer()  # as ludolog.wsgi does when a web process starts
    connection.ensure_connection()
    ready.wait()
    go.wait()
    timings = []
    for record, seed in zip(records, seeds):
        for seq, (kind, payload) in enumerate(games[seed]):
            begin = time.perf_counter()
            append_event(record, seq, kind, payload, recorded_by=user)
            timings.append((time.perf_counter() - begin) * 1000)
    results.put(timings)


def run_appends(writers: int, games: list[list[tuple[str, dict]]], players: int, label: str) -> tuple[float, list[float]]:
    from django.db import connections

    seeds = list(range(len(games)))
    shares = [seeds[index::writers] for index in range(writers)]
    ids = [start_records(share, players, f"{label}w{index}") for index, share in enumerate(shares)]
    connections.close_all()  # each forked writer opens its own connection
    context = multiprocessing.get_context("fork")
    ready = context.Barrier(writers + 1)
    go = context.Barrier(writers + 1)
    queue = context.Queue()
    processes = [context.Process(target=append_writer, args=(ids[i], shares[i], games, ready, go, queue))
                 for i in range(writers)]
    for process in processes:
        process.start()
    ready.wait()
    start = time.perf_counter()
    go.wait()
    results = [queue.get() for _ in processes]
    wall = time.perf_counter() - start
    for process in processes:
        process.join()
        if process.exitcode:
            raise SystemExit(f"a writer failed (exit code {process.exitcode})")
    timings = [t for result in results for t in result]
    return len(timings) / wall, timings


RAW_SQL = (
    "INSERT INTO bench_raw_event (record_id, seq, type, payload, recorded_by_id, recorded_at, idempotency_key, hash)"
    " VALUES (%s, %s, %s, %s, %s, now(), NULL, %s)"
)


def prepare_raw() -> list[tuple[int, str, str, int | None, str]]:
    """The equivalent table, and the rows to insert into it: the stored events' own."""
    import psycopg

    with psycopg.connect(PG + DB, autocommit=True) as db:
        db.execute("DROP TABLE IF EXISTS bench_raw_event")
        db.execute("CREATE TABLE bench_raw_event (LIKE records_event INCLUDING ALL)")
        db.execute("ALTER TABLE bench_raw_event ADD FOREIGN KEY (record_id) REFERENCES records_gamerecord (id)")
        db.execute("ALTER TABLE bench_raw_event ADD FOREIGN KEY (recorded_by_id) REFERENCES auth_user (id)")
        rows = db.execute("SELECT type, payload::text, recorded_by_id, hash FROM records_event ORDER BY id LIMIT 5000").fetchall()
        record_ids = [r for (r,) in db.execute("SELECT id FROM records_gamerecord ORDER BY id").fetchall()]
    return [(record_ids, *row) for row in rows]  # type: ignore[misc]


def raw_writer(index: int, rows: list, seconds: float, go: Any, results: Any) -> None:
    import psycopg

    record_ids = rows[0][0]
    count = 0
    with psycopg.connect(PG + DB, autocommit=True) as db:
        go.wait()
        deadline = time.perf_counter() + seconds
        seq = 0
        while time.perf_counter() < deadline:
            _ids, kind, payload, by, digest = rows[count % len(rows)]
            seq += 1
            # Each process on its own (record, seq) range: never a conflict, as the appends.
            db.execute(RAW_SQL, (record_ids[index % len(record_ids)], 1_000_000 * (index + 1) + seq, kind, payload, by, digest))
            count += 1
    results.put(count)


def run_raw(writers: int, seconds: float, rows: list) -> float:
    import psycopg

    with psycopg.connect(PG + DB, autocommit=True) as db:
        db.execute("TRUNCATE bench_raw_event")
    context = multiprocessing.get_context("fork")
    go = context.Barrier(writers + 1)
    queue = context.Queue()
    processes = [context.Process(target=raw_writer, args=(i, rows, seconds, go, queue)) for i in range(writers)]
    for process in processes:
        process.start()
    go.wait()
    start = time.perf_counter()
    total = sum(queue.get() for _ in processes)
    wall = time.perf_counter() - start
    for process in processes:
        process.join()
    return total / wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--keep", action="store_true", help="keep the benchmark database")
    args = parser.parse_args()

    recreate_database(DB)
    manage(production_env(DB, CELERY_BROKER_URL=BROKER), "migrate", "-v0")
    setup_django()
    games = simulate(args.games, args.players)
    events = sum(len(g) for g in games)
    figures: dict[int, dict[str, list[float]]] = {}
    rows: list = []
    for round_ in range(args.rounds):
        for writers in (1, args.writers):
            rate, timings = run_appends(writers, games, args.players, f"r{round_}")
            figures.setdefault(writers, {"appends": [], "p50": [], "p99": [], "raw": []})
            figures[writers]["appends"].append(rate)
            figures[writers]["p50"].append(statistics.median(timings))
            figures[writers]["p99"].append(percentile(timings, 0.99))
            if not rows:
                rows = prepare_raw()
            seconds = max(2.0, len(timings) / rate)
            figures[writers]["raw"].append(run_raw(writers, seconds, rows))
    subprocess.run(["redis-cli", "-u", BROKER, "flushdb"], check=False, capture_output=True)
    load = open("/proc/loadavg").read().split()[:3]
    print(f"machine: {os.cpu_count()} cores, load average {' '.join(load)} at the end; PostgreSQL {DB} on "
          f"127.0.0.1, scoring queued to Redis on commit as in production; {args.rounds} rounds, medians")
    print(f"games: {args.games} simulated {GAME} games, {args.players} players, {events} events (one per transaction)")
    for writers in (args.writers, 1):
        f = figures[writers]
        a, r = median_round(list(zip(f["appends"], f["raw"])))
        print(f"{writers} writer{'s' if writers > 1 else ''}: append p50 {statistics.median(f['p50']):.2f} ms, "
              f"p99 {statistics.median(f['p99']):.2f} ms; rounds (appends/s, raw inserts/s, ratio): "
              + "; ".join(f"{x:.0f}, {y:.0f}, {x / y:.2f}" for x, y in zip(f["appends"], f["raw"])))
        line = f"appends/s {a:.0f}, raw inserts/s {r:.0f}, ratio {a / r:.2f}"
        if writers > 1:
            print(f"{writers} writers: {line} (target >= 0.25)")
    print(line)
    if not args.keep:
        from django.db import connections

        connections.close_all()
        drop_database(DB)


if __name__ == "__main__":
    main()
