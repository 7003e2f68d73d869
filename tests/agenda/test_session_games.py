"""A game recorded or a result logged names the session it was played at (``agenda.SessionGame``):
only a game of the session's organisation, played on its day, at a session not cancelled; linked
again it moves, and a link touching a session over for more than a day is kept as a correction
(a reason required to take a game away from one). The session's games played count the links;
the API says the same with its status codes and reasons."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone, translation
from django.utils.translation import gettext

from accounts.models import Organisation
from accounts.roles import Role
from agenda import selectors, services
from agenda.errors import CountingClosed, NotLinked, NotThatDay, OtherOrganisation, ReasonRequired
from agenda.models import Session, SessionChange, SessionGame
from games.models import CatalogueRecord
from records.models import GameRecord
from tests.factories import api_client, give_role, result_game

from .conftest import at

pytestmark = pytest.mark.django_db

DAY = dt.date(2025, 3, 15)


@pytest.fixture
def azul(db) -> CatalogueRecord:
    return CatalogueRecord.objects.create(title="Azul")


def afternoon(library, day: dt.date = DAY, title: str = "Après-midi jeux") -> Session:
    return services.plan_session(library, None, kind="event", title=title,
                                 starts_at=at(day.isoformat(), "14:00"), ends_at=at(day.isoformat(), "17:00"))


def azul_result(library, azul, played_on: dt.date = DAY, **fields) -> GameRecord:
    return result_game({"Anne": 40, "Bruno": 35}, played_on, catalogue_record=azul, organisation=library, **fields)


def during(session: Session) -> dt.datetime:
    return session.starts_at + dt.timedelta(hours=1)


def test_a_result_linked_counts_among_the_sessions_games(library, librarian, azul):
    session = afternoon(library)
    record = azul_result(library, azul)
    linked = services.link_game(session, record, librarian, now=during(session))
    assert (linked.created, linked.moved_from) == (True, None)
    assert selectors.session_figures(session).plays == [(azul.pk, "Azul", 1)]
    assert selectors.session_of(record) == session
    [game] = selectors.linked_games(session)
    assert (game.record_id, game.title, game.players) == (record.pk, "Azul", ["Anne", "Bruno"])
    again = services.link_game(session, record, librarian, now=during(session))
    assert (again.created, SessionGame.objects.count()) == (False, 1)
    assert not SessionChange.objects.exists()  # the session's own day: no correction


def test_refusals_store_nothing(library, librarian, azul):
    session = afternoon(library)
    other = Organisation.objects.create(slug="autre", name="Autre ludothèque", kind="library")
    refusals = [
        (azul_result(library, azul, played_on=DAY + dt.timedelta(days=1)), NotThatDay, "not_that_day"),
        (azul_result(other, azul), OtherOrganisation, "other_organisation"),
        (result_game({"Anne": 1, "Bruno": 2}, DAY, catalogue_record=azul), OtherOrganisation, "other_organisation"),
    ]
    for record, refusal, reason in refusals:
        with pytest.raises(refusal) as refused:
            services.link_game(session, record, librarian, now=during(session))
        assert (refused.value.reason, refused.value.status_code) == (reason, 422)
    services.cancel_session(session, librarian, now=session.starts_at)
    with pytest.raises(CountingClosed) as refused:
        services.link_game(session, azul_result(library, azul), librarian, now=during(session))
    assert refused.value.reason == "session_cancelled"
    assert not SessionGame.objects.exists()


def test_a_game_night_past_midnight_takes_the_games_of_both_days(library, librarian, azul):
    night = services.plan_session(library, None, kind="game_night", starts_at=at("2025-03-15", "20:00"),
                                  ends_at=at("2025-03-16", "01:30"))
    for day in (DAY, DAY + dt.timedelta(days=1)):
        services.link_game(night, azul_result(library, azul, played_on=day), librarian, now=night.ends_at)
    assert selectors.session_figures(night).plays == [(azul.pk, "Azul", 2)]


def test_linked_again_a_game_moves_and_a_past_session_keeps_the_correction(library, librarian, azul):
    morning = services.plan_session(library, None, kind="opening", starts_at=at("2025-03-15", "09:00"),
                                    ends_at=at("2025-03-15", "12:00"))
    session = afternoon(library)
    record = azul_result(library, azul)
    services.link_game(morning, record, librarian, now=during(session))
    moved = services.link_game(session, record, librarian, now=during(session))
    assert (moved.created, moved.moved_from) == (True, morning)
    assert not SessionChange.objects.exists()  # moved the same day: no correction

    later = at("2025-03-20", "10:00")
    with pytest.raises(ReasonRequired):
        services.link_game(morning, record, librarian, now=later)
    assert selectors.session_of(record) == session
    services.link_game(morning, record, librarian, reason="Joué le matin", now=later)
    changes = list(SessionChange.objects.order_by("pk").values_list("session", "field", "before", "after", "reason"))
    assert changes == [(session.pk, "game", record.pk, None, "Joué le matin"),
                       (morning.pk, "game", None, record.pk, "Joué le matin")]
    assert selectors.session_figures(session).plays == []
    assert selectors.session_figures(morning).plays == [(azul.pk, "Azul", 1)]


def test_a_late_result_naming_a_past_session_needs_no_reason_but_is_kept(library, librarian, azul):
    session = afternoon(library)
    services.link_game(session, azul_result(library, azul), librarian, now=at("2025-03-25"))
    change = SessionChange.objects.get()
    assert (change.session, change.field, change.before, change.reason) == (session, "game", None, "")


def test_unlinking(library, librarian, azul):
    session, elsewhere = afternoon(library), afternoon(library, title="Tournoi")
    record = azul_result(library, azul)
    services.link_game(session, record, librarian, now=during(session))
    with pytest.raises(NotLinked) as refused:
        services.unlink_game(record, librarian, session=elsewhere, now=during(session))
    assert (refused.value.reason, refused.value.status_code) == ("not_linked", 404)
    with pytest.raises(ReasonRequired):
        services.unlink_game(record, librarian, now=at("2025-03-20"))
    assert services.unlink_game(record, librarian, reason="Joué à la maison", now=at("2025-03-20")) == session
    assert not SessionGame.objects.exists()
    assert SessionChange.objects.get().before == record.pk
    with pytest.raises(NotLinked):
        services.unlink_game(record, librarian, now=at("2025-03-20"))


def test_an_abandoned_game_and_a_recorded_game_without_catalogue_record(library, librarian, azul):
    from tests.factories import seeded_record

    session = afternoon(library)
    abandoned = azul_result(library, azul)
    GameRecord.objects.filter(pk=abandoned.pk).update(status=GameRecord.Status.ABANDONED)
    services.link_game(session, abandoned, librarian, now=during(session))
    services.link_game(session, seeded_record(2, 1, organisation=library, played_on=DAY), librarian,
                       now=during(session))
    services.tally_play(session, librarian, record=azul, delta=1, key="t1", now=during(session))
    assert selectors.session_figures(session).plays == [(azul.pk, "Azul", 1),
                                                        (None, "Carcassonne: Hunters and Gatherers", 1)]


# -- the API -------------------------------------------------------------------------------------------

def test_the_api_links_and_unlinks(library, desk_user, azul):
    now = timezone.now()
    session = Session.objects.create(organisation=library, kind="opening", starts_at=now - dt.timedelta(hours=1),
                                     ends_at=now + dt.timedelta(hours=2))
    record = azul_result(library, azul, played_on=timezone.localdate(now))
    api = api_client(desk_user)
    url = f"/api/sessions/{session.pk}/games/"
    first, again = api.post(url, {"record": record.pk}, format="json"), api.post(url, {"record": record.pk},
                                                                                 format="json")
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.data == {"created": True, "session": session.pk, "record": record.pk, "moved_from": None}
    assert api.delete(url, {"record": record.pk}, format="json").status_code == 204
    gone = api.delete(f"{url}?record={record.pk}")
    assert (gone.status_code, gone.data["reason"]) == (404, "not_linked")
    assert api.post(url, {"record": 10**9}, format="json").data["reason"] == "unknown_record"
    assert api.post(url, {"record": "x"}, format="json").status_code == 400


def test_the_api_refuses_another_day_in_the_readers_language(library, desk_user, azul):
    now = timezone.now()
    session = Session.objects.create(organisation=library, kind="opening", starts_at=now - dt.timedelta(hours=1),
                                     ends_at=now + dt.timedelta(hours=2))
    record = azul_result(library, azul, played_on=timezone.localdate(now) - dt.timedelta(days=3))
    answer = api_client(desk_user).post(f"/api/sessions/{session.pk}/games/", {"record": record.pk}, format="json",
                                        HTTP_ACCEPT_LANGUAGE="fr")
    assert (answer.status_code, answer.data["reason"]) == (422, "not_that_day")
    with translation.override("fr"):
        assert answer.data["detail"] == gettext("This game was played on another day than the session.")
    assert not SessionGame.objects.exists()


def test_who_may_say_where_a_game_was_played(library, azul, django_user_model):
    session = afternoon(library)
    keeper = give_role(django_user_model.objects.create_user("anne"), Role.MEMBER)
    stranger = give_role(django_user_model.objects.create_user("bruno"), Role.MEMBER)
    record = azul_result(library, azul, created_by=keeper)
    url = f"/api/sessions/{session.pk}/games/"
    assert api_client(stranger).post(url, {"record": record.pk}, format="json").status_code == 403
    assert api_client().post(url, {"record": record.pk}, format="json").status_code in (401, 403)
    assert not SessionGame.objects.exists()
    # Its keeper, a member who records games for the library, says it (the session is past: no reason needed).
    assert api_client(keeper).post(url, {"record": record.pk}, format="json").status_code == 201


def test_the_report_lists_a_game_moved_after_it_was_sent(library, librarian, azul):
    from reports.selectors import corrections_since

    session, other = afternoon(library), afternoon(library, title="Tournoi")
    record = azul_result(library, azul)
    services.link_game(session, record, librarian, now=during(session))
    services.link_game(other, record, librarian, reason="Joué au tournoi", now=at("2025-04-02"))
    with translation.override("en"):
        words = [line.what for line in corrections_since(library, 2025, since=at("2025-04-01"))]
    assert len(words) == 2 and all("game recorded there (its number)" in line and "Joué au tournoi" in line
                                   for line in words)
