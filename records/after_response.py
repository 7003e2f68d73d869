"""Work handed off until the response has been sent: what the client need not wait for.

A web request runs inside a scope (``ludolog.middleware.AfterResponseMiddleware``); work given
to :func:`defer` inside it runs once the response has gone out (when the WSGI server closes
it, before the request's connections are closed), in order, each failure logged and none
stopping the others. Outside a request (a management command, a worker, a test calling the
services directly) there is no response to wait for, and the work runs at once.

Eager mode (no broker) scores a finished game this way (``scoring.receivers``): the append
that finishes it answers first, and the same process scores it after the response, instead of
inside the append. With a broker the task is queued once the event is committed, as before.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

logger = logging.getLogger(__name__)

_local = threading.local()


def open_scope() -> list[Callable[[], None]]:
    """Start collecting the work of this thread's request; returns the list it goes to."""
    jobs: list[Callable[[], None]] = []
    _local.jobs = jobs
    return jobs


def close_scope() -> list[Callable[[], None]]:
    """Stop collecting; returns what was deferred."""
    jobs = getattr(_local, "jobs", None) or []
    _local.jobs = None
    return jobs


def in_scope() -> bool:
    return getattr(_local, "jobs", None) is not None


def defer(job: Callable[[], None]) -> None:
    """Run ``job`` after this request's response has been sent, or now outside a request."""
    jobs = getattr(_local, "jobs", None)
    if jobs is None:
        job()
    else:
        jobs.append(job)


def run(jobs: list[Callable[[], None]]) -> None:
    for job in jobs:
        try:
            job()
        except Exception:  # the response is gone: nobody to tell but the log
            logger.exception("work deferred after the response failed")
