"""Who may see and record a record is defined once (``records.selectors``): the ORM's querysets
and checks, and the hand-written SQL of the append path (with a session or with an API token),
agree for every kind of viewer on private, public and abandoned records, and agree with the rule
itself."""

from __future__ import annotations

import itertools

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.http import Http404
from rest_framework.authtoken.models import Token

from records import selectors
from records.models import GameRecord, Player
from records.services import SeatSpec, start_game
from tests.factories import HG

pytestmark = pytest.mark.django_db

VIEWERS = ("anonymous", "unrelated", "scorekeeper", "seated", "staff")
RECORDS = ("public", "private", "abandoned", "abandoned-private")


@pytest.fixture
def world():
    users = get_user_model().objects
    viewers = {
        "anonymous": AnonymousUser(),
        "unrelated": users.create_user("zoe"),
        "scorekeeper": users.create_user("keeper"),
        "seated": users.create_user("ed"),
        "staff": users.create_user("staff", is_staff=True),
    }
    records = {}
    for kind in RECORDS:
        record = start_game(game_slug=HG, seats=[SeatSpec("Ed"), SeatSpec("Bo")], seed=1,
                            is_private="private" in kind, created_by=viewers["scorekeeper"])
        if kind.startswith("abandoned"):
            GameRecord.objects.filter(pk=record.pk).update(status=GameRecord.Status.ABANDONED)
        records[kind] = GameRecord.objects.get(pk=record.pk)
    Player.objects.filter(display_name="Ed").update(user=viewers["seated"])
    # Another record the seated player's login is tied to does not tie them to these.
    start_game(game_slug=HG, seats=[SeatSpec("Zed"), SeatSpec("Bo")], seed=2, is_private=True,
               created_by=viewers["unrelated"])
    return viewers, records


def expected(viewer: str, kind: str) -> tuple[bool, bool]:
    """The rule: (may read, may record)."""
    tied = viewer in ("scorekeeper", "seated", "staff")
    return (tied or "private" not in kind), tied


@pytest.mark.parametrize(("viewer", "kind"), list(itertools.product(VIEWERS, RECORDS)))
def test_the_orm_and_the_sql_forms_agree_with_the_rule(world, viewer, kind):
    viewers, records = world
    user, record = viewers[viewer], records[kind]
    may_read, may_append = expected(viewer, kind)
    # The ORM's querysets and checks.
    assert selectors.visible_records(user).filter(pk=record.pk).exists() == may_read
    assert selectors.only_visible(GameRecord.objects.filter(pk=record.pk), user).exists() == may_read
    assert selectors.hidden_records(user).filter(pk=record.pk).exists() == (not may_read)
    assert selectors.appendable_records(user).filter(pk=record.pk).exists() == may_append
    assert selectors.can_read(user, record) == may_read
    assert selectors.can_append(user, record) == may_append
    # The append path's SQL, with a session…
    target = selectors.append_target(record.pk, user)
    assert (target.may_read, target.may_append) == (may_read, may_append)
    assert target.record == record and target.last_seq == 0 and target.ruleset_version == record.ruleset_version
    assert target.setup == record.setup
    # …and with an API token, read together with the token's user.
    if user.is_authenticated:
        token = Token.objects.create(user=user)
        found_user, by_token = selectors.append_target_with_token(record.pk, token.key)
        assert found_user == user
        assert (by_token.may_read, by_token.may_append) == (may_read, may_append)


def test_a_missing_record_is_not_found_whoever_asks(world):
    viewers, _records = world
    with pytest.raises(Http404):
        selectors.append_target(10**9, viewers["staff"])
    token = Token.objects.create(user=viewers["staff"])
    assert selectors.append_target_with_token(10**9, token.key) == (viewers["staff"], None)
    assert selectors.append_target_with_token(10**9, "no-such-token") is None


def test_the_sql_condition_is_compiled_from_the_orms():
    sql, params = selectors.tied_sql()
    assert sql.count("EXISTS") == len(selectors.TIES) and params.count(selectors.USER) == len(selectors.TIES)
    assert sql.count("%s") == len(params)


@pytest.mark.parametrize("viewer", VIEWERS)
def test_the_games_listed_are_those_of_the_records_the_viewer_may_read(world, viewer):
    from scoring.selectors import visible_game_slugs

    viewers, records = world
    user = viewers[viewer]
    start_game(game_slug="stone-age", seats=[SeatSpec("Cy"), SeatSpec("Di")], seed=1, is_private=True)
    expected = sorted(set(selectors.visible_records(user).values_list("game_slug", flat=True)))
    assert visible_game_slugs(user) == expected
    assert ("stone-age" in expected) == (viewer == "staff")
