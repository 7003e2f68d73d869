"""Carcassonne Maps – Benelux with the Map-Chips on the platform: a record pins its
whole set-up (the approximate map's name and version, the start squares and their tiles, the
chips, the island stacks), is recorded through the API (paying a chip for an island tile), scored,
replayed with the map drawn under the tiles and said in words; a table without a seed names what
it sees; a set-up the seed's rules refuse stores nothing; record files carry it all."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from games.registry import get_engine
from records.files import export_document, import_document, simulate_document
from records.models import Event, GameRecord
from scoring.models import SeatResult

pytestmark = pytest.mark.django_db

MAPS = "carcassonne-maps"


def create(api: APIClient, players: int = 3, **fields):
    seats = [{"player": name} for name in ["Ada", "Bastien", "Chloé", "Dara"][:players]]
    return api.post("/api/records/", {"game_slug": MAPS, "seats": seats, **fields}, format="json")


def test_a_seeded_record_pins_the_table_the_seed_draws(api):
    created = create(api, seed=7, setup={"start_squares": ["Eindhoven", "Charleroi"]})
    assert created.status_code == 201, created.data
    setup = GameRecord.objects.get(pk=created.data["id"]).setup
    table = setup["table"]
    assert table["map"] == {"name": "benelux", "version": "benelux-approximate@1"}
    assert table["start_squares"] == ["Eindhoven", "Charleroi"]
    assert len(table["chips"]) == 20 and len(table["island_stacks"]) == 6
    assert all(len(stack["tiles"]) == 5 for stack in table["island_stacks"])
    assert (setup["expansions"], setup["rules"]) == (["inns_cathedrals", "traders_builders"], [])
    position = api.get(f"/api/records/{created.data['id']}/state/").data["position"]
    assert position["map"]["approximate"] is True and position["tiles_left"] == 114 - 2 - 30


@pytest.mark.parametrize("setup, field", [
    ({"start_squares": ["Meppel", "Amsterdam"]}, "setup.table"),
    ({"start_squares": ["Meppel"]}, "setup.start_squares"),
    ({"chip_values": {"violet": {"1": 9, "2": 4}}}, "setup.table"),
    ({}, "setup.table"),  # no seed: the table must say what it shows
])
def test_a_set_up_the_rules_refuse_stores_nothing(api, setup, field):
    seed = None if not setup else 3
    refused = create(api, seed=seed, setup=setup)
    assert refused.status_code == 400 and refused.data["reason"] == "invalid_setup", refused.data
    assert refused.data["field"] == field
    assert not GameRecord.objects.exists()


def test_a_game_recorded_through_the_api_pays_chips_scores_and_replays(api, django_capture_on_commit_callbacks, celery_eager):
    """And before the first chip paid for an island, the recorder is offered that island (one
    game recorded for both: they took 4.6 and 5.6 s, most of it the same appends)."""
    engine = get_engine(MAPS)
    created = create(api, seed=7)
    record_id = created.data["id"]
    setup = GameRecord.objects.get(pk=record_id).setup
    events = engine.demo_game(3, 7, setup)
    first_island = next((i for i, (_k, p) in enumerate(events) if "island" in p), None)
    assert first_island is not None, "the simple player pays a chip"
    with django_capture_on_commit_callbacks(execute=True):
        for seq, (kind, payload) in enumerate(events):
            if seq == first_island:
                assert_the_island_is_offered(api, record_id, payload)
            body = {k: v for k, v in payload.items() if k not in ("tile", "reveal", "chip")}  # Ludolog deals
            answer = api.post(f"/api/records/{record_id}/events/", {"expected_seq": seq, "type": kind, "payload": body},
                              format="json")
            assert answer.status_code == 201, (seq, answer.data)
            assert answer.data["payload"] == payload, "the stored event names what the seed dealt"
    record = GameRecord.objects.get(pk=record_id)
    assert record.status == GameRecord.Status.FINISHED
    state = engine.new_state(3, 7, setup)
    for kind, payload in events:
        engine.apply(state, kind, payload)
    results = list(SeatResult.objects.filter(record=record).order_by("seat__seat_order").values_list("score", "breakdown"))
    assert [score for score, _ in results] == engine.totals(state)
    assert sum(breakdown.get("chips", 0) for _, breakdown in results) > 0


def test_a_table_without_a_seed_names_the_chips_it_turns_over_and_the_tiles_it_turns_up(api):
    engine = get_engine(MAPS)
    seeded = engine.prepare_setup(2, 11, {})
    dealt = engine.engine.setup_from_dict(seeded["table"])
    table = dealt.table().to_dict()
    created = create(api, players=2, setup={"table": table})
    assert created.status_code == 201, created.data
    record = GameRecord.objects.get(pk=created.data["id"])
    assert "chips" not in record.setup["table"] and len(record.setup["table"]["chip_squares"]) == 20
    # The seeded game's moves, as the table saw them: every chip and island tile named.
    events = engine.random_game(2, 11, seeded)
    for seq, (kind, payload) in enumerate(events[:30]):
        answer = api.post(f"/api/records/{record.pk}/events/", {"expected_seq": seq, "type": kind, "payload": payload},
                          format="json")
        assert answer.status_code == 201, (seq, answer.data)
    chip_move = next((i, p) for i, (_k, p) in enumerate(events[30:], start=30) if "chip" in p)
    index, payload = chip_move
    for seq in range(30, index):
        kind, p = events[seq]
        assert api.post(f"/api/records/{record.pk}/events/", {"expected_seq": seq, "type": kind, "payload": p},
                        format="json").status_code == 201
    missing = {k: v for k, v in payload.items() if k != "chip"}
    refused = api.post(f"/api/records/{record.pk}/events/", {"expected_seq": index, "type": "place_tile",
                                                              "payload": missing}, format="json")
    assert refused.status_code == 422 and refused.data["reason"] == "chip_missing"
    assert Event.objects.filter(record=record).count() == index


def assert_the_island_is_offered(api: APIClient, record_id: int, paid: dict) -> None:
    """The recorder's options, before the event ``paid`` pays a chip for an island's tile."""
    options = api.get(f"/api/records/{record_id}/options/").data
    offered = [i for i in options["islands"] if i["payable"]]
    assert {(i["colour"], i["stack"]) for i in offered} >= {(paid["island"], paid["stack"])}
    island = api.get(f"/api/records/{record_id}/options/?island={paid['island']}&stack={paid['stack']}").data
    assert island["tile"] == paid["tile"] and island["island"] == {"colour": paid["island"], "stack": paid["stack"]}
    assert any(spot["x"] == paid["x"] and spot["y"] == paid["y"] for spot in island["spots"])
    assert api.get(f"/api/records/{record_id}/options/?island=green&stack=1").status_code == 400


def test_the_replay_draws_the_map_and_says_the_chips(client: Client):
    document = simulate_document(MAPS, 3, 7, player="heuristic")
    record = import_document(document)
    last = len(document["events"])
    chip_step = next(e["seq"] for e in document["events"] if "chip" in e["payload"])
    html = client.get(f"/games/{record.pk}/replay/?at={chip_step}").content.decode()
    assert 'class="board carcassonne carcassonne-maps"' in html and "Approximate map" in html
    assert html.count('data-kind="wave"') == 3 and html.count('class="island-stack"') == 6
    assert "Chip taken:" in html
    island_step = next(e["seq"] for e in document["events"] if "island" in e["payload"])
    html = client.get(f"/games/{record.pk}/replay/?at={island_step}").content.decode()
    assert "chip for the island&#x27;s tile" in html
    end = client.get(f"/games/{record.pk}/replay/?at={last}").content.decode()
    assert "The final scoring, feature by feature" in end
    detail = client.get(f"/games/{record.pk}/").content.decode()
    assert "Benelux (approximate map, version 1)" in detail and "Map-Chips" in detail


def test_a_record_file_carries_the_whole_set_up():
    document = simulate_document(MAPS, 2, 5)
    assert document["setup"]["table"]["map"]["version"] == "benelux-approximate@1"
    record = import_document(document)
    again = export_document(record)
    assert again["setup"] == document["setup"] and again["final_scores"] == document["final_scores"]


def test_the_maps_pages_speak_french(client: Client):
    document = simulate_document(MAPS, 2, 9, player="heuristic")
    record = import_document(document)
    chip_step = next(e["seq"] for e in document["events"] if "chip" in e["payload"])
    html = client.get(f"/games/{record.pk}/replay/?at={chip_step}", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Jeton pris" in html and "Carte approximative" in html and "Cases de départ" in html
    assert "Carte de Carcassonne – Benelux" in html


def benelux_file() -> dict:
    import json
    from importlib import resources

    return json.loads(resources.files("games.engines.carcassonne_maps").joinpath(
        "data/benelux_approximate_v1.json").read_text(encoding="utf-8"))


def test_staff_load_a_map_file_and_records_pin_it(api, client: Client):
    import json

    from django.core.files.uploadedfile import SimpleUploadedFile

    from games.models import MapFile

    client.force_login(User.objects.create_superuser("librarian", "l@example.org", "pw"))
    exact = benelux_file() | {"version": "benelux-exact@1", "approximate": False,
                              "provenance": "A test's stand-in for the printed map."}
    broken = dict(exact, version="benelux-broken@1", start_squares=exact["start_squares"][:1])
    refused = client.post("/admin/games/mapfile/add/", {"upload": SimpleUploadedFile(
        "broken.json", json.dumps(broken).encode())})
    assert refused.status_code == 200 and not MapFile.objects.exists()
    assert "errorlist" in refused.content.decode()
    loaded = client.post("/admin/games/mapfile/add/", {"upload": SimpleUploadedFile(
        "exact.json", json.dumps(exact).encode())})
    assert loaded.status_code == 302, loaded.content.decode()[:2000]
    stored = MapFile.objects.get()
    assert (stored.name, stored.version, stored.approximate) == ("benelux", "benelux-exact@1", False)
    again = client.post("/admin/games/mapfile/add/", {"upload": SimpleUploadedFile("exact.json", json.dumps(exact).encode())})
    assert "loaded already" in again.content.decode() and MapFile.objects.count() == 1
    created = create(api, seed=5, setup={"map": {"name": "benelux", "version": "benelux-exact@1"}})
    assert created.status_code == 201, created.data
    record = GameRecord.objects.get(pk=created.data["id"])
    assert record.setup["table"]["map"] == {"name": "benelux", "version": "benelux-exact@1"}
    position = api.get(f"/api/records/{record.pk}/state/").data["position"]
    assert position["map"]["approximate"] is False
    unknown = create(api, seed=5, setup={"map": {"name": "benelux", "version": "nope@1"}})
    assert unknown.status_code == 400 and unknown.data["field"] == "setup.table.map"


def test_a_seeded_record_shows_its_drawn_tile_only_once_the_player_drew_it(api, client: Client):
    """Seed 003: no change of mind once a tile is drawn face down. While a chip could pay for an
    island tile the options show no tile drawn and the draw (``draw_tile``) is offered; after it
    the tile shows and no island is payable; a draw with nothing to choose is a 422."""
    engine = get_engine(MAPS)
    created = create(api, seed=7)
    record_id = created.data["id"]
    setup = GameRecord.objects.get(pk=record_id).setup
    events = engine.demo_game(3, 7, setup)
    first = next(i for i, (kind, _p) in enumerate(events) if kind == "draw_tile")
    refused = api.post(f"/api/records/{record_id}/events/", {"expected_seq": 0, "type": "draw_tile", "payload": {}},
                       format="json")
    assert refused.status_code == 422 and refused.data["reason"] == "nothing_to_choose"
    for seq, (kind, payload) in enumerate(events[:first]):
        assert api.post(f"/api/records/{record_id}/events/", {"expected_seq": seq, "type": kind, "payload": payload},
                        format="json").status_code == 201
    hidden = api.get(f"/api/records/{record_id}/options/").data
    assert hidden["choosing"] is True and hidden["drawn"] is None and hidden["tile"] is None
    assert hidden["spots"] == [] and hidden["pile"] == [] and any(i["payable"] for i in hidden["islands"])
    drawn = api.post(f"/api/records/{record_id}/events/", {"expected_seq": first, "type": "draw_tile", "payload": {}},
                     format="json")
    assert drawn.status_code == 201 and drawn.data["payload"] == {}
    shown = api.get(f"/api/records/{record_id}/options/").data
    assert shown["choosing"] is False and shown["drawn"] == events[first + 1][1]["tile"] and shown["spots"]
    assert not any(i["payable"] for i in shown["islands"])
    again = api.post(f"/api/records/{record_id}/events/", {"expected_seq": first + 1, "type": "draw_tile",
                                                            "payload": {}}, format="json")
    assert again.status_code == 422 and again.data["reason"] == "nothing_to_choose"
    assert Event.objects.filter(record_id=record_id).count() == first + 1
    assert engine.notation("draw_tile", {}) == "draw" and engine.parse_notation("draw") == ("draw_tile", {})
    for language, words in (("en", "draws tile"), ("fr", "pioche la tuile")):
        html = client.get(f"/games/{record_id}/replay/?at={first + 1}", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert words in html and "face" in html, language


def test_a_record_file_with_draws_reads_back_the_same():
    document = simulate_document(MAPS, 2, 1)
    assert any(e["type"] == "draw_tile" for e in document["events"]), "the random player draws while it could pay"
    record = import_document(document)
    again = export_document(record)
    assert [(e["type"], e["payload"]) for e in again["events"]] == [(e["type"], e["payload"]) for e in document["events"]]
    assert again["final_scores"] == document["final_scores"]
