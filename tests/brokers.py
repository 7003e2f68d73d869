"""Brokers for the tests: the in-process Celery app pointed at another broker for one test (a
closed port, a broker that is down, or a redis-server of the test's own), and that redis-server
(:class:`OwnRedis`)."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ludolog.celery import app
from tests.factories import free_port
from tests.workers import wait_for

CLOSED = "redis://127.0.0.1:1/0"
"""Nothing listens on port 1: a broker that is down, refusing at once."""


def _forget_connections() -> None:
    # The app keeps its connection pool (and the producers over it) for the broker it first used.
    app._pool = None  # noqa: SLF001
    if "amqp" in app.__dict__:
        app.__dict__["amqp"]._producer_pool = None  # noqa: SLF001


@contextmanager
def broker_at(url: str) -> Iterator[None]:
    """Tasks go through the broker at ``url`` (not in-process) until the block ends."""
    before = {key: app.conf[key] for key in ("broker_url", "task_always_eager")}
    environment = os.environ.get("CELERY_BROKER_URL")
    os.environ["CELERY_BROKER_URL"] = url  # Celery reads it before its settings
    app.conf.update(broker_url=url, task_always_eager=False)
    _forget_connections()
    try:
        yield
    finally:
        if environment is None:
            os.environ.pop("CELERY_BROKER_URL", None)
        else:
            os.environ["CELERY_BROKER_URL"] = environment
        app.conf.update(**before)
        _forget_connections()


REDIS_SERVER = "/usr/bin/redis-server"


class OwnRedis:
    """A throwaway redis-server on a free port, killed and started again at will (never the
    shared one on 6379)."""

    def __init__(self, log_dir: Path) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.log_dir = log_dir
        self.process: subprocess.Popen | None = None
        self.starts = 0

    def start(self) -> None:
        self.starts += 1
        log = open(self.log_dir / f"redis-{self.starts}.log", "w")
        self.process = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--daemonize", "no"],
            stdout=log, stderr=subprocess.STDOUT,
        )
        wait_for(self.answers, timeout=20, what="the test's redis-server to answer")

    def answers(self) -> bool:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
        return False

    def kill(self) -> None:
        assert self.process is not None
        self.process.kill()
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.kill()
