"""The recording page and the table's state as JSON; the options API; the notation form kept for
experts (a refusal shows the engine's reason and stores nothing)."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from games.registry import get_engine
from records.models import Event, Player
from records.services import SeatSpec, append_event, start_game
from tests.factories import HG, simulated_events

pytestmark = pytest.mark.django_db


def page_data(html: str) -> dict:
    found = re.search(r'<script id="recorder-data" type="application/json">(.*?)</script>', html, re.S)
    assert found, "the page embeds the recorder's data"
    return json.loads(found[1])


def notation(index: int) -> str:
    kind, payload = simulated_events(2, 1)[index]
    return get_engine(HG).notation(kind, payload)


def test_the_record_page_embeds_what_the_recorder_needs_offline(keeper_client: Client, record):
    response = keeper_client.get(f"/scorekeeping/{record.pk}/")
    assert response.status_code == 200
    html = response.content.decode()
    data = page_data(html)
    engine = get_engine(HG)
    state = engine.new_state(2, 1)
    drawn = state.next_tile
    table = data["table"]
    assert table["seq"] == 0 and table["to_play"] == 0 and table["options"]["drawn"] == drawn
    assert table["options"] == engine.options(state)
    assert [s["player"] for s in table["seats"]] == ["Ada", "Bo"]
    # Every tile of the set: its picture (a symbol of the sprite), its edges and what is on it.
    assert set(data["tiles"]) == set(engine.tile_records())
    for tile, entry in data["tiles"].items():
        assert f'<symbol id="tile-{tile}"' in html
        assert entry["edges"] == engine.edges(tile)
    assert "river" in data["tiles"]["S"]["tags"] and data["tiles"]["B01"]["kind"] == "bonus"
    assert data["urls"]["events"] == f"/scorekeeping/{record.pk}/table/" and data["csrf"]
    assert data["words"]["confirm"] == "Confirm"
    # The controls of the test contract (docs/recording.md, "Test contract").
    for testid in ("rotate", "no-figure", "discard", "confirm", "undo", "pending"):
        assert f'data-testid="{testid}"' in html
    assert 'Ada to play' in html
    assert "data-origin-x=" in table["board"]


def test_the_page_speaks_french(client: Client, keeper, record):
    client.force_login(keeper)
    html = client.get(f"/scorekeeping/{record.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    data = page_data(html)
    assert data["words"]["confirm"] == "Valider" and data["words"]["rotate"] == "Tourner"
    assert "À Ada de jouer" in html


def test_the_table_answers_204_until_something_new_is_recorded(keeper_client: Client, record, keeper):
    url = f"/scorekeeping/{record.pk}/table/"
    assert keeper_client.get(url + "?known=0").status_code == 204
    kind, payload = simulated_events(2, 1)[0]
    append_event(record, 0, kind, dict(payload), recorded_by=keeper)
    assert keeper_client.get(url + "?known=1").status_code == 204
    answer = keeper_client.get(url + "?known=0")
    assert answer.status_code == 200
    table = answer.json()
    assert table["seq"] == 1 and table["to_play"] == 1
    line = table["lines"][-1]
    assert line["seq"] == 1 and line["seat"] == 0 and line["text"].startswith("Ada lays tile")
    assert line["notation"] == notation(0) and line["retracted"] is False and line["by"] == "keeper"


def test_the_table_says_which_moves_an_undo_took_back(keeper_client: Client, record, keeper):
    kind, payload = simulated_events(2, 1)[0]
    append_event(record, 0, kind, dict(payload), recorded_by=keeper)
    append_event(record, 1, "undo", {}, recorded_by=keeper)
    lines = keeper_client.get(f"/scorekeeping/{record.pk}/table/").json()["lines"]
    assert [(line["seq"], line["retracted"]) for line in lines] == [(1, True), (2, False)]
    assert lines[1]["text"] == "Ada takes back the last move"


def test_only_scorekeepers_and_seated_players_get_the_table(client: Client, record):
    assert client.get(f"/scorekeeping/{record.pk}/table/").status_code == 302  # to the login page
    client.force_login(get_user_model().objects.create_user("stranger"))
    answer = client.get(f"/scorekeeping/{record.pk}/table/")
    assert answer.status_code == 403 and answer.json()["reason"] == "forbidden"


def test_the_options_api_lists_what_may_be_recorded(record):
    api = APIClient()
    answer = api.get(f"/api/records/{record.pk}/options/")
    assert answer.status_code == 200
    body = answer.json()
    engine = get_engine(HG)
    assert body["seq"] == 0 and body["status"] == "in_progress"
    assert {k: v for k, v in body.items() if k not in ("seq", "status")} == engine.options(engine.new_state(2, 1))
    wrong = api.get(f"/api/records/{record.pk}/options/?tile=L01" if body["drawn"] != "L01" else
                    f"/api/records/{record.pk}/options/?tile=L02")
    assert wrong.status_code == 400 and wrong.json()["reason"] == "invalid_payload" and wrong.json()["field"] == "tile"


def test_the_options_api_answers_for_an_unseeded_tile_picked(keeper):
    record = start_game(game_slug="carcassonne", seats=[SeatSpec("Ada"), SeatSpec("Bo")], created_by=keeper)
    api = APIClient()
    body = api.get(f"/api/records/{record.pk}/options/").json()
    assert body["drawn"] is None and {e["tile"]: e["left"] for e in body["pile"]}["D"] == 3
    picked = api.get(f"/api/records/{record.pk}/options/?tile=U").json()
    assert picked["tile"] == "U" and picked["spots"] and not picked["discard"]


def test_a_stone_age_table_names_the_cards_and_buildings_on_offer(keeper_client: Client, keeper):
    record = start_game(game_slug="stone-age", seats=[SeatSpec("Ada"), SeatSpec("Bo")], seed=4, created_by=keeper)
    html = keeper_client.get(f"/scorekeeping/{record.pk}/").content.decode()
    data = page_data(html)
    table = data["table"]
    assert table["options"]["phase"] == "placement"
    assert set(table["cards"]) == {"card1", "card2", "card3", "card4"}
    assert set(table["buildings"]) == {"building1", "building2"}
    catalogue = data["catalogue"]
    assert len(catalogue["cards"]) == 36 and len(catalogue["buildings"]) == 28
    assert catalogue["cards"]["C01"] == {"top": "5 food", "bottom": "green: medicine", "kind": "food"}
    assert catalogue["buildings"]["B01"] == {"cost": "2 wood and 1 clay"}
    assert "recorder-stone-age.js" in html and "recorder-tiles.js" not in html


# -- the notation form, folded away for experts ------------------------------------------------


def test_a_legal_action_in_notation_is_stored_and_the_page_moves_on(keeper_client: Client, record, keeper):
    response = keeper_client.post(f"/scorekeeping/{record.pk}/", {"action": notation(0), "expected_seq": 0})
    assert response.status_code == 302
    event = Event.objects.get(record=record)
    kind, payload = simulated_events(2, 1)[0]
    assert (event.seq, event.type, event.payload["tile"], event.recorded_by) == (1, kind, payload["tile"], keeper)
    html = keeper_client.get(response["Location"]).content.decode()
    assert f"Recorded: {notation(0)}" in html and "Bo to play" in html
    assert 'name="expected_seq" value="1"' in html


def test_an_illegal_action_in_notation_shows_the_engines_reason_as_a_422_and_stores_nothing(keeper_client: Client, record):
    drawn = simulated_events(2, 1)[0][1]["tile"]
    response = keeper_client.post(f"/scorekeeping/{record.pk}/", {"action": f"{drawn}@0,0r0", "expected_seq": 0})
    assert response.status_code == 422
    html = response.content.decode()
    assert '<details class="expert" open>' in html, "the form is unfolded to show the refusal"
    error = re.search(r'<div class="error refusal" id="action-error" role="alert">(.*?)</div>', html, re.S)[1]
    assert "a tile already lies at (0,0)" in error and '<code class="reason">occupied</code>' in error
    assert f'value="{drawn}@0,0r0"' in html and 'aria-invalid="true"' in html
    assert not Event.objects.filter(record=record).exists()


@pytest.mark.parametrize("form, status, reason", [
    ({"action": "L17 somewhere", "expected_seq": 0}, 400, "invalid_notation"),
    ({"action": "undo", "expected_seq": 0}, 422, "nothing_to_undo"),
])
def test_malformed_notation_is_refused_with_the_reason(keeper_client: Client, record, form, status, reason):
    response = keeper_client.post(f"/scorekeeping/{record.pk}/", form)
    assert response.status_code == status
    assert f'<code class="reason">{reason}</code>' in response.content.decode()
    assert not Event.objects.filter(record=record).exists()


def test_a_stale_notation_form_is_a_409_and_keeps_the_other_writers_event(keeper_client: Client, record):
    assert keeper_client.post(f"/scorekeeping/{record.pk}/", {"action": notation(0), "expected_seq": 0}).status_code == 302
    response = keeper_client.post(f"/scorekeeping/{record.pk}/", {"action": notation(1), "expected_seq": 0})
    assert response.status_code == 409
    assert '<code class="reason">seq_conflict</code>' in response.content.decode()
    assert list(Event.objects.filter(record=record).values_list("seq", flat=True)) == [1]


def test_someone_who_neither_keeps_nor_plays_gets_a_403_and_stores_nothing(client: Client, record):
    client.force_login(get_user_model().objects.create_user("stranger", password="stranger-pw-123456"))
    response = client.post(f"/scorekeeping/{record.pk}/", {"action": notation(0), "expected_seq": 0})
    assert response.status_code == 403
    assert not Event.objects.filter(record=record).exists()


def test_a_seated_player_may_record(client: Client, record):
    player_user = get_user_model().objects.create_user("bo", password="bo-pw-123456")
    Player.objects.filter(display_name="Bo").update(user=player_user)
    client.force_login(player_user)
    assert client.post(f"/scorekeeping/{record.pk}/", {"action": notation(0), "expected_seq": 0}).status_code == 302
    assert client.get(f"/scorekeeping/{record.pk}/table/").status_code == 200


def test_the_wrong_tile_for_a_seeded_bag_is_refused(keeper_client: Client, record):
    drawn = simulated_events(2, 1)[0][1]["tile"]
    other = "L01" if drawn != "L01" else "L02"
    response = keeper_client.post(f"/scorekeeping/{record.pk}/", {"action": f"{other}@0,1r0", "expected_seq": 0})
    assert response.status_code == 422
    assert f"the tile drawn is {drawn}, not {other}" in response.content.decode()
    assert not Event.objects.filter(record=record).exists()


def test_an_undone_move_is_struck_through_in_what_happened(keeper_client: Client, record):
    keeper_client.post(f"/scorekeeping/{record.pk}/", {"action": notation(0), "expected_seq": 0})
    assert keeper_client.post(f"/scorekeeping/{record.pk}/", {"action": "undo", "expected_seq": 1}).status_code == 302
    assert list(Event.objects.filter(record=record).values_list("type", flat=True)) == [simulated_events(2, 1)[0][0], "undo"]
    html = keeper_client.get(f"/scorekeeping/{record.pk}/").content.decode()
    assert re.search(r'<del class="line-text" title="' + re.escape(notation(0)) + r'">Ada lays tile', html)
    assert "Ada takes back the last move" in html


def test_an_action_posted_to_the_table_is_stored_and_the_new_table_comes_back(client, django_user_model):
    """The recorder's one round trip: the API's append, and the table after it."""
    import json

    from records.models import Event
    from records.services import SeatSpec, start_game
    from tests.factories import event

    keeper = django_user_model.objects.create_user("keeper-post")
    record = start_game(game_slug="hunters-gatherers", seats=[SeatSpec("Ada"), SeatSpec("Bo")], seed=1,
                        created_by=keeper)
    client.force_login(keeper)
    kind, payload = event(0)
    body = {"expected_seq": 0, "type": kind, "payload": payload, "idempotency_key": "k-1"}
    answer = client.post(f"/scorekeeping/{record.pk}/table/", json.dumps(body), content_type="application/json")
    assert answer.status_code == 201
    data = answer.json()
    assert data["event"]["seq"] == 1 and data["table"]["seq"] == 1 and data["table"]["lines"][-1]["seq"] == 1
    again = client.post(f"/scorekeeping/{record.pk}/table/", json.dumps(body), content_type="application/json")
    assert again.status_code == 201 and Event.objects.filter(record=record).count() == 1, "a retry stores nothing twice"
    stale = client.post(f"/scorekeeping/{record.pk}/table/", json.dumps({**body, "idempotency_key": "k-2"}),
                        content_type="application/json")
    assert stale.status_code == 409 and stale.json()["reason"] == "seq_conflict" and stale.json()["current_seq"] == 1
    refused = client.post(f"/scorekeeping/{record.pk}/table/", json.dumps(
        {"expected_seq": 1, "type": "place_tile", "payload": {"tile": payload["tile"], "x": 0, "y": 0, "rotation": 0}}),
        content_type="application/json")
    assert refused.status_code in (400, 422) and "reason" in refused.json()
    assert client.post(f"/scorekeeping/{record.pk}/table/", "{", content_type="application/json").status_code == 400
    assert Event.objects.filter(record=record).count() == 1


def test_a_move_posted_to_the_table_is_refused_to_whoever_may_not_record_it(client: Client, record, keeper):
    """The table's POST reads the record and the user's rights in the append's one query (issue
    25): a stranger gets 403 on a public record, 404 on a private one, and nothing is stored."""
    kind, payload = simulated_events(2, 1)[0]
    body = json.dumps({"expected_seq": 0, "type": kind, "payload": payload})
    client.force_login(get_user_model().objects.create_user("stranger"))
    answer = client.post(f"/scorekeeping/{record.pk}/table/", body, content_type="application/json")
    assert answer.status_code == 403 and answer.json()["reason"] == "forbidden"
    hidden = start_game(game_slug=HG, seats=[SeatSpec("Ada"), SeatSpec("Bo")], seed=1, created_by=keeper,
                        is_private=True)
    assert client.post(f"/scorekeeping/{hidden.pk}/table/", body, content_type="application/json").status_code == 404
    assert client.post("/scorekeeping/999999/table/", body, content_type="application/json").status_code == 404
    assert not Event.objects.exists()


def test_a_move_posted_to_the_table_costs_a_bounded_number_of_queries(keeper_client: Client, record,
                                                                     django_assert_max_num_queries):
    """The Confirm's round trip (issue 25): the session and its user, the record with the rights
    and the events this process lacks (one query), the insert, then the table (seats, the last
    moves and which an undo took back, the words of the new move). Here, where no transaction
    commits, the state is rebuilt for every move (no cached state): 18-19 queries, 20-21 before the
    record and the rights were read in one."""
    events = simulated_events(2, 1)
    for seq, (kind, payload) in enumerate(events[:3], start=1):
        body = json.dumps({"expected_seq": seq - 1, "type": kind, "payload": payload})
        with django_assert_max_num_queries(19):
            answer = keeper_client.post(f"/scorekeeping/{record.pk}/table/", body, content_type="application/json")
        assert answer.status_code == 201 and answer.json()["table"]["seq"] == seq
