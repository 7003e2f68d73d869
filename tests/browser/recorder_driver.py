"""The browser tests' side of the table recorder: logged-in phones and laptops, and what the page
shows. The taps themselves are in :mod:`tests.browser.taps`."""

from __future__ import annotations

import json
import urllib.request
import uuid
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.test import Client
from django.utils.crypto import get_random_string

from .taps import wait_stored

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


def htmx_settled(page: Any) -> None:
    """Wait until htmx has finished a swap: the new elements get their listeners only once it has
    settled (some 20 ms after the swap, longer on a busy machine), so a change made to one before
    that would trigger nothing."""
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")


def post_to_the_table(live_server: Any, record: Any, user: Any) -> Any:
    """For :func:`tests.browser.taps.record_game`: a stretch of a game recorded as ``user`` from
    Python rather than through the browser, then the page asked to show the position after it,
    as it does when another phone recorded.

    On PostgreSQL each action goes to the append the page's endpoint (``/scorekeeping/<id>/table/``)
    calls, :func:`records.services.append_event` on :func:`records.selectors.append_target` (the
    user's rights, one transaction each, the game's end held for the table to confirm), in this
    process: the endpoint's answer to a POST, the whole table rendered for the phone that sent it,
    made a Stone Age stretch cost 0.11 s an action against 0.009 s, and no page reads it here; the
    endpoint itself is what every tapped action goes through. On SQLite the live server's threads
    share one in-memory connection, which a write from this thread could interleave with a request
    of the page's: there the stretch is posted to the endpoint over HTTP, as the page posts, and
    the server's one thread answers them in turn with the page's own requests."""
    from django.db import connection

    if connection.vendor != "sqlite":
        from records import selectors, services

        def append(page: Any, events: list[tuple[str, Mapping[str, Any]]], last_seq: int) -> None:
            first_seq = last_seq - len(events) + 1
            for seq, (kind, payload) in enumerate(events, start=first_seq):
                services.append_event(selectors.append_target(record.pk, user), seq - 1, kind, dict(payload),
                                      recorded_by=user, idempotency_key=uuid.uuid4().hex, hold_end=True)
            page.evaluate("() => window.LudologRecorder.refresh()")
            wait_stored(page, last_seq)

        return append

    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    token = get_random_string(32)  # the CSRF cookie and header the page would send, made up alike
    headers = {"Content-Type": "application/json", "X-CSRFToken": token, "Referer": f"{live_server.url}/",
               "Cookie": f"{settings.SESSION_COOKIE_NAME}={session}; {settings.CSRF_COOKIE_NAME}={token}"}

    def post(page: Any, events: list[tuple[str, Mapping[str, Any]]], last_seq: int) -> None:
        first_seq = last_seq - len(events) + 1
        for seq, (kind, payload) in enumerate(events, start=first_seq):
            body = {"expected_seq": seq - 1, "type": kind, "payload": dict(payload), "idempotency_key": uuid.uuid4().hex}
            request = urllib.request.Request(f"{live_server.url}/scorekeeping/{record.pk}/table/",
                                             data=json.dumps(body).encode(), headers=headers, method="POST")
            with urllib.request.urlopen(request, timeout=30) as answer:
                assert answer.status == 201, (seq, kind, payload, answer.read()[:300])
        page.evaluate("() => window.LudologRecorder.refresh()")
        wait_stored(page, last_seq)

    return post


def page_width(page: Any) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


def at_each_width(page: Any, look: Any) -> None:
    """``look(width)`` with the page at a phone's width and at a laptop's in turn, then back at
    the width it had: resized, not loaded again (its styles follow the width; a flow clicked
    through once a language is looked at on both screens)."""
    was = dict(page.viewport_size)
    for viewport in (PHONE, LAPTOP):
        page.set_viewport_size(dict(viewport))
        look(viewport["width"])
    page.set_viewport_size(was)


def assert_no_sideways_scroll(page: Any) -> None:
    width = page.viewport_size["width"]
    assert page_width(page) <= width, f"the page scrolls sideways: {page_width(page)} px wide at {width} px"


TAP_TARGET_PX = 44
SQUARE_PX = 24
"""A board square the tile may go to is tappable down to 24 px (WCAG 2.2's minimum target size):
the board shrinks its tiles that far to frame every square on a phone; a mis-tap only shows the
tile on the wrong square. Every other control, figure targets included, is at least 44 px."""


def assert_tap_targets(page: Any) -> None:
    """Every control of the recorder that is on screen is at least 44 px both ways (a board
    square at least 24 px), and none is covered by another element where it would be tapped."""
    small = page.evaluate("""([min, square]) => {
        const found = [];
        document.querySelectorAll('#recorder button, #recorder [role=button], #recorder summary').forEach(node => {
            const box = node.getBoundingClientRect();
            if (!box.width || !box.height || getComputedStyle(node).visibility === 'hidden') return;
            const least = node.dataset.testid === 'spot' ? square : min;
            if (box.width < least - 0.5 || box.height < least - 0.5)
                found.push((node.dataset.testid || node.textContent.trim().slice(0, 20) || node.tagName) +
                           ' ' + Math.round(box.width) + '×' + Math.round(box.height));
        });
        return found;
    }""", [TAP_TARGET_PX, SQUARE_PX])
    assert small == [], f"tap targets under {TAP_TARGET_PX} px (squares {SQUARE_PX} px): {small}"
    covered = page.evaluate("window.LudologRecorder && window.LudologRecorder.coveredTargets ? "
                            "window.LudologRecorder.coveredTargets() : []")
    assert covered == [], f"tap targets covered by another element: {covered}"


def shown_totals(page: Any) -> list[int]:
    return [int(text) for text in page.locator("#recorder-scores td.total").all_inner_texts()]
