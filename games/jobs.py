"""Imports too long for a web request: the uploaded file is stored with a job, a Celery task does
the work in chunks and writes its progress and its report on the job, and an admin page
(:mod:`games.jobs_admin`) shows them while it runs. Without a broker (``make run``) the task runs
in the request itself.

:class:`ImportJob` is what every such job keeps; each app that owns an import has its model on
it (the catalogue's UNIMARC imports here, the record files in ``records``). A chunk's writes and
the progress that counts them are committed together, so that a task delivered again after its
worker was lost goes on from the first chunk not done.

The task is asked for once the upload commits (:func:`queue_on_commit`); a broker that is down
then does not fail the upload, whose job is stored: the job waits, queued, and the beat's sweep
(:func:`queue_waiting_jobs`) asks for its task again. A task asked for twice (a job that waited in
a backed-up queue longer than the sweep's patience) imports nothing twice: every import matches
what it stores against what is there (a catalogue record by its source identifier, a play by its
id, a record file by its events).
"""

from __future__ import annotations

import datetime as dt
import logging
import uuid
from typing import Any

from django.conf import settings
from django.core.files.storage import Storage, storages
from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from outbox.broker import queue_once

logger = logging.getLogger(__name__)

_WAITING: list[tuple[type[models.Model], Any]] = []
"""Each app's job model and the task that runs its jobs (:func:`runs_jobs`)."""


def import_queue() -> str | None:
    """The queue import tasks go to (None: Celery's default queue, the one ``make worker`` reads)."""
    return getattr(settings, "LUDOLOG_IMPORT_QUEUE", "") or None


def import_storage() -> Storage:
    """Where uploaded import files are kept: ``LUDOLOG_IMPORTS_ROOT``, never served."""
    return storages["imports"]


def stored_name(job: ImportJob, filename: str) -> str:
    """A name of our own (the uploader's is kept in ``file_name``)."""
    return f"{job._meta.model_name}/{uuid.uuid4().hex}"


class ImportJob(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        CHECKING = "checking", _("checking the file")
        IMPORTING = "importing", _("importing")
        DONE = "done", _("done")
        REFUSED = "refused", _("refused: nothing imported")
        FAILED = "failed", _("failed")

    FINISHED = (Status.DONE, Status.REFUSED, Status.FAILED)

    file = models.FileField(_("file"), storage=import_storage, upload_to=stored_name)
    file_name = models.CharField(_("file name"), max_length=255, help_text=_("As it was uploaded."))
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.QUEUED)
    total = models.PositiveIntegerField(_("total"), default=0)
    done = models.PositiveIntegerField(_("done so far"), default=0)
    report = models.JSONField(_("report"), default=dict, blank=True)
    error = models.TextField(_("why it stopped"), blank=True)
    started_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+", verbose_name=_("started by"))
    created_at = models.DateTimeField(_("uploaded at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        abstract = True
        ordering = ["-created_at"]

    @property
    def finished(self) -> bool:
        return self.status in self.FINISHED

    @property
    def percent(self) -> int:
        if self.status == self.Status.DONE:
            return 100
        return 100 * self.done // self.total if self.total else 0

    def _set(self, **fields: Any) -> None:
        for name, value in fields.items():
            setattr(self, name, value)
        self.save(update_fields=list(fields))

    def begin(self) -> None:
        """The task took the job: the file is being read and checked."""
        self._set(status=self.Status.CHECKING, started_at=self.started_at or timezone.now())

    def importing(self, total: int) -> None:
        """The file was checked whole: ``total`` items to import."""
        self._set(status=self.Status.IMPORTING, total=total)

    def advance(self, done: int, report: dict[str, Any]) -> None:
        """Save the progress: call it in the transaction of the chunk it counts."""
        self._set(done=done, report=report)

    def refuse(self, reason: str) -> None:
        self._set(status=self.Status.REFUSED, error=reason, finished_at=timezone.now())

    def fail(self, reason: str) -> None:
        self._set(status=self.Status.FAILED, error=reason, finished_at=timezone.now())

    def finish(self, report: dict[str, Any]) -> None:
        self._set(status=self.Status.DONE, report=report, done=self.total, finished_at=timezone.now())


def runs_jobs(model: type[ImportJob], task: Any) -> None:
    """Say that ``task`` (a Celery task taking a job's id) runs ``model``'s jobs, for the sweep."""
    if (model, task) not in _WAITING:
        _WAITING.append((model, task))


def ask_for(task: Any, job_id: int) -> bool:
    """Queue ``task`` for job ``job_id``; whether the broker took it. A broker that does not answer
    is logged and the job left waiting for the sweep: never an error for the caller."""
    try:
        queue_once(task, (job_id,), queue=import_queue())
    except Exception as error:  # noqa: BLE001 (the job is stored: whatever the broker says, it waits)
        logger.warning("import job %s of %s not queued (%s: %s): the sweep will queue it", job_id, task.name,
                       type(error).__name__, error)
        return False
    return True


def queue_on_commit(task: Any, job: ImportJob) -> None:
    """Have ``task`` run ``job`` once the transaction that made it commits (in-process and at once
    without a broker)."""
    transaction.on_commit(lambda: ask_for(task, job.pk))


def queue_waiting_jobs(now: dt.datetime | None = None) -> int:
    """Ask again for the task of every job still queued ``LUDOLOG_IMPORT_REQUEUE_SECONDS`` after
    its upload (its first asking was lost with the broker); how many were asked for."""
    now = now or timezone.now()
    patience = dt.timedelta(seconds=getattr(settings, "LUDOLOG_IMPORT_REQUEUE_SECONDS", 600))
    asked = 0
    for model, task in _WAITING:
        waiting = model._default_manager.filter(status=ImportJob.Status.QUEUED, created_at__lte=now - patience)
        for job_id in waiting.values_list("pk", flat=True)[:100]:
            asked += ask_for(task, job_id)
    return asked
