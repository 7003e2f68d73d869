"""Fixtures of the event store's tests: a SQLite file migrated as ``make run`` migrates it, for
the tests that act as a plain client of the file (the sqlite3 module) or run ``manage.py`` on it;
the scorekeeper's API client."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from tests.factories import ROOT, api_client, sqlite_env


@pytest.fixture(scope="session")
def migrated_sqlite_template(tmp_path_factory) -> Path:
    """A SQLite file with every migration applied, made once for the whole run (migrating takes
    seconds): the first pytest-xdist worker to ask makes it in the run's shared folder while the
    others wait on the lock, then every worker copies it."""
    # The run's folder that every pytest-xdist worker's lies in; without xdist the run's own (its
    # parent is every run's, where a file made before a new migration would be found).
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if "PYTEST_XDIST_WORKER" in os.environ else base
    database = shared / "migrated-template.sqlite3"
    with open(shared / "migrated-template.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not database.exists():
            making = shared / "migrated-template.sqlite3.making"
            making.unlink(missing_ok=True)
            subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=sqlite_env(making),
                           check=True)
            making.rename(database)
    return database


@pytest.fixture
def migrated_sqlite(migrated_sqlite_template, tmp_path) -> Path:
    """A fresh copy of the migrated SQLite file, for a test to write to as a plain client would."""
    database = tmp_path / "ledger.sqlite3"
    shutil.copy(migrated_sqlite_template, database)
    return database


@pytest.fixture
def api(keeper) -> APIClient:
    """An API client signed in as the scorekeeper (``keeper``, of ``tests/conftest.py``)."""
    return api_client(keeper)
