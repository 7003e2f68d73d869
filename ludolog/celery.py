"""The Celery application.

Without ``CELERY_BROKER_URL`` the settings put Celery in eager mode: tasks run in-process, so a
first run needs no broker. With it, tasks go through the broker to ``make worker``.
"""

import logging
import os

from celery import Celery
from kombu.transport import redis as kombu_redis
from kombu.transport import virtual as kombu_virtual

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludolog.settings")

logger = logging.getLogger(__name__)



class _RedisQoS(kombu_redis.QoS):
    """Kombu's Redis QoS, minus the crashes when a worker's broker connection drops.

    Celery 5.7.0 closes the lost connection (``Consumer.on_connection_error_after_connected``)
    after ``collect()`` has already detached its transport. Closing the channel then tries to put
    the unacknowledged ``acks_late`` messages back with a client that no longer exists, and a task
    that finishes after the reconnection acknowledges its message on that dead channel: both raise
    ``AttributeError`` ('NoneType' object has no attribute 'hostname' / 'client'), which
    ``ignore_errors`` and ``ack_log_error`` do not catch (they catch connection errors):
    "Unrecoverable error", the worker exits. Nothing can be put back or acknowledged through a
    connection that is gone, so nothing is tried: the messages stay in Redis's unacked set and
    Redis delivers them again after the visibility timeout, as it does for a worker that dies
    holding tasks (every task is idempotent). Celery 5.6.3 does not crash here, but ignores
    settings changed at run time, so the fix lives here rather than in a pin.
    """

    def _connection_gone(self) -> bool:
        transport = self.channel.connection
        return transport is None or transport.client is None

    def restore_unacked(self, client=None):
        if client is None and self._connection_gone():
            logger.warning(
                "broker connection lost holding %d unacknowledged message(s): Redis delivers them "
                "again after the visibility timeout", len(self._delivered),
            )
            self._delivered.clear()
            return None
        return super().restore_unacked(client)

    def ack(self, delivery_tag) -> None:
        if self._connection_gone():
            logger.warning("message %s not acknowledged (its broker connection is gone): Redis delivers it "
                           "again after the visibility timeout", delivery_tag)
            kombu_virtual.QoS.ack(self, delivery_tag)
            return
        super().ack(delivery_tag)

    def reject(self, delivery_tag, requeue=False) -> None:
        if self._connection_gone():
            kombu_virtual.QoS.ack(self, delivery_tag)
            return
        super().reject(delivery_tag, requeue=requeue)


class _RedisChannel(kombu_redis.Channel):
    QoS = _RedisQoS


class RedisTransport(kombu_redis.Transport):
    """The Redis transport the settings name when the broker is Redis (``CELERY_BROKER_TRANSPORT``)."""

    Channel = _RedisChannel


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
