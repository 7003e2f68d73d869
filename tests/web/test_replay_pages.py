"""The replay viewer's pages: the position after event N, its board, scores and events."""

from __future__ import annotations

import json
import re
from functools import lru_cache

import pytest
from django.test import Client

from games.registry import get_engine
from records.files import import_document, simulate_document
from records.models import GameRecord
from records.services import SeatSpec, append_event, start_game
from scoring import tasks
from scoring.models import SeatResult
from tests.factories import HG

pytestmark = pytest.mark.django_db

NAMES = ["Ada", "Bo", "Cy", "Di"]


@lru_cache(maxsize=None)
def simulated_file(players: int, seed: int) -> str:
    return json.dumps(simulate_document(HG, players, seed, NAMES[:players]))


@pytest.fixture
def game() -> GameRecord:
    record = import_document(json.loads(simulated_file(4, 21)))
    tasks.score_record(record.pk)
    return record


def document() -> dict:
    return json.loads(simulated_file(4, 21))


def board_of(html: str) -> str:
    return re.search(r'<figure class="board-frame" id="board"[^>]*>(<svg.*?</svg>)</figure>', html, re.S)[1]


def last_placed(svg: str) -> str:
    return re.search(r'<g class="tile[^"]*last-placed" data-tile="([^"]+)"', svg)[1]


def test_the_replay_opens_at_the_start_with_every_control_labelled(client: Client, game):
    last = len(document()["events"])
    html = client.get(f"/games/{game.pk}/replay/").content.decode()

    assert last_placed(board_of(html)) == "S"
    assert 'data-at="0"' in html and f'data-last="{last}"' in html
    assert '<label for="step-slider">Step</label>' in html
    assert f'<input type="range" id="step-slider" name="at" min="0" max="{last}" value="0"' in html
    assert 'id="step-next" href="?at=1"' in html
    assert 'id="step-prev" href="?at=0" data-step="0" aria-disabled="true"' in html
    assert "Start of the game" in html
    assert 'src="/static/ludolog/replay.js"' in html


def test_the_page_at_step_five_shows_that_position(client: Client, game):
    events = document()["events"]
    html = client.get(f"/games/{game.pk}/replay/?at=5").content.decode()

    assert last_placed(board_of(html)) == events[4]["payload"]["tile"]
    status = re.search(r'<p id="step-status"[^>]*>(.*?)</p>', html, re.S)[1]
    assert f"Event 5 of {len(events)}" in status and events[4]["notation"] not in status  # words, not notation
    folded = re.search(r'<details class="expert step-notation-box">(.*?)</details>', html, re.S)[1]
    assert events[4]["notation"] in folded, "the notation, folded away for the experts"
    assert re.search(rf'<span class="who">.*?{NAMES[4 % 4]}</span> lays tile {events[4]["payload"]["tile"]}', status)
    assert re.search(r'<li value="5" data-seq="5" [^>]*class="current" aria-current="step">', html)
    assert 'id="step-next" href="?at=6"' in html and 'id="step-prev" href="?at=4"' in html


def test_the_score_table_and_chart_give_the_scores_at_the_step_and_over_the_game(client: Client, game):
    engine = get_engine(HG)
    state = engine.new_state(4, 21)
    events = document()["events"]
    for event in events[:40]:
        engine.apply(state, event["type"], event["payload"])
    expected = engine.view(state)["scores"]

    html = client.get(f"/games/{game.pk}/replay/?at=40").content.decode()
    table = re.search(r'<table id="score-table">(.*?)</table>', html, re.S)[1]
    for seat, score in enumerate(expected):
        row = re.search(rf'<tr data-seat="{seat}"[^>]*>(.*?)</tr>', table, re.S)[1]
        assert NAMES[seat] in row
        cells = re.findall(r'<td class="number[^"]*"[^>]*>(-?\d+)</td>', row)
        assert [int(c) for c in cells] == [*score["breakdown"].values(), score["total"]]

    chart = json.loads(re.search(r'<script id="score-chart-data" type="application/json">(.*?)</script>', html, re.S)[1])
    assert [line["label"] for line in chart["series"]] == NAMES
    assert chart["marker"] == 40
    finals = {r.seat.seat_order: r.score for r in SeatResult.objects.filter(record=game).select_related("seat")}
    for seat, line in enumerate(chart["series"]):
        assert len(line["points"]) == len(events) + 1
        assert line["points"][0] == [0, 0]
        assert line["points"][40][1] == expected[seat]["total"]
        assert line["points"][-1][1] == finals[seat], "the last point is the final score"


def test_the_board_fragment_is_the_svg_of_the_step_and_may_be_cached(client: Client, game):
    events = document()["events"]
    response = client.get(f"/games/{game.pk}/replay/board/?at=7")

    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml; charset=utf-8"
    assert "max-age" in response["Cache-Control"] and "private" in response["Cache-Control"]
    svg = response.content.decode()
    assert svg.startswith("<svg") and last_placed(svg) == events[6]["payload"]["tile"]
    assert svg.count('class="tile ') == 8
    assert "after event 7" in re.search(r"<title[^>]*>(.*?)</title>", svg)[1]


@pytest.mark.parametrize("at", ["-1", "x", "1.5", "999"])
def test_a_step_outside_the_game_is_a_400_naming_the_range(client: Client, game, at):
    last = len(document()["events"])
    page = client.get(f"/games/{game.pk}/replay/?at={at}")
    fragment = client.get(f"/games/{game.pk}/replay/board/?at={at}")
    assert page.status_code == fragment.status_code == 400
    assert f"0 and {last}" in fragment.content.decode() or f"0 to {last}" in fragment.content.decode()


def test_a_result_only_record_has_no_replay(client: Client):
    record = start_game(game_slug="stone-age", seats=[SeatSpec("Ada"), SeatSpec("Bo")], result_only=True)
    append_event(record, 0, "result", {"scores": [{"seat": 0, "score": 120}, {"seat": 1, "score": 98}]})
    response = client.get(f"/games/{record.pk}/replay/")
    assert response.status_code == 409
    assert "no moves to replay" in response.content.decode()
    assert client.get(f"/games/{record.pk}/replay/board/?at=1").status_code == 409


def test_the_page_works_in_french(client: Client, game):
    html = client.get(f"/games/{game.pk}/replay/?at=3", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert '<html lang="fr">' in html
    assert "2026" in html and "janvier" in html, "dates are localised"


def test_every_step_answers_with_its_state_and_its_board(client: Client, game):
    """What the viewer fetches for one step. How fast: bench/bench_replay_step.py (target 100 ms)."""
    last = len(document()["events"])
    for at in range(0, last + 1):
        state = client.get(f"/api/records/{game.pk}/state/?at={at}")
        board = client.get(f"/games/{game.pk}/replay/board/?at={at}")
        assert state.status_code == board.status_code == 200
        assert state.json()["at"] == at
        assert f'data-at="{at}"' in board.content.decode()
