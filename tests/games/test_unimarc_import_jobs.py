"""A UNIMARC file uploaded in the admin is imported by a Celery task, not in the web request: the
upload answers at once with the job's page, which follows the progress (chunks of records, each
committed with the count that says so) and shows the report. Without a broker the task runs in
the request (``make run``); with one, on a real worker through Redis. A file with one record
that cannot be taken is refused whole: nothing imported, the record and the reason on the page."""

from __future__ import annotations

import html

import uuid
from pathlib import Path

import pymarc
import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from games import services
from games.jobs import ImportJob
from games.models import CatalogueRecord, Contribution, Copy, Person, UnimarcImport
from tests.workers import celery_worker, wait_for

UPLOAD = "/admin/games/cataloguerecord/import-unimarc/"


def unimarc_file(count: int, *, title: str = "Jeu", bad_record: int | None = None) -> bytes:
    """``count`` records as a PMB export would write them (ISO 2709, written by pymarc): a title, an
    author, a publisher and year, a language, a player count, a copy with its barcode. Record
    ``bad_record`` has an author's name longer than the catalogue holds."""
    records = []
    for number in range(1, count + 1):
        record = pymarc.Record(leader="00000nrm a2200000   4500", force_utf8=True)
        author = "A" * 300 if number == bad_record else f"Auteur{number % 97}"
        record.add_field(
            pymarc.Field(tag="101", indicators=["0", " "], subfields=[pymarc.Subfield("a", "fre")]),
            pymarc.Field(tag="200", indicators=["1", " "], subfields=[
                pymarc.Subfield("a", f"{title} {number:05d}"), pymarc.Subfield("b", "Jeu de société")]),
            pymarc.Field(tag="210", indicators=[" ", " "], subfields=[
                pymarc.Subfield("c", f"Éditeur {number % 13}"), pymarc.Subfield("d", "2019")]),
            pymarc.Field(tag="700", indicators=[" ", "1"], subfields=[
                pymarc.Subfield("a", author), pymarc.Subfield("b", "Anne"), pymarc.Subfield("4", "070")]),
            pymarc.Field(tag="900", indicators=[" ", " "], subfields=[
                pymarc.Subfield("a", "2"), pymarc.Subfield("n", "nb_joueurs_min")]),
            pymarc.Field(tag="995", indicators=[" ", " "], subfields=[
                pymarc.Subfield("f", f"{title[:3].upper()}{number:06d}"), pymarc.Subfield("k", "Étagère A")]),
        )
        records.append(record.as_marc())
    return b"".join(records)


unimarc_file.__test__ = False  # type: ignore[attr-defined]


@pytest.fixture
def librarian_client(client: Client) -> Client:
    client.force_login(get_user_model().objects.create_superuser("librarian", password="pw"))
    return client


def counts(report: dict) -> dict:
    return {outcome: report[outcome] for outcome in ("new", "updated", "unchanged", "duplicate", "refused")}


def upload(client: Client, data: bytes, name: str = "pmb.mrc"):
    return client.post(UPLOAD, {"file": SimpleUploadedFile(name, data, content_type="application/marc")})


def job_page(client: Client, job: UnimarcImport, *, htmx: bool = False) -> str:
    headers = {"HX-Request": "true"} if htmx else {}
    answer = client.get(f"/admin/games/unimarcimport/{job.pk}/change/", headers=headers)
    assert answer.status_code == 200
    return answer.content.decode()


# -- without a broker: the task runs in the request (make run) -----------------------------------


@pytest.mark.django_db(transaction=True)  # the task is queued when the upload commits
def test_without_a_broker_the_upload_imports_in_chunks_and_shows_the_report(
        librarian_client: Client, celery_eager, imports_root: Path, settings):
    settings.LUDOLOG_IMPORT_CHUNK = 40
    answer = upload(librarian_client, unimarc_file(130), "ludo.mrc")
    job = UnimarcImport.objects.get()
    assert answer.status_code == 302 and answer["Location"] == f"/admin/games/unimarcimport/{job.pk}/change/"
    assert (job.status, job.total, job.done) == (ImportJob.Status.DONE, 130, 130)
    assert counts(job.report) == {"new": 130, "updated": 0, "unchanged": 0, "duplicate": 0, "refused": 0}
    assert job.file_name == "ludo.mrc" and job.started_by.username == "librarian"
    assert job.started_at <= job.finished_at
    # The file is kept where no web server serves it, under a name of our own.
    assert (imports_root / job.file.name).read_bytes() == unimarc_file(130)
    assert job.file.name.startswith("unimarcimport/") and "ludo" not in job.file.name
    assert CatalogueRecord.objects.count() == 130 and Copy.objects.count() == 130
    assert CatalogueRecord.objects.get(title="Jeu 00007").min_players == 2

    page = job_page(librarian_client, job)
    assert 'data-status="done"' in page and "130 of 130" in page and "130 records new to the catalogue" in page
    assert "hx-trigger" not in page, "a finished job's page stops asking"
    french = librarian_client.get(f"/admin/games/unimarcimport/{job.pk}/change/", headers={"Accept-Language": "fr"})
    assert "<strong>Terminé</strong>: 130 sur 130" in " ".join(french.content.decode().split())
    assert "130 notices nouvelles au catalogue" in french.content.decode()

    upload(librarian_client, unimarc_file(130), "ludo.mrc")
    again = UnimarcImport.objects.order_by("pk").last()
    assert counts(again.report) == {"new": 0, "updated": 0, "unchanged": 130, "duplicate": 0, "refused": 0}
    assert CatalogueRecord.objects.count() == 130, "the same file again changes nothing"
    assert "130 unchanged" in job_page(librarian_client, again)


@pytest.mark.django_db(transaction=True)  # the task is queued when the upload commits
def test_a_record_that_cannot_be_taken_is_refused_alone_on_the_jobs_page_in_the_readers_language(
        librarian_client: Client, celery_eager, imports_root: Path, settings):
    settings.LUDOLOG_IMPORT_CHUNK = 10
    upload(librarian_client, unimarc_file(60, bad_record=45))
    job = UnimarcImport.objects.get()
    assert job.status == ImportJob.Status.DONE and job.done == 60
    assert counts(job.report) == {"new": 59, "updated": 0, "unchanged": 0, "duplicate": 0, "refused": 1}
    assert CatalogueRecord.objects.count() == 59 and not CatalogueRecord.objects.filter(title="Jeu 00045").exists()
    page = html.unescape(job_page(librarian_client, job))
    assert "Record 45 (Jeu 00045): person name 'Anne AAAA" in page and "longer than 200 characters" in page
    french = html.unescape(librarian_client.get(f"/admin/games/unimarcimport/{job.pk}/change/",
                                                headers={"Accept-Language": "fr"}).content.decode())
    assert "Notice 45 (Jeu 00045)" in french and "dépasse 200 caractères" in french


@pytest.mark.django_db
def test_a_job_taken_up_again_goes_on_after_its_last_chunk(imports_root: Path):
    """As when its worker was lost after committing some chunks and the broker delivered the task
    again: the records already stored are not stored again, the report goes on counting."""
    data = unimarc_file(25)
    first_ten = services.import_unimarc(unimarc_file(10)).report
    job = services.start_unimarc_import(SimpleUploadedFile("f.mrc", data))
    job.status, job.total, job.done, job.report = ImportJob.Status.IMPORTING, 25, 10, first_ten
    job.save()
    services.run_unimarc_import(job, chunk=4)
    job.refresh_from_db()
    assert (job.status, job.done) == (ImportJob.Status.DONE, 25)
    assert counts(job.report) == {"new": 25, "updated": 0, "unchanged": 0, "duplicate": 0, "refused": 0}
    assert CatalogueRecord.objects.count() == 25
    services.run_unimarc_import(job, chunk=4)  # delivered once more: finished, left alone
    job.refresh_from_db()
    assert counts(job.report)["new"] == 25


@pytest.mark.django_db
def test_only_librarians_upload_and_follow_imports(client: Client, celery_eager, imports_root: Path):
    reader = get_user_model().objects.create_user("reader", password="pw", is_staff=True)
    client.force_login(reader)
    assert client.post(UPLOAD, {"file": SimpleUploadedFile("f.mrc", unimarc_file(2))}).status_code == 403
    assert not UnimarcImport.objects.exists()
    job = services.start_unimarc_import(SimpleUploadedFile("f.mrc", unimarc_file(2)))
    assert client.get(f"/admin/games/unimarcimport/{job.pk}/change/").status_code == 403


# -- with a broker: a real worker through Redis --------------------------------------------------


@pytest.mark.slow(seconds=25)
@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_on_a_real_worker_the_upload_answers_at_once_and_the_page_follows_the_progress(
        librarian_client: Client, imports_root: Path, settings, tmp_path: Path):
    queue = f"ludolog-imports-{uuid.uuid4().hex[:8]}"
    settings.LUDOLOG_IMPORT_QUEUE = queue
    total = 240
    answer = upload(librarian_client, unimarc_file(total))
    job = UnimarcImport.objects.get()
    assert answer.status_code == 302 and job.status == ImportJob.Status.QUEUED, "queued, not imported in the request"
    assert 'data-status="queued"' in job_page(librarian_client, job, htmx=True)

    seen: list[tuple[str, int]] = []

    def finished() -> bool:
        job.refresh_from_db()
        seen.append((job.status, job.done))
        return job.finished

    with celery_worker(queue, tmp_path / "worker.log", LUDOLOG_IMPORT_CHUNK="30"):
        wait_for(finished, timeout=180, what="the import")
    assert (job.status, job.done, counts(job.report)) == (ImportJob.Status.DONE, total, {
        "new": total, "updated": 0, "unchanged": 0, "duplicate": 0, "refused": 0}), (tmp_path / "worker.log").read_text()
    under_way = sorted({done for status, done in seen if status == ImportJob.Status.IMPORTING and 0 < done < total})
    assert under_way and all(done % 30 == 0 for done in under_way), f"progress seen in chunks: {seen[-20:]}"
    assert CatalogueRecord.objects.count() == total
    fragment = job_page(librarian_client, job, htmx=True)
    assert fragment.startswith('<div id="import-job" data-status="done"') and f"{total} of {total}" in fragment
