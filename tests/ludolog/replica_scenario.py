"""Reads on a replica, played against a real primary and hot standby (run by test_replica_reads).

Run as a script in a process of its own, with ``DATABASE_URL`` naming the primary and
``DATABASE_REPLICA_URL`` its streaming standby (the test starts both clusters). It migrates the
primary, records a game through the API, then pauses the standby's replay, so that the replica
lags for as long as the scenario needs, and prints what each kind of reader saw, as JSON, for
the test to judge. The scenario observes; it decides nothing.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludolog.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connections  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402
from rest_framework.test import APIClient  # noqa: E402

settings.ALLOWED_HOSTS = ["testserver"]


def replica_caught_up(timeout: float = 30.0) -> None:
    """Wait until the standby has replayed everything the primary has written."""
    with connections["default"].cursor() as cursor:
        cursor.execute("SELECT pg_current_wal_lsn()")
        target = cursor.fetchone()[0]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with connections["replica"].cursor() as cursor:
            cursor.execute("SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", [target])
            if cursor.fetchone()[0]:
                return
        time.sleep(0.05)
    raise SystemExit("the standby did not catch up")


def standby(sql: str) -> Any:
    with connections["replica"].cursor() as cursor:
        cursor.execute(sql)
        return cursor.fetchone()[0] if cursor.description else None


def seqs(client: APIClient, record_id: int) -> list[int]:
    answer = client.get(f"/api/records/{record_id}/events/")
    assert answer.status_code == 200, answer.content
    return [line["seq"] for line in answer.json()["results"]]


def main() -> None:
    started = time.monotonic()
    call_command("migrate", verbosity=0, interactive=False)
    print(f"migrated in {time.monotonic() - started:.1f} s", file=sys.stderr)
    seen: dict[str, Any] = {"databases": sorted(settings.DATABASES), "routers": settings.DATABASE_ROUTERS}
    seen["replica_in_recovery"] = standby("SELECT pg_is_in_recovery()")

    keeper = User.objects.create_user("keeper", password="pw")
    token = Token.objects.create(user=keeper)
    phone = APIClient(HTTP_AUTHORIZATION=f"Token {token.key}")  # keeps cookies, as a browser does
    created = phone.post("/api/records/", {"game_slug": "carcassonne", "seed": 7,
                                           "seats": [{"player": "Ada"}, {"player": "Bo"}]}, format="json")
    assert created.status_code == 201, created.content
    record_id = created.json()["id"]
    first = phone.post(f"/api/records/{record_id}/events/", {
        "expected_seq": 0, "type": "place_tile", "payload": {"x": 0, "y": 1, "rotation": 0, "meeple": 0}}, format="json")
    seen["first_append"] = first.status_code
    seen["sticky_cookie"] = "ludolog_primary" in phone.cookies
    replica_caught_up()

    # The standby stops replaying: from now on it lags the primary by whatever is written.
    standby("SELECT pg_wal_replay_pause()")
    for _ in range(100):
        if standby("SELECT pg_get_wal_replay_pause_state()") == "paused":
            break
        time.sleep(0.05)
    second = phone.post(f"/api/records/{record_id}/events/", {
        "expected_seq": 1, "type": "place_tile", "payload": {"x": 1, "y": 0, "rotation": 0}}, format="json")
    seen["second_append"] = second.status_code
    with connections["replica"].cursor() as cursor:
        cursor.execute("SELECT count(*) FROM records_event WHERE record_id = %s", [record_id])
        seen["events_on_the_standby"] = cursor.fetchone()[0]

    # A reader that wrote nothing: pages and read-only API calls come from the lagging replica.
    seen["anonymous_events_api"] = seqs(APIClient(), record_id)
    seen["anonymous_game_page_says_seq_2"] = "W@1,0r0" in APIClient().get(f"/games/{record_id}/").content.decode()
    # The phone that just wrote reads the primary for a while (its cookie): it sees its move.
    seen["writer_events_api"] = seqs(phone, record_id)
    # Another phone, stale because it read the replica, appends after event 1: the primary decides.
    other = User.objects.create_user("other", password="pw", is_staff=True)
    stale = APIClient(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=other).key}")
    conflict = stale.post(f"/api/records/{record_id}/events/", {
        "expected_seq": 1, "type": "place_tile", "payload": {"x": -1, "y": 0, "rotation": 0}}, format="json")
    seen["stale_append"] = [conflict.status_code, conflict.json().get("reason"), conflict.json().get("current_seq")]
    # What must read its own writes reads the primary, whoever asks: a recorder's options.
    options = APIClient(HTTP_AUTHORIZATION=f"Token {token.key}").get(f"/api/records/{record_id}/options/")
    seen["options_after_seq"] = options.json().get("seq", options.json().get("expected_seq"))
    seen["login_on_a_lagging_replica"] = APIClient().post(
        "/api/auth/token/", {"username": "other", "password": "pw"}).status_code

    standby("SELECT pg_wal_replay_resume()")
    replica_caught_up()
    seen["anonymous_events_api_after_catch_up"] = seqs(APIClient(), record_id)
    seen["anonymous_game_page_says_seq_2_after_catch_up"] = (
        "W@1,0r0" in APIClient().get(f"/games/{record_id}/").content.decode())
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
