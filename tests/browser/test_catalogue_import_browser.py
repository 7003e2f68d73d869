"""A ludothèque's PMB catalogue brought in by its librarian on the catalogue's own import page
(issue 36). On a laptop in French, a real PMB export (tests/games/data/pmb-ludotheque.uni): the
check refuses the records whose copies have the ludothèque's own status codes, the librarian maps
those codes and the names of its custom fields, and the store brings the game facts and the
copies' statuses. On a phone, a PMB-like file made for the other cases, the file checked first and its report read (records new, the duplicate
within the file, each refusal with its reason, the fields kept by tag), the mapping changed (the
status code "HS" PMB's preset does not know mapped to "pièces manquantes"), the store followed
on the page as the job's counts move, then its report; the records and copies stored as the
changed mapping says. No page on the way is the Django admin's.
In English on a phone too. Screenshots: catalogue-import-{upload,report,progress,stored}-<language>-<width>.png,
catalogue-import-pmb-{report,stored}-fr-1280.png.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest
from django.db import connection, transaction

from accounts.roles import Role
from games import services, unimarc_import
from games.models import CatalogueRecord, Copy, UnimarcImport
from loans.models import Component
from tests.factories import give_role, pmb_like_file, the_library

from .recorder_driver import LAPTOP, PHONE, assert_no_sideways_scroll, htmx_settled, logged_in_page

REAL_PMB = Path(__file__).parents[1] / "games" / "data" / "pmb-ludotheque.uni"

pytestmark = pytest.mark.django_db(transaction=True)


WORDS = {
    "fr": {"locale": "fr-FR", "title": "Importer un catalogue", "check": "Vérifier d’abord le fichier",
           "checked": "2 notices nouvelles au catalogue, 0 mise à jour, 0 inchangée, 1 doublon dans le fichier, "
                      "2 refusées.",
           "refused": ("Notice 1 (Les Aventuriers du Rail)\u00a0: ", "Notice 5\u00a0: "),
           "duplicate": "La notice 4 répète la notice 3", "missing_parts": "pièces manquantes", "store": "Enregistrer",
           "of_5": " sur 5",
           "stored": "3 notices nouvelles au catalogue, 0 mise à jour, 0 inchangée, 1 doublon dans le fichier, "
                     "1 refusée."},
    "en": {"locale": "en-GB", "title": "Import a catalogue", "check": "Check the file first",
           "checked": "2 records new to the catalogue, 0 updated, 0 unchanged, 1 duplicate within the file, "
                      "2 refused.",
           "refused": ("Record 1 (Les Aventuriers du Rail): ", "Record 5: "),
           "duplicate": "Record 4 repeats record 3", "missing_parts": "missing parts", "store": "Store",
           "of_5": " of 5",
           "stored": "3 records new to the catalogue, 0 updated, 0 unchanged, 1 duplicate within the file, "
                     "1 refused."},
}


class ChunksCommittedSlowly:
    """``transaction`` for the import's store: each chunk committed (with the progress that counts
    it), then a pause, so that the page, polling every second, sees the counts move."""

    @staticmethod
    @contextmanager
    def atomic(*args, **kwargs):
        with transaction.atomic(*args, **kwargs):
            yield
        time.sleep(0.8)


def store_slowly(job_id: int) -> threading.Thread:
    """The store job run as a worker runs it, one record a chunk."""
    def run() -> None:
        try:
            services.run_unimarc_import(UnimarcImport.objects.get(pk=job_id), chunk=1)
        finally:
            connection.close()

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    return worker


@pytest.mark.slow(seconds=15)
@pytest.mark.parametrize("viewport, language", [(PHONE, "fr"), (PHONE, "en")], ids=["390-fr", "390-en"])
def test_a_pmb_catalogue_checked_its_mapping_changed_and_stored(browser, live_server, artifacts: Path,
                                                                django_user_model, celery_eager, imports_root,
                                                                monkeypatch, viewport, language):
    width, said = viewport["width"], WORDS[language]
    librarian = give_role(django_user_model.objects.create_user("biblio"), Role.LIBRARIAN)
    # The dry runs run as the page asks (in the request, as in `make run`); the store is left
    # queued, for this test to run it slowly enough to watch.
    stores: list[int] = []
    import ludolog.web.catalogue_import as pages

    checked_now = pages.queue_unimarc_import
    monkeypatch.setattr(pages, "queue_unimarc_import",
                        lambda job: checked_now(job) if job.dry_run else stores.append(job.pk))
    monkeypatch.setattr(unimarc_import, "transaction", ChunksCommittedSlowly)

    visited: list[str] = []
    page = logged_in_page(browser, live_server, librarian, viewport=viewport, locale=said["locale"])
    page.on("framenavigated", lambda frame: visited.append(frame.url) if frame == page.main_frame else None)
    try:
        page.goto(f"{live_server.url}/catalogue/import/")
        assert page.locator("h1").inner_text() == said["title"]
        # Koha's preset fills the table with its codes; PMB's again with its own.
        page.get_by_test_id("preset").select_option("koha")
        page.locator('[data-testid=status-code][value="0"]').wait_for(state="attached")
        htmx_settled(page)  # the swapped-in select listens only then
        page.get_by_test_id("preset").select_option("pmb")
        page.locator('[data-testid=status-code][value="incomplet"]').wait_for(state="attached")
        htmx_settled(page)
        page.locator("input[name=file]").set_input_files(
            files=[{"name": "pmb-ludotheque.mrc", "mimeType": "application/marc", "buffer": pmb_like_file()}])
        assert_no_sideways_scroll(page)
        page.screenshot(path=str(artifacts / f"catalogue-import-upload-{language}-{width}.png"), full_page=True)
        with page.expect_navigation():
            page.get_by_role("button", name=said["check"]).click()

        job = page.get_by_test_id("import-job")
        page.locator('[data-testid=import-job][data-status="done"]').wait_for()
        report = " ".join(job.get_by_test_id("report").inner_text().split())
        assert said["checked"] in report, report
        refusals = job.get_by_test_id("refusals").inner_text()
        assert said["refused"][0] in refusals and "HS" in refusals and said["refused"][1] in refusals
        assert said["duplicate"] in job.get_by_test_id("duplicates").inner_text()
        assert "950 × 3" in job.get_by_test_id("kept-tags").inner_text()
        assert CatalogueRecord.objects.count() == 0, "a dry run stores nothing"
        assert_no_sideways_scroll(page)
        page.screenshot(path=str(artifacts / f"catalogue-import-report-{language}-{width}.png"), full_page=True)

        # The mapping changed: "HS" (hors service) is a box missing parts here.
        empty = page.locator('[data-testid=status-line]:has([data-testid=status-code][value=""])').first
        empty.get_by_test_id("status-code").fill("HS")
        empty.get_by_test_id("status-value").select_option(label=said["missing_parts"])
        with page.expect_navigation():
            page.get_by_role("button", name=said["store"], exact=True).click()

        # The store, followed on the page as the worker moves it on.
        page.locator('[data-testid=import-job][data-status="queued"]').wait_for()
        assert len(stores) == 1
        worker = store_slowly(stores[0])
        page.locator('[data-testid=import-job][data-status="importing"] [data-testid=progress]').wait_for()
        page.wait_for_function("() => { const p = document.querySelector('[data-testid=progress]');"
                               " return p && Number(p.value) > 0 && Number(p.value) < 100; }")
        assert said["of_5"] in job.get_by_test_id("done").inner_text()
        page.screenshot(path=str(artifacts / f"catalogue-import-progress-{language}-{width}.png"), full_page=True)
        page.locator('[data-testid=import-job][data-status="done"]').wait_for(timeout=20_000)
        worker.join(timeout=10)
        report = " ".join(job.get_by_test_id("report").inner_text().split())
        assert said["stored"] in report, report
        assert job.get_attribute("hx-trigger") is None, "a finished job is asked for no more"
        assert_no_sideways_scroll(page)
        page.screenshot(path=str(artifacts / f"catalogue-import-stored-{language}-{width}.png"), full_page=True)
        assert page.script_errors == []
    finally:
        page.context.close()

    # Stored as the changed mapping says, the copies the librarian's library's.
    assert Copy.objects.get(barcode="PMB-C-002").status == Copy.Status.MISSING_PARTS
    assert Copy.objects.get(barcode="PMB-C-001").status == Copy.Status.AVAILABLE
    assert set(Copy.objects.values_list("organisation", flat=True)) == {the_library().pk}
    editions = CatalogueRecord.objects.filter(title="Les Aventuriers du Rail").order_by("publication_year")
    assert [(r.publication_year, r.min_players, r.max_players, r.min_age, r.duration_minutes) for r in editions] == [
        (2004, 2, 5, 8, 45), (2015, 2, 5, 8, 60)]
    assert Component.objects.filter(record=editions[0]).count() == 4, "its checklist read from its contents"
    assert visited and not [url for url in visited if urlparse(url).path.startswith("/admin/")]


@pytest.mark.slow(seconds=8)
def test_a_real_pmb_export_its_own_codes_and_custom_fields_mapped_then_stored(browser, live_server, artifacts: Path,
                                                                              django_user_model, celery_eager,
                                                                              imports_root):
    librarian = give_role(django_user_model.objects.create_user("ludo"), Role.LIBRARIAN)
    page = logged_in_page(browser, live_server, librarian, viewport=LAPTOP, locale="fr-FR")
    visited: list[str] = []
    page.on("framenavigated", lambda frame: visited.append(frame.url) if frame == page.main_frame else None)
    try:
        page.goto(f"{live_server.url}/catalogue/import/")
        page.locator("input[name=file]").set_input_files(str(REAL_PMB))
        with page.expect_navigation():
            page.get_by_role("button", name="Vérifier d’abord le fichier").click()
        job = page.get_by_test_id("import-job")
        page.locator('[data-testid=import-job][data-status="done"]').wait_for()
        report = " ".join(job.get_by_test_id("report").inner_text().split())
        assert "8 notices nouvelles au catalogue, 0 mise à jour, 0 inchangée, 0 doublon dans le fichier, " \
               "4 refusées." in report, report
        refusals = job.get_by_test_id("refusals").inner_text()
        assert all(barcode in refusals for barcode in ("LUDO000102", "LUDO000105", "LUDO000301", "LUDO000502"))
        assert CatalogueRecord.objects.count() == 0, "a dry run stores nothing"
        assert_no_sideways_scroll(page)
        page.screenshot(path=str(artifacts / "catalogue-import-pmb-report-fr-1280.png"), full_page=True)

        # This ludothèque's codes: "in" incomplete, "sp" played on site; its custom fields' names.
        details = page.get_by_test_id("mapping-details")
        if details.get_attribute("open") is None:
            details.locator("summary").click()
        empty = [line for line in page.get_by_test_id("status-line").all()
                 if line.get_by_test_id("status-code").input_value() == ""]
        for line, (code, status) in zip(empty, (("in", "missing_parts"), ("sp", "withdrawn")), strict=False):
            line.get_by_test_id("status-code").fill(code)
            line.get_by_test_id("status-value").select_option(status)
        for key, name in (("min_players", "jeu_joueurs_min"), ("max_players", "jeu_joueurs_max"),
                          ("min_age", "jeu_age_min"), ("duration_minutes", "jeu_duree")):
            page.locator(f"input[name=fact_{key}]").fill(name)
        with page.expect_navigation():
            page.get_by_role("button", name="Enregistrer", exact=True).click()
        page.locator('[data-testid=import-job][data-status="done"]').wait_for(timeout=20_000)
        report = " ".join(job.get_by_test_id("report").inner_text().split())
        assert "12 notices nouvelles au catalogue, 0 mise à jour, 0 inchangée, 0 doublon dans le fichier, " \
               "0 refusée." in report, report
        assert_no_sideways_scroll(page)
        page.screenshot(path=str(artifacts / "catalogue-import-pmb-stored-fr-1280.png"), full_page=True)
        assert page.script_errors == []
    finally:
        page.context.close()

    assert CatalogueRecord.objects.filter(title="Carcassonne").count() == 5, "same title, five records"
    hunters = CatalogueRecord.objects.get(source_id="1003")
    assert (hunters.min_players, hunters.max_players, hunters.min_age, hunters.duration_minutes) == (2, 5, 10, 45)
    assert dict(Copy.objects.filter(barcode__in=["LUDO000101", "LUDO000102", "LUDO000105", "LUDO000107"])
                .values_list("barcode", "status")) == {
        "LUDO000101": "available", "LUDO000102": "withdrawn", "LUDO000105": "missing_parts",
        "LUDO000107": "withdrawn"}
    assert visited and not [url for url in visited if urlparse(url).path.startswith("/admin/")]
