"""How scoring hears about finished games without records importing scoring."""

from __future__ import annotations

import logging

from records.signals import record_finished

logger = logging.getLogger(__name__)


def queue_scoring(sender, record_id: int, **kwargs) -> None:
    from .tasks import score_record, scoring_queue

    try:
        score_record.apply_async((record_id,), queue=scoring_queue())
    except Exception:  # the broker may be down; the periodic sweep scores the record later
        logger.exception("could not queue scoring of record %s; the sweep will pick it up", record_id)


def connect() -> None:
    record_finished.connect(queue_scoring, dispatch_uid="scoring.queue_scoring")
