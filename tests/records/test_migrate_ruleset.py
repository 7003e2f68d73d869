"""Moving records to another ruleset: Stone Age's ruleset 2 feeds as published, a club
may adopt a variant, and ``migrate_ruleset`` replays every record under the new rules, reports each
as identical, changed or illegal, and moves only the first two, as append-only entries."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from games.registry import get_engine
from records import replay
from records.files import import_document, simulate_document
from records.models import Event, GameRecord, RulesetMove
from records.rulesets import migrate_ruleset
from scoring.models import SeatResult

pytestmark = pytest.mark.django_db

SA = "stone-age"
NEWBORN = "newborn_eats_next_round"


def rulesets() -> list[str]:
    return list(get_engine(SA).rulesets)


def record_of(players: int, seed: int, *, events: int | None = None) -> GameRecord:
    """A random Stone Age game recorded under ruleset 1 (as every record before ruleset 2)."""
    document = simulate_document(SA, players, seed, ruleset_version=rulesets()[0])
    if events is not None:
        document["events"] = document["events"][:events]
        document["final_scores"] = None
    return import_document(document)


@pytest.fixture
def three_kinds(celery_eager):
    """Found by replaying random games under ruleset 2 with the newborn variant: the first events
    of a game change nothing, seed 52's three tribes score otherwise, and seed 1's 29th event (a
    feeding a newborn no longer needs) is refused."""
    return {"identical": record_of(2, 1, events=12), "changed": record_of(3, 52), "illegal": record_of(2, 1)}


def test_the_two_rulesets_and_the_variants_are_listed_with_their_sources():
    engine = get_engine(SA)
    first, second = engine.rulesets.values()
    assert (first.key, second.key) == ("1", "2") and engine.ruleset_version == second.version
    assert "Déduisez d'abord votre niveau d'agriculture" in first.source and "Leftover food is kept" in second.source
    assert set(engine.variants) == {NEWBORN, "hunting_grounds_again"}
    assert all(v.source and v.rulesets == (first.version, second.version) for v in engine.variants.values())


def test_a_record_replays_under_the_ruleset_it_pinned():
    old = record_of(2, 9)
    assert old.ruleset_version == rulesets()[0] and replay.ruleset_of(old) == rulesets()[0]
    state, _seq = replay.state_at(old, use_snapshots=False)
    assert state.ruleset == 1
    new = import_document(simulate_document(SA, 2, 9))
    assert new.ruleset_version == rulesets()[1] and replay.state_at(new)[0].ruleset == 2


def test_the_dry_run_reports_each_kind_and_changes_nothing(three_kinds):
    results = list(SeatResult.objects.order_by("pk").values_list("record_id", "score"))
    report = migrate_ruleset(SA, "2", variants=[NEWBORN], dry_run=True)
    outcomes = {line.record_id: line for line in report.records}
    assert {kind: outcomes[record.pk].outcome for kind, record in three_kinds.items()} == {
        "identical": "identical", "changed": "changed", "illegal": "illegal"}
    illegal = outcomes[three_kinds["illegal"].pk]
    assert (illegal.seq, illegal.reason) == (29, "wrong_phase")
    changed = outcomes[three_kinds["changed"].pk]
    assert changed.scores_before != changed.scores_after and len(changed.scores_after) == 3
    assert report.counts == {"identical": 1, "changed": 1, "illegal": 1, "unchanged": 0}
    assert not RulesetMove.objects.exists()
    assert list(SeatResult.objects.order_by("pk").values_list("record_id", "score")) == results


def test_the_command_prints_the_counts(three_kinds):
    out = io.StringIO()
    call_command("migrate_ruleset", SA, "--to", "2", "--variant", NEWBORN, "--dry-run", stdout=out)
    text = out.getvalue()
    assert "total: 1 identical, 1 changed, 1 illegal, 0 unchanged" in text
    assert f"#{three_kinds['illegal'].pk} illegal: event 29 wrong_phase" in text
    assert "dry run: nothing changed" in text and not RulesetMove.objects.exists()


def test_moving_keeps_an_entry_per_record_rescored_and_leaves_the_illegal_one(three_kinds, django_user_model,
                                                                              django_capture_on_commit_callbacks):
    events = list(Event.objects.order_by("pk").values_list("pk", "hash"))
    staff = django_user_model.objects.create_user("librarian", is_staff=True)
    with django_capture_on_commit_callbacks(execute=True):
        report = migrate_ruleset(SA, "2", variants=[NEWBORN], moved_by=staff)
    assert report.moved == 2
    target = rulesets()[1]
    for kind in ("identical", "changed"):
        record = GameRecord.objects.get(pk=three_kinds[kind].pk)
        move = RulesetMove.objects.get(record=record)
        assert (move.from_version, move.to_version, move.outcome, move.moved_by) == (rulesets()[0], target, kind, staff)
        assert move.to_setup == {"variants": [NEWBORN]}
        assert record.ruleset_version == rulesets()[0], "the record itself is never edited"
        assert replay.ruleset_of(record) == target and replay.setup_of(record) == {"variants": [NEWBORN]}
    changed = three_kinds["changed"]
    line = next(line for line in report.records if line.record_id == changed.pk)
    assert list(SeatResult.objects.filter(record=changed).order_by("seat").values_list("score", flat=True)) == \
        list(line.scores_after), "the results are worked out again under the new rules"
    assert SeatResult.objects.filter(record=changed, ruleset_version=target).count() == 3
    illegal = GameRecord.objects.get(pk=three_kinds["illegal"].pk)
    assert replay.ruleset_of(illegal) == rulesets()[0] and not RulesetMove.objects.filter(record=illegal).exists()
    assert list(Event.objects.order_by("pk").values_list("pk", "hash")) == events, "no event touched"
    again = migrate_ruleset(SA, "2", variants=[NEWBORN], dry_run=True)
    assert again.counts == {"identical": 0, "changed": 0, "illegal": 1, "unchanged": 2}


def test_a_move_is_never_edited_or_deleted(three_kinds):
    from records.models import ImmutableEventError

    migrate_ruleset(SA, "2", record_ids=[three_kinds["identical"].pk])
    move = RulesetMove.objects.get()
    move.to_version = "x"
    with pytest.raises(ImmutableEventError):
        move.save()
    with pytest.raises(ImmutableEventError):
        move.delete()
    with pytest.raises(ImmutableEventError):
        RulesetMove.objects.all().delete()


def test_an_unknown_ruleset_or_variant_is_refused_by_name(three_kinds):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="no ruleset '3'"):
        call_command("migrate_ruleset", SA, "--to", "3", stdout=io.StringIO())
    report = migrate_ruleset(SA, "2", variants=["shrine_for_all"], dry_run=True)
    assert {line.reason for line in report.records} == {"invalid_setup"}


def test_the_admin_reports_downloads_the_csv_and_moves(three_kinds, client, django_user_model,
                                                       django_capture_on_commit_callbacks):
    client.force_login(django_user_model.objects.create_superuser("admin", "a@example.org", "pw"))
    selected = [str(record.pk) for record in three_kinds.values()]
    url = "/admin/records/gamerecord/"
    page = client.post(url, {"action": "move_to_ruleset", "_selected_action": selected})
    assert page.status_code == 200 and "Move the identical and changed records" in page.content.decode()
    choice = {"action": "move_to_ruleset", "_selected_action": selected, "to": rulesets()[1],
              "change_variants": "on", "variants": [NEWBORN]}
    report = client.post(url, {**choice, "report": "1"}).content.decode()
    assert "1 identical, 1 changed, 1 illegal, 0 unchanged" in report and not RulesetMove.objects.exists()
    csv = client.post(url, {**choice, "csv": "1"})
    assert csv["Content-Type"].startswith("text/csv") and "attachment" in csv["Content-Disposition"]
    rows = csv.content.decode().splitlines()
    assert rows[0].startswith("record,players,from,to,outcome") and len(rows) == 4
    assert any(",illegal," in row and ",29,wrong_phase," in row for row in rows)
    with django_capture_on_commit_callbacks(execute=True):
        moved = client.post(url, {**choice, "move": "1"})
    assert moved.status_code == 302 and RulesetMove.objects.count() == 2
    listing = client.get("/admin/records/rulesetmove/")
    assert listing.status_code == 200
    change = client.get(f"/admin/records/rulesetmove/{RulesetMove.objects.first().pk}/change/")
    assert change.status_code == 200 and 'name="to_version"' not in change.content.decode(), "read-only"


def test_the_admin_refuses_records_of_two_games(client, django_user_model, celery_eager):
    client.force_login(django_user_model.objects.create_superuser("admin", "a@example.org", "pw"))
    mixed = [record_of(2, 1, events=4).pk, import_document(simulate_document("carcassonne", 2, 1)).pk]
    answer = client.post("/admin/records/gamerecord/", {"action": "move_to_ruleset", "_selected_action": mixed},
                         follow=True)
    assert "Select records of one game" in answer.content.decode()


@pytest.mark.parametrize("variants, hunts_again", [([], False), (["hunting_grounds_again"], True)])
def test_a_variant_chosen_at_the_start_is_honoured_by_the_recorder_and_the_scores(variants, hunts_again,
                                                                                  django_user_model):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(django_user_model.objects.create_user("keeper"))
    created = api.post("/api/records/", {"game_slug": SA, "seed": 5, "seats": [{"player": "Ada"}, {"player": "Bo"}],
                                         "setup": {"variants": variants}}, format="json")
    assert created.status_code == 201 and created.data["setup"] == ({"variants": variants} if variants else {})
    record = created.data["id"]
    for seq, (location, people) in enumerate([("hunting_grounds", 2), ("forest", 2)]):
        answer = api.post(f"/api/records/{record}/events/", {"expected_seq": seq, "type": "place",
                                                              "payload": {"location": location, "people": people}},
                          format="json")
        assert answer.status_code == 201, answer.data
    offered = {place["place"] for place in api.get(f"/api/records/{record}/options/").data["places"]}
    assert ("hunting_grounds" in offered) is hunts_again
    again = api.post(f"/api/records/{record}/events/", {"expected_seq": 2, "type": "place",
                                                         "payload": {"location": "hunting_grounds", "people": 1}},
                     format="json")
    assert again.status_code == (201 if hunts_again else 422)
    assert replay.state_at(GameRecord.objects.get(pk=record))[0].variants == frozenset(variants)


def test_what_a_move_to_new_rules_moved_is_kept_and_shown(three_kinds, client, django_capture_on_commit_callbacks):
    """CoGs' impact for a ruleset move: the record scored again by the new rules; the ratings it
    moves are compared before → after. Ratings follow the places, so the changed record's lines
    name its players exactly when its places changed."""
    from scoring import tasks
    from scoring.models import RulesetMoveImpact
    from scoring.services import shared_ranks

    tasks.score_record(three_kinds["changed"].pk)  # rated under the old rules first
    with django_capture_on_commit_callbacks(execute=True):
        report = migrate_ruleset(SA, "2", variants=[NEWBORN])
    # The identical record is a game still being played: nothing scored, nothing to compare.
    assert not RulesetMoveImpact.objects.filter(move__record=three_kinds["identical"]).exists()
    changed = three_kinds["changed"]
    line = next(line for line in report.records if line.record_id == changed.pk)
    moved = RulesetMoveImpact.objects.get(move__record=changed).changes
    places_changed = shared_ranks(list(line.scores_before)) != shared_ranks(list(line.scores_after))
    assert bool([entry for entry in moved if entry["kind"] == "rating"]) == places_changed
    page = client.get(f"/games/{changed.pk}/").content.decode()
    assert 'data-testid="ruleset-impacts"' in page and "What the new rules moved" in page
    listed = client.get(f"/api/records/{changed.pk}/impact/").json()
    assert [entry.get("ruleset_move") for entry in listed] == [RulesetMove.objects.get(record=changed).pk]
