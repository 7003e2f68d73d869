"""“Played during”: the result form and the recorder's start page offer the library's sessions
(the one running now chosen beforehand); the game is linked to the one chosen with the record, in
the same request, and a refusal stores neither; the game's page and the session's page say it."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client
from django.utils import timezone

from accounts.roles import Role
from agenda import services
from agenda.models import Session, SessionGame
from games.models import CatalogueRecord
from records.models import GameRecord
from tests.factories import HG, give_role, the_library

pytestmark = pytest.mark.django_db


@pytest.fixture
def library(db):
    return the_library()


@pytest.fixture
def member(django_user_model, library) -> Client:
    client = Client()
    client.force_login(give_role(django_user_model.objects.create_user("anne"), Role.MEMBER))
    return client


@pytest.fixture
def sessions(library) -> dict[str, Session]:
    """An opening running now, an evening event later today, and yesterday's opening."""
    now = timezone.localtime()
    today, yesterday = now.date(), now.date() - dt.timedelta(days=1)

    def session(day: dt.date, starts: dt.time, ends: dt.time, **fields) -> Session:
        return Session.objects.create(organisation=library, starts_at=timezone.make_aware(dt.datetime.combine(day, starts)),
                                      ends_at=timezone.make_aware(dt.datetime.combine(day, ends)), **fields)

    running = Session.objects.create(organisation=library, kind="opening", starts_at=now - dt.timedelta(minutes=30),
                                     ends_at=now + dt.timedelta(hours=2), title="Accueil tout public")
    return {"running": running,
            "yesterday": session(yesterday, dt.time(14), dt.time(18), kind="opening", title="Accueil d'hier"),
            "cancelled": session(today, dt.time(0, 1), dt.time(0, 2), kind="event", title="Annulée",
                                 cancelled_at=timezone.now())}


def select_of(html: str) -> str:
    found = re.search(r'<select name="session".*?</select>', html, re.S)
    assert found, "no “Played during” select"
    return found.group(0)


def result(**fields) -> dict:
    return {"title": "Azul", "played_on": timezone.localdate().isoformat(), "player_1": "Anne", "score_1": "40",
            "player_2": "Bruno", "score_2": "35", "new_1": "Anne", "new_2": "Bruno", **fields}


def test_the_result_form_offers_the_sessions_the_one_running_now_chosen(member, sessions):
    select = select_of(member.get("/scorekeeping/result/").content.decode())
    first, last = services.session_days(sessions["running"])  # it may run past midnight
    days = " ".join(sorted({first.isoformat(), last.isoformat()}))
    assert re.search(rf'<option value="{sessions["running"].pk}" data-days="{days}" selected>[^<]* · Accueil tout public',
                     select)
    yesterday = (timezone.localdate() - dt.timedelta(days=1)).isoformat()
    assert f'value="{sessions["yesterday"].pk}" data-days="{yesterday}">' in select
    assert "Annulée" not in select


def test_a_result_logged_during_a_session_is_linked_and_its_page_says_so(member, sessions, library):
    CatalogueRecord.objects.create(title="Azul")
    answer = member.post("/scorekeeping/result/", result(session=sessions["running"].pk))
    record = GameRecord.objects.get()
    assert answer.status_code == 302 and answer["Location"] == f"/games/{record.pk}/"
    assert SessionGame.objects.get().session == sessions["running"] and record.organisation == library
    page = member.get(answer["Location"]).content.decode()
    assert re.search(r'data-testid="played-during">Accueil tout public, ', page)
    assert f'/agenda/sessions/{sessions["running"].pk}/' not in page  # the session's page is the staff's


def test_a_session_of_another_day_is_refused_and_nothing_is_stored(member, sessions):
    CatalogueRecord.objects.create(title="Azul")
    answer = member.post("/scorekeeping/result/", result(session=sessions["yesterday"].pk))
    assert answer.status_code == 400
    assert "This game was played on another day than the session." in answer.content.decode()
    assert not GameRecord.objects.exists() and not SessionGame.objects.exists()


def test_a_game_recorded_from_the_start_page_names_its_session(member, sessions, desk_user):
    answer = member.post("/scorekeeping/", {"game": HG, "seat_1": "Ada", "seat_2": "Bo", "new_1": "Ada",
                                            "new_2": "Bo", "played_on": timezone.localdate().isoformat(),
                                            "session": sessions["running"].pk})
    record = GameRecord.objects.get()
    assert answer.status_code == 302 and SessionGame.objects.get().game_record == record
    # The session's page lists it, with its players and a link, for the staff.
    desk = Client()
    desk.force_login(desk_user)
    page = desk.get(f"/agenda/sessions/{sessions['running'].pk}/").content.decode()
    games = re.search(r'data-testid="session-games">(.*?)</ul>', page, re.S).group(1)
    assert f'href="/games/{record.pk}/"' in games and "Ada, Bo" in games


def test_no_select_without_sessions_this_week(member):
    assert 'name="session"' not in member.get("/scorekeeping/result/").content.decode()


def test_a_visitors_game_names_no_session(client, django_user_model, sessions):
    """Someone who is no member records nobody's statistics: no session to name."""
    client.force_login(django_user_model.objects.create_user("visiteur"))
    assert 'name="session"' not in client.get("/scorekeeping/").content.decode()
    assert 'name="session"' not in client.get("/scorekeeping/result/").content.decode()


def test_a_game_without_catalogue_record_is_a_bar_without_a_link_in_the_report():
    from ludolog.web.reports import _records
    from reports.sections import RecordCount

    linked, unlinked = _records((RecordCount(7, "Azul", 3), RecordCount(None, "Carcassonne: Hunters and Gatherers", 1)))
    assert (linked.url, linked.key) == ("/catalogue/7/", "7")
    assert (unlinked.url, unlinked.key, unlinked.label) == ("", "", "Carcassonne: Hunters and Gatherers")
