"""The deployment files work: gunicorn takes its configuration, and a backup made by
backup.sh restores with restore.sh into an empty database whose events check out whole."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import psycopg
import pytest
from django.db import connection

from records.files import import_document
from records.models import Event
from tests.factories import simulated_document

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "ludolog" / "deploy"


def test_gunicorn_takes_the_configuration_and_its_app_loads_everything_before_a_first_request():
    """``gunicorn --check-config`` with the deployment's configuration loads the application as
    each worker does before it accepts a request (``ludolog.wsgi``): the URLconf (and the views it
    imports), every engine's data and every game's web module with its tile pictures (each
    Carcassonne tile's geometry) are loaded then, not in a first request. And a broker that does
    not answer then is no reason not to start: it is warned of, and the first task queued connects.

    One process for the three (gunicorn's own command, then a look at what it loaded), each start
    of Django being seconds of a core."""
    probe = (
        "import sys\n"
        "from gunicorn.app.wsgiapp import run\n"
        "sys.argv = ['gunicorn', '--check-config', '-c', sys.argv[1], 'ludolog.wsgi']\n"
        "try:\n"
        "    run()\n"
        "except SystemExit as checked:\n"
        "    assert not checked.code, f'gunicorn --check-config exited {checked.code}'\n"
        "import ludolog.wsgi, games.registry\n"
        "from games.engines.hunters_gatherers.tileset import load_tileset\n"
        "from games.engines.carcassonne.tileset import load_tileset as carcassonne_tiles\n"
        "from ludolog.web.games import _loaded\n"
        "from ludolog.web.games.carcassonne.drawing import _shape\n"
        # The registry's own table: asking it through get_engine would fill it.
        "loaded = sorted(games.registry._ADAPTERS)\n"
        "print(callable(ludolog.wsgi.application), 'records.views' in sys.modules,"
        " loaded == games.registry.engine_slugs(), len(loaded), load_tileset.cache_info().currsize,"
        " carcassonne_tiles.cache_info().currsize, len(_loaded), _shape.cache_info().currsize)\n"
    )
    env = dict(os.environ, CELERY_BROKER_URL="redis://127.0.0.1:1/0", CELERY_RESULT_BACKEND="")
    started = subprocess.run([sys.executable, "-c", probe, str(DEPLOY / "gunicorn.conf.py")], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=120)
    assert started.returncode == 0, started.stderr
    assert started.stdout.split() == ["True", "True", "True", "4", "1", "1", "4", "65"]  # 65 tiles: base and both expansions
    assert "the broker did not answer at start-up" in started.stderr


def test_a_worker_sets_what_it_loaded_aside_from_the_collector_after_its_first_request():
    import gc
    import runpy

    hooks = runpy.run_path(str(DEPLOY / "gunicorn.conf.py"))
    worker = type("Worker", (), {"nr": 2})()
    hooks["post_request"](worker, None, {}, None)
    assert gc.get_freeze_count() == 0  # not after the second request
    worker.nr = 1
    try:
        hooks["post_request"](worker, None, {}, None)
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


def test_the_units_restart_what_stops():
    for unit in ("ludolog-web", "ludolog-worker", "ludolog-beat"):
        text = (DEPLOY / "systemd" / f"{unit}.service").read_text()
        assert "Restart=always" in text and "EnvironmentFile=/etc/ludolog/ludolog.env" in text


def database_url(name: str) -> str:
    settings = connection.settings_dict
    return f"postgres://{settings['USER']}@{settings['HOST'] or '127.0.0.1'}:{settings['PORT'] or 5432}/{name}"


@pytest.mark.slow(seconds=15)
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_backup_restores_into_an_empty_database_and_its_events_check_out(tmp_path: Path):
    for seed in (3, 4):
        import_document(simulated_document("carcassonne", 2, seed))
    stored = Event.objects.count()
    source = database_url(connection.settings_dict["NAME"])
    backup = subprocess.run([str(DEPLOY / "backup.sh"), source, str(tmp_path)], capture_output=True, text=True)
    assert backup.returncode == 0, backup.stderr
    dump = Path(backup.stdout.strip().splitlines()[-1])
    assert dump.exists() and dump.stat().st_size > 0

    target = f"ludolog_restore_{uuid.uuid4().hex[:8]}"
    admin_url = database_url("postgres")
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{target}"')
    try:
        env = dict(os.environ, PYTHON=sys.executable)
        restore = subprocess.run([str(DEPLOY / "restore.sh"), str(dump), database_url(target)], capture_output=True,
                                 text=True, env=env)
        assert restore.returncode == 0, restore.stdout + restore.stderr
        with psycopg.connect(database_url(target)) as restored:
            assert restored.execute("SELECT count(*) FROM records_event").fetchone()[0] == stored
            refused = False
            try:
                restored.execute("UPDATE records_event SET type = 'undo'")
            except psycopg.Error:
                refused = True
            assert refused, "the restored database keeps refusing changes to events"
    finally:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{target}" WITH (FORCE)')
