"""The catalogue's import page, for a ludothèque's librarians outside the admin: a UNIMARC file
checked first (its report: counts, duplicates, refusals with their reasons, fields kept by tag),
its mapping changed as plain fields, then stored, its copies the current organisation's; the same
file again changes nothing; others may not."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from accounts.models import Organisation
from accounts.roles import Role
from games.models import CatalogueRecord, Copy, UnimarcImport
from loans.models import Component
from tests.factories import give_role, pmb_like_file, the_library

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("celery_eager", "imports_root", "in_english")]


@pytest.fixture(autouse=True)
def jobs_run_at_once(monkeypatch):
    """The job a page queues runs when its request's transaction would commit: here, at once
    (the test's transaction is never committed)."""
    import games.jobs

    monkeypatch.setattr(games.jobs.transaction, "on_commit", lambda run, **kwargs: run())


@pytest.fixture
def librarian(django_user_model) -> Client:
    client = Client()
    client.force_login(give_role(django_user_model.objects.create_user("librarian"), Role.LIBRARIAN))
    return client


def mapping_post(**changes: str) -> dict[str, str]:
    """The form as the PMB preset fills it, with ``changes``."""
    from ludolog.web.catalogue_import import mapping_forms

    form, lines = mapping_forms()
    data = {"preset": "pmb", "other_status": "", **{f"fact_{k}": v for k, v in (
        (name[5:], form[name].value()) for name in form.fields if name.startswith("fact_"))}}
    rows = [line.initial for line in lines]
    data.update({"status-TOTAL_FORMS": str(len(rows)), "status-INITIAL_FORMS": "0"})
    for index, row in enumerate(rows):
        data[f"status-{index}-code"], data[f"status-{index}-status"] = row["code"], row["status"]
    data.update(changes)
    return data


def code_mapped(code: str, status: str) -> dict[str, str]:
    """One more line of the status table (the last, left empty by the preset)."""
    last = int(mapping_post()["status-TOTAL_FORMS"]) - 1
    return {f"status-{last}-code": code, f"status-{last}-status": status}


def check(client: Client, data: bytes, **changes: str):
    return client.post("/catalogue/import/", {**mapping_post(**changes), "file": SimpleUploadedFile("pmb.mrc", data)})


def test_a_dry_run_reports_and_stores_nothing_then_the_changed_mapping_is_stored(librarian):
    assert b'href="/catalogue/import/"' in librarian.get("/catalogue/").content
    page = librarian.get("/catalogue/import/")
    assert page.status_code == 200 and b"/admin/" not in page.content
    answer = check(librarian, pmb_like_file())
    job = UnimarcImport.objects.get()
    assert answer.status_code == 302 and answer["Location"] == f"/catalogue/import/{job.pk}/"
    assert job.dry_run and job.organisation == the_library() and job.status == "done"
    assert CatalogueRecord.objects.count() == 0
    report = librarian.get(answer["Location"])
    text = " ".join(report.content.decode().split())
    assert "2 records new to the catalogue, 0 updated, 0 unchanged, 1 duplicate within the file, 2 refused." in text
    assert "Record 4 repeats record 3" in text
    assert "copy PMB-C-002: status" in text and "record 5 has no title (200 $a)" in text
    assert "950 × 3" in text and b"/admin/" not in report.content

    # "HS" mapped to missing parts: checked again, then stored.
    changed = code_mapped("HS", "missing_parts")
    again = librarian.post(f"/catalogue/import/{job.pk}/go-on/", {**mapping_post(**changed), "action": "check"})
    second = UnimarcImport.objects.latest("pk")
    assert again["Location"] == f"/catalogue/import/{second.pk}/" and second.dry_run
    assert second.report["new"] == 3 and second.report["refused"] == 1 and second.file.name == job.file.name
    stored = librarian.post(f"/catalogue/import/{second.pk}/go-on/", {**mapping_post(**changed), "action": "store"})
    third = UnimarcImport.objects.latest("pk")
    assert not third.dry_run and third.status == "done" and third.report["new"] == 3
    assert "Stored." in librarian.get(stored["Location"]).content.decode()
    assert Copy.objects.get(barcode="PMB-C-002").status == Copy.Status.MISSING_PARTS
    assert set(Copy.objects.values_list("organisation", flat=True)) == {the_library().pk}
    ticket = CatalogueRecord.objects.get(source_id="PMB-1")
    assert (ticket.min_players, ticket.max_players, ticket.min_age, ticket.duration_minutes) == (2, 5, 8, 45)
    assert CatalogueRecord.objects.filter(title="Les Aventuriers du Rail").count() == 2

    # The same file again: nothing changes.
    check(librarian, pmb_like_file(), **changed)
    assert UnimarcImport.objects.latest("pk").report["unchanged"] == 3


def test_a_changed_custom_field_name_is_read(librarian):
    check(librarian, pmb_like_file(), fact_duration_minutes="", fact_max_age="duree_moyenne")
    job = UnimarcImport.objects.get()
    assert job.mapping["game_facts"]["duree_moyenne"] == "max_age"
    assert "duration_minutes" not in job.mapping["game_facts"].values()


def test_a_mapping_that_cannot_be_read_is_refused_on_the_form(librarian):
    answer = check(librarian, pmb_like_file(), **code_mapped("X", ""))
    assert answer.status_code == 400 and not UnimarcImport.objects.exists()
    assert "Choose the status this code stands for" in answer.content.decode()
    answer = check(librarian, pmb_like_file(), fact_min_age="nb_joueurs_min")
    assert answer.status_code == 400 and "already fills another field" in answer.content.decode()


def test_a_file_that_is_not_unimarc_is_refused_record_by_record_on_its_report(librarian):
    answer = check(librarian, b"title;publisher\nCatan;Kosmos\n")
    text = " ".join(librarian.get(answer["Location"]).content.decode().split())
    assert "0 records new to the catalogue" in text and "Record 1: it cannot be read" in text
    assert UnimarcImport.objects.get().status == "done" and not CatalogueRecord.objects.exists()


def test_those_who_do_not_catalogue_may_not(django_user_model):
    desk = Client()
    desk.force_login(give_role(django_user_model.objects.create_user("desk"), Role.DESK))
    assert desk.get("/catalogue/import/").status_code == 403
    assert b'href="/catalogue/import/"' not in desk.get("/catalogue/").content
    club = Organisation.objects.create(slug="club", name="Club", kind=Organisation.Kind.CLUB)
    organiser = Client()
    organiser.force_login(give_role(django_user_model.objects.create_user("admin-of-club"), Role.ADMIN, club))
    assert organiser.get("/catalogue/import/").status_code == 403


def test_another_organisations_import_is_not_found(librarian, django_user_model):
    check(librarian, pmb_like_file())
    job = UnimarcImport.objects.get()
    other = Organisation.objects.create(slug="autre", name="Autre", kind=Organisation.Kind.LIBRARY)
    stranger = Client()
    stranger.force_login(give_role(django_user_model.objects.create_user("stranger"), Role.LIBRARIAN, other))
    assert stranger.get(f"/catalogue/import/{job.pk}/").status_code == 404
    assert stranger.post(f"/catalogue/import/{job.pk}/go-on/", {**mapping_post(), "action": "store"}).status_code == 404
    assert CatalogueRecord.objects.count() == 0


def test_imported_records_get_their_checklist_from_their_contents(librarian):
    check(librarian, pmb_like_file(), **code_mapped("HS", "withdrawn"))
    checked = UnimarcImport.objects.get()
    librarian.post(f"/catalogue/import/{checked.pk}/go-on/", {**mapping_post(**code_mapped("HS", "withdrawn")),
                                                             "action": "store"})
    dixit = CatalogueRecord.objects.get(source_id="PMB-3")
    assert list(Component.objects.filter(record=dixit).values_list("kind", "count")) == [
        ("cartes", 84), ("jetons de vote", 36), ("lapins en bois", 6)]
