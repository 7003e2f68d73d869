#!/usr/bin/env python
"""The agenda's share of the yearly report and the door counter's tap, on PostgreSQL (targets:
``agenda.selectors.year_figures`` well inside the report's 1 s; a tap answered p50 <= 100 ms).

The agenda alone, for working on it: ``bench/bench_report.py`` times the same year together with
the loans and the memberships, and the whole report. A ludothèque's year of ``--sessions``
sessions with ``--counts`` door counts and 5,000 games tallied on site
(``benchlib.fill_agenda_year``), then ANALYZE. ``year_figures`` is run ``--repeat`` times: median
and max.

Then gunicorn (production settings, 2 sync workers) answers ``--rounds`` taps through
``POST /api/sessions/{id}/counts/`` with a desk volunteer's token, on a session going on now,
each with its own key (and a tenth of them sent twice: answered 200, stored once); p50, p95, max
(``benchlib.door_taps``).

Usage: ``python bench/bench_agenda.py [--sessions 300] [--counts 20000] [--rounds 200]``; it
creates and drops its own database ``ludolog_bench_agenda`` on 127.0.0.1:5432 (``--keep`` keeps it).
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import time

from benchlib import (
    desk_volunteer_token, door_taps, drop_database, fill_agenda_year, manage, median_seconds, production_env,
    recreate_database, session_going_on_now, setup_django, start_gunicorn, stop, tap_line,
)

DB = "ludolog_bench_agenda"
PORT = 8771
TAP_TARGET_MS = 100.0
YEAR_TARGET_MS = 1000.0
YEAR = dt.date.today().year - 1
"""The last whole year: every session of it is over, so held."""


def fill(sessions: int, counts: int) -> tuple[object, str, int]:
    """The year; the organisation, the desk's token and the id of a session going on now."""
    from django.db import connection, transaction

    from accounts.models import Organisation
    from games.models import CatalogueRecord

    rng = random.Random(39)
    with transaction.atomic():
        organisation = Organisation.objects.create(slug="ludo-bench", name="Ludothèque du banc", kind="library")
        desk, token = desk_volunteer_token(organisation)
        records = CatalogueRecord.objects.bulk_create([CatalogueRecord(title=f"Jeu n° {n:04d}") for n in range(800)])
        fill_agenda_year(organisation, YEAR, records, desk, rng, sessions=sessions, counts=counts, tallies=5000)
        live = session_going_on_now(organisation)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    return organisation, token, live


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=300)
    parser.add_argument("--counts", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--database", default=DB)
    parser.add_argument("--keep", action="store_true")
    options = parser.parse_args()
    recreate_database(options.database)
    server = None
    try:
        manage(production_env(options.database), "migrate", "-v0")
        setup_django(options.database)
        started = time.perf_counter()
        organisation, token, live = fill(options.sessions, options.counts)
        print(f"filled {options.sessions} sessions, {options.counts:,} door counts in "
              f"{time.perf_counter() - started:.0f} s", flush=True)

        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        from agenda.selectors import year_figures

        with CaptureQueriesContext(connection) as queries:
            year_figures(organisation, YEAR)
        median, timings, figures = median_seconds(lambda: year_figures(organisation, YEAR), options.repeat)
        print(f"year_figures({YEAR}): median {median * 1000:.1f} ms, max {max(timings) * 1000:.1f} ms, "
              f"{len(queries)} queries; {figures.sessions_held} sessions, "
              f"{sum(figures.attendance_by_month.values()):,} people   target <= {YEAR_TARGET_MS:.0f} ms for the "
              f"whole report{'' if median * 1000 <= YEAR_TARGET_MS else '  MISSED'}")

        server = start_gunicorn(production_env(options.database), PORT, 2)
        taps, wrong = door_taps(PORT, token, live, options.rounds)
        print(tap_line(taps, TAP_TARGET_MS))
        print(f"answers not as expected (201 new, 200 repeated): {len(wrong)}" + (f" (first: {wrong[:3]})" if wrong else ""))
    finally:
        if server is not None:
            stop(server)
        from django.db import connections

        connections.close_all()
        if not options.keep:
            drop_database(options.database)


if __name__ == "__main__":
    main()
