"""An import's page in Chromium follows its job as the worker moves it on: htmx asks for the
progress every two seconds under the site's Content-Security-Policy, and stops once it is done."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile

from games.jobs import ImportJob
from games.services import start_unimarc_import
from tests.browser.recorder_driver import LAPTOP, logged_in_page

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.slow(seconds=8)
def test_the_jobs_page_follows_the_progress_until_the_report(browser, live_server, imports_root):
    librarian = get_user_model().objects.create_superuser("librarian", password="pw")
    job = start_unimarc_import(SimpleUploadedFile("pmb.mrc", b"..."), started_by=librarian)
    page = logged_in_page(browser, live_server, librarian, viewport=LAPTOP)
    try:
        page.goto(f"{live_server.url}/admin/games/unimarcimport/{job.pk}/change/")
        progress = page.locator("#import-job")
        assert progress.get_attribute("data-status") == "queued"
        # What the task writes as it goes (games.jobs), seen by the open page.
        job.begin()
        job.importing(total=300)
        job.advance(100, {"new": 100, "updated": 0})
        page.wait_for_selector('#import-job[data-status="importing"]')
        assert "100 of 300" in progress.inner_text() and progress.locator("progress").get_attribute("value") == "33"
        job.advance(300, {"new": 250, "updated": 50})
        job.finish({"new": 250, "updated": 50})
        page.wait_for_selector('#import-job[data-status="done"]')
        text = " ".join(progress.inner_text().split())
        assert "300 of 300" in text and "250 records new to the catalogue, 50 updated, 0 unchanged" in text
        assert progress.get_attribute("hx-trigger") is None, "a finished job is asked for no more"
        assert job.status == ImportJob.Status.DONE and page.script_errors == []
    finally:
        page.context.close()
