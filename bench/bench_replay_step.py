#!/usr/bin/env python
"""Replay viewer benchmark: one step through a recorded game, on the demo data, printed as figures.

Target (web issue): moving one step feels instant, ≤ 100 ms.

1. Server side, over HTTP: what the viewer fetches for a step it has not seen (the state API and
   the board SVG fragment) for every step of a demo 4-player game: p50, p95, max.
2. In Chromium (Debian's ``/usr/bin/chromium`` driven by Playwright): from the ArrowRight key
   press to the frame after the new board is in the page, for every step of the same game, as a
   reader steps through it (the viewer prefetches the next step while the reader looks).

Usage: ``.venv/bin/python bench/bench_replay_step.py [--games 4] [--workers 2]``
It creates (and drops) its own database ``ludolog_bench_replay`` on 127.0.0.1:5432 and serves it
with gunicorn (DEBUG off) on port 8766.
"""

from __future__ import annotations

import argparse
import http.client
import os
import statistics
import time
from pathlib import Path

import psycopg
from benchlib import PG, drop_database, manage, percentile, production_env, recreate_database, start_gunicorn, stop

DB = "ludolog_bench_replay"
PORT = 8766
CHROMIUM = os.environ.get("LUDOLOG_CHROMIUM", "/usr/bin/chromium")

# Installed in the page before the first key press: the time of each key press, and, two
# animation frames after the board's SVG for a new step is in the page (the frame that shows it
# has then been produced), the time since that key press.
MEASURE_JS = """
() => {
  window.benchSteps = [];
  document.addEventListener("keydown", () => { window.benchPressed = performance.now(); }, true);
  const board = document.getElementById("board");
  let seen = board.querySelector("svg").dataset.at;
  new MutationObserver(() => {
    const svg = board.querySelector("svg");
    if (!svg || svg.dataset.at === seen) return;
    seen = svg.dataset.at;
    const pressed = window.benchPressed, at = seen;
    requestAnimationFrame(() => requestAnimationFrame(() => {
      window.benchSteps.push([Number(at), performance.now() - pressed]);
    }));
  }).observe(board, { childList: true, subtree: true });
}
"""


def prepare(games: int) -> tuple[int, int]:
    """A fresh database with the demo data; returns a finished 4-player game and its last seq."""
    recreate_database(DB)
    env = production_env(DB)  # no broker: the demo's games are scored in-process while loading
    manage(env, "migrate", "-v0")
    # DEBUG off serves the hashed static files whitenoise finds in STATIC_ROOT, as in production.
    manage(env, "collectstatic", "--noinput", "-v0")
    manage(env, "load_demo", "--games", str(games), quiet=True)
    with psycopg.connect(PG + DB) as connection:
        row = connection.execute(
            "SELECT r.id, max(e.seq) FROM records_gamerecord r JOIN records_event e ON e.record_id = r.id"
            " WHERE r.status = 'finished' AND NOT r.result_only AND NOT r.is_private"
            " AND (SELECT count(*) FROM records_seat s WHERE s.record_id = r.id) = 4"
            " GROUP BY r.id ORDER BY r.id LIMIT 1"
        ).fetchone()
    if row is None:
        raise SystemExit("the demo data holds no finished 4-player game")
    return row[0], row[1]


def bench_server(record_id: int, last: int) -> list[float]:
    connection = http.client.HTTPConnection("127.0.0.1", PORT)
    timings = []
    for at in [1, 2, 3] + list(range(1, last + 1)):  # the first three warm the workers up
        start = time.perf_counter()
        for url in (f"/api/records/{record_id}/state/?at={at}", f"/games/{record_id}/replay/board/?at={at}"):
            connection.request("GET", url, headers={"Accept": "application/json" if "state" in url else "text/html"})
            response = connection.getresponse()
            response.read()
            if response.status != 200:
                raise SystemExit(f"{url} answered {response.status}")
        timings.append((time.perf_counter() - start) * 1000)
    return timings[3:]


def bench_browser(record_id: int, last: int) -> list[float]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page()
        page.goto(f"http://127.0.0.1:{PORT}/games/{record_id}/replay/?at=0")
        page.wait_for_function("() => document.querySelector('#board svg') !== null")
        page.evaluate(MEASURE_JS)
        page.locator("body").click(position={"x": 5, "y": 5})
        for at in range(1, last + 1):
            page.keyboard.press("ArrowRight")
            page.wait_for_function(f"() => window.benchSteps.length >= {at}")
        steps = page.evaluate("window.benchSteps")
        browser.close()
    if [at for at, _ms in steps] != list(range(1, last + 1)):
        raise SystemExit(f"the viewer skipped or repeated steps: {[at for at, _ms in steps]}")
    return [ms for _at, ms in steps]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=4, help="simulated demo games to load")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn sync workers")
    parser.add_argument("--keep", action="store_true", help="keep the benchmark database")
    args = parser.parse_args()

    record_id, last = prepare(args.games)
    server = start_gunicorn(production_env(DB), PORT, args.workers)
    try:
        server_side = bench_server(record_id, last)
        in_browser = bench_browser(record_id, last) if Path(CHROMIUM).exists() else []
    finally:
        stop(server)
    print(f"machine: {os.cpu_count()} cores; gunicorn {args.workers} sync workers, DEBUG off, PostgreSQL {DB}; "
          f"demo game #{record_id}, 4 players, {last} events")
    print(f"one step, server side (state API + board SVG over HTTP, not cached): p50 {statistics.median(server_side):.1f} ms, "
          f"p95 {percentile(server_side, 0.95):.1f} ms, max {max(server_side):.1f} ms over {len(server_side)} steps "
          f"(target <= 100 ms)")
    if in_browser:
        print(f"one step in Chromium, key press to the frame showing the new board: "
              f"p50 {statistics.median(in_browser):.1f} ms, p95 {percentile(in_browser, 0.95):.1f} ms, "
              f"max {max(in_browser):.1f} ms over {len(in_browser)} steps (target <= 100 ms)")
    else:
        print(f"no Chromium at {CHROMIUM}: the browser figure is not measured (apt-get install chromium)")
    if not args.keep:
        drop_database(DB)


if __name__ == "__main__":
    main()
