#!/usr/bin/env python
"""The table recorder's POST, server side: how long the server takes to record a move and answer
the new table, per game.

Target (issue 25): Confirm to server-confirmed paint p50 <= 100 ms, p95 <= 200 ms. This POST
(``/scorekeeping/<id>/table/``: the append through the records service, the engine validating
the move and the tamper-evidence chain extended, then the table after it: the position, the
options for the next move, the board's SVG, the last moves in words) is most of that time; the
browser's part (the board swapped in and painted) is measured by
``bench/bench_table_recording.py``.

Each game's complete 2-player game, as the engine plays it at random from a seed (the records
are seeded: Ludolog draws the tiles and rolls the dice), is recorded move by move over HTTP by one
logged-in scorekeeper against gunicorn (production settings, the Django cache in Redis db 14):
Hunters and Gatherers, Carcassonne, Carcassonne with both expansions, Carcassonne Maps – Benelux,
Stone Age. Printed per game: p50, p95 and max of the POST's round trip, and the answer's size.

``--split`` also records the same games again in this process (Django's test client, the same
middleware and database) with the server's parts timed: the append (the engine's check, the
chain, the insert), the state and the last moves in words, the position document, the options,
the board's SVG, the rest (the game's table parts, the ending, JSON).

Measured 2026-12-05 (2 cores shared, load average 2.3-3.9), every move of the five games, two
runs each: p50 25.9 / 28.9 ms and p95 53.8 / 84.0 ms before issue 25's changes, p50 19.6 / 20.6 ms
and p95 35.7 / 38.9 ms after (Carcassonne alone: p50 38.6 / 59.8 ms before, 15.9 / 19.1 ms after).

Usage: ``.venv/bin/python bench/bench_table_post.py [--workers 2] [--seed 5] [--split]``
It creates (and drops) its own database ``ludolog_bench_table_post`` on 127.0.0.1:5432 and serves
it with gunicorn on port 8791.
"""

from __future__ import annotations

import argparse
import collections
import functools
import http.client
import json
import os
import statistics
import subprocess
import sys
import time
from typing import Any

from benchlib import ROOT, drop_database, manage, percentile, production_env, recreate_database, start_gunicorn, stop

DB = "ludolog_bench_table_post"
PORT = 8791
CACHE = os.environ.get("LUDOLOG_BENCH_CACHE_URL", "redis://127.0.0.1:6379/14")
GAMES = (
    ("hunters-gatherers", "hunters-gatherers", None),
    ("carcassonne", "carcassonne", None),
    ("carcassonne + expansions", "carcassonne", {"expansions": ["inns_cathedrals", "traders_builders"]}),
    ("carcassonne-maps", "carcassonne-maps", None),
    ("stone-age", "stone-age", None),
)

SETUP = """
import json
from importlib import import_module
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.middleware.csrf import _get_new_csrf_string
from games.registry import get_engine
from records.services import SeatSpec, start_game
keeper = get_user_model().objects.create_user("bench-keeper", password="bench-keeper-password-1234")
session = import_module(settings.SESSION_ENGINE).SessionStore()
session[SESSION_KEY] = str(keeper.pk)
session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
session[HASH_SESSION_KEY] = keeper.get_session_auth_hash()
session.create()
games = []
for label, slug, setup in {games!r}:
    for copy in range({copies}):
        record = start_game(game_slug=slug, seats=[SeatSpec("Ada"), SeatSpec("Bastien")], seed={seed},
                            created_by=keeper, **({{"setup": setup}} if setup else {{}}))
        events = get_engine(slug).random_game(2, {seed}, record.setup, record.ruleset_version)
        games.append({{"label": label, "record": record.pk, "copy": copy, "events": events}})
print(json.dumps({{"session": session.session_key, "csrf": _get_new_csrf_string(), "games": games}}))
"""


def server_env() -> dict[str, str]:
    return production_env(DB, LUDOLOG_CACHE_URL=CACHE)


def prepare(seed: int, copies: int) -> dict[str, Any]:
    recreate_database(DB)
    env = server_env()
    manage(env, "migrate", "-v0")
    manage(env, "collectstatic", "--noinput", "-v0")
    subprocess.run(["redis-cli", "-u", CACHE, "flushdb"], check=True, stdout=subprocess.DEVNULL)
    out = subprocess.run([sys.executable, "manage.py", "shell", "-c", SETUP.format(games=GAMES, seed=seed, copies=copies)],
                         cwd=ROOT, env=env, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def body(seq: int, kind: str, payload: dict[str, Any], record: int) -> bytes:
    return json.dumps({"expected_seq": seq - 1, "type": kind, "payload": payload,
                       "idempotency_key": f"bench-{record}-{seq}"}).encode()


def record_over_http(data: dict[str, Any], copy: int) -> dict[str, list[tuple[float, int]]]:
    headers = {"Content-Type": "application/json", "Accept": "application/json", "X-CSRFToken": data["csrf"],
               "Cookie": f"sessionid={data['session']}; csrftoken={data['csrf']}", "Accept-Language": "en"}
    timings: dict[str, list[tuple[float, int]]] = collections.defaultdict(list)
    connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=60)
    for game in data["games"]:
        if game["copy"] != copy:
            continue
        path = f"/scorekeeping/{game['record']}/table/"
        for seq, (kind, payload) in enumerate(game["events"], start=1):
            start = time.perf_counter()
            connection.request("POST", path, body=body(seq, kind, payload, game["record"]), headers=headers)
            response = connection.getresponse()
            answer = response.read()
            elapsed = (time.perf_counter() - start) * 1000
            if response.status != 201:
                raise SystemExit(f"{game['label']} move {seq} ({kind} {payload}): {response.status} {answer[:300]!r}")
            timings[game["label"]].append((elapsed, len(answer)))
    connection.close()
    return timings


PARTS = (
    ("append", "records.services", "append_event"),
    ("state + words", "ludolog.web.recorder.views", "_state_and_lines"),
    ("position", "records.services", "position_document"),
    ("board SVG", "ludolog.web.recorder.views", "board_for"),
    ("ending", "ludolog.web.recorder.views", "_ending"),
    ("  words", "ludolog.web.recorder.views", "narrations"),
    ("  retracted", "records.selectors", "retracted"),
    ("    rebuild", "records.replay", "start_and_events"),
)


def record_in_process(data: dict[str, Any], copy: int) -> dict[str, dict[str, list[float]]]:
    """The same moves through Django's test client in this process, each part of the server's
    work timed (the engine's ``options`` too)."""
    os.environ.update(server_env())
    os.environ["DJANGO_SETTINGS_MODULE"] = "ludolog.settings"
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from importlib import import_module

    from django.test import Client

    from games.registry import get_engine

    parts: dict[str, float] = collections.defaultdict(float)

    def timed(label: str, function: Any) -> Any:
        @functools.wraps(function)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                parts[label] += (time.perf_counter() - start) * 1000
        return wrapper

    for label, module, name in PARTS:
        owner = import_module(module)
        setattr(owner, name, timed(label, getattr(owner, name)))
    for _label, slug, _setup in GAMES:
        engine = get_engine(slug)
        if "options" not in vars(engine):
            engine.options = timed("options", engine.options)  # type: ignore[method-assign]
    client = Client(HTTP_ACCEPT_LANGUAGE="en", HTTP_HOST="127.0.0.1")
    client.cookies["sessionid"] = data["session"]
    client.cookies["csrftoken"] = data["csrf"]
    import ludolog.wsgi  # noqa: F401  (what a web process loads when it starts)

    results: dict[str, dict[str, list[float]]] = collections.defaultdict(lambda: collections.defaultdict(list))
    for game in data["games"]:
        if game["copy"] != copy:
            continue
        path = f"/scorekeeping/{game['record']}/table/"
        for seq, (kind, payload) in enumerate(game["events"], start=1):
            parts.clear()
            start = time.perf_counter()
            response = client.post(path, body(seq, kind, payload, game["record"]), content_type="application/json",
                                   HTTP_X_CSRFTOKEN=data["csrf"], HTTP_ACCEPT="application/json")
            total = (time.perf_counter() - start) * 1000
            if response.status_code != 201:
                raise SystemExit(f"{game['label']} move {seq}: {response.status_code} {response.content[:300]!r}")
            board = parts.get("board SVG", 0.0)
            position = parts.get("position", 0.0)
            words = parts.get("state + words", 0.0)
            for label, _module, _name in PARTS:
                results[game["label"]][label].append(parts.get(label, 0.0))
            results[game["label"]]["options"].append(parts.get("options", 0.0))
            results[game["label"]]["the rest"].append(
                total - parts.get("append", 0.0) - words - position - board - parts.get("ending", 0.0)
                - parts.get("options", 0.0))
            results[game["label"]]["total"].append(total)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn sync workers")
    parser.add_argument("--seed", type=int, default=5, help="the records' seed and the random games followed")
    parser.add_argument("--split", action="store_true", help="also time the server's parts in this process")
    parser.add_argument("--keep", action="store_true", help="keep the benchmark database")
    args = parser.parse_args()

    data = prepare(args.seed, 2 if args.split else 1)
    server = start_gunicorn(server_env(), PORT, args.workers)
    try:
        timings = record_over_http(data, 0)
    finally:
        stop(server)
    load = os.getloadavg()
    print(f"machine: {os.cpu_count()} cores, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; gunicorn "
          f"{args.workers} sync workers, DEBUG off, PostgreSQL {DB}, cache {CACHE}; 2-player seeded games (seed {args.seed})")
    print("table POST round trip (append + the new table), target within Confirm to paint p50 <= 100 ms, p95 <= 200 ms:")
    every = []
    for label, moves in timings.items():
        ms = [m for m, _size in moves]
        every += ms
        print(f"  {label:26} {len(ms):4} moves: p50 {statistics.median(ms):6.1f} ms, p95 {percentile(ms, 0.95):6.1f} ms, "
              f"max {max(ms):6.1f} ms; answer median {statistics.median(s for _m, s in moves) / 1024:.0f} KiB")
    print(f"  {'every move':26} {len(every):4} moves: p50 {statistics.median(every):6.1f} ms, "
          f"p95 {percentile(every, 0.95):6.1f} ms, max {max(every):6.1f} ms")
    if args.split:
        results = record_in_process(data, 1)
        print("in this process (Django's test client), the server's parts, median ms a move (p95):")
        for label, parts in results.items():
            print(f"  {label:26} " + ", ".join(
                f"{part} {statistics.median(values):.1f} ({percentile(values, 0.95):.1f})" for part, values in parts.items()))
    if not args.keep:
        drop_database(DB)


if __name__ == "__main__":
    main()
