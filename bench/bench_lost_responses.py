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

``--desk``: the loans desk instead, with Redis killed mid-run (issue 37). gunicorn's broker and
cache are a redis-server of the bench's own (``/usr/bin/redis-server`` on a free port, never the
shared one), with a real Celery worker mailing into a folder; ``--clients`` desks each lend,
take back and place holds on a copy of their own (a hold on a copy on the shelf sets it aside at
once and tells the household by mail: the request that answered 500 with Redis down) until
``--desk-actions`` actions in all are answered; Redis is killed ``--redis-down-after`` seconds
(default 5) into the run and started again ``--redis-down`` seconds (default 30) later. Printed:
each action acknowledged and stored, and the failures, each of which must be 0: *stored but
unacknowledged* (a copy's events or holds stored beyond those answered 2xx), *lost* (answered
2xx, not stored), *5xx*, *other errors*, *mail not sent once* (after the run, the outbox swept:
each set-aside's message sent exactly once, one file each).
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
from pathlib import Path

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


# -- the desk with Redis killed mid-run ------------------------------------------------------------

REDIS_SERVER = "/usr/bin/redis-server"


class OwnRedis:
    """A redis-server of the bench's own on a free port, killed and started again on that port."""

    def __init__(self) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process = None

    def start(self) -> None:
        import subprocess

        self.process = subprocess.Popen([REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                                         "--appendonly", "no"], stdout=subprocess.DEVNULL)
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise SystemExit("redis-server did not start")

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()


@dataclass
class DeskTally:
    acknowledged: Counter = field(default_factory=Counter)
    """Per action (lend, return, hold), the answers 2xx."""
    during_outage: Counter = field(default_factory=Counter)
    server_errors: int = 0
    other_errors: int = 0
    examples: list[str] = field(default_factory=list)
    total: int = 0


def desk_client(client: int, token: str, barcode: str, record_id: int, cards: tuple[str, str], actions: int,
                tally: DeskTally, lock: threading.Lock, outage: threading.Event, start: threading.Barrier) -> None:
    """One desk and its copy: hold for the second household (set aside at once, mailed), lend it to
    them (the hold fulfilled), take it back, lend it to the first, take it back; again."""
    reader, holder = cards
    cycle = [("hold", "/api/loans/holds/", {"record": record_id, "household": holder}, 201),
             ("lend", "/api/loans/lend/", {"copy": barcode, "household": holder}, 201),
             ("return", "/api/loans/return/", {"copy": barcode}, 200),
             ("lend", "/api/loans/lend/", {"copy": barcode, "household": reader}, 201),
             ("return", "/api/loans/return/", {"copy": barcode}, 200)]
    start.wait()
    step = 0
    while True:
        with lock:
            if tally.total >= actions:
                return
            tally.total += 1
        name, path, body, expected = cycle[step % len(cycle)]
        down = outage.is_set()
        try:
            status, answer = send(path, json.dumps(body).encode(), token)
        except OSError as error:
            status, answer = 0, {"error": repr(error)}
        with lock:
            if status == expected:
                tally.acknowledged[name] += 1
                tally.during_outage[name] += down
                step += 1
                continue
            if status >= 500:
                tally.server_errors += 1
            else:
                tally.other_errors += 1
            if len(tally.examples) < 5:
                tally.examples.append(f"desk {client} {name} (Redis down: {down}): {status} {answer}")
        return  # the desk no longer knows where its copy stands: the counts below say what was stored


def desk_main(args: argparse.Namespace) -> None:
    import subprocess
    import tempfile

    recreate_database(DB)
    mailbox = tempfile.mkdtemp(prefix="ludolog-bench-mail-")
    redis = OwnRedis()
    redis.start()
    mail_env = {"EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend", "EMAIL_FILE_PATH": mailbox,
                "LUDOLOG_OUTBOX_SWEEP_GRACE_SECONDS": "0"}
    os.environ.update(mail_env)
    setup_django()
    from django.contrib.auth.models import User
    from rest_framework.authtoken.models import Token

    from accounts.models import Membership, MembershipRole, Organisation
    from accounts.roles import Role
    from games.models import CatalogueRecord, Copy
    from loans.models import CopyEvent, Hold, Household
    from outbox import services as outbox
    from outbox.models import Message

    library = Organisation.objects.create(name="Ludothèque du banc", slug="banc", kind=Organisation.Kind.LIBRARY)
    desk = User.objects.create_user("bench-desk")
    MembershipRole.objects.create(membership=Membership.objects.create(user=desk, organisation=library), role=Role.DESK)
    token = Token.objects.create(user=desk).key
    plans = []
    for client in range(args.clients):
        record = CatalogueRecord.objects.create(title=f"Jeu du banc {client}")
        copy = Copy.objects.create(record=record, barcode=f"BANC-{client:03d}", organisation=library)
        cards = tuple(Household.objects.create(
            name=f"Foyer {client}-{n}", card_number=f"BANC-{client:03d}-{n}", fee_paid=True, organisation=library,
            email=f"foyer-{client}-{n}@example.org", membership_starts="2000-01-01", membership_ends="2099-12-31",
        ).card_number for n in range(2))
        plans.append((copy.barcode, record.pk, cards))

    env = production_env(DB, CELERY_BROKER_URL=redis.url, CELERY_RESULT_BACKEND=redis.url, LUDOLOG_CACHE_URL=redis.url,
                         **mail_env)
    server = start_gunicorn(env, PORT, args.workers)
    worker = subprocess.Popen([sys.executable, "-m", "celery", "-A", "ludolog", "worker", "--pool=solo",
                               "--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "error"],
                              cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    tally, lock, outage = DeskTally(), threading.Lock(), threading.Event()
    barrier = threading.Barrier(args.clients + 1)
    threads = [threading.Thread(target=desk_client, args=(client, token, *plans[client], args.desk_actions, tally,
                                                          lock, outage, barrier))
               for client in range(args.clients)]

    def kill_redis_for_a_while() -> None:
        barrier.wait()
        time.sleep(args.redis_down_after)
        redis.kill()
        outage.set()
        time.sleep(args.redis_down)
        redis.start()
        outage.clear()

    killer = threading.Thread(target=kill_redis_for_a_while, daemon=True)
    began = time.perf_counter()
    try:
        killer.start()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        wall = time.perf_counter() - began
        killer.join(timeout=args.redis_down_after + args.redis_down + 10)
        time.sleep(3)  # the worker's last deliveries
    finally:
        stop(server)
        worker.terminate()
        worker.wait()
        redis.kill()

    stored = Counter()
    for kind, count in ((CopyEvent.Type.LENT, "lend"), (CopyEvent.Type.RETURNED, "return")):
        stored[count] = CopyEvent.objects.filter(type=kind).count()
    stored["hold"] = Hold.objects.count()
    set_aside = CopyEvent.objects.filter(type=CopyEvent.Type.HELD).count()
    unsent_after_run = Message.objects.filter(sent_at__isnull=True).count()
    swept = outbox.sweep()  # what the beat's next sweep does
    messages = Message.objects.count()
    sent = Message.objects.filter(sent_at__isnull=False).count()
    files = sum(Path(mailbox, name).read_text().count("\nSubject: ") for name in os.listdir(mailbox))
    from django.db import connections

    connections.close_all()
    drop_database(DB)

    print(f"{args.clients} desks, {args.workers} gunicorn workers, Redis killed after {args.redis_down_after:.0f} s "
          f"for {args.redis_down:.0f} s, {wall:.1f} s")
    for name in ("lend", "return", "hold"):
        print(f"{name + 's':<8} acknowledged {tally.acknowledged[name]:>6,} (with Redis down {tally.during_outage[name]:>5,})"
              f"   stored {stored[name]:>6,}")
    print(f"set aside and told           {set_aside:>6,}   messages in the outbox {messages:,}, unsent after the run "
          f"{unsent_after_run:,}, sent by the sweep {swept:,}")
    unacknowledged = sum(max(0, stored[name] - tally.acknowledged[name]) for name in stored)
    lost = sum(max(0, tally.acknowledged[name] - stored[name]) for name in stored)
    failures = {"stored but unacknowledged": unacknowledged, "lost": lost, "5xx": tally.server_errors,
                "other errors": tally.other_errors, "mail not sent once": abs(set_aside - sent) + abs(sent - files)
                + abs(messages - set_aside)}
    for name, count in failures.items():
        print(f"{name:<28}{count:>6,}")
    for example in tally.examples:
        print("  e.g. " + example)
    if any(failures.values()) or not tally.during_outage.total():
        sys.exit(1)


def entry() -> None:
    if "--desk" in sys.argv:
        parser = argparse.ArgumentParser(description="The desk's lend, return and hold with Redis killed mid-run")
        parser.add_argument("--desk", action="store_true")
        parser.add_argument("--clients", type=int, default=8)
        parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
        parser.add_argument("--desk-actions", type=int, default=1500, help="desk actions answered in all")
        parser.add_argument("--redis-down-after", type=float, default=5)
        parser.add_argument("--redis-down", type=float, default=30)
        desk_main(parser.parse_args())
    else:
        main()


if __name__ == "__main__":
    entry()
