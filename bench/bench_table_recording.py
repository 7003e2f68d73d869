#!/usr/bin/env python
"""Table recorder benchmark: how many taps a tile-game move takes, and how long from the confirm
tap to the new board on the screen.

Targets (issue 10): at most 3 taps for a move without a figure (median), at most 150 ms from the
confirm tap to the new board painted (median).

Two complete 2-player games are recorded by taps in Debian's Chromium at 390×844, as a
scorekeeper records them (``tests/browser/taps.py``, the taps the browser tests make): a seeded
Hunters and Gatherers game (Ludolog draws the tiles) and an unseeded Carcassonne game (each
tile picked in the picker). Each move follows a game the engine plays at random, so the
rotation wanted is whatever that game chose: the rotate control cycles through the legal
rotations from the first. Taps are counted per move; the time runs from the performance mark the
page sets when the confirm tap records the move to the one it sets two animation frames after
the board the server answers with is in the page (the append through the records API, then
the table's new state, then the drawing).

Usage: ``.venv/bin/python bench/bench_table_recording.py [--workers 2] [--seed 5]``
It creates (and drops) its own database ``ludolog_bench_table`` on 127.0.0.1:5432 and serves it
with gunicorn (DEBUG off) on port 8767.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from benchlib import ROOT, drop_database, manage, percentile, production_env, recreate_database, start_gunicorn, stop

sys.path.insert(0, str(ROOT))
from tests.browser.taps import lay_tile, wait_stored  # noqa: E402  (the browser tests' own taps)

DB = "ludolog_bench_table"
PORT = 8767
CHROMIUM = os.environ.get("LUDOLOG_CHROMIUM", "/usr/bin/chromium")
USER, PASSWORD = "bench-keeper", "bench-keeper-password-1234"

SETUP = """
import json
from django.contrib.auth import get_user_model
from games.registry import get_engine
from records.services import SeatSpec, start_game
keeper = get_user_model().objects.create_user({user!r}, password={password!r})
games = []
for slug, seed, pick in (("hunters-gatherers", {seed}, False), ("carcassonne", None, True)):
    record = start_game(game_slug=slug, seats=[SeatSpec("Ada"), SeatSpec("Bastien")], seed=seed, created_by=keeper)
    games.append({{"record": record.pk, "game": slug, "pick": pick,
                  "events": get_engine(slug).random_game(2, {seed})}})
print(json.dumps(games))
"""


def prepare(seed: int) -> list[dict]:
    recreate_database(DB)
    env = production_env(DB)
    manage(env, "migrate", "-v0")
    manage(env, "collectstatic", "--noinput", "-v0")
    out = subprocess.run([sys.executable, "manage.py", "shell", "-c", SETUP.format(user=USER, password=PASSWORD, seed=seed)],
                         cwd=ROOT, env=env, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def confirm_to_paint(page, seq: int) -> float:
    """Milliseconds from the confirm tap of the move that became event ``seq`` to its board painted."""
    page.wait_for_function("seq => performance.getEntriesByName('ludolog:painted:' + seq).length > 0", arg=seq)
    return page.evaluate("""seq => {
        const confirms = performance.getEntriesByName('ludolog:confirm');
        const painted = performance.getEntriesByName('ludolog:painted:' + seq);
        return painted[painted.length - 1].startTime - confirms[confirms.length - 1].startTime;
    }""", seq)


def record_games(games: list[dict]) -> list[dict]:
    from playwright.sync_api import sync_playwright

    moves = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.set_default_timeout(20_000)
        page.goto(f"http://127.0.0.1:{PORT}/login/")
        page.fill("#id_username", USER)
        page.fill("#id_password", PASSWORD)
        page.locator("main form button[type=submit]").click()
        page.wait_for_url(f"http://127.0.0.1:{PORT}/")
        for game in games:
            page.goto(f"http://127.0.0.1:{PORT}/scorekeeping/{game['record']}/")
            for seq, (kind, payload) in enumerate(game["events"], start=1):
                taps = lay_tile(page, game["game"], kind, payload, pick=game["pick"])
                wait_stored(page, seq)
                figure = payload.get("figure") is not None or payload.get("meeple") is not None
                moves.append({"game": game["game"], "pick": game["pick"], "taps": taps, "figure": figure,
                              "discard": kind == "discard_tile", "ms": confirm_to_paint(page, seq)})
        browser.close()
    return moves


def summary(label: str, moves: list[dict]) -> str:
    if not moves:
        return f"{label}: none"
    taps = [m["taps"] for m in moves]
    return (f"{label}: {len(moves)} moves, taps median {statistics.median(taps):g}, "
            f"p90 {percentile(taps, 0.9):g}, max {max(taps)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn sync workers")
    parser.add_argument("--seed", type=int, default=5, help="the random games followed")
    parser.add_argument("--keep", action="store_true", help="keep the benchmark database")
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        raise SystemExit(f"no Chromium at {CHROMIUM}: apt-get install chromium")

    games = prepare(args.seed)
    server = start_gunicorn(production_env(DB), PORT, args.workers)
    try:
        moves = record_games(games)
    finally:
        stop(server)
    laid = [m for m in moves if not m["discard"]]
    plain = [m for m in laid if not m["figure"]]
    print(f"machine: {os.cpu_count()} cores; gunicorn {args.workers} sync workers, DEBUG off, PostgreSQL {DB}; "
          f"Chromium 390×844; 2-player games following random games (seed {args.seed})")
    print(summary("every tile-game move", moves))
    print(summary("moves without a figure (target: median <= 3 taps)", plain))
    print(summary("  seeded Hunters and Gatherers, tile drawn by Ludolog", [m for m in plain if not m["pick"]]))
    print(summary("  unseeded Carcassonne, tile picked in the picker", [m for m in plain if m["pick"]]))
    print(summary("moves with a figure", [m for m in laid if m["figure"]]))
    times = [m["ms"] for m in moves]
    print(f"confirm tap to the new board painted: p50 {statistics.median(times):.1f} ms, "
          f"p95 {percentile(times, 0.95):.1f} ms, max {max(times):.1f} ms over {len(times)} moves (target p50 <= 150 ms)")
    if not args.keep:
        drop_database(DB)


if __name__ == "__main__":
    main()
