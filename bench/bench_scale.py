#!/usr/bin/env python
"""Scale: the same measurements on a small store and on a large one (target: within 1.5x).

It fills its own PostgreSQL database with finished games of all three base engines (Hunters
and Gatherers with 4 players, base Carcassonne with 2, Stone Age with 3), first up to
``--small`` events, measures, then up to ``--events`` (10 million by default, about 90,000 games)
and measures again, printing each figure beside the small store's and the ratio. The small store
is copied to a database of its own before the large one grows, and the reads of both are taken at
the end, the two stores taking turns round by round: read an hour apart, the same store's figures
differed by a third on this machine, more than the store's size made them differ.

* append p50/p99: ``records.services.append_event`` of the same six fresh games in each store
  (``APPEND_GAMES``), one event per transaction, validated by the engine, chained, scoring handed
  off after the transaction; taken at the end, the stores taking turns game by game;
* state at N p50/p99: ``GET /api/records/{id}/state/?at=N`` for random records and N;
* the games list, a player's page, the league's page and a catalogue search (p50 and p99 of
  ``--repeats`` rounds);
* bytes on disk per event (the events table with its indexes and TOAST) and for the whole
  database;
* the recompute rate: ``manage.py recompute``'s work for every game, on ``--workers`` Celery
  worker processes through Redis (bench_recompute's measure), and the snapshots of every record
  rebuilt (``records.replay.rebuild_snapshots``) in ``--workers`` processes.

How it is filled: the events of ``--distinct`` games per engine are simulated once (random
legal actions, each record keeps its game's seed) and loaded again and again under new records
with PostgreSQL's COPY, every event hashed into its record's chain as an append would
(``records.integrity``); records and seats are bulk-inserted. A replay does the same work
whether or not another record holds the same actions. Players: ``--players``, of whom the first
40 are the members of one two-year league: the first 60 games seat only them (the small store
holds the same league as the large one, so their pages show the same games at both sizes); the
others seat the other players.

Usage: ``.venv/bin/python bench/bench_scale.py [--events 10000000] [--small 10000] [--workers 2]``
It creates (and drops, unless ``--keep``) the databases ``ludolog_bench_scale`` and
``ludolog_bench_scale_small`` on 127.0.0.1:5432 (``--measure-only`` reads the pages of kept
ones again) and uses Redis (``CELERY_BROKER_URL``, default ``redis://127.0.0.1:6379/13``) on a
queue of its own.
"""

from __future__ import annotations

import argparse
import gc
import io
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import time
import uuid
from datetime import date, datetime, timedelta, timezone
from typing import Any

from benchlib import BENCH_SECRET_KEY, PG, ROOT, drop_database, percentile, recreate_database

sys.path.insert(0, str(ROOT))
DB = "ludolog_bench_scale"
"""The database the benchmark fills (``--database`` names another)."""
# (game, players, share of the games): the mix of a club that plays all three.
MIX = (("hunters-gatherers", 4, 0.45), ("carcassonne", 2, 0.45), ("stone-age", 3, 0.10))
LEAGUE_MEMBERS = 40
LEAGUE_GAMES = 60
"""A league is a club's season: its size does not grow with the store (the store grows by more
clubs and players, and by more seasons)."""
BASE_TIME = datetime(2024, 1, 1, 18, tzinfo=timezone.utc)


def simulate(job: tuple[str, int, int]) -> tuple[str, int, list[tuple[str, dict]]]:
    from games.registry import get_engine

    game, players, seed = job
    return game, seed, get_engine(game).random_game(players, seed)


def pick_games(distinct: dict[str, list[tuple[int, list]]], count: int, first: int) -> list[tuple[str, int, list]]:
    """``count`` games from the pool, in the mix's proportions (deterministic from ``first``)."""
    rng = random.Random(first)
    games, weights = zip(*((game, share) for game, _players, share in MIX))
    chosen = []
    for _ in range(count):
        game = rng.choices(games, weights)[0]
        seed, events = rng.choice(distinct[game])
        chosen.append((game, seed, events))
    return chosen


def copy_events(rows: list[tuple[int, list, int]]) -> int:
    """Hash and COPY the events of records ``(record_id, events, minute)``; the count stored."""
    from django.db import connection

    from records import integrity

    buffer = io.StringIO()
    count = 0
    for record_id, events, minute in rows:
        previous = integrity.GENESIS
        for seq, (kind, payload) in enumerate(events, start=1):
            at = BASE_TIME + timedelta(minutes=minute, seconds=20 * seq)
            digest = integrity.event_hash(record_id=record_id, seq=seq, type=kind, payload=payload,
                                          recorded_at=at, recorded_by_id=None, idempotency_key=None,
                                          previous=previous)
            previous = digest
            text = integrity.canonical_json(payload).replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")
            buffer.write(f"{record_id}\t{seq}\t{kind}\t{text}\t{at.isoformat()}\t{digest}\n")
            count += 1
    buffer.seek(0)
    with connection.cursor() as cursor:
        with cursor.copy("COPY records_event (record_id, seq, type, payload, recorded_at, hash) FROM STDIN") as copy:
            while chunk := buffer.read(1 << 20):
                copy.write(chunk)
    return count


def insert_games(chosen: list[tuple[str, int, list]], first_minute: int, players: list[int]) -> int:
    """Finished records with their seats (bulk) and events (COPY); the events stored."""
    from games.registry import get_engine
    from records.models import GameRecord, Seat

    rulesets = {game: get_engine(game).ruleset_version for game, _p, _s in MIX}
    seats_of = {game: count for game, count, _s in MIX}
    from django.db import connection

    stored = 0
    for start in range(0, len(chosen), 500):
        if start and start % 10_000 == 0:
            # The foreign-key checks of the COPY (each event's record) keep, for the life of the
            # connection, the plan made when the records table was small: a sequential scan,
            # which made the fill quadratic. New statistics and a new connection replan them.
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE records_gamerecord")
            connection.close()
        batch = chosen[start:start + 500]
        minutes = range(first_minute + start, first_minute + start + len(batch))
        records = GameRecord.objects.bulk_create([
            GameRecord(game_slug=game, ruleset_version=rulesets[game], seed=seed, location="bench",
                       status=GameRecord.Status.FINISHED, played_on=date(2024, 1, 1) + timedelta(days=minute % 730))
            for (game, seed, _events), minute in zip(batch, minutes)
        ])
        seats = []
        for (game, _seed, _events), record, minute in zip(batch, records, minutes):
            pool = players[:LEAGUE_MEMBERS] if minute < LEAGUE_GAMES else players[LEAGUE_MEMBERS:]
            for order, player in enumerate(random.Random(minute).sample(pool, seats_of[game])):
                seats.append(Seat(record=record, player_id=player, seat_order=order))
        Seat.objects.bulk_create(seats, batch_size=2000)
        stored += copy_events([(record.pk, events, minute)
                               for (_g, _s, events), record, minute in zip(batch, records, minutes)])
    return stored


def rebuild_snapshots_part(ids: list[int]) -> int:
    from django.db import connections

    from records.models import GameRecord
    from records.replay import rebuild_snapshots

    connections.close_all()  # a connection of this process's own after the fork
    written = 0
    for record in GameRecord.objects.filter(pk__in=ids).iterator(chunk_size=200):
        written += rebuild_snapshots(record)
    connections.close_all()
    return written


def rebuild_all_snapshots(ids: list[int], workers: int) -> tuple[int, float]:
    from django.db import connections

    connections.close_all()
    started = time.monotonic()
    parts = [ids[i::workers * 8] for i in range(workers * 8)]
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        written = sum(pool.map(rebuild_snapshots_part, parts))
    return written, time.monotonic() - started


def timed(call: Any, repeats: int) -> list[float]:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    return times


PAGES = (("games list", "/games/"), ("games list, deep page", "/games/?page={deep}"),
         ("player page", "/players/{player}/"), ("league page", "/leagues/{league}/"),
         ("catalogue search", "/catalogue/?q=carcassonne"))
READS = ("state at N", *(name for name, _url in PAGES))
STATES_PER_ROUND = 10
DEEP_PAGE = 40
"""The games list's deep page; a store with fewer full pages reads its last full one instead, so that
both stores' pages show as many games (the small store has 4 full pages)."""


def use_database(name: str) -> None:
    """Point this process's default connection at database ``name`` (nothing cached carried over)."""
    from django.db import connections

    from records import state_cache

    connections.close_all()
    connections["default"].settings_dict["NAME"] = name
    state_cache.clear()  # a record's cached state belongs to one database


def measure_reads(databases: list[str], repeats: int, rng: random.Random) -> dict[str, dict[str, tuple[float, float]]]:
    """p50 and p99 of each read, per database, the databases taking turns (round by round, in
    alternate order), so that what the machine is doing meanwhile weighs on them alike: the
    figures of one store read an hour after another's differed by a third on this machine."""
    from django.db import connection
    from django.db.models import Max
    from django.test import Client

    from records.models import Event, GameRecord, Player
    from scoring.models import League

    client = Client(HTTP_HOST="127.0.0.1")

    def get(url: str) -> None:
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)

    from ludolog.web.history import PAGE_SIZE

    about: dict[str, tuple[list[tuple[int, int]], dict[str, int]]] = {}
    for name in databases:
        use_database(name)
        # Records with their number of events, read once: state-at-N asks a random one.
        with connection.cursor() as cursor:
            cursor.execute("SELECT max(id) FROM records_gamerecord")
            last_id = cursor.fetchone()[0]
        ids = [rng.randint(1, last_id) for _ in range(repeats * STATES_PER_ROUND)]
        lengths = dict(Event.objects.filter(record_id__in=ids).values("record_id")
                       .annotate(n=Max("seq")).values_list("record_id", "n"))
        states = [(record, rng.randint(1, lengths[record])) for record in ids if record in lengths]
        player = Player.objects.order_by("pk").values_list("pk", flat=True)[0]
        deep = min(DEEP_PAGE, GameRecord.objects.filter(is_private=False).count() // PAGE_SIZE)
        about[name] = (states, {"league": League.objects.get().pk, "player": player, "deep": deep})
        print(f"  {name}: the games list's deep page is page {deep}")
    for name in databases:  # every page once, as a worker's first requests load what Django loads lazily
        use_database(name)
        for _read, url in PAGES:
            get(url.format(**about[name][1]))
    gc.collect()
    gc.freeze()  # what the web workers do after their first request (ludolog/deploy/gunicorn.conf.py)
    times: dict[str, dict[str, list[float]]] = {name: {read: [] for read in READS} for name in databases}
    for round_ in range(repeats):
        for name in databases if round_ % 2 == 0 else databases[::-1]:
            use_database(name)
            states, ids = about[name]
            get("/catalogue/")  # warm: the new connection, and the templates on the first round
            for record, at in states[round_ * STATES_PER_ROUND:(round_ + 1) * STATES_PER_ROUND]:
                times[name]["state at N"].extend(timed(lambda: get(f"/api/records/{record}/state/?at={at}"), 1))
            for read, url in PAGES:
                times[name][read].extend(timed(lambda: get(url.format(**ids)), 1))
    return {name: {read: (statistics.median(values), percentile(values, 0.99)) for read, values in by_read.items()}
            for name, by_read in times.items()}


APPEND_GAMES = (("hunters-gatherers", 4, 1), ("hunters-gatherers", 4, 2), ("hunters-gatherers", 4, 3),
                ("carcassonne", 2, 1), ("carcassonne", 2, 2), ("stone-age", 3, 1))
"""The games appended to each store, the same ones to both (about the mix's proportions)."""


def measure_appends(databases: list[str]) -> dict[str, tuple[float, float, int]]:
    """p50, p99 and count of ``records.services.append_event`` per database: the games of
    :data:`APPEND_GAMES` appended afresh to every store, game by game, the stores taking turns
    (in alternate order), as the reads do. Each store appends the same events: a Stone Age
    append costs less than a Hunters and Gatherers one, and the two stores once compared
    different games."""
    from records.models import Player
    from records.services import SeatSpec, append_event, start_game

    games = [simulate(job) for job in APPEND_GAMES]
    times: dict[str, list[float]] = {name: [] for name in databases}
    for index, (game, seed, events) in enumerate(games):
        for name in databases if index % 2 == 0 else databases[::-1]:
            use_database(name)
            names = list(Player.objects.order_by("pk").values_list("display_name", flat=True)[:6])
            seats = dict((g, c) for g, c, _s in MIX)[game]
            record = start_game(game_slug=game, seats=[SeatSpec(n) for n in names[:seats]], seed=seed)
            for seq, (kind, payload) in enumerate(events):
                start = time.perf_counter()
                append_event(record, seq, kind, payload)
                times[name].append((time.perf_counter() - start) * 1000)
    return {name: (statistics.median(values), percentile(values, 0.99), len(values)) for name, values in times.items()}


def disk(connection: Any) -> tuple[float, float, int]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*), pg_total_relation_size('records_event'), pg_database_size(current_database()) "
                       "FROM records_event")
        count, events_bytes, database_bytes = cursor.fetchone()
    return events_bytes / count, database_bytes / count, count


def copy_database(source: str, copy: str) -> None:
    """``copy``, a new database made from ``source`` as it is now (PostgreSQL's template copy)."""
    import psycopg
    from django.db import connections

    connections.close_all()
    with psycopg.connect(PG + "postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{copy}" WITH (FORCE)')
        # A template must have no other session: the recompute's workers may still hold one.
        admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", [source])
        admin.execute(f'CREATE DATABASE "{copy}" TEMPLATE "{source}"')


def print_side_by_side(labels: tuple[str, str], small: dict[str, tuple[float, float]],
                       large: dict[str, tuple[float, float]]) -> None:
    print(f"\n{'figure':34} {labels[0]:>14} {labels[1]:>16}  ratio (target 1.5x)")
    for name in small:
        for index, label in ((0, "p50"), (1, "p99")):
            if index == 1 and ("bytes" in name or "games/s" in name):
                continue
            tag = f"{name} {label}" if "bytes" not in name and "games/s" not in name else name
            a, b = small[name][index], large[name][index]
            ratio = b / a if "games/s" not in name else a / b
            print(f"{tag:34} {a:14.1f} {b:16.1f}  {ratio:5.2f}x")


def measure_kept(small_database: str, repeats: int) -> None:
    """The reads of the stores a ``--keep`` run left, side by side (after a change to the pages)."""
    import django

    django.setup()
    from records.models import Event

    counts = []
    for name in (small_database, DB):
        use_database(name)
        counts.append(f"{Event.objects.count():,} events")
    reads = measure_reads([small_database, DB], repeats, random.Random(5))
    appends = measure_appends([small_database, DB])  # (these records stay in the kept stores)
    print(f"kept databases {small_database} and {DB}, read side by side; {appends[DB][2]} appends to each:")
    print_side_by_side((f"at {counts[0].split()[0]}", f"at {counts[1].split()[0]}"),
                       {**reads[small_database], "append": appends[small_database][:2]},
                       {**reads[DB], "append": appends[DB][:2]})


def main() -> None:
    global DB
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=10_000_000)
    parser.add_argument("--small", type=int, default=10_000)
    parser.add_argument("--distinct", type=int, default=60, help="distinct simulated games per engine")
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=100, help="rounds of reads (each round reads every page once)")
    parser.add_argument("--keep", action="store_true", help="keep the databases afterwards")
    parser.add_argument("--database", default=DB, help="the database to fill (created, and dropped unless --keep); "
                        "the small store is copied to the same name with _small")
    parser.add_argument("--measure-only", action="store_true",
                        help="read the pages of the two databases an earlier --keep run left, nothing filled")
    args = parser.parse_args()
    DB = args.database
    small_database = f"{DB}_small"
    broker = os.environ.get("CELERY_BROKER_URL", "redis://127.0.0.1:6379/13")
    queue = f"bench-scale-{uuid.uuid4().hex[:6]}"
    env = {**os.environ, "DATABASE_URL": PG + DB, "CELERY_BROKER_URL": broker, "CELERY_RESULT_BACKEND": broker,
           "LUDOLOG_SCORING_QUEUE": queue, "DJANGO_SETTINGS_MODULE": "ludolog.settings", "LOG_LEVEL": "WARNING",
           "DEBUG": "0", "SECRET_KEY": BENCH_SECRET_KEY, "ALLOWED_HOSTS": "127.0.0.1", "SECURE_SSL_REDIRECT": "0",
           "CONN_MAX_AGE": "60", "LUDOLOG_RECOMPUTE_CHUNK_SIZE": "200"}
    os.environ.update(env)
    if args.measure_only:
        measure_kept(small_database, args.repeats)
        return
    print(f"database {DB}: {args.small:,} then {args.events:,} events; {args.workers} workers; broker {broker}")
    recreate_database(DB)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    # DEBUG off serves the hashed static files whitenoise finds in STATIC_ROOT, as in production.
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    import django

    django.setup()
    from django.db import connection

    from bench_recompute import measure as recompute_measure
    from games.services import demo_catalogue_data, load_catalogue
    from records.models import GameRecord, Player
    from scoring.models import Club, League, LeagueMembership

    clock = time.monotonic()
    jobs = [(game, players, seed) for game, players, _share in MIX for seed in range(1, args.distinct + 1)]
    with multiprocessing.get_context("fork").Pool(args.workers) as pool:
        simulated = pool.map(simulate, jobs, chunksize=4)
    distinct: dict[str, list[tuple[int, list]]] = {}
    for game, seed, events in simulated:
        distinct.setdefault(game, []).append((seed, events))
    print(f"simulated {len(simulated)} distinct games in {time.monotonic() - clock:.1f} s: " + ", ".join(
        f"{game} {statistics.mean(len(e) for _s, e in pool_):.0f} events" for game, pool_ in distinct.items()))
    load_catalogue(demo_catalogue_data())
    players = [p.pk for p in Player.objects.bulk_create([Player(display_name=f"P{n:04d}") for n in range(args.players)])]
    club = Club.objects.create(name="Bench club")
    league = League.objects.create(club=club, name="Two seasons", starts_on=date(2024, 1, 1), ends_on=date(2025, 12, 31))
    LeagueMembership.objects.bulk_create([LeagueMembership(league=league, player_id=p) for p in players[:LEAGUE_MEMBERS]])

    mean_events = sum(share * statistics.mean(len(e) for _s, e in distinct[game]) for game, _p, share in MIX)
    rng = random.Random(5)
    results: dict[int, dict[str, Any]] = {}
    stored = 0
    games_so_far = 0
    for target in (args.small, args.events):
        clock = time.monotonic()
        count = max(1, round((target - stored) / mean_events))
        chosen = pick_games(distinct, count, games_so_far)
        before = GameRecord.objects.count()
        stored += insert_games(chosen, games_so_far, players)
        games_so_far += count
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        print(f"stored {stored:,} events in {games_so_far:,} games ({time.monotonic() - clock:.1f} s to fill)")
        new_ids = list(GameRecord.objects.filter(pk__gt=before).order_by("pk").values_list("pk", flat=True)) \
            if before else list(GameRecord.objects.order_by("pk").values_list("pk", flat=True))
        written, seconds = rebuild_all_snapshots(new_ids, args.workers)
        print(f"  snapshots of the {len(new_ids):,} new records: {written:,} in {seconds:.1f} s "
              f"= {len(new_ids) / seconds:.0f} records/s")
        recomputed = recompute_measure(games_so_far, args.workers, queue, env, 200)
        print(f"  recompute of all {games_so_far:,} games: {recomputed['seconds']:.1f} s = {recomputed['rate']:.0f} games/s")
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
        figures: dict[str, tuple[float, float]] = {}
        per_event, per_event_all, _ = disk(connection)
        figures["bytes per event (events table)"] = (per_event, per_event)
        figures["bytes per event (database)"] = (per_event_all, per_event_all)
        figures["recompute games/s"] = (recomputed["rate"], recomputed["rate"])
        results[target] = figures
        for name, (value, _same) in figures.items():  # single figures now: the appends are taken at the end
            print(f"  {name:32} {value:9.1f}")
        if target == args.small:
            copy_database(DB, small_database)  # the small store, kept as it is for the reads at the end
    # The reads of both stores at the end, taking turns: the same machine state weighs on both.
    reads = measure_reads([small_database, DB], args.repeats, rng)
    appends = measure_appends([small_database, DB])
    print(f"  appends: {appends[DB][2]} to each store")
    small = {**reads[small_database], "append": appends[small_database][:2], **results[args.small]}
    large = {**reads[DB], "append": appends[DB][:2], **results[args.events]}
    print_side_by_side((f"at {args.small:,}", f"at {args.events:,}"), small, large)
    from django.db import connections

    connections.close_all()
    if not args.keep:
        drop_database(DB)
        drop_database(small_database)


if __name__ == "__main__":
    main()
