#!/usr/bin/env python
"""OAI-PMH harvests of a 10,000-record catalogue through gunicorn on PostgreSQL, by Sickle.

The catalogue is the OAI tests' (``tests/games/oai_catalogue.py``): every record with its
publisher, three contributors, a language, an EAN and a category, bulk-created. One record in ten
is then changed a day later. Sickle, the harvesting library the tests use, harvests it over HTTP
as another library's system would, following the resumption tokens page after page (100 records
a page, ``LUDOLOG_OAI_PAGE_SIZE``): every record in ``oai_dc``, then in ``unimarc`` (MARCXML),
then every header (``ListIdentifiers``), then incrementally (``from`` the day of the change). Each
line gives the records, the pages, the seconds and the records per second, and checks that every
record came exactly once.

Usage: ``.venv/bin/python bench/bench_oai_harvest.py [--records 10000] [--workers 2] [--database NAME]``.
It creates (and drops) its own database (``ludolog_bench_oai``) on 127.0.0.1:5432.
"""

from __future__ import annotations

import argparse
import socket
import statistics
import subprocess
import sys
import time

from benchlib import ROOT, drop_database, manage, production_env, recreate_database, start_gunicorn, stop

DB = "ludolog_bench_oai"
CHANGED_DAY = "2026-03-02"

SET_UP = """
import sys
from datetime import timedelta
from games.models import CatalogueRecord
from tests.games.oai_catalogue import CHANGED_AT, build_catalogue
ids = build_catalogue(int(sys.argv[-1]))
CatalogueRecord.objects.filter(pk__in=ids[::10]).update(updated_at=CHANGED_AT + timedelta(days=1))
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def harvest(url: str, verb: str, expected: int, **arguments: str) -> tuple[float, int]:
    """One whole harvest: its seconds and pages, each identifier checked to come once."""
    from sickle import Sickle

    class Counting(Sickle):
        pages = 0

        def harvest(self, **kwargs):  # type: ignore[no-untyped-def]
            Counting.pages += 1
            return super().harvest(**kwargs)

    started = time.perf_counter()
    items = getattr(Counting(url, timeout=60), verb)(**arguments)
    identifiers = [(item.header if verb == "ListRecords" else item).identifier for item in items]
    seconds = time.perf_counter() - started
    if len(identifiers) != expected or len(set(identifiers)) != expected:
        raise SystemExit(f"{verb} {arguments}: {len(identifiers)} items, {len(set(identifiers))} distinct, "
                         f"{expected} expected")
    return seconds, Counting.pages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--runs", type=int, default=3, help="harvests of each kind (the median is printed)")
    parser.add_argument("--database", default=DB, help="the database to create, use and drop")
    options = parser.parse_args()
    env = production_env(options.database)
    recreate_database(options.database)
    server = None
    try:
        manage(env, "migrate", "-v0")
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import django, os; os.environ.setdefault("
                        "'DJANGO_SETTINGS_MODULE', 'ludolog.settings'); django.setup(); "
                        f"exec({SET_UP!r})", str(options.records)], cwd=ROOT, env=env, check=True)
        print(f"{options.records:,} catalogue records bulk-created in {time.perf_counter() - started:.1f} s; "
              f"gunicorn with {options.workers} workers, 100 records a page")
        port = free_port()
        server = start_gunicorn(env, port, options.workers)
        url = f"http://127.0.0.1:{port}/oai/"
        changed = len(range(0, options.records, 10))
        for label, verb, expected, arguments in (
            ("ListRecords oai_dc", "ListRecords", options.records, {"metadataPrefix": "oai_dc"}),
            ("ListRecords unimarc", "ListRecords", options.records, {"metadataPrefix": "unimarc"}),
            ("ListIdentifiers", "ListIdentifiers", options.records, {"metadataPrefix": "oai_dc"}),
            (f"incremental from={CHANGED_DAY}, oai_dc", "ListRecords", changed,
             {"metadataPrefix": "oai_dc", "from": CHANGED_DAY}),
        ):
            runs = [harvest(url, verb, expected, **arguments) for _ in range(options.runs)]
            seconds = statistics.median(s for s, _pages in runs)
            print(f"{label:>38}: {expected:>6,} records, {runs[0][1]:>3} pages, {seconds:6.2f} s "
                  f"= {expected / seconds:7,.0f} records/s ({1000 * seconds / runs[0][1]:.0f} ms a page; "
                  f"median of {options.runs})")
    finally:
        if server is not None:
            stop(server)
        drop_database(options.database)


if __name__ == "__main__":
    main()
