"""Reads on a replica (``DATABASE_REPLICA_URL``, ``ludolog.db_router``) against a real standby.

The test starts a PostgreSQL primary of its own and a hot standby streaming from it (initdb,
pg_basebackup, streaming replication), on ports of their own, and runs
``tests/ludolog/replica_scenario.py`` in a process configured with both. The scenario pauses the
standby's replay, so the replica lags while readers of each kind ask; the assertions here are
what each of them must see. The machine's own PostgreSQL is not touched.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import MIGRATED_POSTGRESQL_DUMP, REQUIRE_SERVICES
from tests.factories import free_port
from tests.workers import ROOT


def postgres_bin() -> Path | None:
    initdb = shutil.which("initdb")
    if initdb is None:
        versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
        initdb = str(versions[-1]) if versions else None
    return Path(initdb).resolve().parent if initdb else None


BIN = postgres_bin()
if BIN is None or not (BIN / "pg_basebackup").exists():
    if REQUIRE_SERVICES:
        raise RuntimeError("LUDOLOG_REQUIRE_SERVICES=1 but PostgreSQL's initdb/pg_basebackup are not installed")
    pytest.skip("needs PostgreSQL's server binaries (initdb, pg_ctl, pg_basebackup)", allow_module_level=True)


def as_postgres(*command: str | Path) -> list[str]:
    """PostgreSQL refuses to run as root: as root (CI), run its programs as the postgres user."""
    argv = [str(part) for part in command]
    return ["runuser", "-u", "postgres", "--", *argv] if os.geteuid() == 0 else argv


def run(*command: str | Path) -> None:
    subprocess.run(as_postgres(*command), check=True, capture_output=True, timeout=120)


def migrated_dump(tmp_path_factory: pytest.TempPathFactory) -> Path | None:
    """The run's migrated test database as ``pg_dump`` wrote it (``tests/conftest.py``, under
    pytest-xdist), if there is one: restored, the primary is migrated already, and the scenario's
    ``migrate`` finds nothing to apply, where it would otherwise take tens of seconds."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        return None
    dump = tmp_path_factory.getbasetemp().parent / MIGRATED_POSTGRESQL_DUMP
    return dump if dump.exists() else None


@pytest.fixture(scope="module")
def primary_and_standby(django_db_setup, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, int]]:
    """(``django_db_setup``: this worker's test database first, which it makes or copies anyway,
    so that the run's migrated dump is there.)"""
    assert BIN is not None
    home = Path(tempfile.mkdtemp(prefix="ludolog-replica-"))
    if os.geteuid() == 0:
        shutil.chown(home, "postgres", "postgres")
    primary, standby = home / "primary", home / "standby"
    primary_port, standby_port = free_port(), free_port()
    options = "-c listen_addresses=127.0.0.1 -c unix_socket_directories={} -c fsync=off -c port={}"
    started: list[Path] = []
    try:
        run(BIN / "initdb", "-D", primary, "-A", "trust", "-U", "postgres", "--no-sync")
        with (primary / "postgresql.conf").open("a") as conf:
            conf.write("wal_level = replica\nmax_wal_senders = 4\nhot_standby = on\n")
        run(BIN / "pg_ctl", "-D", primary, "-w", "-l", home / "primary.log", "-o", options.format(home, primary_port), "start")
        started.append(primary)
        run(BIN / "createdb", "-h", "127.0.0.1", "-p", str(primary_port), "-U", "postgres", "ludolog")
        dump = migrated_dump(tmp_path_factory)
        if dump is not None:
            subprocess.run([BIN / "psql", "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", str(primary_port),
                            "-U", "postgres", "-d", "ludolog", "-f", dump], check=True, capture_output=True, timeout=120)
        # The standby: a base backup of the primary that streams its WAL (-R writes the connection).
        run(BIN / "pg_basebackup", "-h", "127.0.0.1", "-p", str(primary_port), "-U", "postgres",
            "-D", standby, "-R", "-X", "stream", "-c", "fast", "--no-sync")
        run(BIN / "pg_ctl", "-D", standby, "-w", "-l", home / "standby.log", "-o", options.format(home, standby_port), "start")
        started.append(standby)
        yield primary_port, standby_port
    finally:
        for cluster in reversed(started):
            subprocess.run(as_postgres(BIN / "pg_ctl", "-D", cluster, "-m", "immediate", "stop"), capture_output=True)
        shutil.rmtree(home, ignore_errors=True)


@pytest.fixture(scope="module")
def seen(primary_and_standby: tuple[int, int]) -> dict:
    primary_port, standby_port = primary_and_standby
    env = {key: value for key, value in os.environ.items() if not key.startswith(("CELERY_", "DATABASE_"))}
    env.update(DATABASE_URL=f"postgres://postgres@127.0.0.1:{primary_port}/ludolog",
               DATABASE_REPLICA_URL=f"postgres://postgres@127.0.0.1:{standby_port}/ludolog",
               LUDOLOG_REPLICA_STICKY_SECONDS="30")
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "ludolog" / "replica_scenario.py")], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-4000:]
    print(done.stderr[-2000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_replica_is_a_streaming_hot_standby_and_the_router_is_on(seen):
    assert seen["databases"] == ["default", "replica"]
    assert seen["routers"] == ["ludolog.db_router.ReplicaRouter"]
    assert seen["replica_in_recovery"] is True


def test_appends_go_to_the_primary_and_leave_the_writer_a_cookie(seen):
    assert seen["first_append"] == 201 and seen["second_append"] == 201
    assert seen["sticky_cookie"] is True
    assert seen["events_on_the_standby"] == 1, "the standby's replay was paused after event 1"


def test_a_reader_who_wrote_nothing_reads_the_lagging_replica(seen):
    assert seen["anonymous_events_api"] == [1]
    assert seen["anonymous_game_page_says_seq_2"] is False


def test_the_writer_reads_its_own_writes_and_conflicts_are_decided_on_the_primary(seen):
    assert seen["writer_events_api"] == [1, 2]
    assert seen["stale_append"] == [409, "seq_conflict", 2]
    assert seen["options_after_seq"] == 2, "what a recorder asks between two actions reads the primary"
    assert seen["login_on_a_lagging_replica"] == 200, "a user written after the pause is found (auth on the primary)"


def test_the_replica_shows_the_new_events_once_it_has_caught_up(seen):
    assert seen["anonymous_events_api_after_catch_up"] == [1, 2]
    assert seen["anonymous_game_page_says_seq_2_after_catch_up"] is True
