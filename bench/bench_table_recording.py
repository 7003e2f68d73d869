#!/usr/bin/env python
"""Table recorder benchmark: complete 2-player games of the four games recorded by taps on a phone,
as a scorekeeper records them, seeded (Ludolog draws and rolls) and with physical draws (the tile
picked in the picker, the dice and the cards entered as the table shows them).

Targets (issue 25), printed beside the figures:
- the share of tile moves whose chosen square was on the screen without panning, when the tile
  is in hand (inside the board's frame, above the action bar): at least 95 %;
- the median taps a tile move takes: at most 3 seeded, at most 4 with physical draws (Carcassonne
  Maps' "draw face down", when a chip could have paid for an island tile, counts with the tile
  laid after it);
- Confirm to the server-confirmed board painted: p50 at most 100 ms, p95 at most 200 ms;
- tap targets found covered by another element (``LudologRecorder.coveredTargets()``, read with the
  tile in hand and again before each Confirm): 0.

Each game follows one the engine plays at random (``random_game``: every legal square equally
likely to be chosen, as every legal action), in Debian's Chromium at 390×844, through the taps the
browser tests make (``tests/browser/taps.py``); the game is ended as a table ends it (the end
question answered). The time runs from the performance mark the page sets when the Confirm tap
records the move to the one it sets two animation frames after the position the server answered
with is drawn.

Usage: ``.venv/bin/python bench/bench_table_recording.py [--workers 2] [--seed 5] [--games hg,cc,maps,sa]``
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
from tests.browser.taps import end_the_game, lay_tile, stone_age_action, wait_stored  # noqa: E402

DB = "ludolog_bench_table"
PORT = 8767
CHROMIUM = os.environ.get("LUDOLOG_CHROMIUM", "/usr/bin/chromium")
USER, PASSWORD = "bench-keeper", "bench-keeper-password-1234"
GAMES = {"hg": "hunters-gatherers", "cc": "carcassonne", "maps": "carcassonne-maps", "sa": "stone-age"}

SETUP = """
import json
from django.contrib.auth import get_user_model
from games.registry import get_engine
from records.services import SeatSpec, start_game
from tests.browser.table_games import physical_tile_game, unseeded_stone_age_game
keeper = get_user_model().objects.create_user({user!r}, password={password!r})
games = []
for slug in {games!r}:
    engine = get_engine(slug)
    for seeded in (True, False):
        seats = [SeatSpec("Ada"), SeatSpec("Bastien")]
        if seeded:
            record = start_game(game_slug=slug, seats=seats, seed={seed}, created_by=keeper)
            events = engine.random_game(2, {seed})
        elif slug == "stone-age":
            record = start_game(game_slug=slug, seats=seats, seed=None, created_by=keeper)
            events = unseeded_stone_age_game(engine, 2, {seed})
        else:
            setup, events = physical_tile_game(engine, slug, 2, {seed})
            record = start_game(game_slug=slug, seats=seats, seed=None, setup=setup, created_by=keeper)
        games.append({{"record": record.pk, "game": slug, "seeded": seeded, "events": events}})
print(json.dumps(games))
"""

# Whether the square about to be tapped is on the screen as it is: inside the board's frame, in
# the window, above the action bar (which stays at the bottom of the screen).
ON_SCREEN = """spot => {
    const box = spot.getBoundingClientRect();
    const viewport = document.getElementById('board-viewport'), outer = viewport.getBoundingClientRect();
    // Its client area: a scrollbar is no place to tap a square.
    const frame = {left: outer.left + viewport.clientLeft, top: outer.top + viewport.clientTop,
                   right: outer.left + viewport.clientLeft + viewport.clientWidth,
                   bottom: outer.top + viewport.clientTop + viewport.clientHeight};
    const bar = document.getElementById('action-bar');
    const bottom = Math.min(window.innerHeight, bar && !bar.hidden ? bar.getBoundingClientRect().top : Infinity);
    return box.width > 0 && box.left >= Math.max(0, frame.left) - 1 && box.top >= Math.max(0, frame.top) - 1
        && box.right <= Math.min(window.innerWidth, frame.right) + 1 && box.bottom <= Math.min(bottom, frame.bottom) + 1;
}"""
COVERED = "window.LudologRecorder.coveredTargets()"


def prepare(seed: int, games: list[str]) -> list[dict]:
    recreate_database(DB)
    env = production_env(DB)
    manage(env, "migrate", "-v0")
    manage(env, "collectstatic", "--noinput", "-v0")
    script = SETUP.format(user=USER, password=PASSWORD, seed=seed, games=games)
    out = subprocess.run([sys.executable, "manage.py", "shell", "-c", script],
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


def record_game(page, game: dict, port: int) -> list[dict]:
    """Record one game by taps; one entry a move: its taps, time, whether its square was on the
    screen, the covered targets seen."""
    page.goto(f"http://127.0.0.1:{port}/scorekeeping/{game['record']}/")
    moves = []
    drew = 0  # Carcassonne Maps, seeded: the draw's tap counts with the tile laid after it
    for seq, (kind, payload) in enumerate(game["events"], start=1):
        move = {"game": game["game"], "seeded": game["seeded"], "kind": kind, "covered": [], "on_screen": None}

        def before_spot(page, spot, move=move):
            move["on_screen"] = bool(spot.evaluate(ON_SCREEN))
            move["covered"] += page.evaluate(COVERED)

        def before_confirm(page, move=move):
            move["covered"] += page.evaluate(COVERED)

        if game["game"] == "stone-age":
            # Ludolog rolls a seeded game's dice, except the dice for everyone (each player picks one).
            roll = game["seeded"] and kind == "resolve" and bool(payload.get("dice")) and not payload.get("picks")
            move["taps"] = stone_age_action(page, kind, payload, before_confirm, let_ludolog_roll=roll)
        else:
            move["taps"] = lay_tile(page, game["game"], kind, payload, pick=not game["seeded"],
                                    before_confirm=before_confirm, before_spot=before_spot)
            move["figure"] = any(payload.get(k) is not None for k in ("figure", "meeple", "big", "builder", "pig"))
        wait_stored(page, seq)
        move["ms"] = confirm_to_paint(page, seq)
        if kind == "draw_tile":
            drew = move["taps"]
            continue
        move["taps"] += drew
        drew = 0
        moves.append(move)
    moves.append({"game": game["game"], "seeded": game["seeded"], "kind": "end_game", "covered": page.evaluate(COVERED),
                  "taps": end_the_game(page), "on_screen": None})
    return moves


def record_games(games: list[dict]) -> list[dict]:
    from playwright.sync_api import sync_playwright

    moves: list[dict] = []
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
            played = record_game(page, game, PORT)
            how = "seeded" if game["seeded"] else "physical draws"
            print(f"  {game['game']} ({how}): {len(played) - 1} moves recorded and the end confirmed", flush=True)
            moves += played
        browser.close()
    return moves


def line(label: str, moves: list[dict]) -> str:
    tile = [m for m in moves if m["on_screen"] is not None]
    taps = [m["taps"] for m in moves]
    times = [m["ms"] for m in moves if "ms" in m]
    covered = sum(len(m["covered"]) for m in moves)
    parts = [f"{label}: {len(moves)} moves"]
    if taps:
        parts.append(f"taps median {statistics.median(taps):g} (p90 {percentile(taps, 0.9):g}, max {max(taps)})")
    if tile:
        parts.append(f"square on screen without panning {100 * sum(m['on_screen'] for m in tile) / len(tile):.1f} %")
    if times:
        parts.append(f"confirm→paint p50 {statistics.median(times):.0f} ms, p95 {percentile(times, 0.95):.0f} ms")
    parts.append(f"covered targets {covered}")
    return "; ".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn sync workers")
    parser.add_argument("--seed", type=int, default=5, help="the random games followed")
    parser.add_argument("--games", default="hg,cc,maps,sa", help="which games: hg, cc, maps, sa (comma-separated)")
    parser.add_argument("--keep", action="store_true", help="keep the benchmark database")
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        raise SystemExit(f"no Chromium at {CHROMIUM}: apt-get install chromium")

    chosen = [GAMES[key] for key in args.games.split(",")]
    games = prepare(args.seed, chosen)
    server = start_gunicorn(production_env(DB), PORT, args.workers)
    try:
        moves = record_games(games)
    finally:
        stop(server)
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; gunicorn {args.workers} sync "
          f"workers, DEBUG off, PostgreSQL {DB}; Chromium 390×844; 2-player games following random games "
          f"(seed {args.seed}), each ended by its end question")
    for slug in chosen:
        for seeded in (True, False):
            played = [m for m in moves if m["game"] == slug and m["seeded"] == seeded and m["kind"] != "end_game"]
            print(line(f"  {slug} {'seeded' if seeded else 'physical draws'}", played))
    moves_only = [m for m in moves if m["kind"] != "end_game"]
    tile = [m for m in moves_only if m["on_screen"] is not None]
    laid = [m for m in tile if m["kind"] == "place_tile"]
    if tile:
        share = 100 * sum(m["on_screen"] for m in tile) / len(tile)
        print(f"tile moves whose square was on the screen without panning: {share:.1f} % of {len(tile)} "
              f"(target >= 95 %)")
    for seeded, target in ((True, 3), (False, 4)):
        taps = [m["taps"] for m in laid if m["seeded"] == seeded]
        if taps:
            print(f"taps a tile move, {'seeded' if seeded else 'physical draws'}: median {statistics.median(taps):g} "
                  f"over {len(taps)} moves (target <= {target})")
    times = [m["ms"] for m in moves_only]
    print(f"Confirm to the server-confirmed board painted: p50 {statistics.median(times):.0f} ms, "
          f"p95 {percentile(times, 0.95):.0f} ms, max {max(times):.0f} ms over {len(times)} moves "
          f"(target p50 <= 100 ms, p95 <= 200 ms)")
    covered = [c for m in moves for c in m["covered"]]
    print(f"tap targets found covered by another element: {len(covered)} (target 0)"
          + (f"; first: {covered[:3]}" if covered else ""))
    ends = [m["taps"] for m in moves if m["kind"] == "end_game"]
    print(f"ending: {len(ends)} games ended by their end question, {statistics.median(ends):g} tap each")
    if not args.keep:
        drop_database(DB)


if __name__ == "__main__":
    main()
