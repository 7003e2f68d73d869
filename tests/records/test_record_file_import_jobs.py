"""Record files uploaded in the admin (one file, or a ZIP archive of a club's history) are imported
by a Celery task, file by file: each stored whole or refused with its reason, the progress and
the report on the job's page. In-process without a broker; on a real worker through Redis."""

from __future__ import annotations

import io
import json
import uuid
import zipfile
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from games.jobs import ImportJob
from records import file_imports
from records.models import Event, GameRecord, RecordFileImport
from tests.factories import simulated_document
from tests.workers import celery_worker, wait_for

UPLOAD = "/admin/records/gamerecord/import-files/"


def archive(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zipped:
        for name, data in files.items():
            zipped.writestr(name, data)
    return buffer.getvalue()


def record_file(game: str = "carcassonne", seed: int = 3, **change) -> bytes:
    document = simulated_document(game, 2, seed)
    document.update(change)
    return json.dumps(document).encode()


def history() -> bytes:
    """A club's history as export_records writes it, zipped: three games, a file whose tenth event
    is illegal, one that is not JSON, and what an archiver adds beside them."""
    illegal = simulated_document("carcassonne", 2, 5)
    illegal["events"][9]["payload"]["x"] = 40
    return archive({
        "history/record-000001-carcassonne.json": record_file("carcassonne", 3),
        "history/record-000002-hunters-gatherers.json": record_file("hunters-gatherers", 4),
        "history/record-000003-carcassonne.json": json.dumps(illegal).encode(),
        "history/record-000004-notes.json": b"{ not json",
        "history/record-000005-stone-age.json": record_file("stone-age", 5),
        "history/README.txt": b"exported by Ludolog",
        "__MACOSX/history/._record-000001-carcassonne.json": b"\x00\x05\x16\x07",
    })


@pytest.fixture
def keeper_client(client: Client):
    user = get_user_model().objects.create_superuser("archivist", password="pw")
    client.force_login(user)
    return client, user


def upload(client: Client, data: bytes, name: str):
    return client.post(UPLOAD, {"file": SimpleUploadedFile(name, data)})


@pytest.mark.django_db(transaction=True)  # the task is queued when the upload commits
def test_without_a_broker_an_archive_is_imported_file_by_file_with_a_report(keeper_client, celery_eager,
                                                                           imports_root: Path):
    client, archivist = keeper_client
    uploaded = history()
    answer = upload(client, uploaded, "club.zip")
    job = RecordFileImport.objects.get()
    assert answer.status_code == 302 and answer["Location"] == f"/admin/records/recordfileimport/{job.pk}/change/"
    assert (job.status, job.total, job.done) == (ImportJob.Status.DONE, 5, 5)
    assert [line["file"] for line in job.report["imported"]] == [
        "history/record-000001-carcassonne.json", "history/record-000002-hunters-gatherers.json",
        "history/record-000005-stone-age.json"]
    refused = {line["file"]: line for line in job.report["refused"]}
    assert refused["history/record-000003-carcassonne.json"]["detail"].startswith("event 10")
    assert refused["history/record-000004-notes.json"]["reason"] == "parse_error"
    records = GameRecord.objects.order_by("pk")
    assert [r.pk for r in records] == [line["record"] for line in job.report["imported"]]
    assert [r.game_slug for r in records] == ["carcassonne", "hunters-gatherers", "stone-age"]
    assert all(r.created_by == archivist for r in records), "imported by the one who uploaded"
    assert set(Event.objects.values_list("recorded_by", flat=True)) == {archivist.pk}
    assert Event.objects.count() == sum(len(simulated_document(g, 2, s)["events"])
                                        for g, s in (("carcassonne", 3), ("hunters-gatherers", 4), ("stone-age", 5)))
    assert (imports_root / job.file.name).read_bytes() == uploaded

    page = client.get(f"/admin/records/recordfileimport/{job.pk}/change/").content.decode()
    assert "3 records imported" in page and "2 files refused" in page and 'data-status="done"' in page
    assert 'data-refused="history/record-000004-notes.json"' in page
    assert f'href="/admin/records/gamerecord/{records[0].pk}/change/"' in page


@pytest.mark.django_db(transaction=True)
def test_one_record_file_is_imported_and_one_that_is_not_json_is_refused(keeper_client, celery_eager,
                                                                         imports_root: Path):
    client, _archivist = keeper_client
    upload(client, record_file("hunters-gatherers", 4), "game.json")
    upload(client, b"\xff\xfe not a record", "game.json")
    good, bad = RecordFileImport.objects.order_by("pk")
    assert good.report["imported"] == [{"file": "game.json", "record": GameRecord.objects.get().pk}]
    assert bad.status == ImportJob.Status.DONE and bad.report["imported"] == []
    assert bad.report["refused"][0]["reason"] == "parse_error" and GameRecord.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_an_archive_without_a_record_file_is_refused(keeper_client, celery_eager, imports_root: Path):
    client, _archivist = keeper_client
    upload(client, archive({"notes.txt": b"nothing here"}), "empty.zip")
    job = RecordFileImport.objects.get()
    assert (job.status, job.error) == (ImportJob.Status.REFUSED, "the archive holds no .json file")
    assert "Refused: nothing imported" in client.get(f"/admin/records/recordfileimport/{job.pk}/change/").content.decode()


@pytest.mark.django_db
def test_a_job_taken_up_again_goes_on_with_the_next_file(imports_root: Path):
    data = archive({f"{n}.json": record_file("carcassonne", n) for n in (1, 2, 3)})
    job = file_imports.start_record_file_import(SimpleUploadedFile("three.zip", data))
    job.status, job.total, job.done = ImportJob.Status.IMPORTING, 3, 2
    job.report = {"imported": [{"file": "1.json", "record": 0}, {"file": "2.json", "record": 0}], "refused": []}
    job.save()
    file_imports.run_record_file_import(job)
    job.refresh_from_db()
    assert job.status == ImportJob.Status.DONE and [line["file"] for line in job.report["imported"]] == [
        "1.json", "2.json", "3.json"]
    assert GameRecord.objects.get().seed == 3, "the files counted already are not imported again"


@pytest.mark.django_db
def test_only_who_may_add_records_uploads_them(client: Client, imports_root: Path):
    staff = get_user_model().objects.create_user("staff", password="pw", is_staff=True)
    client.force_login(staff)
    assert client.post(UPLOAD, {"file": SimpleUploadedFile("g.json", record_file())}).status_code == 403
    assert not RecordFileImport.objects.exists()
    staff.user_permissions.add(Permission.objects.get(codename="add_gamerecord"))
    assert client.get(UPLOAD).status_code == 200


@pytest.mark.slow(seconds=20)
@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_on_a_real_worker_the_archive_is_imported_after_the_upload_answered(keeper_client, imports_root: Path,
                                                                           settings, tmp_path: Path):
    client, archivist = keeper_client
    queue = f"ludolog-imports-{uuid.uuid4().hex[:8]}"
    settings.LUDOLOG_IMPORT_QUEUE = queue
    upload(client, history(), "club.zip")
    job = RecordFileImport.objects.get()
    assert job.status == ImportJob.Status.QUEUED and not GameRecord.objects.exists()

    def finished() -> bool:
        job.refresh_from_db()
        return job.finished

    with celery_worker(queue, tmp_path / "worker.log"):
        wait_for(finished, timeout=180, what="the import")
    assert (job.status, job.done, len(job.report["imported"]), len(job.report["refused"])) == (
        ImportJob.Status.DONE, 5, 3, 2), (tmp_path / "worker.log").read_text()
    assert set(GameRecord.objects.values_list("created_by", flat=True)) == {archivist.pk}
