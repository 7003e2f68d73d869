"""The API probed as an attacker would: Schemathesis generates requests from the
OpenAPI schema, valid and not, and sends them to a live server on PostgreSQL as a logged-in
user. No answer may be a server error, and none may contradict the schema (status codes,
content types, bodies). Bounded: a few examples per operation.

The operations are fuzzed in four groups by four schemathesis processes at once: a run waits on
the server's answers far more than it works (95 s for the 1,607 cases one after the other). Not
one process with four threads: with several threads, CPython 3.11's parser (which hypothesis
calls to describe its strategies) fails now and then with "AST constructor recursion depth
mismatch"."""

from __future__ import annotations

import subprocess
import urllib.request
import sys
from pathlib import Path

import pytest
from rest_framework.authtoken.models import Token

from accounts.roles import Role
from games.services import demo_catalogue_data, load_catalogue
from records.files import import_document
from records.services import SeatSpec, start_game
from tests.factories import give_role, simulated_document

SCHEMATHESIS = Path(sys.executable).parent / "schemathesis"
CHECKS = "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance"


GROUPS = {
    "records": ("^/api/records/(import/|\\{id\\}/|\\{record_id\\}/(results|scoring)/)?$", 6),
    "records-play": ("^/api/records/\\{id\\}/(events|state|options|export)/$", 5),
    "scores": ("^/api/(clubs|leagues|ratings|recompute|statistics)/", 16),
    "catalogue-and-front-door": ("^/api/(catalogue/|auth/|$)", 4),
    "loans": ("^/api/loans/", 6),
    "organisations": ("^/api/organisations/", 3),
}
"""Operations by path (a regular expression) and how many there are (40 in all)."""


@pytest.mark.slow(seconds=45)
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_api_never_fails_and_never_contradicts_its_schema(live_server, django_user_model, celery_eager, tmp_path):
    user = django_user_model.objects.create_user("fuzzer", password="fuzzer-password-1234")
    give_role(user, Role.ORGANISER)  # its invitations are made, not only refused
    load_catalogue(demo_catalogue_data())
    import_document(simulated_document("carcassonne", 2, 3), imported_by=user)
    start_game(game_slug="hunters-gatherers", seats=[SeatSpec("Ada"), SeatSpec("Bo")], seed=4, created_by=user)
    private = import_document(simulated_document("stone-age", 2, 5))
    private.is_private = True
    private.save()
    token = Token.objects.create(user=user).key
    # The schema read once for the four runs (drf-spectacular builds it in each request).
    schema = tmp_path / "schema.json"
    with urllib.request.urlopen(f"{live_server.url}/api/schema/?format=json") as answer:
        schema.write_bytes(answer.read())
    runs = {
        group: subprocess.Popen(
            [str(SCHEMATHESIS), "run", str(schema), "--url", live_server.url,
             "-H", f"Authorization: Token {token}", "--checks", CHECKS, "--phases", "examples,coverage,fuzzing",
             "--max-examples", "5", "--workers", "1", "--no-color", "--seed", "20261201",
             "--include-path-regex", path],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        for group, (path, _count) in GROUPS.items()
    }
    for group, run in runs.items():
        stdout, stderr = run.communicate(timeout=600)
        report = f"{group}: " + stdout[-6000:] + stderr[-2000:]
        assert f"Tested: {GROUPS[group][1]}" in stdout, report
        assert run.returncode == 0, report
