"""What a replay page reads of a record in one pass (``records.replay_read``) is what the
position, the event list and the scores say one by one: the state API's position at the step,
each event listed said from the positions before and after it, every seat's total after every
event, and the last position of a finished game."""

from __future__ import annotations

from typing import Any

import pytest

from records import services
from records.files import import_document
from records.models import Event, GameRecord, Snapshot
from records.replay_read import Step, read_listed, read_replay
from tests.factories import simulated_document

pytestmark = pytest.mark.django_db


def positions_around(step: Step, seats: Any) -> tuple[int, Any, Any]:
    return step.seq, step.before, step.after


@pytest.fixture
def game() -> tuple[GameRecord, int]:
    record = import_document(simulated_document("hunters-gatherers", 2, 3))
    return record, Event.objects.filter(record=record).count()


def test_the_position_at_each_step_is_the_state_apis(game):
    record, last = game
    for at in (0, 1, 17, last // 2, last - 1, last):
        read = read_replay(record, at, last=last, listed=range(1, 4), told=(), say=positions_around)
        assert read.document == services.position(record, at)


def test_each_event_listed_is_said_from_the_positions_before_and_after_it(game):
    record, last = game
    read = read_replay(record, 30, last=last, listed=range(20, 41), told=range(20, 25), say=positions_around)

    assert [line.event.seq for line in read.lines] == list(range(20, 41))
    assert sorted(read.said) == list(range(25, 41)), "the events told are not said again"
    for seq, (said_seq, before, after) in read.said.items():
        assert said_seq == seq
        assert before == services.position(record, seq - 1)["position"]
        assert after == services.position(record, seq)["position"]


def test_the_scores_are_each_seats_total_after_every_event(game):
    record, last = game
    read = read_replay(record, 5, last=last, listed=range(0), told=(), say=positions_around)

    assert len(read.scores) == 2 and all(len(column) == last + 1 for column in read.scores)
    for at in (0, 9, last // 2, last):
        totals = [score["total"] for score in services.position(record, at)["position"]["scores"]]
        assert [column[at] for column in read.scores] == totals


def test_the_end_is_the_last_position_of_a_finished_game_and_nothing_before(game):
    record, last = game
    read = read_replay(record, 0, last=last, listed=range(0), told=(), say=positions_around)
    assert read.end == services.position(record, last)["position"]

    unfinished = import_document({**simulated_document("hunters-gatherers", 2, 3), "final_scores": None,
                                  "events": simulated_document("hunters-gatherers", 2, 3)["events"][:30]})
    assert read_replay(unfinished, 0, last=30, listed=range(0), told=(), say=positions_around).end is None


def test_the_list_alone_is_said_as_the_page_says_it(game):
    record, last = game
    page = read_replay(record, last, last=last, listed=range(last - 20, last + 1), told=(), say=positions_around)
    listed = read_listed(record, range(last - 20, last + 1), last=last, told=(), say=positions_around)

    assert listed.lines == page.lines and listed.said == page.said
    assert listed.seats == page.document["seats"]


def test_a_snapshot_that_cannot_be_read_costs_a_replay_not_an_answer(game):
    record, last = game
    expected = read_listed(record, range(40, 51), last=last, told=(), say=positions_around)
    assert Snapshot.objects.filter(record=record).update(state={"not": "a state"}) > 0

    assert read_listed(record, range(40, 51), last=last, told=(), say=positions_around) == expected
