"""The API answers as its OpenAPI schema says, operation by operation: Schemathesis generates
requests from the schema (valid ones, which must be accepted, and invalid ones, which must be
refused with a 4xx), sends them to the application in this process (WSGI, on the test database
with a small world of games, a league, a library and its desk), and checks every answer: no
server error, a status code the schema lists, the content type it lists, a body of the shape
it gives. Deterministic (a fixed seed, derandomized) and bounded (a few examples an operation):
it runs with the suite, on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core import signals
from django.core.handlers.wsgi import WSGIHandler
from django.db import close_old_connections
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, Phase, settings
from rest_framework.authtoken.models import Token

from accounts.roles import Role
from games.models import CatalogueRecord
from games.services import demo_catalogue_data, load_catalogue
from records.files import import_document
from records.services import SeatSpec, start_game
from schemathesis.specs.openapi.checks import positive_data_acceptance
from tests.factories import club_with_league, give_role, make_copies, make_household, simulated_document

SEED = 20261207
EXAMPLES = 3
"""Generated examples an operation (the coverage phase's boundary values come on top)."""

CONFIG = {
    "seed": SEED,
    "phases": {
        "examples": {"enabled": True},
        "coverage": {"enabled": True},
        "fuzzing": {"enabled": True},
        "stateful": {"enabled": False},
    },
    "generation": {"max-examples": EXAMPLES, "deterministic": True, "mode": "all"},
}


@pytest.fixture(scope="module")
def world(module_transaction, django_db_blocker) -> dict[str, Any]:
    """What the operations have to read: games of each kind (one private), a club with its
    league, the catalogue with copies and a household, an organiser with a token."""
    from django.contrib.auth import get_user_model

    with django_db_blocker.unblock():
        user = get_user_model().objects.create_user("conformance", password="conformance-password-1234")
        give_role(user, Role.ORGANISER)
        give_role(user, Role.DESK)
        load_catalogue(demo_catalogue_data())
        make_copies(CatalogueRecord.objects.order_by("pk").first(), 2)
        make_household()
        club_with_league("Club des tests", "Saison 2026", ["Ada", "Bo"])
        import_document(simulated_document("carcassonne", 2, 3), imported_by=user)
        start_game(game_slug="hunters-gatherers", seats=[SeatSpec("Ada"), SeatSpec("Bo")], seed=4, created_by=user)
        private = import_document(simulated_document("stone-age", 2, 5))
        private.is_private = True
        private.save()
        return {"token": Token.objects.create(user=user).key}


def the_schema() -> Any:
    """The schema as ``/api/schema/`` gives it, loaded to call the application in this process."""
    generator = SchemaGenerator()
    loaded = schemathesis.openapi.from_dict(generator.get_schema(request=None, public=True),
                                            config=schemathesis.Config.from_dict(CONFIG))
    loaded.app = WSGIHandler()
    return loaded


@pytest.fixture
def in_process(db, settings) -> Iterator[None]:
    settings.ALLOWED_HOSTS = ["localhost"]
    # As Django's test client does: a request in this thread must not close the connection that
    # holds the test's transaction.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


schema = the_schema()


WHAT_THE_SCHEMA_CANNOT_SAY = {
    ("GET", "/api/records/{id}/options/"): "which tile may be in hand, and that an island needs its stack",
}
"""Reads whose valid values depend on the record (400 ``invalid_payload``, as their description
says): their other checks stand, only "a schema-valid request is accepted" is left out."""


def checks_left_out(case) -> list:
    """Every check applies to reads; a write's body is judged by rules (a record file's format, a
    seat's player, a household's card) that a schema-valid body may break, so a write is held to
    the schema's statuses, content types and shapes, not to being accepted."""
    if case.method != "GET" or (case.method, case.path) in WHAT_THE_SCHEMA_CANNOT_SAY:
        return [positive_data_acceptance]
    return []


@schema.parametrize()
@settings(derandomize=True, database=None, deadline=None, max_examples=EXAMPLES,
          suppress_health_check=list(HealthCheck), phases=[Phase.explicit, Phase.generate])
def test_every_answer_is_one_the_schema_gives(case, world, in_process):
    case.call_and_validate(headers={"Authorization": f"Token {world['token']}"},
                           excluded_checks=checks_left_out(case))
