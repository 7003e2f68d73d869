"""The Celery application.

Without ``CELERY_BROKER_URL`` the settings put Celery in eager mode: tasks run in-process, so a
first run needs no broker. With it, tasks go through the broker to ``make worker``.
"""

import logging
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludolog.settings")

logger = logging.getLogger(__name__)

app = Celery("ludolog")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def warm_up_producer(queue: str | None = None) -> bool:
    """Connect to the broker, load the result backend and declare ``queue`` now.

    A web process otherwise pays for all three inside the first request that queues a task (the
    append that finishes a game: 50 ms on an idle machine, 150–250 ms under load). Called once
    per process at start-up (``ludolog.wsgi``). A broker that is down is not an error here: the
    first task queued connects (or fails and the scoring sweep catches up). Returns whether the
    broker answered.
    """
    if app.conf.task_always_eager:
        return False
    try:
        app.finalize(auto=True)
        app.backend  # noqa: B018 (loading it is the point)
        with app.producer_or_acquire() as producer:
            producer.connection.ensure_connection(max_retries=0)
            producer.maybe_declare(app.amqp.queues[queue or app.conf.task_default_queue])
    except Exception:  # noqa: BLE001
        logger.warning("the broker did not answer at start-up; the first queued task will connect", exc_info=True)
        return False
    return True
