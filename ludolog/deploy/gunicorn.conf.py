"""gunicorn for Ludolog: ``gunicorn -c ludolog/deploy/gunicorn.conf.py ludolog.wsgi``.

Sync workers, one per core and one more: a request is a few database queries and some Python,
never a long wait, so threads, async workers or many more processes buy nothing. Measured with
bench/bench_recording_api.py on 2 cores, 8 clients appending (2026-12-02): 2 workers 405–484
appends/s, 3 workers 526, 4 workers 368–479. nginx in front buffers slow clients.
"""

import gc
import multiprocessing
import os

bind = os.environ.get("LUDOLOG_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("LUDOLOG_WEB_WORKERS", multiprocessing.cpu_count() + 1))
worker_class = "sync"
timeout = 30
graceful_timeout = 30
# A worker is replaced after this many requests (with jitter), so that a slow leak never grows.
max_requests = 2000
max_requests_jitter = 200
# Trust nginx's X-Forwarded-* headers (it runs on the same machine).
forwarded_allow_ips = "127.0.0.1"
accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info").lower()


def post_request(worker, _request, _environ, _response) -> None:  # noqa: ANN001 (gunicorn's hook)
    """After a worker's first request, when Django has loaded what it loads lazily (the URLs, the
    views, the templates), set everything it holds aside from the cyclic garbage collector
    (``gc.freeze``): a full collection otherwise walks it all again. Measured in-process with
    ``gc.callbacks`` on the games list of the 10 million event store: pauses of 85-145 ms in one
    request of twenty, the slowest requests 175-245 ms; frozen, none of the slowest six paused
    and they took 150-160 ms."""
    if worker.nr == 1:
        gc.collect()
        gc.freeze()
