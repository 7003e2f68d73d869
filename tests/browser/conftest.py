"""Browser tests: Playwright driving Debian's Chromium against pytest-django's live server.

Chromium comes from apt (``/usr/bin/chromium``; ``.ci/run`` installs it), never from
``playwright install``. Without it the browser tests are skipped with the way to get it,
except in CI (``LUDOLOG_REQUIRE_SERVICES=1``), where a missing browser is a failure.
"""

from __future__ import annotations

import os
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in this thread; the ORM calls the tests make to set
# up data are ordinary blocking calls, which Django would otherwise refuse inside a loop.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("LUDOLOG_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
NEEDS_CHROMIUM = f"needs Chromium at {CHROMIUM}: apt-get install -y chromium (see .ci/run)"


_launched: list["object"] = []
"""The session's browser, once a test started it."""


@pytest.fixture(scope="session")
def browser() -> Iterator["object"]:
    if not Path(CHROMIUM).exists():
        if os.environ.get("LUDOLOG_REQUIRE_SERVICES") == "1":
            pytest.fail(NEEDS_CHROMIUM + " — required in CI")
        pytest.skip(NEEDS_CHROMIUM)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        _launched.append(browser)
        try:
            yield browser
        finally:
            _launched.clear()
            browser.close()


@pytest.fixture(autouse=True)
def pages_closed_before_the_database(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every page a test opened is closed when the test ends, before its database is emptied
    and closed to it: a page left open (the recorder asks every few seconds whether another
    phone recorded) would otherwise reach the live server after the test, whose request then
    fails on the database. Set up after pytest-django's database (a plugin's autouse fixture
    comes first), so torn down before it.

    Then the live server is asked for a static file and answered: on SQLite it answers one
    request at a time, so a request a closed page had already sent is over (it would hold the
    shared in-memory database while the flush wants it)."""
    yield
    for browser in _launched:
        for context in list(browser.contexts):
            context.close()
    if "live_server" in request.fixturenames:
        server = request.getfixturevalue("live_server")
        with urllib.request.urlopen(f"{server.url}/static/ludolog/site.css", timeout=30) as answer:
            answer.read()


@pytest.fixture(scope="session", autouse=True)
def one_request_at_a_time_on_sqlite() -> Iterator[None]:
    """On SQLite the live server's threads share one in-memory connection, and two requests at
    once (the viewer fetches the state and the board together; htmx may overlap a submit) can
    hang on it. A single-threaded server answers them in turn; PostgreSQL keeps the threads.
    """
    from django.core.servers.basehttp import WSGIServer
    from django.db import connection
    from django.test.testcases import LiveServerThread

    if connection.vendor != "sqlite":
        yield
        return
    class SerialWSGIServer(WSGIServer):
        # The live server thread has already installed the shared connection for itself.
        def __init__(self, *args, connections_override=None, **kwargs) -> None:
            super().__init__(*args, **kwargs)

    threaded = LiveServerThread.server_class
    LiveServerThread.server_class = SerialWSGIServer
    try:
        yield
    finally:
        LiveServerThread.server_class = threaded


@pytest.fixture
def page(browser, transactional_db, live_server) -> Iterator["object"]:
    context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        yield page
    finally:
        context.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
