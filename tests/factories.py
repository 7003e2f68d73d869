"""Small builders shared by the tests: seeded and finished records, the actions of simulated
games, signed-in clients, a club's league, the ludothèque's copies and households.

The fixtures built on them are in the conftest files (``tests/conftest.py`` for the whole suite,
``tests/web/conftest.py``, ``tests/loans/conftest.py``, ``tests/records/conftest.py``…); a test
module imports helpers from here, never from a conftest."""

from __future__ import annotations

import datetime as dt
import itertools
import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import psycopg
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.utils.text import slugify
from rest_framework.test import APIClient

from accounts.models import Membership, MembershipRole, Organisation
from accounts.roles import Role
from games.models import CatalogueRecord, Copy
from games.registry import get_engine
from loans.models import Household, Member
from records.models import GameRecord, Player
from records.services import SeatSpec, append_event, start_game
from scoring.models import Club, League, LeagueMembership

ROOT = Path(__file__).resolve().parents[1]
"""The project's folder, where ``manage.py`` is."""


VERIFIED_APPS = ("records", "loans")
"""The apps whose tables ``verify_events`` reads (the games' events and the copies' events): a
migration test migrates them to their last migration, and the apps that nothing here reads (the
site's outbox, plays' exchange, the figures' later migrations…) are left unmigrated."""


def sqlite_env(database: Path) -> dict[str, str]:
    """The environment of a ``manage.py`` run on the SQLite file ``database``, without a broker."""
    env = dict(os.environ, DATABASE_URL=f"sqlite:///{database}")
    env.pop("CELERY_BROKER_URL", None)
    return env


def manage_py(env: dict[str, str], *commands: Sequence[str]) -> subprocess.CompletedProcess:
    """``manage.py`` commands run one after the other in one process, each as ``manage.py`` runs
    it, stopping at the first that fails (its exit status is the process's): a process that
    starts Django costs about two seconds of a core here, a migration test's commands often less.
    What they print follows in order."""
    script = ("import json, os, sys\n"
              "os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'ludolog.settings')\n"
              "from django.core.management import execute_from_command_line\n"
              "for command in json.loads(sys.argv[1]):\n"
              "    execute_from_command_line(['manage.py', *command])\n")
    return subprocess.run([sys.executable, "-c", script, json.dumps([list(command) for command in commands])],
                          cwd=ROOT, env=env, capture_output=True, text=True)


def database_url_for_other_processes() -> str:
    """The test database as a URL another process (a Celery worker, ``manage.py``) can open
    (PostgreSQL: SQLite's in-memory test database cannot be shared)."""
    params = connection.settings_dict
    auth = params["USER"] + (f":{params['PASSWORD']}" if params.get("PASSWORD") else "")
    return f"postgres://{auth}@{params['HOST'] or '127.0.0.1'}:{params['PORT'] or 5432}/{params['NAME']}"


def plain_postgresql_client() -> psycopg.Connection:
    """A connection of its own to the suite's PostgreSQL database, in autocommit: any client."""
    params = connection.settings_dict
    return psycopg.connect(
        dbname=params["NAME"], user=params["USER"], host=params["HOST"], port=params["PORT"] or None,
        password=params["PASSWORD"] or None, autocommit=True,
    )


def free_port() -> int:
    """A TCP port of 127.0.0.1 free at the time of asking, for a server a test starts."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


PASSWORD = "keeper-pw-123456"
"""The password of the ``keeper`` fixture's user (``tests/conftest.py``), for the tests that log
in with a form rather than ``force_login``."""

HG = "hunters-gatherers"
NAMES = ["Ada", "Bo", "Cy", "Di", "Ed"]


@lru_cache(maxsize=32)
def simulated_events(players: int = 2, seed: int = 1) -> tuple[tuple[str, dict[str, Any]], ...]:
    """The events of a complete random game, the same for the same arguments."""
    engine = get_engine(HG)
    assert engine is not None
    return tuple(engine.random_game(players, seed))


def seeded_record(players: int = 2, seed: int = 1, **fields: Any) -> GameRecord:
    return start_game(
        game_slug=HG, seats=[SeatSpec(name) for name in NAMES[:players]], seed=seed, **fields
    )


def event(index: int, players: int = 2, seed: int = 1) -> tuple[str, dict[str, Any]]:
    kind, payload = simulated_events(players, seed)[index]
    return kind, dict(payload)


def play(players: int = 4, seed: int = 1, **fields) -> GameRecord:
    """A finished Hunters and Gatherers game: every action of the seeded simulated game appended."""
    record = seeded_record(players, seed, **fields)
    for index, (kind, payload) in enumerate(simulated_events(players, seed)):
        append_event(record, index, kind, dict(payload))
    record.refresh_from_db()
    assert record.status == GameRecord.Status.FINISHED
    return record


def engine_scores(players: int, seed: int) -> list[tuple[int, int, int, dict]]:
    """(seat, score, rank, breakdown) straight from the engine, no database involved."""
    engine = get_engine(HG)
    state = engine.new_state(players, seed)
    for kind, payload in simulated_events(players, seed):
        engine.apply(state, kind, payload)
    return [(f.seat, f.score, f.rank, dict(f.breakdown)) for f in engine.final_scores(state)]


def result_game(scores: dict[str, int], played_on: dt.date, game: str = "stone-age", **fields) -> GameRecord:
    """A result-only record: seats in the order given, each with its score."""
    record = start_game(
        game_slug=game, seats=[SeatSpec(name) for name in scores], result_only=True, played_on=played_on, **fields
    )
    payload = {"scores": [{"seat": i, "score": s} for i, s in enumerate(scores.values())]}
    append_event(record, 0, "result", payload)
    return record


def new_record(game: str, keeper: Any, *, players: int = 2, seed: int | None = None) -> GameRecord:
    """A record of ``game`` just started by ``keeper``: Ada, Bastien, then Chloé, Di and Elif."""
    names = ["Ada", "Bastien", "Chloé", "Di", "Elif"][:players]
    return start_game(game_slug=game, seats=[SeatSpec(name) for name in names], seed=seed, created_by=keeper)


def club_with_league(club: str, league: str, members: Iterable[str]) -> Club:
    """A club (and its organisation) whose league runs through 2026, with a new player of each
    name as a member."""
    organisation = Organisation.objects.create(name=club, slug=slugify(club)[:60])
    made = Club.objects.create(name=club, organisation=organisation)
    season = League.objects.create(club=made, name=league, starts_on=dt.date(2026, 1, 1), ends_on=dt.date(2026, 12, 31))
    for name in members:
        LeagueMembership.objects.create(league=season, player=Player.objects.create(display_name=name))
    return made


@lru_cache(maxsize=None)
def _simulated_file(game: str, players: int, seed: int) -> str:
    from records.files import simulate_document

    return json.dumps(simulate_document(game, players, seed, [f"P{i}" for i in range(players)]))


def simulated_document(game: str, players: int, seed: int) -> dict[str, Any]:
    """A fresh copy of a simulated game's record file (simulating is the slow part: done once)."""
    return json.loads(_simulated_file(game, players, seed))


def api_client(user: Any = None) -> APIClient:
    """An API client signed in as ``user`` (anonymous without one)."""
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def keeper_api() -> APIClient:
    """An API client logged in as a scorekeeper (a new user ``keeper``: the ``api`` fixture of
    ``tests/records/conftest.py`` is this client of the ``keeper`` fixture)."""
    return api_client(User.objects.create_user("keeper"))


def create_record(api: APIClient, game: str, players: int, seed: int | None) -> int:
    body: dict[str, Any] = {"game_slug": game, "seats": [{"player": f"P{i}"} for i in range(players)]}
    if seed is not None:
        body["seed"] = seed
    response = api.post("/api/records/", body, format="json")
    assert response.status_code == 201, response.data
    return int(response.data["id"])


def post_event(api: APIClient, record_id: int, expected_seq: int, kind: str, payload: dict[str, Any]) -> Any:
    return api.post(f"/api/records/{record_id}/events/",
                    {"expected_seq": expected_seq, "type": kind, "payload": payload}, format="json")


TODAY = dt.date(2026, 12, 5)
"""The loans tests' today (the households' memberships run through 2026)."""
HUNTERS_AND_GATHERERS_CONTENTS = (
    "79 tuiles paysage, 12 tuiles bonus, 5 tuiles de score, 1 piste de score, 30 hommes de Cro-Magnon en 5 "
    "couleurs, 10 huttes en bois dans 5 couleurs, 10 jetons en bois vert, Livret de règles."
)
_cards = itertools.count(1)


def the_library() -> Organisation:
    """The tests' game library (which runs a club too): made the first time a test asks."""
    library, _created = Organisation.objects.get_or_create(
        slug="ludotheque-des-tests", defaults={"name": "Ludothèque des tests", "kind": Organisation.Kind.BOTH})
    return library


def give_role(user: Any, role: Role | None = None, organisation: Organisation | None = None) -> Any:
    """Make ``user`` a member of ``organisation`` (the tests' library by default) with ``role``
    beside (none: a plain member); returns the user."""
    membership, _created = Membership.objects.get_or_create(user=user, organisation=organisation or the_library())
    if role is not None and role is not Role.MEMBER:
        MembershipRole.objects.get_or_create(membership=membership, role=role)
    return user


def make_copies(record: CatalogueRecord, count: int, prefix: str = "LUD-T",
                organisation: Organisation | None = None) -> list[Copy]:
    library = organisation or the_library()
    return [Copy.objects.create(record=record, barcode=f"{prefix}-{record.pk}-{n:03d}", organisation=library)
            for n in range(1, count + 1)]


def make_household(name: str = "Martin", **fields) -> Household:
    fields.setdefault("membership_starts", dt.date(2026, 1, 1))
    fields.setdefault("membership_ends", dt.date(2026, 12, 31))
    fields.setdefault("organisation", the_library())
    fields.setdefault("fee_paid", True)
    return Household.objects.create(name=name, card_number=f"CARD-{next(_cards):05d}", **fields)


def member_client(django_user_model, household: Household, name: str) -> Client:
    """A page client signed in as a new member ``name`` of ``household``."""
    user = django_user_model.objects.create_user(name)
    Member.objects.create(household=household, display_name=name, user=user)
    client = Client()
    client.force_login(user)
    return client


def page_of(copy: Copy) -> str:
    """The desk's page of a copy (its label's QR code leads there)."""
    return f"/desk/copies/{copy.barcode}/"


def pmb_like_file(records: list[dict[str, Any]] | None = None) -> bytes:
    """An ISO 2709 file as PMB exports a ludothèque's games: 001, title, publisher and year (210),
    contents (327), the custom fields of players, age and duration (900 $n), copies (995 $f
    barcode, $o status code) and a local field no page shows (950). ``records``: dicts with
    ``id``, ``title`` (None: no 200, refused), ``publisher``, ``year``, ``contents``, ``facts``
    (custom field name → value) and ``copies`` ((barcode, status code) pairs)."""
    import pymarc

    from games import unimarc

    records = records if records is not None else PMB_LIKE_RECORDS
    out = b""
    for data in records:
        record = pymarc.Record(force_utf8=True, leader=unimarc.LEADER)
        record.add_field(pymarc.Field("001", data=data["id"]))
        blank = pymarc.Indicators(" ", " ")
        if data.get("title") is not None:
            record.add_field(pymarc.Field("200", pymarc.Indicators("1", " "), [pymarc.Subfield("a", data["title"])]))
        record.add_field(pymarc.Field("210", blank, [pymarc.Subfield("c", data.get("publisher", "Kosmos")),
                                                     pymarc.Subfield("d", str(data.get("year", 2000)))]))
        if data.get("contents"):
            record.add_field(pymarc.Field("327", blank, [pymarc.Subfield("a", data["contents"])]))
        for name, value in data.get("facts", {}).items():
            record.add_field(pymarc.Field("900", blank, [pymarc.Subfield("a", str(value)), pymarc.Subfield("n", name)]))
        record.add_field(pymarc.Field("950", blank, [pymarc.Subfield("a", "local shelf note")]))
        for barcode, status in data.get("copies", []):
            record.add_field(pymarc.Field("995", blank, [pymarc.Subfield("f", barcode), pymarc.Subfield("o", status)]))
        out += record.as_marc()
    return out


PMB_LIKE_RECORDS: list[dict[str, Any]] = [
    {"id": "PMB-1", "title": "Les Aventuriers du Rail", "publisher": "Days of Wonder", "year": 2004,
     "contents": "1 plateau, 240 wagons en 5 couleurs, 110 cartes, 1 règle du jeu",
     "facts": {"nb_joueurs_min": 2, "nb_joueurs_max": 5, "age_min": 8, "duree_moyenne": 45},
     "copies": [("PMB-C-001", "1"), ("PMB-C-002", "HS")]},
    {"id": "PMB-2", "title": "Les Aventuriers du Rail", "publisher": "Days of Wonder", "year": 2015,
     "contents": "1 plateau, 225 wagons, 1 règle du jeu",
     "facts": {"nb_joueurs_min": 2, "nb_joueurs_max": 5, "age_min": 8, "duree_moyenne": 60},
     "copies": [("PMB-C-003", "3")]},
    {"id": "PMB-3", "title": "Dixit", "publisher": "Libellud", "year": 2008,
     "contents": "84 cartes, 36 jetons de vote, 6 lapins en bois",
     "facts": {"nb_joueurs_min": 3, "nb_joueurs_max": 6, "age_min": 8, "duree_moyenne": 30},
     "copies": [("PMB-C-004", "1")]},
    {"id": "PMB-3", "title": "Dixit", "publisher": "Libellud", "year": 2008, "copies": [("PMB-C-004", "1")]},
    {"id": "PMB-4", "title": None, "copies": [("PMB-C-005", "1")]},
]
"""Five PMB records: two editions sharing a title, a copy whose status code "HS" (hors service)
PMB's preset does not know (its record refused until the code is mapped), a record repeated in
the file, and one without a title."""
