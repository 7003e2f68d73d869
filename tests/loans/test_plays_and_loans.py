"""Plays and loans meet: a game recorded with a copy named shows on the copy's history; a game
with an engine that ended short of its tiles flags the copy for a check (at once on the shelves,
at its return when it is out), the page says why with a link to the game, and the librarian's
check clears it. Real records, started and ended through ``records.services``."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from accounts.roles import Role
from loans import receivers, services
from loans.models import CopyEvent, CopyState, Hold
from loans.rules import Status
from loans.selectors import CopyPlay, merged_history, play_moment
from records.models import GameRecord
from records.services import SeatSpec, append_event, start_game
from tests.factories import give_role, make_household, page_of

pytestmark = pytest.mark.django_db

CC = "carcassonne"
FAR = dt.date(2099, 12, 31)


def game_with(copy, keeper: User, *, private: bool = False, players=("Ada", "Bo")) -> GameRecord:
    """An unseeded Carcassonne (the tiles drawn at the table) played with ``copy``."""
    return start_game(game_slug=CC, seats=[SeatSpec(name) for name in players], seed=None, created_by=keeper,
                      copy=copy, is_private=private)


def end_short_of_tiles(record: GameRecord, keeper: User, capture) -> None:
    """The box lacked a tile: the table ends the game now (``end_game`` ``missing_tile``)."""
    with capture(execute=True):
        append_event(record, 0, "end_game", {"reason": "missing_tile"}, recorded_by=keeper)


def status_on_page(html: str) -> str:
    return re.search(r'data-testid="copy-status" data-status="([a-z_]+)"', html)[1]


def test_a_game_ended_short_of_its_tiles_takes_the_copy_off_the_shelves_until_it_is_checked(
    copies, keeper, desk, django_capture_on_commit_callbacks, celery_eager,
):
    copy = copies[0]
    record = game_with(copy, keeper)
    end_short_of_tiles(record, keeper, django_capture_on_commit_callbacks)
    state = CopyState.objects.get(copy=copy)
    assert (state.status, state.check_wanted) == (Status.NEEDS_CHECK, True)
    asked, = CopyEvent.objects.filter(copy=copy)
    assert (asked.type, asked.payload) == ("check_requested", {"record": record.pk,
                                                               "reason": "game_ended_short_of_tiles"})
    html = desk.get(page_of(copy)).content.decode()
    assert status_on_page(html) == "needs_check"
    notice = re.search(r'data-testid="check-wanted">(.*?)</p>', html, re.S)[1]
    assert "ended short of its tiles" in notice and f'href="/games/{record.pk}/"' in notice
    played = re.search(rf'<li data-testid="copy-play" data-record="{record.pk}">(.*?)</li>', html, re.S)[1]
    assert f'href="/games/{record.pk}/"' in played and "Ada, Bo" in played
    assert "winners: Ada, Bo" in played, "nobody scored: a shared win"
    assert "(ended short of its tiles)" in played

    checked = desk.post(page_of(copy), {"action": "check"}, follow=True).content.decode()
    assert status_on_page(checked) == "available" and 'data-testid="check-wanted"' not in checked
    assert CopyState.objects.get(copy=copy).check_wanted is False


def test_a_copy_on_loan_keeps_the_mark_and_waits_for_its_check_at_a_complete_return(
    copies, keeper, desk, django_capture_on_commit_callbacks, celery_eager,
):
    copy = copies[0]
    martin, dubois = make_household("Martin", membership_ends=FAR), make_household("Dubois", membership_ends=FAR)
    services.lend(copy, martin, None)
    Hold.objects.create(record=copy.record, household=dubois)  # waits for the game
    record = game_with(copy, keeper)  # played at home with the borrowed box
    end_short_of_tiles(record, keeper, django_capture_on_commit_callbacks)
    state = CopyState.objects.get(copy=copy)
    assert (state.status, state.household_id, state.check_wanted) == (Status.ON_LOAN, martin.pk, True)
    html = desk.get(page_of(copy)).content.decode()
    assert status_on_page(html) == "on_loan" and 'data-testid="check-wanted"' in html

    # Every piece counted: still the copy waits for its check, and not for Dubois's hold.
    back = desk.post(page_of(copy), {"action": "return"}, follow=True).content.decode()
    assert status_on_page(back) == "needs_check"
    assert "A game played with this copy ended short of its tiles: the copy waits for a check." in back
    assert Hold.objects.get(household=dubois).status == Hold.Status.WAITING
    desk.post(page_of(copy), {"action": "check"})
    state = CopyState.objects.get(copy=copy)
    assert (state.status, state.household_id, state.check_wanted) == (Status.ON_HOLD_SHELF, dubois.pk, False)


def test_the_same_game_flags_its_copy_once_whatever_is_heard_again(
    copies, keeper, django_capture_on_commit_callbacks, celery_eager,
):
    copy = copies[0]
    record = game_with(copy, keeper)
    end_short_of_tiles(record, keeper, django_capture_on_commit_callbacks)
    services.check_copy(copy, None)
    # The signal sent again (a retry), and the bulk signal naming it: nothing more is appended.
    assert receivers.flag_copies([record.pk]) == 0
    receivers.records_ended(GameRecord, record_ids=[record.pk])
    assert [e.type for e in CopyEvent.objects.filter(copy=copy).order_by("seq")] == ["check_requested", "checked"]
    services.rebuild_copy_states()
    assert (CopyState.objects.get(copy=copy).status, CopyState.objects.get(copy=copy).check_wanted) == (
        Status.AVAILABLE, False)


def test_games_that_ended_otherwise_or_named_no_copy_flag_nothing(
    copies, keeper, django_capture_on_commit_callbacks, celery_eager,
):
    abandoned = game_with(copies[0], keeper)
    without_copy = start_game(game_slug=CC, seats=[SeatSpec("Ada"), SeatSpec("Bo")], seed=None, created_by=keeper)
    with django_capture_on_commit_callbacks(execute=True):
        append_event(abandoned, 0, "abandon", {"reason": "the café closed"}, recorded_by=keeper)
        append_event(without_copy, 0, "end_game", {"reason": "missing_tile"}, recorded_by=keeper)
    assert not CopyEvent.objects.exists()
    assert receivers.short_of_tiles([abandoned.pk, without_copy.pk]) == []


def test_a_result_logged_with_the_copy_shows_among_its_loans_with_its_winner(
    copies, keeper, desk, django_capture_on_commit_callbacks, celery_eager,
):
    copy = copies[0]
    martin = make_household("Martin", membership_ends=FAR)
    services.lend(copy, martin, None)
    logged = start_game(game_slug=CC, seats=[SeatSpec("Ada"), SeatSpec("Bo")], created_by=keeper, copy=copy,
                        result_only=True)
    with django_capture_on_commit_callbacks(execute=True):
        append_event(logged, 0, "result", {"scores": [{"seat": 0, "score": 41}, {"seat": 1, "score": 57}]},
                     recorded_by=keeper)
    services.return_copy(copy, None)
    html = desk.get(page_of(copy)).content.decode()
    history = re.search(r'data-testid="copy-history">(.*?)</ul>', html, re.S)[1]
    order = re.findall(r'<li data-(?:type="([a-z_]+)"|testid="copy-play")', history)
    assert order == ["returned", "", "lent"], "the game sits between the loan and the return, newest first"
    assert "winner: Bo" in history
    assert CopyState.objects.get(copy=copy).status == Status.AVAILABLE, "a result flags nothing"


def test_a_private_game_of_others_is_not_on_the_copy_page(
    copies, keeper, desk, django_user_model, django_capture_on_commit_callbacks, celery_eager,
):
    copy = copies[0]
    hidden = game_with(copy, keeper, private=True)
    end_short_of_tiles(hidden, keeper, django_capture_on_commit_callbacks)
    html = desk.get(page_of(copy)).content.decode()
    assert 'data-testid="copy-play"' not in html and f"/games/{hidden.pk}/" not in html
    # The copy is flagged all the same, and says why without naming the game.
    assert 'data-testid="check-wanted"' in html and status_on_page(html) == "needs_check"
    staff = Client()  # at the desk, and staff: staff read every game (records.selectors)
    staff.force_login(give_role(django_user_model.objects.create_user("staff", is_staff=True), Role.DESK))
    seen = staff.get(page_of(copy)).content.decode()
    assert f'data-record="{hidden.pk}"' in seen and f'href="/games/{hidden.pk}/"' in seen


def test_the_history_merges_desk_events_and_games_by_moment_newest_first():
    utc = dt.timezone.utc
    lent = CopyEvent(seq=1, type="lent", recorded_at=dt.datetime(2026, 11, 2, 10, tzinfo=utc))
    back = CopyEvent(seq=2, type="returned", recorded_at=dt.datetime(2026, 11, 20, 17, tzinfo=utc))
    lent_again = CopyEvent(seq=3, type="lent", recorded_at=dt.datetime(2026, 12, 1, 9, tzinfo=utc))

    def play(pk: int, moment: dt.datetime) -> CopyPlay:
        return CopyPlay(pk, moment.date(), moment, "finished", False, ("Ada", "Bo"), ("Ada",))

    at_home = play(7, dt.datetime(2026, 11, 8, 20, tzinfo=utc))
    same_moment = play(8, back.recorded_at)
    lines = merged_history([lent_again, back, lent], [same_moment, at_home], limit=10)
    assert [line.event.seq if line.event else f"#{line.play.record_id}" for line in lines] == [
        3, 2, "#8", "#7", 1]
    assert len(merged_history([lent_again, back, lent], [same_moment, at_home], limit=2)) == 2
    assert merged_history([], [], limit=5) == []


def test_a_game_known_by_its_day_only_is_placed_at_midday_of_that_day(settings):
    settings.TIME_ZONE = "Europe/Paris"
    utc = dt.timezone.utc
    logged_later = play_moment(dt.date(2026, 12, 1), created_at=dt.datetime(2026, 12, 9, 8, tzinfo=utc))
    assert (logged_later.date(), logged_later.hour) == (dt.date(2026, 12, 1), 12)
    same_day = dt.datetime(2026, 12, 1, 19, tzinfo=utc)
    assert play_moment(dt.date(2026, 12, 1), created_at=same_day) == same_day
    ended = dt.datetime(2026, 12, 1, 22, 15, tzinfo=utc)
    assert play_moment(dt.date(2026, 12, 1), ended_at=ended, created_at=same_day) == ended


def test_a_flag_missed_when_the_game_ended_is_caught_up_by_the_command(copies, keeper, celery_eager):
    from django.core.management import call_command
    from io import StringIO

    copy = copies[1]
    record = game_with(copy, keeper)
    # Ended without the receiver hearing of it (the commit callbacks not run: as if the flag failed).
    append_event(record, 0, "end_game", {"reason": "missing_tile"}, recorded_by=keeper)
    assert not CopyEvent.objects.filter(copy=copy).exists()
    said = StringIO()
    call_command("flag_short_copies", stdout=said)
    assert said.getvalue().strip() == "copies flagged now: 1"
    assert CopyState.objects.get(copy=copy).status == Status.NEEDS_CHECK
    call_command("flag_short_copies", stdout=StringIO())
    assert CopyEvent.objects.filter(copy=copy, type="check_requested").count() == 1


def test_a_flagged_copy_on_the_hold_shelf_is_checked_before_the_next_household_gets_it(
    record, keeper, desk_user, django_capture_on_commit_callbacks, celery_eager,
):
    from tests.factories import make_copies

    only = make_copies(record, 1, prefix="SHELF")[0]
    first, second = make_household("Petit", membership_ends=FAR), make_household("Grand", membership_ends=FAR)
    services.place_hold(record, first, desk_user)  # the copy is on the shelves: set aside for the Petits
    services.place_hold(record, second, desk_user)
    game = game_with(only, keeper)
    end_short_of_tiles(game, keeper, django_capture_on_commit_callbacks)
    assert CopyState.objects.get(copy=only).status == Status.ON_HOLD_SHELF  # still theirs, marked
    services.cancel_hold(Hold.objects.get(household=first), desk_user)
    # Not passed on to the Grands before someone has looked at the box.
    assert CopyState.objects.get(copy=only).status == Status.NEEDS_CHECK
    assert Hold.objects.get(household=second).status == Hold.Status.WAITING
    services.check_copy(only, desk_user)
    assert Hold.objects.get(household=second).status == Hold.Status.READY
