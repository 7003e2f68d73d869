#!/usr/bin/env python
"""Recording benchmarks on PostgreSQL through the real HTTP API (gunicorn), printed as figures.

1. ``GET /api/records/{id}/state/?at=N`` at random N: p50 and p99 over 1,000 requests
   (targets: p50 ≤ 20 ms, p99 ≤ 60 ms).
2. Validated appends with 8 concurrent clients, each on its own record: appends/s and p99
   (targets: ≥ 200 appends/s, p99 ≤ 150 ms), printed beside a raw psycopg
   single-row-insert-per-transaction rate measured in the same run with the same concurrency
   (issue 14: appends ≥ 10 % of it, p99 ≤ 50 ms). ``--rounds`` rounds (default 3), each a
   complete game appended by every client on a fresh record, then raw inserts for as long,
   right after: the round reported is the median one by its ratio (a machine shared with
   others changes speed from second to second, and one round lasts about one); the p99 is over
   every append of every round.

Usage: ``.venv/bin/python bench/bench_recording_api.py [--requests 1000] [--clients 8]``
It creates (and drops) its own database ``ludolog_bench_records`` on 127.0.0.1:5432.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time

import psycopg
from benchlib import (
    PG, ROOT, drop_database, manage, median_round, percentile, production_env, recreate_database, start_gunicorn, stop,
)

DB = "ludolog_bench_records"
PORT = 8765
BROKER = "redis://127.0.0.1:6379/11"
"""As in production, the server hands the scoring of a finished game to the workers through
Redis instead of scoring it inside the request (each gunicorn process connects to the broker when
it starts, in ``ludolog.wsgi``, as in production); no worker runs during the measurement and the
queue is emptied afterwards (scoring has its own benchmark, bench_recompute.py)."""


def server_env() -> dict[str, str]:
    return production_env(DB, CELERY_BROKER_URL=BROKER)


def prepare(games: int, clients: int, rounds: int = 1) -> tuple[str, list[tuple[int, int]], list[list[tuple[int, list]]]]:
    """Migrate, create a token, import finished games, and start one record per append client
    and round (each round's records: a list of ``(record id, events)``)."""
    env = server_env()
    manage(env, "migrate", "-v0")
    os.environ.update({k: env[k] for k in ("DATABASE_URL", "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "SECURE_SSL_REDIRECT", "LOG_LEVEL")})
    os.environ.pop("CELERY_BROKER_URL", None)  # the finished games imported here are scored in-process
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludolog.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.contrib.auth.models import User
    from rest_framework.authtoken.models import Token

    from records.files import import_document, simulate_document
    from records.services import SeatSpec, start_game

    user = User.objects.create_user("bench", password="bench")
    token = Token.objects.create(user=user).key
    finished = []
    for seed in range(games):
        record = import_document(simulate_document("hunters-gatherers", 4, seed), imported_by=user)
        finished.append((record.pk, record.events.count()))
    documents = [simulate_document("hunters-gatherers", 4, 10_000 + client) for client in range(clients)]
    rounds_of_appenders = []
    for round_ in range(rounds):
        appenders = []
        for client, document in enumerate(documents):
            record = start_game(
                game_slug="hunters-gatherers", seats=[SeatSpec(f"R{round_}C{client}-{s}") for s in range(4)],
                created_by=user, seed=10_000 + client,
            )
            appenders.append((record.pk, [(e["type"], e["payload"]) for e in document["events"]]))
        rounds_of_appenders.append(appenders)
    return token, finished, rounds_of_appenders


def bench_state(token: str, finished: list[tuple[int, int]], requests: int) -> list[float]:
    rng = random.Random(42)
    connection = http.client.HTTPConnection("127.0.0.1", PORT)
    headers = {"Authorization": f"Token {token}"}
    timings = []
    for _ in range(requests):
        record_id, last = rng.choice(finished)
        at = rng.randint(0, last)
        start = time.perf_counter()
        connection.request("GET", f"/api/records/{record_id}/state/?at={at}", headers=headers)
        response = connection.getresponse()
        body = response.read()
        timings.append((time.perf_counter() - start) * 1000)
        if response.status != 200:
            raise SystemExit(f"state answered {response.status}: {body[:200]!r}")
    return timings


def post_json(path: str, body: bytes, token: str) -> tuple[int, bytes]:
    """POST ``body`` to the server and read its answer, on a connection of its own (gunicorn's
    sync workers close each one after their answer, as ``Connection: close`` asks).

    A plain socket rather than http.client: the clients share the server's cores, and
    http.client's header parsing cost them about 0.4 ms of processor time an append (measured
    2026-12-03 from /proc), a third of what a gunicorn worker spends answering one; a client
    elsewhere, as a phone at a table is, takes nothing from the server.
    """
    request = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{PORT}\r\nAuthorization: Token {token}\r\n"
               f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n"
               ).encode() + body
    with socket.create_connection(("127.0.0.1", PORT)) as connection:
        connection.sendall(request)
        chunks = []
        while chunk := connection.recv(65536):
            chunks.append(chunk)
    answer = b"".join(chunks)
    head, _, content = answer.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), content


def bench_appends(token: str, appenders: list[tuple[int, list]]) -> tuple[int, float, list[float], list[tuple[float, int, bool]]]:
    """Returns the count, the wall time, each append's latency, and (latency, seq, finished the game) per append."""
    timings: list[float] = []
    detail: list[tuple[float, int, bool]] = []
    lock = threading.Lock()
    barrier = threading.Barrier(len(appenders))
    errors: list[str] = []

    def client(record_id: int, events: list) -> None:
        path = f"/api/records/{record_id}/events/"
        bodies = [json.dumps({"expected_seq": seq, "type": kind, "payload": payload}).encode()
                  for seq, (kind, payload) in enumerate(events)]
        barrier.wait()
        for seq, body in enumerate(bodies):
            start = time.perf_counter()
            status, answer = post_json(path, body, token)
            elapsed = (time.perf_counter() - start) * 1000
            if status != 201:
                errors.append(f"record {record_id} seq {seq}: {status} {answer[:200]!r}")
                return
            with lock:
                timings.append(elapsed)
                detail.append((elapsed, seq + 1, seq + 1 == len(events)))

    threads = [threading.Thread(target=client, args=appender) for appender in appenders]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - start
    if errors:
        raise SystemExit("append failed: " + errors[0])
    return len(timings), wall, timings, detail


def bench_raw_inserts(clients: int, seconds: float) -> float:
    """The machine's limit: one-row INSERT + COMMIT per transaction, same concurrency."""
    with psycopg.connect(PG + DB, autocommit=True) as setup:
        setup.execute("CREATE TABLE IF NOT EXISTS bench_raw (id bigserial PRIMARY KEY, record int, seq int, payload jsonb)")
    counts = [0] * clients
    barrier = threading.Barrier(clients)
    deadline = 0.0

    def writer(index: int) -> None:
        nonlocal deadline
        with psycopg.connect(PG + DB) as connection:
            if barrier.wait() == 0:  # connected, all of them: the clock starts
                deadline = time.perf_counter() + seconds
            barrier.wait()
            while time.perf_counter() < deadline:
                connection.execute("INSERT INTO bench_raw (record, seq, payload) VALUES (%s, %s, %s)",
                                   (index, counts[index], '{"tile": "L01"}'))
                connection.commit()
                counts[index] += 1

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(counts) / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--games", type=int, default=20, help="finished games for the state benchmark")
    parser.add_argument("--rounds", type=int, default=3, help="append rounds, each beside its raw inserts")
    parser.add_argument("--keep", action="store_true", help="keep the benchmark database")
    parser.add_argument("--workers", type=int, default=(os.cpu_count() or 1) + 1,
                        help="gunicorn sync workers (default: one per core and one more, as ludolog/deploy/gunicorn.conf.py)")
    args = parser.parse_args()

    recreate_database(DB)
    token, finished, rounds_of_appenders = prepare(args.games, args.clients, args.rounds)
    server = start_gunicorn(server_env(), PORT, args.workers)
    rounds: list[tuple[float, float]] = []  # (appends/s, raw inserts/s) of each round
    appends: list[float] = []
    detail: list[tuple[float, int, bool]] = []
    try:
        bench_state(token, finished, 50)  # warm the workers' connections and imports
        state = bench_state(token, finished, args.requests)
        for appenders in rounds_of_appenders:
            count, wall, timings, round_detail = bench_appends(token, appenders)
            appends += timings
            detail += round_detail
            # The same concurrency right after, for as long (the server idles meanwhile).
            rounds.append((count / wall, bench_raw_inserts(args.clients, max(2.0, wall))))
    finally:
        stop(server)
    subprocess.run(["redis-cli", "-u", BROKER, "flushdb"], check=False, capture_output=True)
    rate, raw = median_round(rounds)
    print(f"machine: {os.cpu_count()} cores; server: gunicorn (ludolog/deploy/gunicorn.conf.py), {args.workers} sync "
          f"workers, DEBUG off, PostgreSQL {DB}, scoring queued to Redis as in production")
    print(f"state?at=N: {len(state)} requests over {len(finished)} finished 4-player games: "
          f"p50 {statistics.median(state):.1f} ms, p99 {percentile(state, 0.99):.1f} ms (targets 20 / 60 ms)")
    print("rounds (appends/s, raw inserts/s, appends as a share of raw): "
          + "; ".join(f"{a:.0f}, {r:.0f}, {100 * a / r:.1f} %" for a, r in rounds))
    print(f"validated appends: {args.clients} clients x own record, {len(rounds)} rounds of {len(appends) // len(rounds)} "
          f"appends: {rate:.0f} appends/s in the median round, p50 {statistics.median(appends):.1f} ms, "
          f"p99 {percentile(appends, 0.99):.1f} ms (targets >= 200/s, p99 <= 150 ms)")
    slowest = ", ".join(f"{ms:.0f} ms (seq {seq}{', game over' if over else ''})" for ms, seq, over in sorted(detail)[-5:])
    print(f"slowest appends: {slowest}")
    print(f"raw psycopg single-row insert per transaction, {args.clients} connections, the same round: {raw:.0f} inserts/s "
          f"(appends reach {100 * rate / raw:.1f}% of it; target 10 %, p99 <= 50 ms)")
    if not args.keep:
        drop_database(DB)


if __name__ == "__main__":
    main()
