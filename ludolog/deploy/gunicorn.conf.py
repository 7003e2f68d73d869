"""gunicorn for Ludolog: ``gunicorn -c ludolog/deploy/gunicorn.conf.py ludolog.wsgi``.

Sync workers, two per core and one more: a request is a few database queries and some Python,
never a long wait, so threads or async workers buy nothing. nginx in front buffers slow clients.
"""

import multiprocessing
import os

bind = os.environ.get("LUDOLOG_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("LUDOLOG_WEB_WORKERS", multiprocessing.cpu_count() * 2 + 1))
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
