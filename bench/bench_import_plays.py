#!/usr/bin/env python
"""``import_plays`` of a BoardGameGeek file of 2,000 plays over 150 games, on PostgreSQL.

The file is the import tests' own (``tests/plays_exchange/generate_fixtures.py``: 2,000 plays with
the awkward cases: incomplete, unscored, unnamed players, plays logged three times, non-ASCII
names). The club has its twelve members, and the catalogue knows 120 of the 150 games (90 by BGG
id, 30 by a title spelt otherwise); the rest are added. Redis is the broker, as in production:
each finished record's scoring is queued on a queue of this script's own, for a worker to do
after the import (no worker reads it here; the queue is deleted at the end), so the figure is the
import's own: reading, matching, and storing every record and its result event in one transaction.

It prints the time of a dry run, of the import, and of the same file imported again (every play
found already imported), each beside the issue's target (≤ 20 s for 2,000 plays).

Usage: ``.venv/bin/python bench/bench_import_plays.py [--plays 2000] [--database NAME]``. It creates
(and drops) its own database (``ludolog_bench_plays``) on 127.0.0.1:5432 and uses Redis database 11.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from benchlib import ROOT, drop_database, manage, production_env, recreate_database

sys.path.insert(0, str(ROOT))
from tests.plays_exchange.generate_fixtures import MEMBERS, bgg_fixture  # noqa: E402

DB = "ludolog_bench_plays"
BROKER = "redis://127.0.0.1:6379/11"
TARGET_SECONDS = 20.0

SET_UP = """
import json, sys
from games.models import CatalogueRecord
from records.models import Player
games = json.load(open(sys.argv[-1]))
for name in games["members"]:
    Player.objects.create(display_name=name)
for title, bgg_id, kind in games["games"]:
    if kind != "none":
        CatalogueRecord.objects.create(title=title, bgg_id=bgg_id if kind == "bgg_id" else None)
"""


def timed(env: dict[str, str], *arguments: str) -> tuple[float, str]:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "manage.py", *arguments], cwd=ROOT, env=env, check=True,
                          capture_output=True, text=True)
    return time.perf_counter() - started, done.stdout.strip().splitlines()[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plays", type=int, default=2000)
    parser.add_argument("--database", default=DB, help="the database to create, use and drop")
    options = parser.parse_args()
    data, games, specs = bgg_fixture(plays=options.plays)
    queue = f"ludolog-bench-plays-{uuid.uuid4().hex[:8]}"
    env = production_env(options.database, CELERY_BROKER_URL=BROKER, LUDOLOG_SCORING_QUEUE=queue)
    recreate_database(options.database)
    try:
        manage(env, "migrate", "-v0")
        with tempfile.TemporaryDirectory() as folder:
            import json

            catalogue = Path(folder) / "club.json"
            catalogue.write_text(json.dumps({"members": MEMBERS, "games": [
                (g.catalogue_title, g.bgg_id, g.catalogue) for g in games]}))
            subprocess.run([sys.executable, "-c", "import django, os; os.environ.setdefault("
                            "'DJANGO_SETTINGS_MODULE', 'ludolog.settings'); django.setup(); "
                            f"exec({SET_UP!r})", str(catalogue)], cwd=ROOT, env=env, check=True)
            path = Path(folder) / "plays.xml"
            path.write_bytes(data)
            print(f"{options.plays:,} BGG plays ({len(data) / 1e6:.2f} MB), {len(games)} games, "
                  f"{sum(s.quantity for s in specs if not s.skip):,} records to create")
            for label, arguments in (("dry run", ("--dry-run",)), ("import", ()), ("import again", ())):
                seconds, summary = timed(env, "import_plays", str(path), "--format", "bgg", *arguments)
                verdict = "ok" if seconds <= TARGET_SECONDS else "OVER"
                print(f"{label:>13}: {seconds:6.2f} s (target ≤ {TARGET_SECONDS:.0f} s: {verdict})  [{summary}]")
    finally:
        drop_database(options.database)
        try:
            import redis

            redis.Redis.from_url(BROKER).delete(queue)
        except Exception as error:  # the figures are printed; a queue left behind is harmless
            print(f"could not delete the queue {queue}: {error}")


if __name__ == "__main__":
    main()
