"""Projections rebuilt from the events equal the ones the workers kept up to date, and none skips
a record whose transaction committed after a record with a higher id."""

from __future__ import annotations

import threading
from datetime import date, timedelta

import pytest
from django.core.management import call_command
from django.db import connections, transaction

from accounts.models import Organisation
from games.models import CatalogueRecord, Copy
from records.signals import record_finished
from scoring import receivers, services, tasks
from scoring.models import (
    CatalogueUsage, CopyUsage, GameStatistics, PlayerStatistics, Rating, RatingChange, ScoredRecord, SeatResult,
    Standing,
)
from tests.factories import play, result_game
from tests.scoring.test_leagues import LEAGUE_GAMES, make_league

PROJECTIONS = {
    SeatResult: ["record_id", "seat_id", "player_id", "score", "rank", "breakdown", "ruleset_version"],
    ScoredRecord: ["record_id", "game_slug", "played_on", "players", "winning_score", "duration_seconds",
                   "catalogue_record_id", "copy_id", "ruleset_version", "organisation_id"],
    PlayerStatistics: ["organisation_id", "player_id", "game_slug", "games", "wins", "win_rate", "average_score",
                       "best_score", "average_by_source"],
    GameStatistics: ["organisation_id", "game_slug", "games", "average_winning_score", "score_distribution",
                     "seat_advantage", "average_duration_seconds"],
    CatalogueUsage: ["catalogue_record_id", "times_played", "last_played"],
    CopyUsage: ["copy_id", "times_played", "last_played"],
    Standing: ["league_id", "player_id", "position", "games", "wins", "points", "average_rank", "average_score"],
    Rating: ["player_id", "game_slug", "club_id", "mu", "sigma", "ordinal", "games", "last_played"],
    RatingChange: ["player_id", "game_slug", "club_id", "record_id", "played_on", "rank", "mu_before",
                   "sigma_before", "mu", "sigma", "ordinal"],
}


def projection_rows() -> dict[str, list[tuple]]:
    return {
        model.__name__: sorted(
            (tuple(repr(v) for v in row) for row in model.objects.values_list(*fields)), key=str
        )
        for model, fields in PROJECTIONS.items()
    }


@pytest.mark.django_db
def test_rebuild_from_the_events_equals_the_incremental_projections():
    league = make_league()
    box = CatalogueRecord.objects.create(title="Stone Age")
    copy = Copy.objects.create(record=box, barcode="LUD-0001")
    records = [result_game(scores, day, copy=copy) for day, scores in LEAGUE_GAMES[1:]]
    records += [play(4, 3, played_on=date(2026, 3, 6), catalogue_record=box), play(3, 4)]
    records.append(result_game(LEAGUE_GAMES[0][1], LEAGUE_GAMES[0][0]))  # entered late, played first
    for record in records:
        tasks.score_record(record.pk)
    incremental = projection_rows()
    assert all(incremental[name] for name in ("Standing", "Rating", "RatingChange", "CopyUsage", "GameStatistics"))
    assert CatalogueUsage.objects.get(pk=box.pk).times_played == 6  # five through the copy, one direct
    call_command("rebuild_projections", verbosity=0)
    assert projection_rows() == incremental
    assert Standing.objects.filter(league=league).count() == 5


@pytest.mark.django_db
def test_an_organisations_figures_are_those_of_its_games_alone_incremental_or_rebuilt():
    """Two clubs' games and one of nobody's: each organisation's rows are worked out from its own
    games only, the installation's from all of them, kept as the games are scored and the same
    when rebuilt."""
    meeples = Organisation.objects.create(name="Les Meeples", slug="meeples")
    dunes = Organisation.objects.create(name="Les Dunes", slug="dunes")
    records = [
        result_game({"Ada": 30, "Bo": 20}, date(2026, 1, 5), organisation=meeples),
        result_game({"Ada": 10, "Bo": 20}, date(2026, 1, 6), organisation=dunes),
        result_game({"Ada": 50, "Cy": 5}, date(2026, 1, 7), organisation=dunes),
        result_game({"Bo": 8, "Cy": 9}, date(2026, 1, 8)),
    ]
    for record in records:
        tasks.score_record(record.pk)
    incremental = projection_rows()

    def ada(organisation):
        row = PlayerStatistics.objects.of(organisation).get(player__display_name="Ada", game_slug="stone-age")
        return row.games, row.wins, row.best_score

    assert (ada(meeples), ada(dunes), ada(None)) == ((1, 1, 30), (2, 1, 50), (3, 2, 50))
    games = {organisation: GameStatistics.objects.of(organisation).get(game_slug="stone-age").games
             for organisation in (meeples, dunes, None)}
    assert games == {meeples: 1, dunes: 2, None: 4}
    assert not PlayerStatistics.objects.of(meeples).filter(player__display_name="Cy").exists()
    call_command("rebuild_projections", verbosity=0)
    assert projection_rows() == incremental


@pytest.mark.django_db
def test_player_and_game_statistics_from_hand_made_results():
    result_game({"Ada": 30, "Bo": 20}, date(2026, 1, 5))
    result_game({"Ada": 10, "Bo": 20}, date(2026, 1, 6))
    result_game({"Ada": 50, "Bo": 50, "Cy": 5}, date(2026, 1, 7), game="carcassonne")
    for record_id in services.unscored_record_ids(grace=timedelta(0)):
        tasks.score_record(record_id)
    ada = {s.game_slug: s for s in PlayerStatistics.objects.filter(player__display_name="Ada")}
    assert (ada[""].games, ada[""].wins, ada[""].best_score, ada[""].average_score) == (3, 2, None, None), \
        "over every game, only counts (no score averaged across games of different scales)"
    assert (ada["carcassonne"].best_score, ada["stone-age"].average_score) == (50, 20.0)
    assert (ada["stone-age"].games, ada["stone-age"].wins, ada["stone-age"].win_rate) == (2, 1, 0.5)
    stone_age = GameStatistics.objects.get(game_slug="stone-age")
    assert (stone_age.games, stone_age.average_winning_score) == (2, 25.0)
    assert stone_age.score_distribution == {"10-19": 1, "20-29": 2, "30-39": 1}
    assert stone_age.seat_advantage == {"2": {"0": 0.5, "1": 0.5}}


@pytest.mark.django_db
def test_the_sweep_scores_finished_records_never_scored_and_leaves_fresh_ones_to_their_task(eager):
    record = result_game({"Ada": 3, "Bo": 4}, date(2026, 2, 1))  # no commit hook runs here: never queued
    assert services.unscored_record_ids() == []                  # finished a moment ago: within the grace
    assert services.unscored_record_ids(grace=timedelta(0)) == [record.pk]
    from django.test import override_settings

    with override_settings(LUDOLOG_SWEEP_GRACE_SECONDS=0):
        assert tasks.sweep() == [record.pk]
    assert ScoredRecord.objects.filter(pk=record.pk).exists()
    assert services.unscored_record_ids(grace=timedelta(0)) == []


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_record_committed_after_a_higher_id_is_not_skipped(eager, settings):
    """A slow transaction finishes record 1 and commits after record 2 was finished and scored."""
    settings.LUDOLOG_SWEEP_GRACE_SECONDS = 0
    record_finished.disconnect(dispatch_uid="scoring.queue_scoring")  # as if the broker were down
    try:
        inside, release, slow_ids = threading.Event(), threading.Event(), []

        def slow_writer() -> None:
            try:
                with transaction.atomic():
                    slow_ids.append(result_game({"Ada": 9, "Bo": 1}, date(2026, 2, 1)).pk)
                    inside.set()
                    release.wait(30)
            finally:
                connections.close_all()

        thread = threading.Thread(target=slow_writer)
        thread.start()
        assert inside.wait(30)
        # Other players: a new "Ada" row would wait on the slow transaction's uncommitted one.
        fast = result_game({"Cy": 2, "Di": 8}, date(2026, 2, 2))
        assert fast.pk > slow_ids[0]
        assert tasks.sweep() == [fast.pk]          # the lower id is not visible yet
        release.set()
        thread.join(30)
        assert tasks.sweep() == [slow_ids[0]]      # visible now, and found
    finally:
        receivers.connect()
    assert ScoredRecord.objects.count() == 2
    assert PlayerStatistics.objects.get(player__display_name="Ada", game_slug="").wins == 1
    assert GameStatistics.objects.get(game_slug="stone-age").games == 2
