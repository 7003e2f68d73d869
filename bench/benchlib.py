"""What the benchmark scripts share: their own PostgreSQL databases, a gunicorn server, percentiles,
Django set up on a benchmark's database, and a ludothèque's year of sessions with its door's taps.

Imported by the scripts beside it (``python bench/bench_x.py`` puts this folder on the path).
"""

from __future__ import annotations

import datetime as dt
import http.client
import json
import os
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg

ROOT = Path(__file__).resolve().parent.parent
PG = "postgres://postgres@127.0.0.1:5432/"
BENCH_SECRET_KEY = "bench-only-secret-key-that-is-long-enough-to-pass-the-deploy-checks-0123456789"


def percentile(values: list[float], fraction: float) -> float:
    """The nearest-rank percentile (``fraction`` 0.99 for p99)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def median_round(rounds: list[tuple[float, float]]) -> tuple[float, float]:
    """Of rounds of ``(appends/s, raw inserts/s)``, each pair read seconds apart, the round whose
    ratio is the median (the upper one of an even count): its two figures stay a pair, which the
    median of each side, taken apart, would not be on a machine whose speed drifts."""
    return sorted(rounds, key=lambda pair: pair[0] / pair[1])[len(rounds) // 2]


def replay_timings(
    new_game: Callable[[], Any], parse: Callable[[str], Any], texts: list[str], runs: int
) -> tuple[list[float], str]:
    """Replay ``texts`` from ``new_game()`` ``runs`` times: each run's milliseconds, and a line to print."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        game = new_game()
        for text in texts:
            game.apply(parse(text))
        times.append((time.perf_counter() - start) * 1000)
        assert game.is_over
    return times, (f"replay of one complete 4-player game ({len(texts)} actions), {runs} runs: median "
            f"{statistics.median(times):.2f} ms, min {min(times):.2f} ms, max {max(times):.2f} ms")


def engine_benchmark(
    random_game: Callable[[int, int], tuple[Any, list[Any]]], game_class: Any, parse: Callable[[str], Any],
    replay_target_ms: float | None = None,
) -> None:
    """The figures every engine benchmark prints, for an engine package whose ``random_game``
    returns the finished game and its actions and whose ``Game`` has ``new``/``to_dict``/``from_dict``:
    random complete 4-player games per second, the replay of one complete game from its notation
    (beside ``replay_target_ms``, if given), and the restore of its final position from a JSON
    snapshot."""
    import argparse
    import json

    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()

    random_game(4, 0)  # load the engine's data outside the timing
    start = time.perf_counter()
    played = [random_game(4, seed) for seed in range(args.games)]
    elapsed = time.perf_counter() - start
    actions = sum(len(a) for _game, a in played)
    print(f"random 4-player games (seeds 0..{args.games - 1}): {args.games} games in {elapsed:.2f} s "
          f"= {args.games / elapsed:.1f} games/s ({actions / args.games:.0f} actions/game)")
    texts = [a.to_text() for a in played[0][1]]
    _times, line = replay_timings(lambda: game_class.new(4, seed=0), parse, texts, args.runs)
    print(line if replay_target_ms is None else f"{line} (target {replay_target_ms:g} ms)")
    snapshot = json.loads(json.dumps(played[0][0].to_dict()))
    restores = []
    for _ in range(max(5, args.runs)):
        begin = time.perf_counter()
        for _ in range(50):
            game_class.from_dict(snapshot)
        restores.append((time.perf_counter() - begin) * 20)
    print(f"restore of the final position from its snapshot: median {statistics.median(restores):.3f} ms")


def recreate_database(name: str, server: str = PG) -> None:
    """Drop (closing its connections) and create the benchmark's own database."""
    with psycopg.connect(server + "postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')


def drop_database(name: str, server: str = PG) -> None:
    with psycopg.connect(server + "postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def production_env(database: str, **extra: str) -> dict[str, str]:
    """The environment of a production-like server on ``database``: DEBUG off, no broker unless given."""
    env = dict(
        os.environ,
        DATABASE_URL=PG + database,
        DEBUG="0",
        SECRET_KEY=BENCH_SECRET_KEY,
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_SSL_REDIRECT="0",
        CONN_MAX_AGE="60",
        LOG_LEVEL="WARNING",
    )
    env.pop("CELERY_BROKER_URL", None)
    env.update(extra)
    return env


def manage(env: dict[str, str], *arguments: str, quiet: bool = False) -> None:
    subprocess.run([sys.executable, "manage.py", *arguments], cwd=ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL if quiet else None)


def start_gunicorn(env: dict[str, str], port: int, workers: int) -> subprocess.Popen:
    """gunicorn as production runs it (``ludolog/deploy/gunicorn.conf.py``: sync workers, the
    garbage-collector freeze after a worker's first request, its access log, here thrown away),
    with ``workers`` workers on 127.0.0.1:``port``; returned once it answers. The gunicorn beside
    the Python running the script: a git worktree has no ``.venv`` of its own."""
    server = subprocess.Popen(
        [str(Path(sys.executable).parent / "gunicorn"), "-c", str(ROOT / "ludolog/deploy/gunicorn.conf.py"), "ludolog.wsgi",
         "-w", str(workers), "-b", f"127.0.0.1:{port}", "--log-level", "warning"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
    )
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


def stop(server: subprocess.Popen) -> None:
    server.terminate()
    server.wait()


# -- the benchmarks of a Django database of their own ---------------------------------------------


def setup_django(database: str) -> None:
    """Django in this process, with production settings, on the benchmark's own ``database``."""
    os.environ.update(DATABASE_URL=PG + database, SECRET_KEY=BENCH_SECRET_KEY, DEBUG="0", ALLOWED_HOSTS="127.0.0.1")
    os.environ.pop("CELERY_BROKER_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludolog.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def median_seconds(function: Callable[[], Any], runs: int) -> tuple[float, list[float], Any]:
    """The median seconds of ``runs`` calls of ``function`` (after one that warms the connection
    and the caches up), every run's seconds, and the last answer."""
    answer = function()
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        answer = function()
        times.append(time.perf_counter() - started)
    return statistics.median(times), times, answer


# -- a ludothèque's year of sessions (bench_report, bench_agenda) -----------------------------------

SESSION_KINDS = ["opening"] * 8 + ["event", "group_visit", "game_night"]
"""Of every eleven sessions of the year: eight openings, an event, a group visit and a game night."""
STRUCTURE_KINDS = ["creche", "school", "school", "leisure_centre", "care_home", "other"]
VISITORS = ["family"] * 3 + ["child_0_2", "child_3_5", "child_6_11", "child_6_11", "child_12_17"] + ["adult"] * 4 + [
    "senior"]
"""The publics tapped at an opening's door, about as often as a ludothèque sees them."""
GROUP_VISITORS = ["group_child"] * 5 + ["group_adult"]


def fill_agenda_year(organisation: Any, year: int, records: list[Any], counted_by: Any, rng: Any, *,
                     sessions: int, counts: int, tallies: int) -> list[Any]:
    """``organisation``'s ``year`` on its calendar, written in bulk (the rows the agenda's services
    write; how they were written is not what is measured): ``sessions`` sessions on as many days
    (:data:`SESSION_KINDS`; the events with a dozen registrations, most checked in, some waiting;
    the group visits booked by a structure, every other one counted at the door), ``counts`` taps
    at their doors (a group's people at a counted group visit's, the visitors' at the others'),
    ``tallies`` games of ``records`` tallied as played on site. Returns the sessions."""
    from django.utils import timezone

    from agenda.models import DoorCount, PlayTally, Registration, Session

    days = sorted(rng.sample(range(365), min(sessions, 365)))
    planned = []
    for n in range(sessions):
        day = dt.date(year, 1, 1) + dt.timedelta(days=days[n % len(days)])
        kind = SESSION_KINDS[n % len(SESSION_KINDS)]
        starts = timezone.make_aware(dt.datetime.combine(day, dt.time(9 + n % 10)))
        group = kind == "group_visit"
        planned.append(Session(
            organisation=organisation, kind=kind, starts_at=starts,
            ends_at=starts + dt.timedelta(hours=1 if group else rng.choice([2, 3, 4])),
            title="" if kind == "opening" else f"{kind} {n}", capacity=30 if kind == "event" else None,
            registration=kind == "event", structure_kind=rng.choice(STRUCTURE_KINDS) if group else "",
            structure_name=f"Structure {n}" if group else "", children_expected=rng.randrange(8, 26) if group else None,
            adults_expected=rng.randrange(2, 5) if group else None))
    made = Session.objects.bulk_create(planned)
    counted_groups = [session for session in made if session.kind == "group_visit"][::2]
    at_the_door = [session for session in made if session.kind != "group_visit"]
    door = []
    for _ in range(counts):
        session = rng.choice(counted_groups) if counted_groups and rng.random() < 0.05 else rng.choice(at_the_door)
        public = rng.choice(GROUP_VISITORS if session.kind == "group_visit" else VISITORS)
        tapped = session.starts_at + dt.timedelta(minutes=rng.randrange(90))
        door.append(DoorCount(session=session, public=public, delta=1, key=str(uuid.uuid4()), counted_at=tapped,
                              recorded_at=tapped, counted_by=counted_by))
    DoorCount.objects.bulk_create(door, batch_size=5000)
    PlayTally.objects.bulk_create([
        PlayTally(session=session, record=rng.choice(records), delta=1, key=str(uuid.uuid4()),
                  counted_at=session.starts_at, recorded_at=session.starts_at, counted_by=counted_by)
        for session in (rng.choice(at_the_door) for _ in range(tallies))], batch_size=5000)
    Registration.objects.bulk_create([
        Registration(session=session, name=f"Personne {n}", places=rng.choice([1, 2, 3]),
                     status="waiting" if n >= 10 else "registered",
                     checked_in_at=session.starts_at if n < 10 and rng.random() < 0.8 else None)
        for session in made if session.kind == "event" for n in range(12)])
    return made


def session_going_on_now(organisation: Any) -> int:
    """An opening of ``organisation`` started an hour ago, where the door is tapped: its id."""
    from django.utils import timezone

    from agenda.models import Session

    now = timezone.now()
    return Session.objects.create(organisation=organisation, kind="opening", starts_at=now - dt.timedelta(hours=1),
                                  ends_at=now + dt.timedelta(hours=3)).pk


def desk_volunteer_token(organisation: Any, username: str = "bench-desk") -> tuple[Any, str]:
    """A desk volunteer of ``organisation`` (``accounts.roles.Role.DESK``) and their API token."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from accounts.models import Membership, MembershipRole
    from accounts.roles import Role

    desk = get_user_model().objects.create_user(username)
    MembershipRole.objects.create(membership=Membership.objects.create(user=desk, organisation=organisation),
                                  role=Role.DESK)
    return desk, Token.objects.create(user=desk).key


def post_json(connection: http.client.HTTPConnection, token: str, path: str, body: dict) -> tuple[float, int]:
    """POST ``body`` with ``token``: the milliseconds to the whole answer, and its status."""
    started = time.perf_counter()
    connection.request("POST", path, body=json.dumps(body), headers={
        "Host": "127.0.0.1", "Content-Type": "application/json", "Authorization": f"Token {token}"})
    answer = connection.getresponse()
    answer.read()
    return (time.perf_counter() - started) * 1000, answer.status


def door_taps(port: int, token: str, session_id: int, rounds: int) -> tuple[list[float], list[tuple[str, int]]]:
    """``rounds`` taps at session ``session_id``'s door through ``POST /api/sessions/{id}/counts/``
    on 127.0.0.1:``port`` (after two that warm the workers up), each with its own key but one in
    ten sent again (answered 200, stored once): each tap's milliseconds, and the answers that were
    not 201 for a new key, 200 for one sent again."""
    import random

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    rng = random.Random(3)
    taps, wrong, keys = [], [], []
    for index in range(rounds + 2):
        key = rng.choice(keys) if keys and index % 10 == 9 else str(uuid.uuid4())
        again = key in keys
        keys.append(key)
        elapsed, status = post_json(connection, token, f"/api/sessions/{session_id}/counts/",
                                    {"public": rng.choice(["adult", "child_6_11", "family"]), "delta": 1, "key": key})
        if index >= 2:
            taps.append(elapsed)
        if status != (200 if again else 201):
            wrong.append((key, status))
    connection.close()
    return taps, wrong


def tap_line(taps: list[float], target_ms: float) -> str:
    p50 = statistics.median(taps)
    return (f"door tap  p50 {p50:6.1f} ms  p95 {percentile(taps, 0.95):6.1f} ms  max {max(taps):6.1f} ms"
            f"   target p50 <= {target_ms:.0f} ms{'' if p50 <= target_ms else '  MISSED'}")
