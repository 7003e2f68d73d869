"""The fast paths of an append answer exactly as the slow ones did.

* the per-process state cache (records.state_cache): a stale entry is never used, a refused
  action leaves it consistent, a rolled-back or failed append never leaves its state behind,
  and the cached state always equals an uncached replay of the stored events;
* the record + last seq + permission query of the API (records.selectors.append_target);
* token authentication answers as DRF documents it.

The cache is filled on commit, so these tests run with real transactions.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import transaction
from django.test import override_settings
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.registry import get_engine
from records import replay, state_cache
from records.errors import SeqConflict
from records.models import Event, GameRecord, Player
from records.selectors import AppendTarget, append_target, append_target_with_token
from records.services import append_event
from tests.factories import HG, event, seeded_record

pytestmark = pytest.mark.django_db(transaction=True)

OCCUPIED = {"x": 0, "y": 0, "rotation": 0}  # the start tile lies there: the engine refuses it


@pytest.fixture(autouse=True)
def empty_cache():
    state_cache.clear()
    yield
    state_cache.clear()


def append_nth(record: GameRecord, index: int, **kwargs) -> Event:
    kind, payload = event(index)
    return append_event(record, index, kind, payload, **kwargs)


def stored_by_another_process(record: GameRecord, index: int) -> None:
    """An event appended elsewhere: it reaches the database, not this process's cache."""
    kind, payload = event(index)
    Event.objects.create(record=record, seq=index + 1, type=kind, payload=payload)


def cached_state_equals_replay(record: GameRecord) -> bool:
    """The cached state is the state an uncached replay of the stored events gives."""
    engine = get_engine(HG)
    entry = state_cache.take(record, engine.ruleset_version)
    assert entry is not None
    seq, state = entry
    replayed, at = replay.state_at(record, seq, use_snapshots=False)
    state_cache.put_on_commit(record, engine.ruleset_version, seq, state)
    return at == seq and engine.snapshot(state) == engine.snapshot(replayed)


def test_the_cached_state_follows_the_appends_and_equals_an_uncached_replay():
    record = seeded_record()
    for index in range(20):  # past a snapshot (every 16)
        append_nth(record, index)
    assert state_cache.cached_seq(record.pk) == 20
    assert cached_state_equals_replay(record)


def test_events_stored_by_another_process_are_caught_up_never_skipped():
    record = seeded_record()
    for index in range(3):
        append_nth(record, index)
    stored_by_another_process(record, 3)
    stored_by_another_process(record, 4)
    assert state_cache.cached_seq(record.pk) == 3  # stale: it stands before events 4 and 5
    with pytest.raises(SeqConflict) as conflict:
        append_nth(record, 3)  # a client that missed them is told where the record stands
    assert conflict.value.details == {"current_seq": 5}
    assert append_nth(record, 5).seq == 6  # the engine validated it against the real position
    assert state_cache.cached_seq(record.pk) == 6
    assert cached_state_equals_replay(record)


def test_a_stale_last_seq_cannot_make_a_stale_entry_current():
    """The API reads the last seq with the record; an event stored after that read makes the
    insert fail, which is a conflict, and the applied-but-unstored state is dropped."""
    record = seeded_record()
    for index in range(3):
        append_nth(record, index)
    stored_by_another_process(record, 3)
    kind, payload = event(3)
    read_before = AppendTarget(record, 3, record.ruleset_version, dict(record.setup), may_append=True, may_read=True)
    with pytest.raises(SeqConflict):
        append_event(read_before, 3, kind, payload)
    assert state_cache.cached_seq(record.pk) is None
    assert append_nth(record, 4).seq == 5
    assert cached_state_equals_replay(record)


def test_a_refused_action_leaves_nothing_in_the_cache_and_the_next_append_is_judged_right():
    """The cache is given back in one place, on commit, and dropped on any error: a refused
    action (the engine's, or a payload's) leaves no entry; the next append rebuilds the position."""
    record = seeded_record()
    for index in range(4):
        append_nth(record, index)
    kind, _payload = event(4)
    with pytest.raises(Exception) as refused:
        append_event(record, 4, kind, dict(OCCUPIED))
    assert getattr(refused.value, "reason", None) == "occupied"
    assert state_cache.cached_seq(record.pk) is None
    with pytest.raises(Exception) as invalid:
        append_event(record, 4, kind, {"x": "far"})
    assert getattr(invalid.value, "reason", None) == "invalid_payload"
    assert state_cache.cached_seq(record.pk) is None
    assert append_nth(record, 4).seq == 5
    assert cached_state_equals_replay(record)


def test_a_rolled_back_append_never_leaves_its_state_in_the_cache():
    record = seeded_record()
    for index in range(3):
        append_nth(record, index)

    class Abort(Exception):
        pass

    with pytest.raises(Abort), transaction.atomic():
        append_nth(record, 3)
        raise Abort
    assert Event.objects.filter(record=record).count() == 3
    assert state_cache.cached_seq(record.pk) in (None, 3)
    stored = append_nth(record, 3)  # judged against the stored position, not the rolled-back one
    assert stored.seq == 4 and cached_state_equals_replay(record)


def test_an_entry_of_another_record_under_a_reused_id_is_not_used():
    record = seeded_record()
    append_nth(record, 0)
    engine = get_engine(HG)
    impostor = GameRecord.objects.get(pk=record.pk)
    impostor.created_at = impostor.created_at.replace(year=impostor.created_at.year - 1)
    assert state_cache.take(impostor, engine.ruleset_version) is None


def test_api_answers_equal_the_uncached_ones():
    """The same appends through the API with the cache on and off give the same answers."""
    keeper = User.objects.create_user("keeper", password="pw")
    api = APIClient()
    api.force_authenticate(keeper)
    answers = []
    for size in (64, 0):
        with override_settings(LUDOLOG_STATE_CACHE_SIZE=size):
            state_cache.clear()
            created = api.post("/api/records/", {"game_slug": HG, "seed": 1, "seats": [{"player": f"A{size}"}, {"player": f"B{size}"}]}, format="json")
            record_id = created.data["id"]
            lines = []
            for index in range(18):
                kind, payload = event(index)
                response = api.post(f"/api/records/{record_id}/events/", {"expected_seq": index, "type": kind, "payload": payload}, format="json")
                lines.append((response.status_code, {k: v for k, v in response.data.items() if k != "recorded_at"}))
            refused = api.post(f"/api/records/{record_id}/events/", {"expected_seq": 18, "type": "place_tile", "payload": OCCUPIED}, format="json")
            stale = api.post(f"/api/records/{record_id}/events/", {"expected_seq": 3, "type": "place_tile", "payload": OCCUPIED}, format="json")
            lines.append((refused.status_code, refused.data))
            lines.append((stale.status_code, stale.data))
            lines.append(api.get(f"/api/records/{record_id}/state/").data["position"])
            answers.append(lines)
    assert answers[0] == answers[1]
    assert answers[0][-3][0] == 422 and answers[0][-2] == (409, {"reason": "seq_conflict", "detail": "expected_seq is 3 but the last event is 18", "current_seq": 18})


def keeper_api_after_two_appends() -> tuple[APIClient, GameRecord]:
    """A scorekeeper's token client and their record, two events appended through the API (this
    process's cache is then warm at seq 2)."""
    keeper = User.objects.create_user("keeper", password="pw")
    token = Token.objects.create(user=keeper)
    record = seeded_record(created_by=keeper)
    api = APIClient(HTTP_AUTHORIZATION=f"Token {token.key}")
    for index in range(2):
        kind, payload = event(index)
        assert api.post(f"/api/records/{record.pk}/events/", {"expected_seq": index, "type": kind, "payload": payload}, format="json").status_code == 201
    return api, record


def test_a_warm_append_over_the_api_takes_two_queries(django_assert_num_queries):
    api, record = keeper_api_after_two_appends()
    kind, payload = event(2)
    # token, user, record, last seq and permission in one query (records.selectors); the insert
    with django_assert_num_queries(2):
        response = api.post(f"/api/records/{record.pk}/events/", {"expected_seq": 2, "type": kind, "payload": payload}, format="json")
    assert response.status_code == 201 and response.data["seq"] == 3


def test_an_append_a_few_events_behind_over_the_api_takes_two_queries(django_assert_num_queries):
    """Another worker took the record's last appends: the query that authenticates the request
    also reads the events after this worker's cached state, with the last one's hash for the
    chain, so catching up costs no query of its own."""
    api, record = keeper_api_after_two_appends()
    ruleset = get_engine(HG).ruleset_version
    behind = state_cache.take_with_head(record, ruleset)
    assert behind is not None and behind[0] == 2
    append_nth(record, 2)  # "another worker": from the database, its own state
    append_nth(record, 3)
    state_cache.clear()
    state_cache.put_on_commit(record, ruleset, behind[0], behind[1], head=behind[2])  # this worker's, 2 behind
    kind, payload = event(4)
    # token, user, record, last seq, access and the events since the cached state; the insert
    with django_assert_num_queries(2):
        response = api.post(f"/api/records/{record.pk}/events/", {"expected_seq": 4, "type": kind, "payload": payload}, format="json")
    assert response.status_code == 201 and response.data["seq"] == 5
    assert state_cache.cached_seq(record.pk) == 5 and cached_state_equals_replay(record)
    call_command("verify_events", "--record", str(record.pk))  # the chain holds (it raises on a broken link)


def test_the_records_read_brings_the_events_after_a_cached_seq_as_the_orm_reads_them():
    keeper = User.objects.create_user("keeper", password="pw")
    token = Token.objects.create(user=keeper)
    record = seeded_record(created_by=keeper)
    for index in range(5):
        append_nth(record, index)
    stored = list(Event.objects.filter(record=record).order_by("seq").values_list("seq", "type", "payload", "hash"))
    assert append_target(record.pk, keeper).events_after is None
    for since in (0, 2, 5):
        expected = (since, tuple(tuple(row) for row in stored[since:]))
        assert append_target(record.pk, keeper, catch_up_from=since).events_after == expected
        _user, read = append_target_with_token(record.pk, token.key, catch_up_from=since)
        assert read.events_after == expected and read.last_seq == 5
    # Never more than a catch-up's worth: further behind, the snapshot path is the cheaper one.
    with override_settings(LUDOLOG_SNAPSHOT_EVERY=1):
        assert replay.catch_up_limit() == 2
        assert [row[0] for row in append_target(record.pk, keeper, catch_up_from=1).events_after[1]] == [2, 3]


def test_the_append_answers_each_kind_of_user_as_before():
    keeper = User.objects.create_user("keeper", password="pw")
    seated = User.objects.create_user("ada", password="pw")
    stranger = User.objects.create_user("stranger", password="pw")
    staff = User.objects.create_user("staff", password="pw", is_staff=True)
    record = seeded_record(created_by=keeper)
    Player.objects.filter(display_name="Ada").update(user=seated)
    kind, payload = event(0)
    body = {"expected_seq": 0, "type": kind, "payload": payload}
    for user, status in ((stranger, 403), (seated, 201), (staff, 409), (keeper, 409)):
        api = APIClient()
        api.force_authenticate(user)
        assert api.post(f"/api/records/{record.pk}/events/", body, format="json").status_code == status
    api = APIClient()
    api.force_authenticate(keeper)
    missing = api.post(f"/api/records/{record.pk + 1000}/events/", body, format="json")
    assert missing.status_code == 404 and missing.data == {"reason": "not_found", "detail": "Not found."}


def test_token_authentication_answers_as_drf_does():
    user = User.objects.create_user("keeper", password="pw")
    token = Token.objects.create(user=user)
    record = seeded_record(created_by=user)
    url = f"/api/records/{record.pk}/events/"
    kind, payload = event(0)
    body = {"expected_seq": 0, "type": kind, "payload": payload}
    bad = APIClient(HTTP_AUTHORIZATION="Token nope").post(url, body, format="json")
    # 403, not 401: session authentication comes first and names no WWW-Authenticate scheme.
    assert bad.status_code == 403 and bad.data == {"reason": "authentication_failed", "detail": "Invalid token."}
    good = APIClient(HTTP_AUTHORIZATION=f"Token {token.key}").post(url, body, format="json")
    assert good.status_code == 201 and good.data["recorded_by"] == "keeper"
    User.objects.filter(pk=user.pk).update(is_active=False)
    inactive = APIClient(HTTP_AUTHORIZATION=f"Token {token.key}").get(f"/api/records/{record.pk}/")
    assert inactive.status_code == 403 and inactive.data["detail"] == "User inactive or deleted."


def test_the_token_path_reads_the_record_and_user_as_the_orm_does():
    """The one query of ``append_target_with_token`` gives the same field values as the ORM (a
    JSON set-up a dict, not its text; dates and flags converted), so an API client's first
    append to a record with a set-up is judged, not a 500."""
    user = User.objects.create_user("keeper", password="pw")
    token = Token.objects.create(user=user)
    record = seeded_record(created_by=user)
    GameRecord.objects.filter(pk=record.pk).update(setup={"variants": []})
    read_user, read = append_target_with_token(record.pk, token.key)
    read_record = read.record
    orm_record, orm_user = GameRecord.objects.get(pk=record.pk), User.objects.get(pk=user.pk)
    fields = [field.attname for field in GameRecord._meta.concrete_fields]
    assert {name: getattr(read_record, name) for name in fields} == {name: getattr(orm_record, name) for name in fields}
    assert read_record.setup == {"variants": []}
    user_fields = [field.attname for field in User._meta.concrete_fields]
    assert {name: getattr(read_user, name) for name in user_fields} == {name: getattr(orm_user, name) for name in user_fields}
    kind, payload = event(0)
    answer = APIClient(HTTP_AUTHORIZATION=f"Token {token.key}").post(
        f"/api/records/{record.pk}/events/", {"expected_seq": 0, "type": kind, "payload": payload}, format="json")
    assert answer.status_code == 201, answer.data


def test_an_entry_far_behind_is_replaced_by_the_snapshot_path():
    record = seeded_record()
    for index in range(2):
        append_nth(record, index)
    for index in range(2, 2 + replay.catch_up_limit() + 5):
        stored_by_another_process(record, index)
    last = 2 + replay.catch_up_limit() + 5
    assert append_nth(record, last).seq == last + 1
    assert cached_state_equals_replay(record)


@pytest.mark.parametrize("body", [
    {"expected_seq": 0, "type": "place_tile", "payload": {"x": 1}},
    {"expected_seq": 3, "type": "undo"},
    {"expected_seq": 2_147_483_646, "type": "a", "payload": {}, "idempotency_key": "k-1"},
    {"expected_seq": 1, "type": "place_tile", "payload": {}, "idempotency_key": None},
    {"expected_seq": 2_147_483_647, "type": "undo"},
    {"expected_seq": -1, "type": "undo"},
    {"expected_seq": True, "type": "undo"},
    {"expected_seq": "1", "type": "undo"},
    {"expected_seq": 1, "type": "undo\n"},
    {"expected_seq": 1, "type": "Undo"},
    {"expected_seq": 1, "type": "u" * 65},
    {"expected_seq": 1, "type": "undo", "payload": None},
    {"expected_seq": 1, "type": "undo", "payload": [1]},
    {"expected_seq": 1, "type": "undo", "idempotency_key": ""},
    {"expected_seq": 1, "type": "undo", "idempotency_key": " k "},
    {"expected_seq": 1, "type": "undo", "idempotency_key": "k\x00"},
    {"expected_seq": 1, "type": "undo", "idempotency_key": "k\ud800"},
    {"expected_seq": 1, "type": "undo", "idempotency_key": "é"},
    {"expected_seq": 1, "type": "undo", "idempotency_key": "k" * 101},
    {"expected_seq": 1, "type": "undo", "idempotency_key": 5},
    {"expected_seq": 1, "type": "undo", "extra": 1},
    {"type": "undo"},
    [],
])
def test_the_plain_body_path_agrees_with_the_serializer(body):
    """The append's fast reading of its body gives the serializer's validated data, or leaves
    the body to the serializer (which then answers as before): never a different judgement."""
    from records.serializers import AppendEventSerializer
    from records.views import plain_append_body

    fast = plain_append_body(body)
    if fast is None:
        return
    serializer = AppendEventSerializer(data=body)
    assert serializer.is_valid(), (body, serializer.errors)
    assert fast == dict(serializer.validated_data)


def test_the_usual_bodies_take_the_plain_path():
    from records.views import plain_append_body

    assert plain_append_body({"expected_seq": 3, "type": "undo"}) == {"expected_seq": 3, "type": "undo", "payload": {}}
    assert plain_append_body({"expected_seq": 0, "type": "place_tile", "payload": {"x": 1}, "idempotency_key": "k-1"}) == {
        "expected_seq": 0, "type": "place_tile", "payload": {"x": 1}, "idempotency_key": "k-1"}
    assert plain_append_body({"expected_seq": 1, "type": "undo", "idempotency_key": "k\x00"}) is None


def test_the_append_answer_is_the_history_line_serializer_s():
    """The append answers a new event as the history lists it (HistoryLineSerializer), without
    building the serializer: the same fields, the same values, the same date format."""
    from records.serializers import HistoryLineSerializer
    from records.views import history_line

    keeper = User.objects.create_user("keeper", password="pw")
    record = seeded_record(created_by=keeper)
    stored = append_nth(record, 0, recorded_by=keeper, idempotency_key="k-1")
    line = replay.HistoryLine(event=stored, notation="N", retracted_by=None)
    assert history_line(stored, "N") == HistoryLineSerializer(line).data
