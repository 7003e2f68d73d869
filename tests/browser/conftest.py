"""Browser tests: Playwright driving Debian's Chromium against pytest-django's live server.

Chromium comes from apt (``/usr/bin/chromium``; ``.ci/run`` installs it), never from
``playwright install``. Without it the browser tests are skipped with the way to get it,
except in CI (``LUDOLOG_REQUIRE_SERVICES=1``), where a missing browser is a failure.
"""

from __future__ import annotations

import os
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


@pytest.fixture(scope="session")
def browser() -> Iterator["object"]:
    if not Path(CHROMIUM).exists():
        if os.environ.get("LUDOLOG_REQUIRE_SERVICES") == "1":
            pytest.fail(NEEDS_CHROMIUM + " — required in CI")
        pytest.skip(NEEDS_CHROMIUM)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def page(browser, live_server) -> Iterator["object"]:
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
