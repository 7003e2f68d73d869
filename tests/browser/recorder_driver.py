"""The browser tests' side of the table recorder: logged-in phones and laptops, and what the page
shows. The taps themselves are in :mod:`tests.browser.taps`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.test import Client

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}


def logged_in_page(browser: Any, live_server: Any, user: Any, *, viewport: Mapping[str, int] = PHONE,
                   locale: str = "en-US") -> Any:
    """A new browser context logged in as ``user`` (the session cookie of a forced login)."""
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=dict(viewport), locale=locale)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME,
                          "value": client.cookies[settings.SESSION_COOKIE_NAME].value, "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.script_errors = errors  # type: ignore[attr-defined]
    return page


def page_width(page: Any) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


def assert_no_sideways_scroll(page: Any) -> None:
    width = page.viewport_size["width"]
    assert page_width(page) <= width, f"the page scrolls sideways: {page_width(page)} px wide at {width} px"


def shown_totals(page: Any) -> list[int]:
    return [int(text) for text in page.locator("#recorder-scores td.total").all_inner_texts()]
