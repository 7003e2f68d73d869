"""Record files imported from the admin by a Celery task (:mod:`games.jobs`): one
``ludolog-record/1`` file, or a ZIP archive of them (a club's history as ``export_records`` writes
it, zipped). Each file is stored whole or refused with its reason, as ``import_records`` does;
the job's report lists the records made and the files refused.

Each file is imported in a transaction with the progress that counts it, so a task delivered
again after its worker was lost goes on with the next file and never stores one twice.
"""

from __future__ import annotations

import json
import zipfile
from typing import IO, Any

from django.db import transaction

from .files import RecordFileError, import_document
from .models import RecordFileImport

MAX_FILES = 10_000
"""Files an archive may hold."""
MAX_FILE_BYTES = 5_000_000
"""The size of one record file (5,000 events take under 2 MB)."""


class RecordFiles:
    """The record files of an upload: the files of a ZIP archive that end in ``.json``, in name
    order, or the upload itself; read one at a time."""

    def __init__(self, stored: IO[bytes]) -> None:
        self.stored = stored
        self.archive = zipfile.ZipFile(stored) if zipfile.is_zipfile(stored) else None
        stored.seek(0)
        if self.archive is None:
            self.names = ["(the file)"]
            return
        members = sorted((m for m in self.archive.infolist() if _is_record_file(m.filename)),
                         key=lambda m: m.filename)
        if not members:
            raise RecordFileError("the archive holds no .json file", reason="no_record_file")
        if len(members) > MAX_FILES:
            raise RecordFileError(f"an archive holds at most {MAX_FILES} files, and this one {len(members)}",
                                  reason="too_many_files")
        self.members = members
        self.names = [m.filename for m in members]

    def document(self, index: int) -> Any:
        """The ``index``-th file's JSON, or a refusal saying why it is not a record file's."""
        if self.archive is None:
            data = self.stored.read(MAX_FILE_BYTES + 1)
        else:
            member = self.members[index]
            if member.file_size > MAX_FILE_BYTES:
                raise RecordFileError(f"a record file is at most {MAX_FILE_BYTES // 1_000_000} MB",
                                      reason="too_large")
            try:
                data = self.archive.read(member)
            except (zipfile.BadZipFile, OSError, EOFError) as error:
                raise RecordFileError(f"cannot be read from the archive: {error}", reason="unreadable") from None
        if len(data) > MAX_FILE_BYTES:
            raise RecordFileError(f"a record file is at most {MAX_FILE_BYTES // 1_000_000} MB", reason="too_large")
        try:
            return json.loads(data)
        except ValueError as error:
            raise RecordFileError(f"not JSON: {error}", reason="parse_error") from None
        except RecursionError:
            raise RecordFileError("not JSON that can be read: nested too deep", reason="parse_error") from None


def _is_record_file(name: str) -> bool:
    last = name.rsplit("/", 1)[-1]
    return name.endswith(".json") and not name.startswith("__MACOSX/") and not last.startswith(".")


def start_record_file_import(upload: Any, started_by: Any = None) -> RecordFileImport:
    """Keep an uploaded record file or archive with a new job; :func:`records.tasks.queue_record_file_import`
    has it imported."""
    return RecordFileImport.objects.create(file=upload, file_name=getattr(upload, "name", "") or "",
                                           started_by=started_by)


def run_record_file_import(job: RecordFileImport) -> None:
    """Import a job's files, each in a transaction with the progress that counts it; the records
    are imported by the user who uploaded them. A job taken up again goes on with the file after
    the last one counted; one finished is left as it is."""
    if job.finished:
        return
    job.begin()
    with job.file.open("rb") as stored:
        try:
            files = RecordFiles(stored)
        except (zipfile.BadZipFile, OSError) as error:
            job.refuse(f"the archive cannot be read: {error}")
            return
        except RecordFileError as error:
            job.refuse(error.message)
            return
        job.importing(len(files.names))
        report: dict[str, list[dict[str, Any]]] = {"imported": [], "refused": [], **job.report}
        for index in range(job.done, len(files.names)):
            name = files.names[index] if files.archive is not None else job.file_name
            with transaction.atomic():
                try:
                    record = import_document(files.document(index), imported_by=job.started_by)
                except Exception as error:
                    # Refusals carry a stable reason (a bad file, an illegal action); anything
                    # else is not the file's fault, and stops the job.
                    reason = getattr(error, "reason", None)
                    if reason is None:
                        raise
                    report["refused"].append({"file": name, "reason": str(reason),
                                              "detail": str(getattr(error, "message", error))})
                else:
                    report["imported"].append({"file": name, "record": record.pk})
                job.advance(index + 1, report)
    job.finish(report)
