#!/usr/bin/env python
"""One organisation's pages among 100 organisations, 5,000 members and 20,000 records (target:
p50 <= 150 ms each), and what the scoping costs its statistics page (target: <= 20 % slower than
the same data alone in its installation).

An installation that hosts ``--organisations`` clubs (100), each a ludothèque that runs a club:
its members (``--members`` in all, 5,000: an account each, with its ``Person``, a membership, its
player, an organiser among them), a few players of its history without an account (guests named
at the table), its club with a league of its members, forty copies of the shared catalogue's 150
titles, and its result-only games (``--records`` in all, 20,000), 2 to 5 of its own players at a
table, half of them with one of its copies, 1 % private. One of them is measured: a club of
realistic size, ``--measured-members`` members (50) and ``--measured-records`` games (1,000); the
others share the rest. The clubs play at once, so their records come interleaved by date, as the
store would hold them. Everything is written in bulk as the append path and the scoring services
leave it (bench_statistics_page's way: each record's ``result`` event chained to its header, the
results by ``final_scores_each`` and ``write_each``, then ``scoring.statistics.rebuild`` for the
installation's and every organisation's figures), then ANALYZE.

A second database holds the measured organisation alone, with the very same members, games and
results (its part is drawn from a random generator of its own): the installation it would be
without the 99 others.

Then gunicorn (production settings, 2 sync workers, a shared Redis cache) serves each database on
a port of its own, and the two are read in turns, page by page and round by round (on this shared
machine a store read a minute after another differs more than the stores do), ``--repeats``
requests of each page after two to warm up, each with the session of a person of the measured
organisation as its login page would have made it:

* ``/scorekeeping/`` (the start page: its members offered as chips, its other players as names),
  a plain member;
* ``/organisations/<slug>/members/`` (members and invitations, the member list with roles), its
  organiser;
* ``/organisations/<slug>/`` (the organisation's page: its member list as a member reads it), a
  plain member;
* ``/statistics/`` (the club's figures, less the private games the member may not see), a plain
  member.

It prints p50 and p95 of each page in both installations, the target for each page among the 100
organisations, and the statistics page's scoping cost (p50 among 100 / p50 alone) beside its
target.

Usage: ``.venv/bin/python bench/bench_organisations.py [--repeats 40]`` on the PostgreSQL server
at 127.0.0.1:5432 (the server of ``DATABASE_URL``); it creates and drops its own databases
``ludolog_bench_orgs`` and ``ludolog_bench_orgs_alone`` (``--keep`` keeps them, then
``--measure-only`` reads them again) and uses Redis database 5 as the servers' cache
(``--cache``). About 5 minutes on a shared 2-core machine: 2½ to fill and score the large store
(35 s of it the statistics' rebuild), half a minute the small one, 1 to 3 to read the pages.
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import statistics as stats
import sys
import time
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from datetime import timezone as tz

from benchlib import (
    BENCH_SECRET_KEY, PG, ROOT, drop_database, manage, percentile, production_env, recreate_database, start_gunicorn,
    stop,
)

sys.path.insert(0, str(ROOT))
DB = "ludolog_bench_orgs"
TARGET_MS = 150.0
SCOPING_TARGET = 1.20
PORTS = {"among": 8771, "alone": 8772}
CACHE = "redis://127.0.0.1:6379/5"
TITLES = 150
TITLES_PER_CLUB = 40
COPIES_PER_CLUB = 40
GUEST_SHARE = 0.2
"""Players of a club's history without an account, per member (friends brought to the table)."""
PRIVATE_SHARE = 0.01
COPY_SHARE = 0.5
BATCH = 2000
FIRST_DAY = date(2024, 1, 1)
DAYS = 900
MEASURED_SLUG = "ludotheque-mesuree"
ALONE_ORGANISATION_ID = 10_000
"""The measured organisation's id in the database where it is alone: not one of the large
store's, so that the two servers' entries in the shared cache (keyed by organisation) never meet."""


@dataclass
class Club:
    """What one organisation is made of, drawn before anything is written: its games are the
    same whichever database they are written to."""

    index: int
    slug: str
    members: int
    games: list[tuple[int, int, list[int], bool, bool, int]]
    """Each game: (day, title index, seated players by the club's player index, private, with a
    copy, the copy's index among the club's)."""


def draw_club(index: int, slug: str, members: int, records: int, seed: int) -> Club:
    rng = random.Random(seed)
    players = members + max(1, int(members * GUEST_SHARE))
    titles = rng.sample(range(TITLES), TITLES_PER_CLUB)
    weights = [1 / (rank + 1) for rank in range(len(titles))]  # a few titles played far more, as clubs do
    regulars = [1 / (rank + 1) ** 0.5 for rank in range(players)]  # and a few players far more often
    games = []
    for _ in range(records):
        seated: list[int] = []
        size = rng.randint(2, min(5, players))
        while len(seated) < size:
            pick = rng.choices(range(players), weights=regulars)[0]
            if pick not in seated:
                seated.append(pick)
        games.append((rng.randrange(DAYS), rng.choices(titles, weights=weights)[0], seated,
                      rng.random() < PRIVATE_SHARE, rng.random() < COPY_SHARE, rng.randrange(COPIES_PER_CLUB)))
    return Club(index, slug, members, games)


def draw_installation(organisations: int, members: int, records: int, measured_members: int,
                      measured_records: int) -> list[Club]:
    """The measured club first, then the others sharing what is left (each drawn from its own seed)."""
    clubs = [draw_club(0, MEASURED_SLUG, measured_members, measured_records, seed=1)]
    others = organisations - 1
    for index in range(1, organisations):
        share_members = (members - measured_members) * index // others - (members - measured_members) * (index - 1) // others
        share_records = (records - measured_records) * index // others - (records - measured_records) * (index - 1) // others
        clubs.append(draw_club(index, f"club-{index:03d}", share_members, share_records, seed=1000 + index))
    return clubs


def setup_django(database: str) -> None:
    os.environ.update(DATABASE_URL=PG + database, SECRET_KEY=BENCH_SECRET_KEY, DEBUG="0", ALLOWED_HOSTS="127.0.0.1",
                      LUDOLOG_CACHE_URL=CACHE, LOG_LEVEL="WARNING")
    os.environ.pop("CELERY_BROKER_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludolog.settings")
    import django

    django.setup()


def use_database(name: str) -> None:
    """Point this process's connection at database ``name``."""
    from django.db import connections

    connections.close_all()
    connections["default"].settings_dict["NAME"] = name


def fill(clubs: list[Club], alone: bool) -> dict[int, dict]:
    """Write ``clubs`` to the current database: per club, the ids the games need. ``alone``: the
    measured club is the only one, under :data:`ALONE_ORGANISATION_ID`."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.utils.text import slugify

    from accounts.models import Membership, MembershipRole, Organisation, Person
    from accounts.roles import Role
    from games.models import CatalogueRecord, Copy
    from records.models import Player
    from records.players import name_key
    from scoring.models import Club as ScoringClub
    from scoring.models import League, LeagueMembership

    User = get_user_model()
    titles = CatalogueRecord.objects.bulk_create([
        CatalogueRecord(title=f"Jeu de société n° {number:03d}", min_players=2, max_players=5) for number in range(TITLES)])
    password = make_password("bench-pw-123456")  # one hash for all: hashing 5,000 would take 20 minutes
    organisations = Organisation.objects.bulk_create([
        Organisation(**({"pk": ALONE_ORGANISATION_ID} if alone else {}), name=f"Ludothèque {club.slug}", slug=club.slug,
                     kind=Organisation.Kind.BOTH, members_public=False) for club in clubs])
    users = User.objects.bulk_create([
        User(username=f"{club.slug}-{number:03d}", password=password, email=f"{club.slug}-{number:03d}@bench.invalid")
        for club in clubs for number in range(club.members)], batch_size=BATCH)
    Person.objects.bulk_create([Person(user=user, language="fr") for user in users], batch_size=BATCH)
    memberships = Membership.objects.bulk_create([
        Membership(organisation=organisation, user=user)
        for organisation, club, users_of in _per_club(organisations, clubs, users)
        for user in users_of], batch_size=BATCH)
    first_of = {}
    for membership in memberships:
        first_of.setdefault(membership.organisation_id, membership)
    MembershipRole.objects.bulk_create([MembershipRole(membership=m, role=Role.ORGANISER) for m in first_of.values()])
    about: dict[int, dict] = {}
    offset = 0
    for organisation, club in zip(organisations, clubs):
        club_users = users[offset:offset + club.members]
        offset += club.members
        guests = max(1, int(club.members * GUEST_SHARE))
        names = [f"Membre {club.index:03d}-{number:03d}" for number in range(club.members)]
        names += [f"Invité {club.index:03d}-{number:03d}" for number in range(guests)]
        players = Player.objects.bulk_create([
            Player(display_name=name, name_key=name_key(name), user=club_users[number] if number < club.members else None)
            for number, name in enumerate(names)])
        scoring_club = ScoringClub.objects.create(name=f"Club {club.slug}", organisation=organisation)
        league = League.objects.create(club=scoring_club, name="Saison", starts_on=FIRST_DAY,
                                       ends_on=FIRST_DAY + timedelta(days=DAYS))
        LeagueMembership.objects.bulk_create([LeagueMembership(league=league, player=player)
                                              for player in players[:club.members]])
        picked = random.Random(club.index).sample(titles, COPIES_PER_CLUB)
        copies = Copy.objects.bulk_create([
            Copy(record=record, organisation=organisation, barcode=f"{club.slug[:20]}-{number:03d}",
                 shelf_location=f"J-{number:03d}") for number, record in enumerate(picked)])
        about[club.index] = {"organisation": organisation.pk, "players": [p.pk for p in players],
                             "copies": [c.pk for c in copies], "organiser": club_users[0].pk,
                             "member": club_users[1].pk}
    about["titles"] = [(slugify(record.title), record.pk) for record in titles]
    return about


def _per_club(organisations, clubs, users):
    offset = 0
    for organisation, club in zip(organisations, clubs):
        yield organisation, club, users[offset:offset + club.members]
        offset += club.members


def add_games(clubs: list[Club], about: dict) -> None:
    """Every club's games, interleaved by date, as finished result-only records scored by the
    scoring services; then the statistics rebuilt and the planner's statistics fresh."""
    from django.db import connection, transaction

    from records import integrity
    from records.models import Event, GameRecord, Seat
    from scoring import services, statistics

    games = sorted(((game[0], club.index, number, game) for club in clubs for number, game in enumerate(club.games)),
                   key=lambda item: item[:3])
    rng = random.Random(3)
    at = datetime(2026, 1, 1, tzinfo=tz.utc)
    for start in range(0, len(games), BATCH):
        batch = games[start:start + BATCH]
        with transaction.atomic():
            records = GameRecord.objects.bulk_create([
                GameRecord(game_slug=about["titles"][title][0], catalogue_record_id=about["titles"][title][1],
                           organisation_id=about[index]["organisation"], result_only=True,
                           status=GameRecord.Status.FINISHED, is_private=private,
                           copy_id=about[index]["copies"][copy] if with_copy else None,
                           played_on=FIRST_DAY + timedelta(days=day), duration_minutes=30 + (title * 7) % 90,
                           location="bench")
                for day, index, _number, (_day, title, _seated, private, with_copy, copy) in batch])
            seats = [Seat(record=record, player_id=about[index]["players"][player], seat_order=order)
                     for record, (_day, index, _number, game) in zip(records, batch)
                     for order, player in enumerate(game[2])]
            Seat.objects.bulk_create(seats, batch_size=5000)
            digests = integrity.header_digests([record.pk for record in records])
            by_record: dict[int, list[Seat]] = {}
            for seat in seats:
                by_record.setdefault(seat.record_id, []).append(seat)
            events = []
            for record in records:
                payload = {"scores": [{"seat": seat.seat_order, "score": rng.randint(20, 120)}
                                      for seat in by_record[record.pk]]}
                events.append(Event(record=record, seq=1, type="result", payload=payload, recorded_at=at,
                                    hash=integrity.event_hash(record_id=record.pk, seq=1, type="result", payload=payload,
                                                              recorded_at=at, recorded_by_id=None, idempotency_key=None,
                                                              previous=digests[record.pk])))
            Event.objects.bulk_create(events, batch_size=5000)
            finals, failures = services.final_scores_each(records)
            assert not failures, failures
            services.write_each(records, finals)
    started = time.perf_counter()
    statistics.rebuild()
    print(f"  statistics rebuilt in {time.perf_counter() - started:.0f} s", flush=True)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # as autovacuum would have it by the next day


def build(database: str, clubs: list[Club], alone: bool) -> dict:
    started = time.perf_counter()
    recreate_database(database)
    manage(production_env(database), "migrate", "-v0")
    use_database(database)
    about = fill(clubs, alone)
    add_games(clubs, about)
    print(f"{database}: {counts()} in {time.perf_counter() - started:.0f} s", flush=True)
    return about


def counts() -> str:
    from accounts.models import Membership, Organisation
    from records.models import GameRecord, Seat

    return (f"{Organisation.objects.count():,} organisations, {Membership.objects.count():,} members, "
            f"{GameRecord.objects.count():,} records ({GameRecord.objects.filter(is_private=True).count():,} private), "
            f"{Seat.objects.count():,} seats")


def session_cookie(user_id: int) -> str:
    """A signed-in person's session, as the login page would have made it."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.contrib.sessions.backends.db import SessionStore

    user = get_user_model().objects.get(pk=user_id)
    session = SessionStore()
    session.update({SESSION_KEY: str(user.pk), BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
                    HASH_SESSION_KEY: user.get_session_auth_hash()})
    session.create()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


PAGES = (
    ("start page (member)", "/scorekeeping/", "member"),
    ("members and invitations (organiser)", f"/organisations/{MEASURED_SLUG}/members/", "organiser"),
    ("organisation page, members (member)", f"/organisations/{MEASURED_SLUG}/", "member"),
    ("statistics (member)", "/statistics/", "member"),
)


def readers(database: str) -> dict[str, str]:
    """The measured organisation's organiser and one of its plain members, signed in."""
    from accounts.models import Membership, MembershipRole

    use_database(database)
    organiser = MembershipRole.objects.get(membership__organisation__slug=MEASURED_SLUG).membership.user_id
    member = (Membership.objects.filter(organisation__slug=MEASURED_SLUG).exclude(user=organiser)
              .order_by("pk").values_list("user", flat=True).first())
    return {"organiser": session_cookie(organiser), "member": session_cookie(member)}


def get(connection: http.client.HTTPConnection, path: str, cookie: str) -> float:
    started = time.perf_counter()
    connection.request("GET", path, headers={"Host": "127.0.0.1", "Cookie": cookie})
    answer = connection.getresponse()
    body = answer.read()
    elapsed = (time.perf_counter() - started) * 1000
    assert answer.status == 200, (path, answer.status, body[:300])
    return elapsed


def measure(databases: dict[str, str], repeats: int) -> dict[str, dict[str, list[float]]]:
    """Per installation and page, ``repeats`` readings in ms, the installations taking turns."""
    from django.core.cache import cache

    cookies = {kind: readers(database) for kind, database in databases.items()}
    cache.clear()  # the cache is the benchmark's own Redis database
    servers = {kind: start_gunicorn(production_env(database, LUDOLOG_CACHE_URL=CACHE), PORTS[kind], 2)
               for kind, database in databases.items()}
    try:
        connections = {kind: http.client.HTTPConnection("127.0.0.1", PORTS[kind], timeout=60) for kind in databases}
        times: dict[str, dict[str, list[float]]] = {kind: {label: [] for label, _p, _r in PAGES} for kind in databases}
        kinds = list(databases)
        for round_ in range(repeats + 2):
            for label, path, reader in PAGES:
                for kind in kinds if round_ % 2 == 0 else kinds[::-1]:
                    elapsed = get(connections[kind], path, cookies[kind][reader])
                    if round_ >= 2:  # two to warm up: each worker's first request loads what Django loads lazily
                        times[kind][label].append(elapsed)
        for connection in connections.values():
            connection.close()
        return times
    finally:
        for server in servers.values():
            stop(server)


def report(times: dict[str, dict[str, list[float]]], organisations: int) -> None:
    among, alone = times["among"], times["alone"]
    print(f"\n{'page (one organisation of ' + str(organisations) + ')':40} {'p50':>8} {'p95':>8}   "
          f"{'alone p50':>9} {'alone p95':>9}   target")
    for label, _path, _reader in PAGES:
        p50, p95 = stats.median(among[label]), percentile(among[label], 0.95)
        a50, a95 = stats.median(alone[label]), percentile(alone[label], 0.95)
        verdict = "holds" if p50 <= TARGET_MS else "MISSED"
        print(f"{label:40} {p50:6.1f}ms {p95:6.1f}ms   {a50:7.1f}ms {a95:7.1f}ms   p50 <= {TARGET_MS:.0f} ms: {verdict}")
    label = "statistics (member)"
    ratio = stats.median(among[label]) / stats.median(alone[label])
    verdict = "holds" if ratio <= SCOPING_TARGET else "MISSED"
    print(f"\nscoping cost of the statistics page: p50 among {organisations} organisations / p50 alone = "
          f"{ratio:.2f} ({(ratio - 1) * 100:+.0f} %), target <= {(SCOPING_TARGET - 1) * 100:.0f} % slower: {verdict}")


def main() -> None:
    global CACHE
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--organisations", type=int, default=100)
    parser.add_argument("--members", type=int, default=5000)
    parser.add_argument("--records", type=int, default=20_000)
    parser.add_argument("--measured-members", type=int, default=50)
    parser.add_argument("--measured-records", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=40)
    parser.add_argument("--database", default=DB)
    parser.add_argument("--cache", default=CACHE, help="the servers' shared Redis cache (emptied)")
    parser.add_argument("--keep", action="store_true", help="keep both databases afterwards")
    parser.add_argument("--measure-only", action="store_true", help="read the pages of databases --keep left")
    options = parser.parse_args()
    CACHE = options.cache
    databases = {"among": options.database, "alone": f"{options.database}_alone"}
    setup_django(options.database)
    try:
        if not options.measure_only:
            manage(production_env(options.database), "collectstatic", "--noinput", "-v0")
            clubs = draw_installation(options.organisations, options.members, options.records,
                                      options.measured_members, options.measured_records)
            build(databases["among"], clubs, alone=False)
            build(databases["alone"], clubs[:1], alone=True)
        else:
            for kind, database in databases.items():
                use_database(database)
                print(f"{database}: {counts()}")
        times = measure(databases, options.repeats)
        report(times, options.organisations)
        print(f"{options.repeats} readings a page and installation after two to warm up; gunicorn, 2 sync workers "
              f"each; the two installations read in turns")
    finally:
        from django.db import connections

        connections.close_all()
        if not options.keep:
            for database in databases.values():
                drop_database(database)


if __name__ == "__main__":
    main()
