"""Test-suite wiring: which real services are reachable, and how the test database is flushed.

PostgreSQL and Redis tests run when ``DATABASE_URL`` points at PostgreSQL and
``CELERY_BROKER_URL`` at Redis (CI sets both); otherwise they are skipped with the way to
enable them. With ``LUDOLOG_REQUIRE_SERVICES=1`` (CI) a skipped service test is a failure.

And the fixtures every folder shares: ``keeper`` (a scorekeeper), ``desk_user`` (a desk
volunteer), ``in_english``; the builders behind the fixtures are in ``tests/factories.py``.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import uuid
from itertools import islice
from collections.abc import Iterator
from pathlib import Path

import pytest

DATABASE_URL = os.environ.get("DATABASE_URL", "")
BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
REQUIRE_SERVICES = os.environ.get("LUDOLOG_REQUIRE_SERVICES") == "1"

NEEDS_POSTGRES = (
    "needs PostgreSQL: set DATABASE_URL=postgres://postgres@127.0.0.1:5432/ludolog (see docs/operations.md, 'PostgreSQL, Redis and real workers')"
)
NEEDS_REDIS = "needs Redis and a Celery worker: set CELERY_BROKER_URL=redis://127.0.0.1:6379/0 (see docs/operations.md)"


def worker_index() -> int:
    """Which pytest-xdist worker this process is (``gw0`` is 0); 0 without xdist."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    return int(worker[2:]) if worker[2:].isdigit() else 0


def broker_of_worker(url: str, index: int) -> str:
    """The Redis database of worker ``index``: the one ``url`` names for the first, the ones
    below it for the others, so that workers never share a queue's database.

    >>> broker_of_worker("redis://127.0.0.1:6379/14", 2)
    'redis://127.0.0.1:6379/12'
    """
    base, _slash, number = url.rpartition("/")
    first = int(number) if number.isdigit() else 0
    return f"{base}/{(first - index) % 16}"


def pytest_configure(config: pytest.Config) -> None:
    """Passwords hashed the quick way, and each pytest-xdist worker with its own Redis database.

    Django's PBKDF2 takes 0.23 s a password here, by design: every test user with a password and
    every login tried paid it (about a minute and a half of the suite's processor time); the
    tests check who may do what, not the hasher. Each worker has its own test database
    (pytest-django names it after the worker), its own live server on a port of its own (port 0),
    and here its own Redis database: the workers' Celery tasks, queues and results never meet."""
    from django.conf import settings

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # The beat's checkpoint file is a test's own to ask for (tests/loans/test_copy_tamper.py):
    # a verification run by a test writes none into the project's var/ folder.
    settings.LUDOLOG_CHECKPOINT_EXPORT = ""
    if not BROKER_URL.startswith("redis://") or "PYTEST_XDIST_WORKER" not in os.environ:
        return

    from ludolog.celery import app

    url = broker_of_worker(BROKER_URL, worker_index())
    os.environ["CELERY_BROKER_URL"] = url  # the Celery workers the tests start read it
    settings.CELERY_BROKER_URL = url
    if "CELERY_RESULT_BACKEND" not in os.environ:  # the results follow the broker, as in settings.py
        settings.CELERY_RESULT_BACKEND = url
    app.conf.update(broker_url=url, result_backend=settings.CELERY_RESULT_BACKEND)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: a worker a core and one more (``LUDOLOG_TEST_WORKERS`` says otherwise). A
    third of the suite's time is spent waiting on a browser, a live server, a Celery worker or a
    subprocess, during which a core would otherwise sit idle: on two cores, three workers took
    313 s where two took 339 s (2026-12-07)."""
    wanted = os.environ.get("LUDOLOG_TEST_WORKERS", "")
    return int(wanted) if wanted.isdigit() and int(wanted) > 0 else (os.cpu_count() or 1) + 1


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip what needs a service that is not configured (a failure in CI). And the tests marked
    ``slow`` (tens of seconds each, mostly waiting on a browser, a worker or a server) start the
    run, so that none of them is still running alone at its end. (They flush the database when
    they end, as every test with real transactions does; the tests after them create what they
    read, and the migrations leave no rows they would need.)"""
    on_postgres = DATABASE_URL.startswith(("postgres://", "postgresql://"))
    on_redis = BROKER_URL.startswith("redis://")
    if REQUIRE_SERVICES and not (on_postgres and on_redis):
        raise pytest.UsageError(
            "LUDOLOG_REQUIRE_SERVICES=1 but the services are not configured: "
            + "; ".join(msg for ok, msg in ((on_postgres, NEEDS_POSTGRES), (on_redis, NEEDS_REDIS)) if not ok)
        )
    for item in items:
        if "postgres" in item.keywords and not on_postgres:
            item.add_marker(pytest.mark.skip(reason=NEEDS_POSTGRES))
        if "redis" in item.keywords and not on_redis:
            item.add_marker(pytest.mark.skip(reason=NEEDS_REDIS))
    workers = int(getattr(config, "workerinput", {}).get("workercount", 1))
    items[:] = slow_first(items, workers)


def slow_first(items: list[pytest.Item], workers: int) -> list[pytest.Item]:
    """``items`` with the slow ones at the start of each worker's first share.

    pytest-xdist's ``worksteal`` gives each worker a contiguous share of the list to start with
    (the first ``len // workers`` items to the first, and so on) and moves work from the busiest
    later. The slow tests are dealt out to the shares longest first, each to the share with the
    least of them so far (by the seconds their marker says, ``slow(seconds=…)``)."""
    slow = sorted((item for item in items if item.get_closest_marker("slow")), key=_seconds, reverse=True)
    others = iter([item for item in items if not item.get_closest_marker("slow")])
    shares: list[list[pytest.Item]] = [[] for _ in range(max(1, workers))]
    for item in slow:
        min(shares, key=lambda share: sum(map(_seconds, share))).append(item)
    ordered: list[pytest.Item] = []
    remaining = len(items)
    for index, share in enumerate(shares):
        size = remaining // (len(shares) - index)
        # (islice: when most of the items are slow, the others run out before the shares fill)
        ordered += share + list(islice(others, max(0, size - len(share))))
        remaining -= size
    return ordered + list(others)


def _seconds(item: pytest.Item) -> float:
    marker = item.get_closest_marker("slow")
    return float(marker.kwargs.get("seconds", 20)) if marker else 0.0


@pytest.fixture(scope="session", autouse=True)
def each_simulated_game_played_once() -> Iterator[None]:
    """A simulated game is a pure function of its arguments and the engines' code
    (``records.files.simulate_document``: the same seed, the same file). The demo, which a dozen
    tests load, plays its games with the engines' simple players, and that play is most of what
    loading it costs: in a test process each game is played once, and each caller gets a copy of
    it to change as it likes."""
    import copy
    import json

    from records import files
    from scoring.management.commands import load_demo

    simulate = files.simulate_document
    played: dict[str, dict] = {}

    def simulated(*args, **kwargs):
        key = json.dumps([args, kwargs], sort_keys=True)
        if key not in played:
            played[key] = simulate(*args, **kwargs)
        return copy.deepcopy(played[key])

    files.simulate_document = load_demo.simulate_document = simulated
    yield
    files.simulate_document = load_demo.simulate_document = simulate


@pytest.fixture(scope="session")
def django_db_keepdb(request, django_db_modify_db_settings, django_db_blocker, tmp_path_factory) -> Iterator[bool]:
    """On PostgreSQL under pytest-xdist, each worker's test database is a copy of one migrated
    once for the whole run, rather than migrated again by each worker (a hundred migrations,
    most of them Django rendering its models again and again: tens of seconds of a core each).

    The first worker to ask migrates the run's template database as Django makes a test database,
    the others waiting on a lock; then each worker copies it (``CREATE DATABASE … TEMPLATE``) as
    its own and pytest-django keeps that copy (``keepdb``: the migrations find nothing to apply).
    Each worker drops its copy at the end, and the template with it (a worker that still needs it
    after that makes it again)."""
    reuse = bool(request.config.getvalue("reuse_db"))
    workerinput = getattr(request.config, "workerinput", None)
    if reuse or workerinput is None or not DATABASE_URL.startswith(("postgres://", "postgresql://")):
        yield reuse
        return
    from django.db import connection

    template = f"{connection.settings_dict['NAME']}_template_{workerinput['testrunuid'][:8]}"
    copy = connection.creation._get_test_db_name()
    quote = connection.ops.quote_name
    lock_path = tmp_path_factory.getbasetemp().parent / "postgresql-template.lock"
    with django_db_blocker.unblock(), open(lock_path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        with connection._nodb_cursor() as cursor:
            cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [template])
            made = cursor.fetchone() is not None
        if not made:
            migrate_template(connection, template)
            dump_migrated(connection, template, lock_path.parent / MIGRATED_POSTGRESQL_DUMP)
        with connection._nodb_cursor() as cursor:
            cursor.execute(f"DROP DATABASE IF EXISTS {quote(copy)} WITH (FORCE)")
            cursor.execute(f"CREATE DATABASE {quote(copy)} TEMPLATE {quote(template)}")
    yield True
    from django.db import connections

    with django_db_blocker.unblock(), open(lock_path, "w") as lock:
        connections.close_all()
        fcntl.flock(lock, fcntl.LOCK_EX)
        with connection._nodb_cursor() as cursor:
            for name in (copy, template, f"{template}_making"):
                cursor.execute(f"DROP DATABASE IF EXISTS {quote(name)} WITH (FORCE)")


MIGRATED_POSTGRESQL_DUMP = "migrated-postgresql.sql"
"""In the run's shared folder: the template database as ``pg_dump`` writes it, for a test that
needs a migrated database on a PostgreSQL server of its own (tests/ludolog/test_replica_reads.py)."""


def dump_migrated(connection, template: str, path: Path) -> None:
    """Dump the freshly migrated ``template`` (while no worker copies it: the caller holds the
    lock), when ``pg_dump`` is there; a test that finds no dump migrates as before."""
    if shutil.which("pg_dump") is None:
        return
    params = connection.settings_dict
    env = dict(os.environ, PGPASSWORD=params.get("PASSWORD") or "")
    done = subprocess.run(["pg_dump", "--no-owner", "--no-privileges", "-h", params["HOST"] or "127.0.0.1",
                           "-p", str(params["PORT"] or 5432), "-U", params["USER"], "-f", str(path), template],
                          env=env, capture_output=True, text=True)
    if done.returncode != 0:
        path.unlink(missing_ok=True)


def migrate_template(connection, template: str) -> None:
    """Make the database ``template`` as Django makes a test database (migrated, its cache table
    made), then point the connection back at the worker's own test database's settings. It is
    made under another name and takes its own once complete: a worker that failed half-way
    leaves no template for the others to copy."""
    test_settings = connection.settings_dict["TEST"]
    worker_test_name, database_name = test_settings.get("NAME"), connection.settings_dict["NAME"]
    making = f"{template}_making"
    test_settings["NAME"] = making
    try:
        connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    finally:
        connection.creation.destroy_test_db(database_name, verbosity=0, keepdb=True)
        test_settings["NAME"] = worker_test_name
    quote = connection.ops.quote_name
    with connection._nodb_cursor() as cursor:
        cursor.execute(f"ALTER DATABASE {quote(making)} RENAME TO {quote(template)}")


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker) -> None:
    """Create the test database as usual, then let the runner empty the events table between
    transactional tests.

    The append-only triggers rightly refuse DELETE (SQLite's flush) and TRUNCATE (PostgreSQL's),
    so the flush, and only the flush, lifts them for its own statement list
    (``records.immutability.flush_statements``). The backend's class is taught this, so every
    connection object (the live server's too) flushes the same way.
    """
    from django.db import connection

    if connection.vendor == "sqlite":
        # Only now: the backend in use is loaded, so its operations module imports cleanly.
        from django.db.backends.sqlite3.operations import DatabaseOperations
    elif connection.vendor == "postgresql":
        from django.db.backends.postgresql.operations import DatabaseOperations  # type: ignore[no-redef]
    else:
        return

    from agenda.immutability import TABLES as AGENDA_TABLES
    from agenda.immutability import flush_statements as agenda_flush
    from loans.immutability import flush_statements as copy_event_flush
    from records.immutability import EVENT_TABLE, flush_statements
    from tournaments.immutability import TABLE_RESULT_TABLE
    from tournaments.immutability import flush_statements as table_result_flush

    original = DatabaseOperations.sql_flush
    if getattr(original, "lifts_event_triggers", False):
        return
    vendor = connection.vendor

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if vendor == "postgresql" and not reset_sequences:
            return deleting_flush(self, tables)
        statements = original(self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
        if TABLE_RESULT_TABLE in tables:
            statements = table_result_flush(vendor, statements)
        if any(table in tables for table in AGENDA_TABLES):
            statements = agenda_flush(vendor, statements)
        if EVENT_TABLE not in tables:
            return statements
        return copy_event_flush(vendor, flush_statements(vendor, statements))

    sql_flush.lifts_event_triggers = True  # type: ignore[attr-defined]
    DatabaseOperations.sql_flush = sql_flush  # type: ignore[method-assign]
    if vendor == "postgresql":
        from django.core.management.commands import flush

        # The content types and permissions the post_migrate signal would make are still there.
        flush.emit_post_migrate_signal = lambda *args, **kwargs: None


def deleting_flush(operations, tables: list[str]) -> list[str]:
    """PostgreSQL's flush between tests with real transactions, as DELETEs: a test leaves a few
    rows, and a TRUNCATE of every table (Django's flush) gives each a new file, 0.25 s a test here.
    The events (the games', the copies' and the households'), the reports sent, the tournaments'
    table results and the agenda's counts go first, their append-only guards lifted for those
    statements; every other foreign key waits for the end of the flush's transaction (Django makes
    them deferrable), when every table is empty."""
    from loans.immutability import COPY_EVENT_TABLE, HOUSEHOLD_EVENT_TABLE
    from records.immutability import EVENT_TABLE
    from agenda.immutability import TABLES as AGENDA_TABLES
    from reports.immutability import REPORT_SENT_TABLE
    from tournaments.immutability import TABLE_RESULT_TABLE

    quote = operations.quote_name
    statements = []
    append_only = [table for table in (EVENT_TABLE, COPY_EVENT_TABLE, HOUSEHOLD_EVENT_TABLE, REPORT_SENT_TABLE,
                                       TABLE_RESULT_TABLE, *AGENDA_TABLES) if table in tables]
    if append_only:
        # Checked at once, not queued to the commit: a queued check of a table that refers to itself
        # (a table result's correction) would forbid enabling its triggers again in this transaction.
        statements.append("SET CONSTRAINTS ALL IMMEDIATE;")
    for table in append_only:
        statements += [f"ALTER TABLE {quote(table)} DISABLE TRIGGER USER;",
                       f"DELETE FROM {quote(table)};",
                       f"ALTER TABLE {quote(table)} ENABLE TRIGGER USER;"]
    statements.append("SET CONSTRAINTS ALL DEFERRED;")
    statements += [f"DELETE FROM {quote(table)};" for table in sorted(tables)
                   if table not in (*append_only, *KEPT_BY_THE_FLUSH)]
    if "games_cataloguerecord" in tables:
        # The catalogue's words (games 0015) are no model's table, and a word outlives its records
        # by design: a test's words would otherwise be known to the next test's search.
        statements.append(f"DELETE FROM {quote('games_catalogueword')};")
    return [" ".join(statements)]  # one round trip


KEPT_BY_THE_FLUSH = ("django_content_type", "auth_permission")
"""What the migrations fill and no test changes: the flush keeps them, so that Django's flush need
not fill them again after every test with real transactions (its post_migrate signal: some
hundred queries a test)."""


@pytest.fixture(scope="module")
def module_transaction(django_db_setup, django_db_blocker) -> Iterator[None]:
    """A transaction around a module's tests, rolled back after the last: what a module-scoped
    fixture makes in it (a world of games and readers that takes a second to build) is there for
    each of the module's tests, whose own changes are rolled back at the end of each (pytest-django
    opens each test's transaction inside this one, as a savepoint)."""
    from django.db import transaction

    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            yield
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


@pytest.fixture
def in_english() -> Iterator[None]:
    """Messages in English, whatever language an earlier test's request left active in this
    thread (a module asks for it with ``pytest.mark.usefixtures("in_english")``)."""
    from django.utils import translation

    with translation.override("en"):
        yield


@pytest.fixture
def keeper():
    """A scorekeeper: the user ``keeper``, whose password is ``tests.factories.PASSWORD``."""
    from django.contrib.auth import get_user_model

    from tests.factories import PASSWORD

    return get_user_model().objects.create_user("keeper", password=PASSWORD)


@pytest.fixture
def desk_user(django_user_model):
    """A desk volunteer: the user ``desk-volunteer``, at the desk of the tests' library."""
    from accounts.roles import Role
    from tests.factories import give_role

    return give_role(django_user_model.objects.create_user("desk-volunteer"), Role.DESK)


@pytest.fixture
def celery_worker_queue() -> Iterator[str]:
    """A real Celery worker process, listening on a queue of its own for this test."""
    from tests.workers import worker_process

    queue = f"ludolog-test-{uuid.uuid4().hex[:8]}"
    with worker_process(queue, env=dict(os.environ), output=subprocess.DEVNULL):
        yield queue


@pytest.fixture
def celery_eager() -> Iterator[None]:
    """Run tasks in-process for this test, as `make run` does, even when a broker is configured."""
    from ludolog.celery import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        yield
    finally:
        app.conf.task_always_eager = before


@pytest.fixture
def imports_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Uploaded import files (games.jobs) kept in a folder of the test's own, which the Celery
    workers it starts are told of too. (A file field takes its storage once, when its model is
    made: the field of each import's job model is given one there.)"""
    from django.core.files.storage import FileSystemStorage

    from games.jobs import ImportJob

    root = tmp_path / "imports"
    for model in ImportJob.__subclasses__():
        monkeypatch.setattr(model._meta.get_field("file"), "storage", FileSystemStorage(root))
    monkeypatch.setenv("LUDOLOG_IMPORTS_ROOT", str(root))
    return root


@pytest.fixture(autouse=True)
def no_language_left_active() -> Iterator[None]:
    """Each test starts in the site's language: a request in French, Dutch or Czech made through the
    test client leaves its language active in the thread (LocaleMiddleware activates it and never
    takes it back), and a later test's messages would be in it."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def empty_cache_after_each_test() -> Iterator[None]:
    """Each test starts with an empty cache: a rolled-back test's ids come back in the next one on
    SQLite, and a cache key made of ids (a reader's replayed ratings) would find the last test's."""
    yield
    from django.core.cache import cache

    cache.clear()
