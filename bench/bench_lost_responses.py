#!/usr/bin/env python
"""Lost answers and identical retries at once, through the real HTTP API (gunicorn, PostgreSQL).

Clients at a table lose answers: the phone sent the move, the server stored it, the answer never
came back. The client then sends the identical request again (same idempotency key, same
``expected_seq``), at once, while its first try may still be in flight. Every such retry must be
answered with the event its first try stored.

``--clients`` clients (default 16), each recording seeded Hunters and Gatherers games on records
of its own, the drawn tile left for the engine to fill in (the stored payload then differs from
the request). For half the moves, chosen at random, the client drops the answer: it sends the
request, closes the connection without reading, and sends the identical retry on a new
connection at once. It plays until ``--appends`` appends (default 2,000) are acknowledged.

Printed: appends acknowledged, answers dropped, retries answered with their event, and the
failures, each of which must be 0:

* *stored but unacknowledged*: a retry answered ``409`` although its first try's event is stored
  (the client would think its move lost and could record it again);
* *lost*: an acknowledged move with no event; *duplicated*: a move stored twice (two events with
  one key, or more events than moves); *gaps*: a record's seqs not 1, 2, 3…;
* *other errors*: any other answer.

``--send-tiles`` sends the tiles too (the stored payload is then the request itself).
Exits 1 when any failure is not 0. Usage: ``.venv/bin/python bench/bench_lost_responses.py
[--clients 16] [--appends 2000] [--workers 4]``. It creates (and drops) its own database
``ludolog_bench_lost`` on 127.0.0.1:5432.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field

from benchlib import ROOT, drop_database, manage, production_env, recreate_database, start_gunicorn, stop

DB = "ludolog_bench_lost"
PORT = 8766
GAME = "hunters-gatherers"


def setup_django() -> None:
    env = production_env(DB)
    manage(env, "migrate", "-v0")
    os.environ.update({k: env[k] for k in ("DATABASE_URL", "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS",
                                           "SECURE_SSL_REDIRECT", "LOG_LEVEL")})
    os.environ.pop("CELERY_BROKER_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludolog.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def request_bytes(path: str, body: bytes, token: str) -> bytes:
    return (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{PORT}\r\nAuthorization: Token {token}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n"
            ).encode() + body


def send_and_drop(path: str, body: bytes, token: str) -> None:
    """The request reaches the server whole; its answer is never read (the connection is gone)."""
    with socket.create_connection(("127.0.0.1", PORT)) as connection:
        connection.sendall(request_bytes(path, body, token))
        connection.shutdown(socket.SHUT_WR)


def send(path: str, body: bytes, token: str) -> tuple[int, dict]:
    with socket.create_connection(("127.0.0.1", PORT)) as connection:
        connection.sendall(request_bytes(path, body, token))
        chunks = []
        while chunk := connection.recv(65536):
            chunks.append(chunk)
    head, _, content = b"".join(chunks).partition(b"\r\n\r\n")
    try:
        answer = json.loads(content)
    except ValueError:
        answer = {"body": content[:200].decode("latin-1")}
    return int(head.split(b" ", 2)[1]), answer


@dataclass
class Tally:
    acknowledged: int = 0
    dropped: int = 0
    retries_answered: int = 0
    unacknowledged: int = 0
    other_errors: int = 0
    examples: list[str] = field(default_factory=list)
    moves: dict[int, list[str]] = field(default_factory=dict)
    """Per record, the idempotency keys of the moves acknowledged, in order."""
    sent: dict[int, set[str]] = field(default_factory=dict)
    """Per record, the idempotency keys of every move sent (acknowledged or not)."""


def play(client: int, token: str, games: list[tuple[int, list]], appends: int, tally: Tally, lock: threading.Lock,
         start: threading.Barrier) -> None:
    rng = random.Random(client)
    start.wait()
    done = 0
    for record_id, events in games:
        path = f"/api/records/{record_id}/events/"
        for seq, (kind, payload) in enumerate(events):
            if done >= appends:
                return
            key = f"c{client}-r{record_id}-m{seq + 1}"
            body = json.dumps({"expected_seq": seq, "type": kind, "payload": payload, "idempotency_key": key}).encode()
            dropped = rng.random() < 0.5
            with lock:
                tally.sent.setdefault(record_id, set()).add(key)
            if dropped:
                send_and_drop(path, body, token)
            status, answer = send(path, body, token)  # the answer, or the retry's at once
            with lock:
                tally.dropped += dropped
                if status in (200, 201) and answer.get("seq") == seq + 1:
                    tally.acknowledged += 1
                    tally.retries_answered += dropped
                    tally.moves.setdefault(record_id, []).append(key)
                    done += 1
                    continue
                if status == 409 and answer.get("reason") == "seq_conflict" and answer.get("current_seq") == seq + 1:
                    tally.unacknowledged += 1
                else:
                    tally.other_errors += 1
                if len(tally.examples) < 5:
                    tally.examples.append(f"record {record_id} move {seq + 1} (dropped={dropped}): {status} {answer}")
            return  # the client no longer knows where its record stands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--appends", type=int, default=2000, help="acknowledged appends in all")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    parser.add_argument("--send-tiles", action="store_true",
                        help="send each drawn tile as the engine would fill it in (the request is the stored payload)")
    args = parser.parse_args()
    per_client = -(-args.appends // args.clients)

    recreate_database(DB)
    setup_django()
    from django.contrib.auth.models import User
    from rest_framework.authtoken.models import Token

    from games.registry import get_engine
    from records.models import Event
    from records.services import SeatSpec, start_game

    user = User.objects.create_user("bench", is_staff=True)
    token = Token.objects.create(user=user).key
    engine = get_engine(GAME)
    assert engine is not None
    plans = []
    for client in range(args.clients):
        games, moves = [], 0
        while moves < per_client:
            seed = 1_000 * client + len(games)
            record = start_game(game_slug=GAME, seats=[SeatSpec(f"C{client}G{len(games)}P{s}") for s in range(2)],
                                created_by=user, seed=seed)
            # The engine draws each tile of a seeded game: the request leaves it out.
            events = [(kind, {k: v for k, v in payload.items()
                              if args.send_tiles or not (kind == "place_tile" and k == "tile")})
                      for kind, payload in engine.random_game(2, seed)]
            games.append((record.pk, events))
            moves += len(events)
        plans.append(games)

    server = start_gunicorn(production_env(DB), PORT, args.workers)
    tally, lock = Tally(), threading.Lock()
    barrier = threading.Barrier(args.clients)
    threads = [threading.Thread(target=play, args=(client, token, plans[client], per_client, tally, lock, barrier))
               for client in range(args.clients)]
    began = time.perf_counter()
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        stop(server)
    wall = time.perf_counter() - began

    lost = duplicated = gaps = 0
    for record_id, sent in tally.sent.items():
        keys = tally.moves.get(record_id, [])
        stored = list(Event.objects.filter(record_id=record_id).order_by("seq").values_list("seq", "idempotency_key"))
        seqs = [seq for seq, _ in stored]
        gaps += seqs != list(range(1, len(seqs) + 1))
        counts = Counter(key for _, key in stored)
        duplicated += sum(count - 1 for count in counts.values() if count > 1) + sum(
            1 for key in counts if key not in sent)
        lost += sum(1 for key in keys if key not in counts)
    from django.db import connections

    connections.close_all()
    drop_database(DB)

    print(f"{args.clients} clients, {args.workers} gunicorn workers, {wall:.1f} s")
    print(f"appends acknowledged        {tally.acknowledged:>6,}")
    print(f"answers dropped             {tally.dropped:>6,}")
    print(f"retries answered their event{tally.retries_answered:>6,}")
    failures = {
        "stored but unacknowledged": tally.unacknowledged, "lost": lost, "duplicated": duplicated,
        "records with gaps": gaps, "other errors": tally.other_errors,
    }
    for name, count in failures.items():
        print(f"{name:<28}{count:>6,}")
    for example in tally.examples:
        print("  e.g. " + example)
    if tally.acknowledged < args.appends or any(failures.values()):
        sys.exit(1)


if __name__ == "__main__":
    main()
