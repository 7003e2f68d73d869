#!/usr/bin/env python
"""Replay page first load: each game's longest demo record, opened as a reader first opens it.

Target (issue 25): a replay page's first load <= 500 ms for every game's longest demo record.

The demo is loaded (``manage.py load_demo``) and, beside it, one 5-player Carcassonne game with
both expansions (Inns & Cathedrals, Traders & Builders), simulated by the engine's heuristic
player as the demo's games are. For each game (Hunters and Gatherers, Stone Age, Carcassonne,
Carcassonne with expansions, Carcassonne Maps – Benelux) the record with the most events is
opened at its replay page as the links open it (no ``at``: the start of the game) and at its end
(``?at=<last>``: what the recorder's end screen and "Replay" link open).

Each round starts gunicorn afresh (production settings: DEBUG off, the Django cache in Redis as
``ludolog/deploy/ludolog.env.example`` sets it, here Redis db 14, emptied first) and then, per
game and page:

1. server, cold: the first request for that record since the start (no position, sentence or
   final scoring cached anywhere), the time until the whole HTML is read;
2. in Chromium (Debian's ``/usr/bin/chromium``, Playwright, 390×844, a fresh context: no HTTP
   cache), the page's first load on the warm server: navigation start to the first contentful
   paint and to the load event;
3. server, warm: the same request again, ``--warm`` times (median).

The first load a reader sees is about (1) plus the browser's part of (2) (load event minus the
time to the first byte).

Measured 2026-12-05 (2 cores shared, load average 6-7.7; docs/benchmarks.md has the whole
table): server cold 58-739 ms before issue 25's changes (Carcassonne with the expansions at its
end 647-739 ms), 52-188 ms after; the browser's part after the first byte 370-630 ms; the first
load, the two together, ~540-1,400 ms before, ~430-720 ms after.

Usage: ``.venv/bin/python bench/bench_replay_first_load.py [--rounds 3] [--warm 5] [--workers 1]``
It creates (and drops) its own database ``ludolog_bench_first_load`` on 127.0.0.1:5432 and serves
it with gunicorn on port 8790. ``--keep`` keeps the database; ``--reuse`` uses it as it is.
``--database`` and ``--port`` (and ``LUDOLOG_BENCH_CACHE_URL`` for the Redis cache) choose others,
so that two copies of the project on one machine can measure at the same time.
"""

from __future__ import annotations

import argparse
import http.client
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import psycopg
from benchlib import PG, ROOT, drop_database, manage, production_env, recreate_database, start_gunicorn, stop

DB = "ludolog_bench_first_load"
PORT = 8790
CACHE = os.environ.get("LUDOLOG_BENCH_CACHE_URL", "redis://127.0.0.1:6379/14")
CHROMIUM = os.environ.get("LUDOLOG_CHROMIUM", "/usr/bin/chromium")
TARGET_MS = 500

EXPANSIONS = """
from django.contrib.auth import get_user_model
from records.files import import_document, simulate_document
from records.models import GameRecord
if not GameRecord.objects.filter(location="bench: expansions").exists():
    document = simulate_document("carcassonne", 5, 3900, ["Alice", "Bastien", "Chloé", "David", "Elif"],
                                 player="heuristic",
                                 setup={"expansions": ["inns_cathedrals", "traders_builders"]})
    document["location"] = "bench: expansions"
    import_document(document, imported_by=get_user_model().objects.get(username="admin"))
"""


def server_env(database: str) -> dict[str, str]:
    return production_env(database, LUDOLOG_CACHE_URL=CACHE)


def prepare(database: str) -> None:
    recreate_database(database)
    env = server_env(database)
    manage(env, "migrate", "-v0")
    manage(env, "collectstatic", "--noinput", "-v0")
    manage(env, "load_demo", quiet=True)
    subprocess.run([sys.executable, "manage.py", "shell", "-c", EXPANSIONS], cwd=ROOT, env=env, check=True)


def longest_records(database: str) -> list[tuple[str, int, int]]:
    """(label, record id, last seq) of each game's longest record of moves."""
    with psycopg.connect(PG + database) as connection:
        rows = connection.execute(
            "SELECT r.game_slug, r.location = 'bench: expansions', r.id, max(e.seq) AS last"
            " FROM records_gamerecord r JOIN records_event e ON e.record_id = r.id"
            " WHERE NOT r.result_only GROUP BY r.id ORDER BY last DESC, r.id").fetchall()
    longest: dict[str, tuple[int, int]] = {}
    for slug, expansions, record, last in rows:
        label = slug + (" + expansions" if expansions else "")
        longest.setdefault(label, (record, last))
    return [(label, record, last) for label, (record, last) in sorted(longest.items())]


def flush_cache() -> None:
    host, _, rest = CACHE.removeprefix("redis://").partition(":")
    port, _, db = rest.partition("/")
    subprocess.run(["redis-cli", "-h", host, "-p", port, "-n", db or "0", "flushdb"], check=True,
                   stdout=subprocess.DEVNULL)


def get(path: str, port: int) -> tuple[float, int]:
    """Milliseconds until the whole answer to ``GET path`` is read, and its size in bytes."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    start = time.perf_counter()
    connection.request("GET", path, headers={"Accept-Language": "en"})
    response = connection.getresponse()
    body = response.read()
    elapsed = (time.perf_counter() - start) * 1000
    connection.close()
    if response.status != 200:
        raise SystemExit(f"{path} answered {response.status}")
    return elapsed, len(body)


BROWSER_TIMING = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
  return {ttfb: nav.responseStart, dom: nav.domContentLoadedEventEnd, load: nav.loadEventEnd,
          fcp: fcp ? fcp.startTime : null, bytes: nav.transferSize,
          assets: performance.getEntriesByType('resource').reduce((sum, r) => sum + r.transferSize, 0)};
}"""


def browser_loads(browser, paths: list[str], port: int) -> dict[str, dict]:
    figures = {}
    for path in paths:
        context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en")
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{port}{path}", wait_until="load")
        page.wait_for_function("() => performance.getEntriesByType('navigation')[0].loadEventEnd > 0")
        figures[path] = page.evaluate(BROWSER_TIMING)
        context.close()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3, help="fresh server starts")
    parser.add_argument("--warm", type=int, default=5, help="warm requests per page and round")
    parser.add_argument("--workers", type=int, default=1, help="gunicorn sync workers")
    parser.add_argument("--keep", action="store_true", help="keep the benchmark database")
    parser.add_argument("--reuse", action="store_true", help="use the benchmark database as it is")
    parser.add_argument("--database", default=DB, help="the benchmark's own database (dropped at the end)")
    parser.add_argument("--port", type=int, default=PORT, help="gunicorn's port")
    args = parser.parse_args()
    database, port = args.database, args.port

    if not args.reuse:
        prepare(database)
    records = longest_records(database)
    pages = [(label, last, path) for label, record, last in records
             for path in (f"/games/{record}/replay/", f"/games/{record}/replay/?at={last}")]
    cold: dict[str, list[float]] = {path: [] for _l, _n, path in pages}
    warm: dict[str, list[float]] = {path: [] for _l, _n, path in pages}
    shown: dict[str, list[dict]] = {path: [] for _l, _n, path in pages}
    size: dict[str, int] = {}
    use_browser = Path(CHROMIUM).exists()
    for _round in range(args.rounds):
        flush_cache()
        server = start_gunicorn(server_env(database), port, args.workers)
        try:
            for _label, _last, path in pages:
                ms, size[path] = get(path, port)
                cold[path].append(ms)
            if use_browser:
                from playwright.sync_api import sync_playwright

                with sync_playwright() as playwright:
                    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
                    for path, figures in browser_loads(browser, [path for _l, _n, path in pages], port).items():
                        shown[path].append(figures)
                    browser.close()
            for _label, _last, path in pages:
                for _ in range(args.warm):
                    warm[path].append(get(path, port)[0])
        finally:
            stop(server)
    load = os.getloadavg()
    print(f"machine: {os.cpu_count()} cores, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; "
          f"gunicorn {args.workers} sync worker(s), DEBUG off, PostgreSQL {database}, cache {CACHE}; "
          f"{args.rounds} rounds (server restarted, cache emptied), {args.warm} warm requests a round")
    print(f"target: first load <= {TARGET_MS} ms. Figures: median over the rounds (max in brackets)")
    for label, last, path in pages:
        where = "end" if "at=" in path else "start"
        line = (f"{label:28} {last:4} events, {where:5} {size[path] / 1024:6.0f} KiB: server cold "
                f"{statistics.median(cold[path]):6.0f} ms ({max(cold[path]):.0f}), warm "
                f"{statistics.median(warm[path]):5.0f} ms")
        if shown[path]:
            fcp = [f["fcp"] for f in shown[path] if f["fcp"] is not None]
            loads = [f["load"] for f in shown[path]]
            browser_part = [f["load"] - f["ttfb"] for f in shown[path]]
            line += (f"; Chromium (warm server) first paint {statistics.median(fcp):4.0f} ms, load "
                     f"{statistics.median(loads):4.0f} ms ({statistics.median(browser_part):.0f} ms after the "
                     f"first byte); cold first load ~{statistics.median(cold[path]) + statistics.median(browser_part):.0f} ms")
        print(line)
    if not args.keep and not args.reuse:
        drop_database(database)


if __name__ == "__main__":
    main()
