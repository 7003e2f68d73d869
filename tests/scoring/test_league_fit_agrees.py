"""Which league a record fits, and whether the league trusts who recorded it, are each written
twice in ``scoring.standings``: as ORM queries for the league's pages and tables
(:func:`league_candidates`, :func:`_trusted_q`) and in Python for one record as it finishes
(:func:`leagues_fitting`, :func:`trusted`). Over a table of records that each miss one condition,
and of authors of every kind, the two forms give the same answers, and the answers the rule says.
"""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth.models import User

from accounts.models import Organisation
from accounts.roles import Role
from records.models import GameRecord, Player, Seat
from scoring import standings
from scoring.models import Club, League, LeagueMembership
from tests.factories import give_role

pytestmark = pytest.mark.django_db

STARTS, ENDS = date(2026, 3, 1), date(2026, 5, 31)

# Each case: what differs from a finished engine game of the league's, in its dates, with two
# members seated; and whether it fits the league.
FIT_CASES: dict[str, tuple[dict, bool]] = {
    "fits": ({}, True),
    "first day": ({"played_on": STARTS}, True),
    "last day": ({"played_on": ENDS}, True),
    "before the season": ({"played_on": date(2026, 2, 28)}, False),
    "after the season": ({"played_on": date(2026, 6, 1)}, False),
    "another game": ({"game_slug": "carcassonne"}, False),
    "in progress": ({"status": GameRecord.Status.IN_PROGRESS}, False),
    "abandoned": ({"status": GameRecord.Status.ABANDONED}, False),
    "friendly": ({"is_friendly": True}, False),
    "cooperative": ({"is_cooperative": True}, False),
    "result only in an engine league": ({"result_only": True, "kinds": League.RecordKinds.ENGINE}, False),
    "result only in a league of every kind": ({"result_only": True}, True),
    "a non-member seated": ({"seats": ["David", "Zed"]}, False),
    "one member alone": ({"seats": ["David"]}, True),
    "nobody seated": ({"seats": []}, False),
    "any game league": ({"game_slug": "carcassonne", "slugs": []}, True),
}

AUTHORS = ["operator", "staff status only", "league organiser", "league's trusted scorekeeper", "club organiser",
           "club's trusted scorekeeper", "club administrator", "club member", "seated player", "member not seated",
           "stranger"]
TRUSTED = {"operator", "league organiser", "league's trusted scorekeeper", "club organiser",
           "club's trusted scorekeeper", "club administrator", "seated player"}
CLUB_ROLES = {"club organiser": Role.ORGANISER, "club's trusted scorekeeper": Role.SCOREKEEPER,
              "club administrator": Role.ADMIN, "club member": Role.MEMBER}


@pytest.fixture
def world():
    users = {
        "operator": User.objects.create_user("root", is_staff=True, is_superuser=True),
        "staff status only": User.objects.create_user("sam", is_staff=True),
        "league organiser": User.objects.create_user("olga"),
        "league's trusted scorekeeper": User.objects.create_user("tess"),
        "seated player": User.objects.create_user("david"),
        "member not seated": User.objects.create_user("ada"),
        "stranger": User.objects.create_user("mallory"),
    }
    organisation = Organisation.objects.create(name="Les Meeples", slug="les-meeples")
    for author, role in CLUB_ROLES.items():
        users[author] = give_role(User.objects.create_user(author.replace(" ", "-").replace("'", "")), role,
                                  organisation)
    club = Club.objects.create(name="Les Meeples", organisation=organisation)
    players = {name: Player.objects.create(display_name=name, user=user) for name, user in
               (("David", users["seated player"]), ("Elif", None), ("Ada", users["member not seated"]),
                ("Zed", None))}
    leagues = {}
    for slugs in (("stone-age",), ()):
        for kinds in League.RecordKinds:
            league = League.objects.create(club=club, name=f"{slugs} {kinds}", game_slugs=list(slugs),
                                           record_kinds=kinds, starts_on=STARTS, ends_on=ENDS)
            for name in ("David", "Elif", "Ada"):
                LeagueMembership.objects.create(league=league, player=players[name])
            league.organisers.add(users["league organiser"])
            league.trusted_scorekeepers.add(users["league's trusted scorekeeper"])
            leagues[(slugs, kinds)] = league
    return users, players, leagues


def make_record(players, *, seats=("David", "Elif"), author=None, **fields) -> GameRecord:
    values = {"game_slug": "stone-age", "played_on": date(2026, 4, 1), "status": GameRecord.Status.FINISHED,
              **fields}
    record = GameRecord.objects.create(created_by=author, **values)
    for order, name in enumerate(seats):
        Seat.objects.create(record=record, player=players[name], seat_order=order)
    return GameRecord.objects.get(pk=record.pk)


@pytest.mark.parametrize("case", list(FIT_CASES))
def test_the_query_and_the_function_agree_on_which_league_a_record_fits(world, case):
    _users, players, leagues = world
    changes, fits = FIT_CASES[case]
    changes = dict(changes)
    slugs = tuple(changes.pop("slugs", ("stone-age",)))
    kinds = changes.pop("kinds", League.RecordKinds.ALL)
    league = leagues[(slugs, kinds)]
    record = make_record(players, **changes)

    by_query = standings.league_candidates(league).filter(pk=record.pk).exists()
    by_function = league in standings.leagues_fitting(record)
    assert (by_query, by_function) == (fits, fits)


@pytest.mark.parametrize("author", AUTHORS)
def test_the_query_and_the_function_agree_on_whom_a_league_trusts(world, author):
    users, players, leagues = world
    league = leagues[(("stone-age",), League.RecordKinds.ALL)]
    record = make_record(players, author=users[author])
    seated_accounts = set(record.seats.exclude(player__user=None).values_list("player__user_id", flat=True))

    by_query = GameRecord.objects.filter(pk=record.pk).filter(standings._trusted_q(league)).exists()
    by_function = standings.trusted(league, record, seated_accounts)
    assert (by_query, by_function) == (author in TRUSTED, author in TRUSTED)
    # And together, as a league's table and a finished record read them.
    assert standings.league_records(league).filter(pk=record.pk).exists() == (author in TRUSTED)
    assert (league in standings.leagues_of(record)) == (author in TRUSTED)
