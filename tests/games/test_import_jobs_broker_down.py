"""An import uploaded while the broker is down: the upload answers as usual (its job is stored,
queued), nothing is lost, and once the broker is back the beat's sweep asks for the job's task
again, which imports it (``games.jobs``). The catalogue's import page stands for the three
imports (catalogue, record files, play histories), which queue their jobs the same way."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone

from accounts.roles import Role
from games import jobs
from games.models import CatalogueRecord, UnimarcImport
from tests.brokers import CLOSED, broker_at
from tests.factories import give_role, pmb_like_file
from tests.web.test_catalogue_import_page import mapping_post

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("celery_eager", "imports_root", "in_english")]


@pytest.fixture(autouse=True)
def commits_at_once(monkeypatch):
    """What a request would do once its transaction commits, done at once (the test's is never)."""
    monkeypatch.setattr(jobs.transaction, "on_commit", lambda run, **kwargs: run())


def test_an_import_uploaded_with_the_broker_down_waits_and_the_sweep_runs_it(django_user_model):
    import games.tasks  # noqa: F401  (registers the catalogue's jobs with the sweep, as a worker does)

    client = Client()
    client.force_login(give_role(django_user_model.objects.create_user("librarian"), Role.LIBRARIAN))
    with broker_at(CLOSED):
        answer = client.post("/catalogue/import/", {**mapping_post(), "file": SimpleUploadedFile(
            "pmb.mrc", pmb_like_file())})
        assert answer.status_code in (200, 302), answer.status_code
        job = UnimarcImport.objects.get()
        assert job.status == UnimarcImport.Status.QUEUED
        assert jobs.queue_waiting_jobs() == 0, "a job just uploaded is not asked for again at once"
        later = timezone.now() + dt.timedelta(minutes=11)
        assert jobs.queue_waiting_jobs(now=later) == 0, "the broker still down: nothing taken"
    job.refresh_from_db()
    assert job.status == UnimarcImport.Status.QUEUED and not CatalogueRecord.objects.exists()
    assert jobs.queue_waiting_jobs(now=later) == 1  # the broker back: the beat's sweep
    job.refresh_from_db()
    assert job.status == UnimarcImport.Status.DONE and job.dry_run
