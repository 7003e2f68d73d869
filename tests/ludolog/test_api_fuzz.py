"""The API probed as an attacker would: Schemathesis generates requests from the
OpenAPI schema, valid and not, and sends them to a live server on PostgreSQL as a logged-in
user. No answer may be a server error, and none may contradict the schema (status codes,
content types, bodies). Bounded: a few examples per operation. Four workers send them: the run
waits on the server's answers far more than it works (95 s with one worker, 47 s with four, the
same 1,607 cases)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from rest_framework.authtoken.models import Token

from games.services import demo_catalogue_data, load_catalogue
from records.files import import_document
from records.services import SeatSpec, start_game
from tests.factories import simulated_document

SCHEMATHESIS = Path(sys.executable).parent / "schemathesis"
CHECKS = "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance"


@pytest.mark.slow(seconds=45)
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_api_never_fails_and_never_contradicts_its_schema(live_server, django_user_model, celery_eager):
    user = django_user_model.objects.create_user("fuzzer", password="fuzzer-password-1234")
    load_catalogue(demo_catalogue_data())
    import_document(simulated_document("carcassonne", 2, 3), imported_by=user)
    start_game(game_slug="hunters-gatherers", seats=[SeatSpec("Ada"), SeatSpec("Bo")], seed=4, created_by=user)
    private = import_document(simulated_document("stone-age", 2, 5))
    private.is_private = True
    private.save()
    token = Token.objects.create(user=user).key
    run = subprocess.run(
        [str(SCHEMATHESIS), "run", f"{live_server.url}/api/schema/?format=json", "--url", live_server.url,
         "-H", f"Authorization: Token {token}", "--checks", CHECKS, "--phases", "examples,coverage,fuzzing",
         "--max-examples", "5", "--workers", "4", "--no-color", "--seed", "20261201"],
        capture_output=True, text=True, timeout=600,
    )
    report = run.stdout[-6000:] + run.stderr[-2000:]
    assert "24/24" in run.stdout or "Tested:" in run.stdout, report
    assert run.returncode == 0, report
