"""The recorder's table endpoint reads its JSON body as the records API does: a body the API refuses
as unparsable (nested too deep, not JSON, not UTF-8) is a 400 ``parse_error`` here too, with a
reason, and nothing is stored."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from records.models import Event

pytestmark = pytest.mark.django_db


def nested(levels: int) -> str:
    return '{"expected_seq": 0, "type": "place_tile", "payload": {"x": ' + "[" * levels + "]" * levels + "}}"


@pytest.mark.parametrize("body", [nested(100_000), nested(1_000), nested(40), "[" * 100_000, "{", b"{\"type\": \"\xff\"}"],
                         ids=["100000 deep", "1000 deep", "40 deep", "bare 100000 deep", "cut short", "not UTF-8"])
def test_a_body_the_api_cannot_parse_is_a_400_with_a_reason(keeper_client: Client, keeper, record, body):
    page = Client(raise_request_exception=False)
    page.force_login(keeper)
    answer = page.post(f"/scorekeeping/{record.pk}/table/", body, content_type="application/json")
    assert answer.status_code == 400, (answer.status_code, answer.content[:200])
    assert answer["Content-Type"] == "application/json"
    refusal = answer.json()
    assert refusal["reason"] == "parse_error" and refusal["detail"]

    api = APIClient(raise_request_exception=False)
    api.force_authenticate(keeper)
    same = api.post(f"/api/records/{record.pk}/events/", body, content_type="application/json")
    assert (same.status_code, same.json()["reason"], same.json()["detail"]) == (400, "parse_error", refusal["detail"])
    assert not Event.objects.exists()


def test_a_body_nested_as_deep_as_the_api_allows_is_judged_on_its_fields(keeper_client: Client, record):
    answer = keeper_client.post(f"/scorekeeping/{record.pk}/table/", nested(20), content_type="application/json")
    assert answer.status_code in (400, 422) and answer.json()["reason"] != "parse_error"
    assert not Event.objects.exists()
