"""What the tournaments hear from the event store: a table's recorded game finished enters the
table's result (``services.enter_recorded_result``). ``records`` never imports the tournaments.

The signal comes once the finishing transaction commits, in the process that finished the
record; the result is entered after the response (``records.after_response``, at once outside a
request), with or without a Celery broker: no task is involved. A failure is logged and leaves
the table without result, which its page then offers to enter by hand."""

from __future__ import annotations

import logging

from records import after_response
from records.signals import record_finished, records_finished

from .errors import TournamentError

logger = logging.getLogger(__name__)


def _enter(record_ids: list[int]) -> None:
    from . import services
    from .models import TableRecording

    try:
        recorded = list(TableRecording.objects.filter(game_record_id__in=record_ids)
                        .values_list("game_record_id", flat=True))
    except Exception:
        logger.exception("could not look for the tournament tables of records %s…", record_ids[:3])
        return
    for record_id in recorded:
        try:
            services.enter_recorded_result(record_id)
        except TournamentError as error:  # the result entered by hand meanwhile, the starter no longer at the table
            logger.info("the result of record %s was not entered for its table: %s", record_id, error.reason)
        except Exception:
            logger.exception("could not enter the result of record %s for its tournament table", record_id)


def record_ended(sender, record_id: int, **kwargs) -> None:
    after_response.defer(lambda: _enter([record_id]))


def records_ended(sender, record_ids: list[int], **kwargs) -> None:
    after_response.defer(lambda: _enter(list(record_ids)))


def connect() -> None:
    record_finished.connect(record_ended, dispatch_uid="tournaments.record_ended")
    records_finished.connect(records_ended, dispatch_uid="tournaments.records_ended")
