#!/usr/bin/env python
"""The agenda's share of the yearly report and the door counter's tap, on PostgreSQL (targets:
``agenda.selectors.year_figures`` well inside the report's 1 s; a tap answered p50 <= 100 ms).

A ludothèque's year of ``--sessions`` sessions (openings mostly, a few events with their
registrations, group visits, game nights) with ``--counts`` door counts spread over them and
5,000 games tallied on site, written in bulk (the rows the services write; how they were written
is not what is measured), then ANALYZE. ``year_figures`` is run ``--repeat`` times: median and max.

Then gunicorn (production settings, 2 sync workers) answers ``--rounds`` taps through
``POST /api/sessions/{id}/counts/`` with a desk volunteer's token, on a session going on now,
each with its own key (and a tenth of them sent twice: answered 200, stored once); p50, p95, max.

Usage: ``python bench/bench_agenda.py [--sessions 300] [--counts 20000] [--rounds 200]``; it
creates and drops its own database ``ludolog_bench_agenda`` on 127.0.0.1:5432 (``--keep`` keeps it).
"""

from __future__ import annotations

import argparse
import datetime as dt
import http.client
import json
import os
import random
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

from benchlib import BENCH_SECRET_KEY, PG, ROOT, drop_database, manage, percentile, production_env, recreate_database, stop

sys.path.insert(0, str(ROOT))
DB = "ludolog_bench_agenda"
PORT = 8771
TAP_TARGET_MS = 100.0
YEAR_TARGET_MS = 1000.0
YEAR = 2025


def setup_django(database: str) -> None:
    os.environ.update(DATABASE_URL=PG + database, SECRET_KEY=BENCH_SECRET_KEY, DEBUG="0", ALLOWED_HOSTS="127.0.0.1")
    os.environ.pop("CELERY_BROKER_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludolog.settings")
    import django

    django.setup()


def fill(sessions: int, counts: int) -> tuple[object, str, int]:
    """The year; the organisation, the desk's token and the id of a session going on now."""
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction
    from django.utils import timezone
    from rest_framework.authtoken.models import Token

    from accounts.models import Membership, MembershipRole, Organisation
    from accounts.roles import Role
    from agenda.models import DoorCount, PlayTally, Registration, Session
    from agenda.rules import Public
    from games.models import CatalogueRecord

    rng = random.Random(39)
    organisation = Organisation.objects.create(slug="ludo-bench", name="Ludothèque du banc", kind="library")
    desk = get_user_model().objects.create_user("bench-desk")
    MembershipRole.objects.create(membership=Membership.objects.create(user=desk, organisation=organisation),
                                  role=Role.DESK)
    kinds = ["opening"] * 8 + ["event", "group_visit", "game_night"]
    with transaction.atomic():
        made = []
        days = sorted(rng.sample(range(365), min(sessions, 365)))
        for n in range(sessions):
            day = dt.date(YEAR, 1, 1) + dt.timedelta(days=days[n % len(days)])
            kind = kinds[n % len(kinds)]
            starts = timezone.make_aware(dt.datetime.combine(day, dt.time(9 + n % 10)))
            made.append(Session(organisation=organisation, kind=kind, starts_at=starts,
                                ends_at=starts + dt.timedelta(hours=rng.choice([2, 3, 4])),
                                title="" if kind == "opening" else f"{kind} {n}", capacity=30 if kind == "event" else None,
                                registration=kind == "event", structure_kind="school" if kind == "group_visit" else "",
                                children_expected=20 if kind == "group_visit" else None))
        made = Session.objects.bulk_create(made)
        publics = [public.value for public in Public]
        DoorCount.objects.bulk_create([
            DoorCount(session=session, public=rng.choice(publics), delta=1, key=str(uuid.uuid4()),
                      counted_at=session.starts_at, recorded_at=session.starts_at, counted_by=desk)
            for session in (rng.choice(made) for _ in range(counts))], batch_size=5000)
        records = CatalogueRecord.objects.bulk_create([CatalogueRecord(title=f"Jeu n° {n:04d}") for n in range(800)])
        PlayTally.objects.bulk_create([
            PlayTally(session=rng.choice(made), record=rng.choice(records), delta=1, key=str(uuid.uuid4()),
                      counted_at=made[0].starts_at, recorded_at=made[0].starts_at) for _ in range(5000)],
            batch_size=5000)
        Registration.objects.bulk_create([
            Registration(session=session, name=f"Personne {n}", places=rng.choice([1, 2, 3]),
                         status=rng.choice(["registered", "registered", "waiting"]))
            for session in made if session.kind == "event" for n in range(12)])
        now = timezone.now()
        live = Session.objects.create(organisation=organisation, kind="opening", starts_at=now - dt.timedelta(hours=1),
                                      ends_at=now + dt.timedelta(hours=3))
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    return organisation, Token.objects.create(user=desk).key, live.pk


def start_gunicorn(env: dict[str, str], port: int, workers: int) -> subprocess.Popen:
    """As benchlib's, with the gunicorn of the Python running this script (a worktree has no .venv of its own)."""
    server = subprocess.Popen(
        [str(Path(sys.executable).parent / "gunicorn"), "-c", str(ROOT / "ludolog/deploy/gunicorn.conf.py"),
         "ludolog.wsgi", "-w", str(workers), "-b", f"127.0.0.1:{port}", "--log-level", "warning"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    for _ in range(100):
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/api/")
            connection.getresponse().read()
            return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("gunicorn did not start")


def post(connection: http.client.HTTPConnection, token: str, path: str, body: dict) -> tuple[float, int]:
    started = time.perf_counter()
    connection.request("POST", path, body=json.dumps(body), headers={
        "Host": "127.0.0.1", "Content-Type": "application/json", "Authorization": f"Token {token}"})
    answer = connection.getresponse()
    answer.read()
    return (time.perf_counter() - started) * 1000, answer.status


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

        from django.db import connection, reset_queries
        from django.test.utils import CaptureQueriesContext

        from agenda.selectors import year_figures

        timings = []
        for _ in range(options.repeat):
            reset_queries()
            begin = time.perf_counter()
            with CaptureQueriesContext(connection) as queries:
                figures = year_figures(organisation, YEAR)
            timings.append((time.perf_counter() - begin) * 1000)
        median = statistics.median(timings)
        print(f"year_figures: median {median:.1f} ms, max {max(timings):.1f} ms, {len(queries)} queries; "
              f"{figures.sessions_held} sessions, {sum(figures.attendance_by_month.values()):,} people   "
              f"target <= {YEAR_TARGET_MS:.0f} ms for the whole report{'' if median <= YEAR_TARGET_MS else '  MISSED'}")

        server = start_gunicorn(production_env(options.database), PORT, 2)
        http_connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=60)
        rng = random.Random(3)
        taps, wrong, keys = [], [], []
        for index in range(options.rounds + 2):  # the first two warm the workers up
            key = rng.choice(keys) if keys and index % 10 == 9 else str(uuid.uuid4())
            again = key in keys
            keys.append(key)
            elapsed, status = post(http_connection, token, f"/api/sessions/{live}/counts/",
                                   {"public": rng.choice(["adult", "child_6_11", "family"]), "delta": 1, "key": key})
            (taps if index >= 2 else []).append(elapsed)
            wrong += [] if status == (200 if again else 201) else [(key, status)]
        http_connection.close()
        p50 = statistics.median(taps)
        print(f"tap     p50 {p50:6.1f} ms  p95 {percentile(taps, 0.95):6.1f} ms  max {max(taps):6.1f} ms"
              f"   target p50 <= {TAP_TARGET_MS:.0f} ms{'' if p50 <= TAP_TARGET_MS else '  MISSED'}")
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
