"""Tamper evidence over the whole record, as an attacker would meet it.

The events' hash chain (``tests/records/test_event_integrity.py``) finds an edited event. Here
the rest of what gives a record its meaning: its header (game, ruleset, seed, set-up, seats and
their players) is what its first event is chained to, so a plain ``UPDATE`` of a seed or of who
sits where breaks the chain; a record's head (last seq and hash) and its ruleset and seat moves
are checkpointed, so that a deleted last event or one moved to another record is found; the
checkpoints are exported as a file signed with the site's key and ``verify_events --against``
checks the store against it. What the application itself changes (merged players, a seat
corrected in the admin, a ruleset move) still verifies. A record that fails verification answers
a clear page and API error (409 ``record_tampered``), never a 500, and only to those who may read it.
Migration 0017, which checkpoints the records stored before it, is tested with the event chain's
0006 in one SQLite file (``tests/records/test_event_integrity.py``).

Every edit is made as an attacker would make it: raw SQL, with the append-only triggers switched
off where the events are touched (a PostgreSQL superuser's replica mode, a dropped SQLite trigger),
rolled back with the test.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Iterator
from contextlib import contextmanager
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import override_settings

from records import integrity, state_cache
from records.files import import_document, simulate_document
from records.integrity import GENESIS
from records.models import Event, GameRecord, Player, Seat
from records.players import merge_players
from records.rulesets import migrate_ruleset
from records.services import SeatSpec, append_event, start_game
from tests.factories import event, seeded_record, simulated_events

VARIANT = "figures_home_at_end_of_turn"
"""A Hunters and Gatherers variant its first ruleset has: a set-up that replays without error."""


def append_game(record: GameRecord, count: int | None = None) -> GameRecord:
    """The first ``count`` actions (all: the whole game) of the simulated game of the record's seed."""
    total = len(simulated_events(2, record.seed)) if count is None else count
    for index in range(total):
        append_event(record, index, *event(index, seed=record.seed))
    return record


def result_only_record(*names: str) -> GameRecord:
    record = start_game(game_slug="azul", seats=[SeatSpec(name) for name in names or ("Ada", "Bo")], result_only=True)
    append_event(record, 0, "result", {"scores": [{"seat": seat, "score": 10 + seat} for seat in range(len(names or "ab"))]})
    return record


def verify_command(*args: str) -> tuple[int, str]:
    """``verify_events`` in this process: its exit status and what it printed."""
    out = StringIO()
    try:
        call_command("verify_events", *args, stdout=out)
    except CommandError as error:
        return error.returncode, out.getvalue() + str(error)
    return 0, out.getvalue()


def named(output: str) -> set[int]:
    """The records the lines of ``verify_events``'s output name (``record 12 …``)."""
    return {int(line.split()[1].rstrip(":")) for line in output.splitlines() if line.startswith("record ")}


@contextmanager
def attacker() -> Iterator:
    """A cursor on the suite's database with the events' append-only guards off, as a PostgreSQL
    superuser (replica mode skips every trigger) or someone holding the SQLite file (who drops
    them) has it. The guards come back with the test's rollback."""
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            for trigger in ("records_event_no_update", "records_event_no_delete", "records_event_no_replace"):
                cursor.execute(f"DROP TRIGGER IF EXISTS {trigger}")
        else:
            cursor.execute("SET LOCAL session_replication_role = replica")
        yield cursor
        if connection.vendor == "postgresql":
            cursor.execute("SET LOCAL session_replication_role = DEFAULT")


def last_seq(record: GameRecord) -> int:
    return Event.objects.filter(record=record).order_by("-seq").values_list("seq", flat=True).first() or 0


def delete_last_event(record: GameRecord) -> int:
    seq = last_seq(record)
    with attacker() as cursor:
        cursor.execute("DELETE FROM records_event WHERE record_id = %s AND seq = %s", [record.pk, seq])
    return seq


def move_last_event(source: GameRecord, receiver: GameRecord) -> None:
    """The source's last event becomes the receiver's next: as if it had been appended there."""
    with attacker() as cursor:
        cursor.execute("UPDATE records_event SET record_id = %s, seq = %s WHERE record_id = %s AND seq = %s",
                       [receiver.pk, last_seq(receiver) + 1, source.pk, last_seq(source)])


def swap_seats(record: GameRecord) -> None:
    """Seats 0 and 1 change players: plain UPDATEs the application's own role may make."""
    with connection.cursor() as cursor:
        for old, new in ((0, 99), (1, 0), (99, 1)):
            cursor.execute("UPDATE records_seat SET seat_order = %s WHERE record_id = %s AND seat_order = %s",
                           [new, record.pk, old])


def set_column(record: GameRecord, column: str, value) -> None:
    """A plain UPDATE of the record's row (no guard to switch off)."""
    if column == "setup":
        value = json.dumps(value)
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE records_gamerecord SET {column} = %s WHERE id = %s", [value, record.pk])


@pytest.mark.django_db
class TestWhatVerifyEventsFinds:
    def test_an_untouched_store_verifies_and_again_against_its_checkpoints(self, django_capture_on_commit_callbacks):
        with django_capture_on_commit_callbacks(execute=True):
            append_game(seeded_record(), 12)
            append_game(seeded_record(seed=2))
            result_only_record("Ada", "Bo")
            import_document(simulate_document("stone-age", 2, 4))
            seeded_record(seed=3)  # no events yet
        assert verify_command()[0] == 0
        status, output = verify_command()
        assert status == 0 and output.endswith("every hash matches\n")

    def test_a_deleted_last_event_is_found_by_the_checkpoint_of_the_last_verification(self):
        record, other = append_game(seeded_record(), 6), append_game(seeded_record(seed=2), 3)
        assert verify_command()[0] == 0
        seq = delete_last_event(record)
        status, output = verify_command()
        assert status == 1 and named(output) == {record.pk}
        assert f"record {record.pk} seq {seq}:" in output

    def test_a_finished_record_is_checkpointed_when_it_finishes(self, django_capture_on_commit_callbacks):
        """No verification ran since: the record's only event is deleted and the record is found."""
        with django_capture_on_commit_callbacks(execute=True):
            record = result_only_record("Ada", "Bo")
        delete_last_event(record)
        status, output = verify_command()
        assert status == 1 and named(output) == {record.pk}
        assert f"record {record.pk} seq 1:" in output

    def test_an_event_moved_to_another_record_is_found_in_both(self):
        source, receiver = append_game(seeded_record(), 6), append_game(seeded_record(seed=2), 3)
        bystander = append_game(seeded_record(seed=3), 2)
        assert verify_command()[0] == 0
        move_last_event(source, receiver)
        status, output = verify_command()
        assert status == 1 and named(output) == {source.pk, receiver.pk}
        assert bystander.pk not in named(output)

    @pytest.mark.parametrize("kind", ["moves", "result"])
    def test_swapped_seats_are_found_without_any_checkpoint(self, kind):
        record = append_game(seeded_record(), 3) if kind == "moves" else result_only_record("Ada", "Bo")
        other = append_game(seeded_record(seed=2), 2)
        swap_seats(record)
        status, output = verify_command()
        assert status == 1 and named(output) == {record.pk}
        assert other.pk not in named(output)

    @pytest.mark.parametrize("column, value", [
        ("seed", 99), ("setup", {"variants": [VARIANT]}), ("ruleset_version", "hunters-gatherers@0"),
        ("game_slug", "carcassonne"), ("result_only", True),
    ])
    def test_a_changed_seed_set_up_ruleset_or_game_is_found_without_any_checkpoint(self, column, value):
        record, other = append_game(seeded_record(), 3), append_game(seeded_record(seed=2), 2)
        set_column(record, column, value)
        status, output = verify_command()
        assert status == 1 and named(output) == {record.pk}
        assert f"record {record.pk}" in output and "header" in output

    def test_removing_the_checkpoint_does_not_pass_a_record_off_as_one_chained_before_headers(self):
        """Its first event is chained to its header: no flag or row to change makes it an older record."""
        record = append_game(seeded_record(), 3)
        assert verify_command()[0] == 0
        set_column(record, "seed", 99)
        with connection.cursor() as cursor:
            cursor.execute("DELETE FROM records_recordcheckpoint WHERE record_id = %s", [record.pk])
        status, output = verify_command()
        assert status == 1 and named(output) == {record.pk}

    def test_a_record_chained_before_headers_still_verifies_and_its_checkpoint_keeps_its_header(self):
        """A record whose first event was chained to 64 zeros (stored before headers were chained)."""
        record = seeded_record()
        previous = GENESIS
        for seq in (1, 2):
            kind, payload = event(seq - 1)
            stored = Event(record=record, seq=seq, type=kind, payload=payload)
            stored.chain_to(previous)
            stored.save()
            previous = stored.hash
        state_cache.clear()
        assert verify_command()[0] == 0
        assert verify_command()[0] == 0
        set_column(record, "seed", 99)
        status, output = verify_command()
        assert status == 1 and named(output) == {record.pk} and "header" in output


def write_checkpoints(path: Path) -> None:
    status, output = verify_command("--export", str(path))
    assert status == 0, output
    assert path.exists()


@pytest.mark.django_db
class TestCheckpointFile:
    def test_verify_events_against_an_exported_checkpoint_names_each_record_that_differs(self, tmp_path):
        emptied, reseeded, intact = (append_game(seeded_record(seed=seed), 5) for seed in (1, 2, 3))
        path = tmp_path / "checkpoints.json"
        write_checkpoints(path)
        assert verify_command("--against", str(path)) == (0, verify_command("--against", str(path))[1])
        # An attacker deletes a last event and brings the stored checkpoint into line with it.
        seq = delete_last_event(emptied)
        with connection.cursor() as cursor:
            cursor.execute("UPDATE records_recordcheckpoint SET last_seq = %s, head = %s WHERE record_id = %s",
                           [seq - 1, Event.objects.get(record=emptied, seq=seq - 1).hash, emptied.pk])
        set_column(reseeded, "seed", 77)
        assert named(verify_command()[1]) == {reseeded.pk}, "the store alone no longer sees the deleted event"
        status, output = verify_command("--against", str(path))
        assert status == 1 and named(output) == {emptied.pk, reseeded.pk}
        assert f"record {emptied.pk} seq {seq}:" in output and "checkpoint file" in output
        assert intact.pk not in named(output)

    def test_a_checkpoint_file_whose_hmac_does_not_match_is_refused(self, tmp_path):
        record = append_game(seeded_record(), 4)
        path = tmp_path / "checkpoints.json"
        write_checkpoints(path)
        document = json.loads(path.read_text())
        entry = next(line for line in document["records"] if line["record"] == record.pk)
        entry["last_seq"] -= 1  # to hide a deletion to come
        path.write_text(json.dumps(document))
        with pytest.raises(CommandError, match="HMAC") as refused:
            call_command("verify_events", "--against", str(path), stdout=StringIO())
        assert refused.value.returncode not in (0, None)

    def test_a_file_signed_with_another_key_is_refused_and_the_key_defaults_to_one_from_the_secret_key(self, tmp_path):
        append_game(seeded_record(), 2)
        signed_here, signed_elsewhere = tmp_path / "here.json", tmp_path / "elsewhere.json"
        write_checkpoints(signed_here)
        with override_settings(SECRET_KEY="another site's secret key, long enough to be one"):
            write_checkpoints(signed_elsewhere)
        assert verify_command("--against", str(signed_here))[0] == 0
        status, output = verify_command("--against", str(signed_elsewhere))
        assert status not in (0, 1) and "HMAC" in output and "LUDOLOG_CHECKPOINT_KEY" in output
        with override_settings(LUDOLOG_CHECKPOINT_KEY="the club's own checkpoint key"):
            kept = tmp_path / "kept.json"
            write_checkpoints(kept)
            with override_settings(SECRET_KEY="a rotated secret key, long enough to be one"):
                assert verify_command("--against", str(kept))[0] == 0

    def test_a_file_that_is_not_a_checkpoint_file_is_refused_clearly(self, tmp_path):
        path = tmp_path / "notes.json"
        path.write_text("not json")
        status, output = verify_command("--against", str(path))
        assert status not in (0, 1) and str(path) in output
        status, output = verify_command("--against", str(tmp_path / "missing.json"))
        assert status not in (0, 1) and "missing.json" in output


@pytest.mark.django_db
class TestWhatTheApplicationChanges:
    def test_merged_players_still_verify_but_seats_swapped_after_do_not(self, tmp_path):
        record = append_game(start_game(game_slug="hunters-gatherers", seats=[SeatSpec("Ada"), SeatSpec("Bo")], seed=1), 4)
        typo = start_game(game_slug="hunters-gatherers", seats=[SeatSpec("Adda"), SeatSpec("Cy")], seed=2)
        append_game(typo, 3)
        path = tmp_path / "before.json"
        write_checkpoints(path)
        merge_players(Player.objects.get(display_name="Ada"), Player.objects.get(display_name="Adda"))
        assert Seat.objects.get(record=typo, seat_order=0).player.display_name == "Ada"
        assert verify_command()[0] == 0
        assert verify_command("--against", str(path))[0] == 0
        swap_seats(typo)
        status, output = verify_command()
        assert status == 1 and named(output) == {typo.pk}

    def test_a_seat_corrected_in_the_admin_still_verifies(self, client, tmp_path):
        record = append_game(seeded_record(), 3)
        path = tmp_path / "before.json"
        write_checkpoints(path)
        client.force_login(get_user_model().objects.create_superuser("boss", password="pw"))
        seats = list(Seat.objects.filter(record=record).order_by("seat_order"))
        corrected = Player.objects.create(display_name="Bea")
        form = {"played_on": "2026-01-01", "location": "", "status": "in_progress",
                "seats-TOTAL_FORMS": "2", "seats-INITIAL_FORMS": "2", "events-TOTAL_FORMS": "0",
                "events-INITIAL_FORMS": "0"}
        for index, seat in enumerate(seats):
            form |= {f"seats-{index}-id": str(seat.pk), f"seats-{index}-record": str(record.pk),
                     f"seats-{index}-player": str(corrected.pk if index == 1 else seat.player_id),
                     f"seats-{index}-colour": seat.colour}
        answer = client.post(f"/admin/records/gamerecord/{record.pk}/change/", form)
        assert answer.status_code == 302, answer.content.decode()[:2000]
        assert Seat.objects.get(record=record, seat_order=1).player == corrected
        assert verify_command()[0] == 0
        assert verify_command("--against", str(path))[0] == 0

    def test_a_ruleset_move_still_verifies_and_an_edited_or_removed_one_does_not(self, tmp_path, celery_eager):
        engine_rulesets = list(__import__("games.registry", fromlist=["get_engine"]).get_engine("stone-age").rulesets)
        moved = import_document(simulate_document("stone-age", 2, 1, ruleset_version=engine_rulesets[0]))
        path = tmp_path / "before.json"
        write_checkpoints(path)
        report = migrate_ruleset("stone-age", "2", record_ids=[moved.pk])
        assert report.moved == 1
        assert verify_command()[0] == 0
        assert verify_command("--against", str(path))[0] == 0
        after = tmp_path / "after.json"
        write_checkpoints(after)
        with connection.cursor() as cursor:
            cursor.execute("UPDATE records_rulesetmove SET to_version = %s WHERE record_id = %s",
                           [engine_rulesets[0], moved.pk])
        status, output = verify_command()
        assert status == 1 and named(output) == {moved.pk}
        with connection.cursor() as cursor:
            cursor.execute("DELETE FROM records_rulesetmove WHERE record_id = %s", [moved.pk])
        status, output = verify_command("--against", str(after))
        assert status == 1 and named(output) == {moved.pk}


def tamper(kind: str, record: GameRecord, other: GameRecord) -> GameRecord:
    """Tamper with ``record`` (or move its last event into ``other``); returns the record to look at."""
    if kind == "seed":
        set_column(record, "seed", 99)
    elif kind == "unknown variant":
        set_column(record, "setup", {"variants": ["no_such_variant"]})
    elif kind == "middle event deleted":
        with attacker() as cursor:
            cursor.execute("DELETE FROM records_event WHERE record_id = %s AND seq = 5", [record.pk])
    elif kind == "seqs swapped":
        with attacker() as cursor:
            for old, new in ((5, 1000), (6, 5), (1000, 6)):
                cursor.execute("UPDATE records_event SET seq = %s WHERE record_id = %s AND seq = %s", [new, record.pk, old])
    elif kind == "event moved in":
        move_last_event(other, record)
    elif kind == "seats swapped":
        swap_seats(record)
    elif kind == "last event deleted":
        delete_last_event(record)
    state_cache.clear()
    return record


def assert_refused(answer, *, api: bool) -> None:
    assert answer.status_code == 409, (answer.status_code, answer.content[:300])
    if api:
        assert answer.json()["reason"] == "record_tampered"
        assert answer.json()["problems"]
    else:
        assert "failed its integrity check" in answer.content.decode()


@pytest.mark.django_db
class TestPagesOfATamperedRecord:
    @pytest.mark.parametrize("kind", ["seed", "unknown variant", "middle event deleted", "seqs swapped",
                                      "event moved in"])
    def test_the_replay_page_and_the_state_api_answer_409_not_500_before_any_verification(self, client, kind):
        record = tamper(kind, append_game(seeded_record(), 12), append_game(seeded_record(seed=2), 4))
        client.raise_request_exception = False
        assert_refused(client.get(f"/games/{record.pk}/replay/"), api=False)
        assert_refused(client.get(f"/games/{record.pk}/replay/?at=10"), api=False)
        assert_refused(client.get(f"/games/{record.pk}/replay/board/?at=10"), api=False)
        assert_refused(client.get(f"/api/records/{record.pk}/state/?at=10"), api=True)
        keeper = get_user_model().objects.create_user("keeper")
        record.scorekeepers.add(keeper)
        client.force_login(keeper)
        assert_refused(client.get(f"/scorekeeping/{record.pk}/table/"), api=True)

    @pytest.mark.parametrize("kind", ["seed", "seats swapped", "last event deleted", "event moved in"])
    def test_once_verified_every_page_and_api_of_the_record_answer_409(self, client, kind):
        record, other = append_game(seeded_record(), 12), append_game(seeded_record(seed=2), 4)
        keeper = get_user_model().objects.create_user("keeper")
        record.scorekeepers.add(keeper)
        assert verify_command()[0] == 0
        tamper(kind, record, other)
        assert verify_command()[0] == 1
        client.force_login(keeper)
        client.raise_request_exception = False
        for path in (f"/games/{record.pk}/", f"/games/{record.pk}/replay/", f"/scorekeeping/{record.pk}/"):
            assert_refused(client.get(path), api=False)
        for path in ("", "state/", "events/", "options/", "export/"):
            assert_refused(client.get(f"/api/records/{record.pk}/{path}"), api=True)
        assert client.get(f"/games/{other.pk}/replay/").status_code == 200 or kind == "event moved in"

    def test_a_request_s_own_error_is_answered_as_before_and_verifies_nothing(self, client):
        from records.models import RecordCheckpoint

        record = append_game(seeded_record(), 4)
        answer = client.get(f"/api/records/{record.pk}/state/?at=99")
        assert answer.status_code == 400 and answer.json()["reason"] == "at_out_of_range"
        assert not RecordCheckpoint.objects.exists(), "no verification ran"

    def test_a_tampered_private_record_stays_not_found_to_those_who_may_not_read_it(self, client):
        record = append_game(seeded_record(is_private=True), 6)
        assert verify_command()[0] == 0
        set_column(record, "seed", 99)
        assert verify_command()[0] == 1
        client.raise_request_exception = False
        for path in (f"/games/{record.pk}/", f"/games/{record.pk}/replay/", f"/api/records/{record.pk}/state/"):
            assert client.get(path).status_code == 404


@pytest.mark.django_db(transaction=True)
def test_the_first_append_after_the_start_still_takes_one_query(django_assert_num_queries):
    """The first event is chained to the record's header without reading it back."""
    state_cache.clear()
    record = seeded_record()
    with django_assert_num_queries(1):
        append_event(record, 0, *event(0))
    state_cache.clear()
    assert integrity.verify_store(record.pk).ok


class TestCanonicalForms:
    """Changing either form changes every stored link: it needs a new format name and a migration."""

    def test_the_documented_header_form_and_its_digest_are_pinned(self):
        header = integrity.RecordHeader(7, "carcassonne", "carcassonne@1", 12, {"variants": ["river"], "n": 2.0},
                                        False, ((0, 31), (1, 40)))
        text = ('{"format":"ludolog-record/1","game":"carcassonne","record":7,"result_only":false,'
                '"ruleset":"carcassonne@1","seats":[[0,31],[1,40]],"seed":12,"setup":{"n":2,"variants":["river"]}}')
        assert header.canonical() == text
        assert header.digest() == hashlib.sha256(text.encode("ascii")).hexdigest()
        record = GameRecord(pk=7, game_slug="carcassonne", ruleset_version="carcassonne@1", seed="12",
                            setup={"variants": ["river"], "n": 2})
        assert integrity.RecordHeader.of(record, [(1, 40), (0, 31)]).digest() == header.digest(), (
            "as the database gives it back: the seed an integer, the seats by seat order")

    def test_the_documented_seat_move_form_is_pinned(self):
        content = integrity.seat_move_content(record_id=7, seat=1, from_player_id=40, to_player_id=31, reason="merge",
                                              moved_by_id=None,
                                              moved_at=dt.datetime(2026, 3, 1, 20, 0, tzinfo=dt.timezone.utc))
        text = ('{"format":"ludolog-seat-move/1","from_player":40,"moved_at":"2026-03-01T20:00:00.000000Z",'
                '"moved_by":null,"previous":"' + GENESIS + '","reason":"merge","record":7,"seat":1,"to_player":31}')
        assert integrity.move_hash(content, GENESIS) == hashlib.sha256(text.encode("ascii")).hexdigest()
