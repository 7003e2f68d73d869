"""Bad input is a 4xx with the API's error shape and changes nothing: no input a client can send
answers 500."""

from __future__ import annotations

import re

import copy
import json

import pymarc
import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection
from django.test import Client
from rest_framework.test import APIClient

from games import unimarc
from games.models import CatalogueRecord, Copy, Person
from games.services import import_unimarc
from games.unimarc_import import reason_text
from records.files import simulate_document
from records.models import Event, GameRecord, Player
from records.services import SeatSpec, append_event, start_game
from tests.factories import PASSWORD, simulated_document

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(keeper) -> APIClient:
    """The scorekeeper's API client, answering what a server error would answer rather than
    raising it in the test (``tests/records/conftest.py``'s ``api`` raises)."""
    client = APIClient(raise_request_exception=False)
    client.force_authenticate(keeper)
    return client


@pytest.fixture
def record(keeper) -> GameRecord:
    return start_game(game_slug="carcassonne", seats=[SeatSpec("Ada"), SeatSpec("Bo")], seed=3, created_by=keeper)


def refusal(response, status: int, reason: str | None = None) -> dict:
    assert response.status_code == status, (response.status_code, response.content[:300])
    assert response["Content-Type"].startswith("application/json"), "the API's error shape, not an HTML page"
    body = response.json()
    if reason is not None:
        assert body["reason"] == reason, body
    assert body["detail"]
    return body


# -- a 4xx, never a 500 --------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/api/records/abc/", "/api/records/abc/events/", "/api/records/abc/export/",
                                  "/api/records/abc/state/", "/api/records/abc/options/", "/api/records/1e3/",
                                  "/api/catalogue/abc/"])
def test_a_record_id_that_is_not_a_number_is_not_found(api: APIClient, path: str):
    refusal(api.get(path), 404, "not_found")


def test_appending_to_a_record_id_that_is_not_a_number_is_not_found(api: APIClient):
    refusal(api.post("/api/records/abc/events/", {"expected_seq": 0, "type": "undo"}, format="json"), 404, "not_found")


@pytest.mark.parametrize("at", ["--5", "²", "٣", "5.0", " 5", "99999999999999999999"])
def test_a_step_that_is_not_a_whole_number_is_a_400(api: APIClient, record, at: str):
    body = refusal(api.get(f"/api/records/{record.pk}/state/", {"at": at}), 400, "invalid")
    assert body["fields"] == ["at"]


@pytest.mark.parametrize("at", ["--5", "²", "٣"])
def test_the_replay_page_and_its_board_refuse_a_step_that_is_not_a_whole_number(client: Client, record, at: str):
    assert client.get(f"/games/{record.pk}/replay/", {"at": at}).status_code == 400
    assert client.get(f"/games/{record.pk}/replay/board/", {"at": at}).status_code == 400


def deep(levels: int) -> str:
    return "[" * levels + "]" * levels


@pytest.mark.parametrize("levels", [100_000, 1_000, 40])
def test_a_body_nested_too_deep_is_a_400(api: APIClient, record, levels: int):
    body = '{"expected_seq": 0, "type": "place_tile", "payload": {"x": ' + deep(levels) + "}}"
    refusal(api.post(f"/api/records/{record.pk}/events/", body, content_type="application/json"), 400, "parse_error")
    refusal(api.post("/api/records/import/", deep(levels), content_type="application/json"), 400, "parse_error")
    assert not Event.objects.exists() and GameRecord.objects.count() == 1


def test_a_body_too_large_is_a_413_in_the_api_shape(api: APIClient, record):
    body = json.dumps({"expected_seq": 0, "type": "undo", "payload": {"x": "a" * 10_000_000}})
    refusal(api.post(f"/api/records/{record.pk}/events/", body, content_type="application/json"), 413, "too_large")
    assert not Event.objects.exists()


def carcassonne_file() -> dict:
    return simulated_document("carcassonne", 2, 3)


def result_file(game: str = "chess") -> dict:
    return {"format": "ludolog-record/1", "game": game, "ruleset_version": "-", "result_only": True,
            "players": [{"seat": 0, "name": "Ada"}, {"seat": 1, "name": "Bo"}], "setup": {"seed": None},
            "events": [{"seq": 1, "type": "result", "payload": {"scores": [{"seat": 0, "score": 3}, {"seat": 1, "score": 1}]}}]}


def spoil(document: dict, change) -> dict:
    spoilt = copy.deepcopy(document)
    change(spoilt)
    return spoilt


@pytest.mark.parametrize("document, field", [
    (spoil(carcassonne_file(), lambda d: d["players"][0].update(name="Ada\x00")), "players.0.name"),
    (spoil(carcassonne_file(), lambda d: d.update(location="L" * 300)), "location"),
    (spoil(carcassonne_file(), lambda d: d["events"][0].update(recorded_at="garbage")), "events.0.recorded_at"),
    (spoil(carcassonne_file(), lambda d: d["events"][0].update(recorded_at="2026-02-30T10:00:00Z")),
     "events.0.recorded_at"),
    (spoil(carcassonne_file(), lambda d: d["setup"].update(seed=2**70)), "setup.seed"),
    (spoil(carcassonne_file(), lambda d: d["events"][0].update(recorded_by="x\x00")), "events.0.recorded_by"),
    (spoil(result_file(), lambda d: d.update(game="g" * 80)), "game"),
    (spoil(result_file(), lambda d: d["events"][0]["payload"]["scores"][0].update(score=3_000_000_000)),
     "payload.scores.0.score"),
])
def test_a_record_file_that_cannot_be_stored_is_refused_naming_the_field(api: APIClient, document: dict, field: str):
    body = refusal(api.post("/api/records/import/", document, format="json"), 400)
    assert body["field"] == field, body
    assert GameRecord.objects.count() == 0 and Player.objects.count() == 0


def test_duplicate_player_names_in_a_file_are_refused(api: APIClient):
    document = spoil(carcassonne_file(), lambda d: d["players"][1].update(name=d["players"][0]["name"]))
    refusal(api.post("/api/records/import/", document, format="json"), 400, "duplicate_player")
    assert GameRecord.objects.count() == 0


# -- every number bounded to what the projections store ------------------------------------------


@pytest.mark.parametrize("line, field", [
    ({"seat": 0, "score": 3_000_000_000}, "payload.scores.0.score"),
    ({"seat": 0, "score": -3_000_000_000}, "payload.scores.0.score"),
    ({"seat": 0, "score": 1, "rank": 40_000}, "payload.scores.0.rank"),
    ({"seat": 0, "score": 1, "tiebreak": 1e300}, "payload.scores.0.tiebreak"),
])
def test_a_result_the_projections_cannot_hold_is_refused(api: APIClient, keeper, line: dict, field: str):
    record = start_game(game_slug="chess", seats=[SeatSpec("Ada"), SeatSpec("Bo")], result_only=True, created_by=keeper)
    payload = {"scores": [line, {"seat": 1, "score": 1}]}
    body = refusal(api.post(f"/api/records/{record.pk}/events/",
                            {"expected_seq": 0, "type": "result", "payload": payload}, format="json"), 400)
    assert body["field"] == field
    assert not Event.objects.filter(record=record).exists()


@pytest.mark.parametrize("body, field", [
    ({"expected_seq": 2**40, "type": "undo"}, "expected_seq"),
    ({"expected_seq": 0, "type": "place_tile", "payload": {"x": 10**40, "y": 0, "rotation": 0}}, "payload.x"),
    ({"expected_seq": 0, "type": "place_tile", "payload": {"x": 0, "y": 1, "rotation": 0, "meeple": 10**12}},
     "payload.meeple"),
])
def test_an_append_with_numbers_out_of_bounds_is_refused(api: APIClient, record, body: dict, field: str):
    answer = api.post(f"/api/records/{record.pk}/events/", body, format="json")
    assert answer.status_code == 400, answer.content
    assert field in json.dumps(answer.json())
    assert not Event.objects.exists()


def test_a_seed_out_of_bounds_is_refused_at_creation(api: APIClient):
    body = refusal(api.post("/api/records/", {"game_slug": "carcassonne", "seats": [{"player": "Ada"}, {"player": "Bo"}],
                                              "seed": 2**70}, format="json"), 400, "invalid")
    assert body["fields"] == ["seed"]


# -- UNIMARC imports ---------------------------------------------------------------------------


def iso_record(**subfields: str) -> bytes:
    record = pymarc.Record(leader="00000nrm a2200000   4500")
    record.add_field(pymarc.Field(tag="200", indicators=["1", " "],
                                  subfields=[pymarc.Subfield("a", subfields.get("title", "Bon jeu"))]))
    if "author" in subfields:
        record.add_field(pymarc.Field(tag="700", indicators=[" ", "1"], subfields=[pymarc.Subfield("a", subfields["author"])]))
    if "barcode" in subfields:
        record.add_field(pymarc.Field(tag="995", indicators=[" ", " "], subfields=[pymarc.Subfield("f", subfields["barcode"])]))
    return record.as_marc()


@pytest.mark.parametrize("data, message", [
    (iso_record(title="Jeu\x00nul"), r"record 1 .*control character"),
    (iso_record(title="T" * 400), r"record 1 .*title"),
    (iso_record(author="A" * 300), r"record 1 .*person name .* longer than 200"),
    (iso_record(barcode="B" * 40), r"record 1 .*copy barcode .* longer than 32"),
])
def test_a_unimarc_record_with_texts_the_catalogue_cannot_hold_is_refused_with_the_reason(data: bytes, message: str):
    report = import_unimarc(data).report
    assert report["refused"] == 1 and report["new"] == 0
    [refusal] = report["refusals"]
    assert re.search(message, f"record {refusal['record']} ({refusal['title']}): {reason_text(refusal)}")
    assert not CatalogueRecord.objects.exists() and not Person.objects.exists() and not Copy.objects.exists()


@pytest.mark.django_db(transaction=True)  # the import is queued when the upload commits
def test_the_admin_upload_of_such_a_file_says_why(client: Client, celery_eager, imports_root):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(get_user_model().objects.create_superuser("librarian", password="pw"))
    upload = SimpleUploadedFile("long.mrc", iso_record(author="A" * 300), content_type="application/marc")
    answer = client.post("/admin/games/cataloguerecord/import-unimarc/", {"file": upload}, follow=True)
    assert answer.status_code == 200 and "longer than 200" in answer.content.decode()
    assert "1 refused" in answer.content.decode() and not CatalogueRecord.objects.exists()


# -- the database does not answer: 503, JSON for the API -----------------------------------------


@pytest.fixture
def database_down():
    """The database stops answering: the connection is closed and pointed at a port where no
    server listens (PostgreSQL; SQLite's in-memory test database cannot be taken away)."""
    settings_dict = connection.settings_dict
    saved = dict(settings_dict)
    connection.close()
    settings_dict["PORT"] = "1"
    try:
        yield
    finally:
        connection.close()
        settings_dict.clear()
        settings_dict.update(saved)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_an_api_client_gets_a_json_503_while_the_database_is_down(database_down):
    answer = APIClient(raise_request_exception=False).get("/api/records/")
    refusal(answer, 503, "database_unavailable")
    assert answer["Retry-After"] == "30"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_reader_gets_a_503_page_while_the_database_is_down(database_down):
    answer = Client(raise_request_exception=False).get("/games/")
    assert answer.status_code == 503 and "back in a moment" in answer.content.decode()


# -- dropped connections, security headers, guessed passwords -------------------------------------


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_dropped_database_connection_does_not_fail_the_next_request():
    """With persistent connections, a connection the server dropped (a restart, a failover) is
    checked and replaced before the next request uses it: no request fails for it.

    Requests go through Django's own WSGI handler in this thread, as a gunicorn worker runs them
    (the test client skips the connection checks made at the start and end of each request)."""
    import psycopg
    from django.core.handlers.wsgi import WSGIHandler
    from django.test.client import RequestFactory

    handler = WSGIHandler()

    def status() -> int:
        started: list[str] = []
        environ = RequestFactory()._base_environ(PATH_INFO="/api/records/", REQUEST_METHOD="GET")
        body = handler(environ, lambda line, headers: started.append(line))
        b"".join(body)
        body.close()
        return int(started[0].split()[0])

    settings_dict = connection.settings_dict
    saved = settings_dict["CONN_MAX_AGE"]
    connection.close()
    settings_dict["CONN_MAX_AGE"] = 600
    try:
        assert status() == 200
        backend = connection.connection.info.backend_pid
        with psycopg.connect(host=settings_dict["HOST"], port=settings_dict["PORT"] or 5432,
                             user=settings_dict["USER"], dbname=settings_dict["NAME"], autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", [backend])
        assert status() == 200
        assert connection.connection.info.backend_pid != backend, "a new connection served the request"
    finally:
        settings_dict["CONN_MAX_AGE"] = saved
        connection.close()


def test_every_page_says_where_its_scripts_may_come_from(client: Client, record):
    for path in ("/", "/games/", f"/games/{record.pk}/replay/", "/api/schema/ui/"):
        policy = client.get(path)["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
        assert "frame-ancestors 'none'" in policy
    ui = client.get("/api/schema/ui/").content.decode()
    assert "<script>" not in ui, "Swagger UI starts from a script file, not an inline script"


@pytest.mark.parametrize("path", ["/login/", "/admin/login/", "/api-auth/login/"])
def test_guessing_passwords_is_stopped_after_ten_failures(client: Client, keeper, path: str, settings):
    cache.clear()
    for _attempt in range(settings.LUDOLOG_LOGIN_FAILURES):
        assert client.post(path, {"username": "keeper", "password": "wrong"}).status_code == 200
    stopped = client.post(path, {"username": "keeper", "password": PASSWORD})
    assert stopped.status_code == 429 and int(stopped["Retry-After"]) > 0
    assert "_auth_user_id" not in client.session, "not even the right password gets in while stopped"
    cache.clear()
    assert client.post("/login/", {"username": "keeper", "password": PASSWORD}).status_code == 302


def test_the_admin_cannot_change_what_a_record_is_replayed_with_once_it_has_events(client: Client, keeper, record):
    first = simulate_document("carcassonne", 2, 3)["events"][0]
    append_event(record, 0, first["type"], dict(first["payload"]))
    client.force_login(get_user_model().objects.create_superuser("boss", password="pw"))
    page = client.get(f"/admin/records/gamerecord/{record.pk}/change/").content.decode()
    for field in ("seed", "status", "game_slug", "ruleset_version"):
        assert f'name="{field}"' not in page, f"{field} is shown read-only"
    client.post(f"/admin/records/gamerecord/{record.pk}/change/", {
        "game_slug": "stone-age", "seed": "99", "status": "finished", "played_on": "2026-01-01",
        "seats-TOTAL_FORMS": "0", "seats-INITIAL_FORMS": "0", "events-TOTAL_FORMS": "0", "events-INITIAL_FORMS": "0"})
    record.refresh_from_db()
    assert (record.game_slug, record.seed, record.status) == ("carcassonne", 3, GameRecord.Status.IN_PROGRESS)
    assert client.get(f"/games/{record.pk}/replay/").status_code == 200
