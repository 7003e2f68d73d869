"""With DEBUG off, as deployed (gunicorn with the deployment's configuration behind nginx), a path
under /api/ that names nothing answers the API's JSON 404, with a machine-readable reason; the
site's paths keep their HTML 404 page. (With DEBUG on, Django's debugging 404 page stands in for
both: what the API fuzz saw when it was run against ``make run``.)"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import connection

from tests.factories import free_port

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = Path(sys.executable).parent / "gunicorn"

API_PATHS = ["/api/nope/", "/api/nope", "/api/records/abc", "/api/records/1/events/x/", "/api/records/%ff/",
             "/api/schema/nope/", "/api/auth/", "/api/records/999999/"]
SITE_PATHS = ["/nope/", "/games/abc/", "/catalogue/nope/"]


def database_url() -> str:
    """The test database on PostgreSQL; on SQLite (an in-memory test database no other process
    can open) a file of its own."""
    settings = connection.settings_dict
    if connection.vendor == "postgresql":
        auth = settings["USER"] + (f":{settings['PASSWORD']}" if settings.get("PASSWORD") else "")
        return f"postgres://{auth}@{settings['HOST'] or '127.0.0.1'}:{settings['PORT'] or 5432}/{settings['NAME']}"
    return ""


@pytest.fixture
def production_server(tmp_path: Path) -> Iterator[str]:
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key not in ("CELERY_BROKER_URL", "DATABASE_URL")}
    env |= {"DEBUG": "0", "SECRET_KEY": "test-only-" + "k" * 40, "ALLOWED_HOSTS": "127.0.0.1",
            "LUDOLOG_BIND": f"127.0.0.1:{port}", "LUDOLOG_WEB_WORKERS": "1",
            "DATABASE_URL": database_url() or f"sqlite:///{tmp_path / 'db.sqlite3'}"}
    log = open(tmp_path / "gunicorn.log", "w")
    server = subprocess.Popen([str(GUNICORN), "-c", str(ROOT / "ludolog/deploy/gunicorn.conf.py"), "ludolog.wsgi"],
                              cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, (tmp_path / "gunicorn.log").read_text()
                time.sleep(0.2)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()


def get(url: str) -> tuple[int, str, bytes]:
    # As nginx passes requests on: over HTTPS, so that the SSL redirect lets them through.
    request = urllib.request.Request(url, headers={"X-Forwarded-Proto": "https"})
    try:
        with urllib.request.urlopen(request) as answer:
            return answer.status, answer.headers["Content-Type"], answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers["Content-Type"], error.read()


@pytest.mark.slow(seconds=6)
@pytest.mark.django_db(transaction=True)
def test_with_debug_off_the_api_answers_json_404s_and_the_site_html_ones(production_server: str):
    import json

    paths = API_PATHS if connection.vendor == "postgresql" else API_PATHS[:-1]  # the last one reads a table
    for path in paths:
        status, content_type, body = get(production_server + path)
        assert (status, content_type) == (404, "application/json"), (path, status, content_type, body[:200])
        refusal = json.loads(body)
        assert refusal["reason"] == "not_found" and refusal["detail"], (path, refusal)
    for path in SITE_PATHS:
        status, content_type, body = get(production_server + path)
        assert (status, content_type.split(";")[0]) == (404, "text/html"), (path, status, content_type)
        assert b"<html" in body and b"Traceback" not in body
