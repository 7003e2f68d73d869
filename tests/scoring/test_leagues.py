"""A hand-made league: its table and its ratings, worked out by hand in the test."""

from __future__ import annotations

from datetime import date

import pytest
from django.db import transaction
from openskill.models import PlackettLuce

from records.models import Player
from scoring import tasks
from scoring.models import Club, League, LeagueMembership, Rating, RatingChange, Standing
from tests.factories import result_game

pytestmark = pytest.mark.django_db

SPRING = (date(2026, 3, 1), date(2026, 5, 31))

# The league's games: (day, {player: score}). Ranks follow the scores; Ada and Di tie in G4.
LEAGUE_GAMES = [
    (date(2026, 3, 5), {"Ada": 40, "Bo": 35, "Cy": 30, "Di": 20}),   # G1 4p: Ada 5, Bo 3, Cy 2, Di 1
    (date(2026, 3, 12), {"Di": 50, "Bo": 45, "Cy": 10}),             # G2 3p: Di 4, Bo 2, Cy 1
    (date(2026, 3, 19), {"Cy": 60, "Di": 50, "Ada": 40, "Bo": 30}),  # G3 4p: Cy 5, Di 3, Ada 2, Bo 1
    (date(2026, 4, 2), {"Ada": 25, "Di": 25, "Bo": 20}),             # G4 3p: Ada 4, Di 4 (tied 1st), Bo 1
    (date(2026, 4, 10), {"Ed": 70, "Ada": 10, "Bo": 5}),             # G5 3p: Ed 4, Ada 2, Bo 1
    (date(2026, 4, 20), {"Cy": 40, "Bo": 30, "Di": 20}),             # G6 3p: Cy 4, Bo 2, Di 1
]
NOT_COUNTED = [
    (date(2026, 6, 15), {"Ada": 10, "Bo": 90, "Cy": 50}, "stone-age"),         # after the season
    (date(2026, 3, 20), {"Ada": 10, "Zoe": 90, "Bo": 50}, "stone-age"),        # Zoe is no member
    (date(2026, 3, 21), {"Ada": 10, "Bo": 90, "Cy": 50}, "carcassonne"),       # not a league game
]

# position, player, games, wins, points, average score. Ada and Di tie on 13 points and 2 wins:
# the higher average score (Di 165/5 = 33 against Ada 115/4 = 28.75) puts Di first.
# Ed has one game of the two needed: listed, not ranked.
EXPECTED_TABLE = [
    (1, "Di", 5, 2, 13.0, 33.0),
    (2, "Ada", 4, 2, 13.0, 28.75),
    (3, "Cy", 4, 2, 12.0, 35.0),
    (4, "Bo", 6, 0, 10.0, 27.5),
    (None, "Ed", 1, 1, 4.0, 70.0),
]


def make_league(name: str = "Spring 2026", members=("Ada", "Bo", "Cy", "Di", "Ed"), **fields) -> League:
    club, _ = Club.objects.get_or_create(name="Les Meeples")
    fields = {
        "game_slugs": ["stone-age"], "starts_on": SPRING[0], "ends_on": SPRING[1],
        "points_table": {"4": [5, 3, 2, 1], "3": [4, 2, 1]}, "min_games": 2, **fields,
    }
    league = League.objects.create(club=club, name=name, **fields)
    for member in members:
        LeagueMembership.objects.create(league=league, player=Player.objects.get_or_create(display_name=member)[0])
    return league


def play_and_score(games) -> list:
    records = []
    for day, scores, *game in games:
        record = result_game(scores, day, game=game[0] if game else "stone-age")
        tasks.score_record(record.pk)
        records.append(record)
    return records


def table(league: League) -> list[tuple]:
    return [
        (s.position, s.player.display_name, s.games, s.wins, s.points, s.average_score)
        for s in Standing.objects.filter(league=league).select_related("player")
    ]


def test_standings_of_the_hand_made_league():
    league = make_league()
    play_and_score(LEAGUE_GAMES + NOT_COUNTED)
    assert table(league) == EXPECTED_TABLE


def test_more_wins_break_a_tie_on_points_before_the_average_score():
    league = make_league("Mini", members=("X", "Y", "Z", "W"), min_games=0, points_table={"3": [4, 2, 1]})
    play_and_score([
        (date(2026, 3, 2), {"X": 20, "Y": 19, "Z": 1}),    # X 4, Y 2, Z 1
        (date(2026, 3, 3), {"Z": 30, "Y": 29, "X": 2}),    # Z 4, Y 2, X 1
        (date(2026, 3, 4), {"Z": 30, "W": 29, "Y": 28}),   # Z 4, W 2, Y 1
    ])
    # X and Y both have 5 points; X has a win, Y none, though Y's average score is higher.
    assert table(league) == [
        (1, "Z", 3, 2, 9.0, round(61 / 3, 6)),
        (2, "X", 2, 1, 5.0, 11.0),
        (3, "Y", 3, 0, 5.0, round(76 / 3, 6)),
        (4, "W", 1, 0, 2.0, 29.0),
    ]
    league.scoring_system = League.ScoringSystem.AVERAGE_RANK
    league.save()
    from scoring import standings

    standings.refresh(league)
    # Average ranks: Z (3+1+1)/3, X (1+3)/2 = 2, W 2/1 = 2, Y (2+2+3)/3; X and W tie: X has the win.
    assert [(s.position, s.player.display_name, s.average_rank) for s in Standing.objects.filter(league=league)] == [
        (1, "Z", round(5 / 3, 6)), (2, "X", 2.0), (3, "W", 2.0), (4, "Y", round(7 / 3, 6)),
    ]


def expected_ratings(games) -> dict[str, tuple[float, float]]:
    """OpenSkill Plackett–Luce applied by hand, game after game in playing order."""
    model = PlackettLuce()
    ratings: dict[str, object] = {}
    for _day, scores in sorted(games, key=lambda game: game[0]):
        names = list(scores)
        ranks = [1 + sum(other > scores[name] for other in scores.values()) for name in names]
        teams = model.rate([[ratings.get(name) or model.rating()] for name in names], ranks=ranks)
        for name, [rating] in zip(names, teams):
            ratings[name] = rating
    return {name: (r.mu, r.sigma) for name, r in ratings.items()}


def ratings_of(club=None) -> dict[str, tuple[float, float]]:
    rows = Rating.objects.filter(game_slug="stone-age", club=club).select_related("player")
    return {r.player.display_name: (r.mu, r.sigma) for r in rows}


def assert_close(actual: dict, expected: dict) -> None:
    assert set(actual) == set(expected)
    for name, (mu, sigma) in expected.items():
        assert actual[name] == pytest.approx((mu, sigma), abs=1e-9), name


def test_ratings_per_club_and_overall_follow_the_games_in_playing_order():
    league = make_league()
    play_and_score(LEAGUE_GAMES + NOT_COUNTED)
    assert_close(ratings_of(league.club), expected_ratings(LEAGUE_GAMES))
    overall = LEAGUE_GAMES + [(day, scores) for day, scores, game in NOT_COUNTED if game == "stone-age"]
    assert_close(ratings_of(None), expected_ratings(overall))
    best = Rating.objects.filter(club=league.club).order_by("-ordinal").first()
    assert best.ordinal == pytest.approx(best.mu - 3 * best.sigma)
    history = RatingChange.objects.filter(club=league.club, player__display_name="Ada").order_by("played_on")
    assert [c.played_on for c in history] == [date(2026, 3, 5), date(2026, 3, 19), date(2026, 4, 2), date(2026, 4, 10)]
    assert history[0].mu_before == 25.0 and history[1].mu_before == history[0].mu


def test_a_late_entered_older_game_recomputes_the_ratings_from_its_date():
    league = make_league()
    play_and_score(LEAGUE_GAMES)
    late = (date(2026, 3, 2), {"Bo": 80, "Ada": 5, "Cy": 1})
    play_and_score([late])
    assert_close(ratings_of(league.club), expected_ratings([late, *LEAGUE_GAMES]))
    first_of_ada = RatingChange.objects.filter(club=league.club, player__display_name="Ada").order_by(
        "played_on").first()
    assert first_of_ada.played_on == date(2026, 3, 2)
    second = RatingChange.objects.filter(club=league.club, player__display_name="Ada", played_on=date(2026, 3, 5)).get()
    assert second.mu_before == first_of_ada.mu
    assert Rating.objects.get(club=league.club, player__display_name="Ada").games == 5


@pytest.mark.django_db(transaction=True)
def test_changing_a_leagues_members_or_dates_refreshes_its_table_and_club_ratings(celery_eager):
    """Committed for real: each change queues the refresh on commit (run in-process here)."""
    league = make_league(members=("Ada", "Bo", "Cy", "Di"))
    play_and_score(LEAGUE_GAMES + NOT_COUNTED)
    # Without Ed as a member, G5 does not count.
    without_ed = [game for game in LEAGUE_GAMES if "Ed" not in game[1]]
    assert "Ed" not in [row[1] for row in table(league)]
    assert_close(ratings_of(league.club), expected_ratings(without_ed))

    LeagueMembership.objects.create(league=league, player=Player.objects.get(display_name="Ed"))
    assert table(league) == EXPECTED_TABLE
    assert_close(ratings_of(league.club), expected_ratings(LEAGUE_GAMES))

    # The season now ends on 15 April: G6 (20 April) no longer counts.
    league.ends_on = date(2026, 4, 15)
    league.save()
    # Ada 5+2+4+2, Di 1+4+3+4, Cy 2+1+5 with a win, Bo 3+2+1+1+1 without: Cy before Bo.
    assert [row[:5] for row in table(league)] == [
        (1, "Ada", 4, 2, 13.0), (2, "Di", 4, 2, 12.0), (3, "Cy", 3, 1, 8.0), (4, "Bo", 5, 0, 8.0),
        (None, "Ed", 1, 1, 4.0),
    ]
    assert_close(ratings_of(league.club), expected_ratings(LEAGUE_GAMES[:5]))

    # A deleted league takes its games out of the club's ratings.
    league.delete()
    assert not Standing.objects.exists()
    assert ratings_of(league.club) == {}
    assert RatingChange.objects.filter(club=league.club).count() == 0


def test_many_membership_changes_in_one_transaction_queue_one_refresh(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        with transaction.atomic():
            league = make_league(members=())
            for name in ("Ada", "Bo", "Cy"):
                player = Player.objects.get_or_create(display_name=name)[0]
                LeagueMembership.objects.create(league=league, player=player)
            other = make_league("Autumn 2026", members=("Ada",))
            other_key = (other.pk, other.club_id)
            other.delete()  # the league and its membership: still one refresh
    refreshed = sorted(callback.key for callback in callbacks)
    assert refreshed == sorted([(league.pk, league.club_id), other_key])
