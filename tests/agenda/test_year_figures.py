"""``agenda.selectors.year_figures`` on a small year counted by hand.

The tests' library in 2025:

- Opening hours: Wednesdays 14:00–18:00 from 1 January; closed 13–19 January. January's
  Wednesdays are the 1st, 8th, 15th (closed), 22nd and 29th (cancelled, with one adult counted
  before): 3 openings held, 12.00 hours.
- A game night on 7 February, 19:00–23:30 (4.50 hours), nobody counted.
- An event, "Après-midi jeux", 15 March 14:00–17:00, 4 places: Anne 2 places, Bruno 2, Chloé 1
  waiting; Bruno cancels, Chloé gets his place: 3 places registered, 0 waiting; Anne checks in
  (2 places); 2 adults and 1 child of 6–11 counted at the door: 3 persons.
- A crèche visits on 20 March 10:00–11:30, expected 8 children and 3 adults, counted 7 children
  and 2 adults at the door (a tap of 7, a tap of 2): 9 persons; a school on 6 May 09:00–10:30,
  expected 25 children and 2 adults, not counted. Group visits: 2, 3.00 hours.
- 8 January: a family, a child of 3–5, two adults and an "oops" on adults: 2 persons, 1 family.
  22 January: two families, three children of 6–11, two adults, a senior: 6 persons, 2 families.
- Games on site: Dixit 1 + 2 = 3, Carcassonne 2, Uno +1 −1 = 0 (not listed), tallied at the door;
  and two game records naming their session: a Carcassonne result logged at the game night of
  7 February (Carcassonne 2 + 1 = 3), and a game of Hunters and Gatherers recorded move by move
  at the 22 January opening, with no catalogue record (under its game's name, no record id: 1).
- Not counted: a session of 2026, another organisation's opening in 2025, a result logged at
  the 2026 session.

So: 7 sessions held (3 openings, 1 event, 2 group visits, 1 game night); attendance January 8,
March 3 + 9 = 12, May 27 (the school, not counted at the door, came as booked: 25 + 2), every
other month 0; by public: 3–5: 1, 6–11: 4, adults 5, seniors 1, group children 7 + 25 = 32, group
adults 2 + 2 = 4 (47 in all); families: January 3.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import Organisation
from agenda import selectors, services
from agenda.models import Session
from agenda.selectors import EventFigures, GroupFigures
from games.models import CatalogueRecord
from tests.factories import result_game, seeded_record

from .conftest import at

pytestmark = pytest.mark.django_db

NOW = at("2026-01-10", "12:00")


def taps(session: Session, by, *counts: tuple[str, int]) -> None:
    for n, (public, delta) in enumerate(counts):
        services.count_at_the_door(session, by, public=public, delta=delta, key=f"{session.pk}-{n}",
                                   now=session.starts_at + dt.timedelta(minutes=30))


def plays(session: Session, by, *tallies: tuple[CatalogueRecord, int]) -> None:
    for n, (record, delta) in enumerate(tallies):
        services.tally_play(session, by, record=record, delta=delta, key=f"play-{session.pk}-{n}",
                            now=session.starts_at + dt.timedelta(minutes=30))


@pytest.fixture
def year_2025(library, librarian):
    services.add_opening_hours(library, librarian, weekday=2, starts=dt.time(14), ends=dt.time(18),
                               valid_from=dt.date(2025, 1, 1))
    services.add_closure(library, librarian, first_day=dt.date(2025, 1, 13), last_day=dt.date(2025, 1, 19))
    services.generate_openings(library, dt.date(2025, 1, 1), dt.date(2025, 1, 31))
    openings = {s.starts_at.day: s for s in Session.objects.filter(organisation=library, kind="opening")}
    dixit, carcassonne, uno = (CatalogueRecord.objects.create(title=t) for t in ("Dixit", "Carcassonne", "Uno"))
    taps(openings[8], librarian, ("family", 1), ("child_3_5", 1), ("adult", 1), ("adult", 1), ("adult", -1))
    plays(openings[8], librarian, (carcassonne, 1), (carcassonne, 1), (dixit, 1))
    taps(openings[22], librarian, ("family", 1), ("family", 1), ("child_6_11", 1), ("child_6_11", 1),
         ("child_6_11", 1), ("adult", 1), ("adult", 1), ("senior", 1))
    plays(openings[22], librarian, (dixit, 1), (dixit, 1), (uno, 1), (uno, -1))
    taps(openings[29], librarian, ("adult", 1))
    services.cancel_session(openings[29], librarian, reason="Neige", now=openings[29].starts_at)

    game_night = services.plan_session(library, librarian, kind="game_night", title="Soirée jeux",
                                       starts_at=at("2025-02-07", "19:00"), ends_at=at("2025-02-07", "23:30"))
    services.link_game(game_night, result_game({"Ada": 31, "Bastien": 27}, dt.date(2025, 2, 7), game="carcassonne",
                                               catalogue_record=carcassonne, organisation=library),
                       librarian, now=at("2025-02-07", "23:00"))
    recorded = seeded_record(2, 1, organisation=library, played_on=dt.date(2025, 1, 22))
    services.link_game(openings[22], recorded, librarian, now=at("2025-01-22", "17:00"))
    event = services.plan_session(library, librarian, kind="event", title="Après-midi jeux", capacity=4,
                                  registration=True, starts_at=at("2025-03-15", "14:00"),
                                  ends_at=at("2025-03-15", "17:00"))
    before = at("2025-03-01")
    anne = services.register(event, name="Anne", places=2, now=before).registration
    bruno = services.register(event, name="Bruno", places=2, now=before).registration
    services.register(event, name="Chloé", places=1, now=before)
    services.cancel_registration(bruno)
    services.check_in(anne, librarian, now=event.starts_at)
    taps(event, librarian, ("adult", 1), ("adult", 1), ("child_6_11", 1))

    creche = services.plan_session(library, librarian, kind="group_visit", structure_kind="creche",
                                   structure_name="Les Petits Loups", children_expected=8, adults_expected=3,
                                   starts_at=at("2025-03-20", "10:00"), ends_at=at("2025-03-20", "11:30"))
    taps(creche, librarian, ("group_child", 7), ("group_adult", 2))
    services.plan_session(library, librarian, kind="group_visit", structure_kind="school",
                          structure_name="École Jules-Ferry", children_expected=25, adults_expected=2,
                          starts_at=at("2025-05-06", "09:00"), ends_at=at("2025-05-06", "10:30"))

    next_year = services.plan_session(library, librarian, kind="event", title="Galette",
                                      starts_at=at("2026-01-03", "14:00"), ends_at=at("2026-01-03", "17:00"))
    taps(next_year, librarian, ("adult", 1))
    services.link_game(next_year, result_game({"Ada": 3, "Bastien": 5}, dt.date(2026, 1, 3), catalogue_record=dixit,
                                              organisation=library), librarian, now=at("2026-01-03", "16:00"))
    other = Organisation.objects.create(slug="autre", name="Autre ludothèque", kind="library")
    elsewhere = Session.objects.create(organisation=other, kind="opening", starts_at=at("2025-01-08", "14:00"),
                                       ends_at=at("2025-01-08", "18:00"))
    taps(elsewhere, librarian, ("adult", 1))
    return event


def test_the_year_counted_by_hand(library, year_2025):
    with CaptureQueriesContext(connection) as queries:
        year = selectors.year_figures(library, 2025, now=NOW)
    assert len(queries) <= 6

    assert year.sessions_held == 7
    assert year.sessions_by_kind == {"opening": 3, "event": 1, "group_visit": 2, "game_night": 1}
    assert year.opening_hours == Decimal("12.00")
    assert year.hours_by_kind == {"opening": Decimal("12.00"), "event": Decimal("3.00"),
                                  "group_visit": Decimal("3.00"), "game_night": Decimal("4.50")}
    assert year.attendance_by_month == {f"2025-{m:02d}": {1: 8, 3: 12, 5: 27}.get(m, 0) for m in range(1, 13)}
    assert year.attendance_by_public == {"child_0_2": 0, "child_3_5": 1, "child_6_11": 4, "child_12_17": 0,
                                         "adult": 5, "senior": 1, "group_child": 32, "group_adult": 4}
    assert year.families_by_month == {f"2025-{m:02d}": {1: 3}.get(m, 0) for m in range(1, 13)}
    assert year.events == [EventFigures(title="Après-midi jeux", starts_at=at("2025-03-15", "14:00"), capacity=4,
                                        registered_places=3, waiting_places=0, checked_in_places=2, persons=3,
                                        session_id=year_2025.pk)]
    assert year.group_visits_by_kind == {"creche": GroupFigures(1, 7, 2), "school": GroupFigures(1, 25, 2),
                                         "leisure_centre": GroupFigures(0, 0, 0), "care_home": GroupFigures(0, 0, 0),
                                         "other": GroupFigures(0, 0, 0)}
    carcassonne, dixit = (CatalogueRecord.objects.get(title=title).pk for title in ("Carcassonne", "Dixit"))
    assert year.games_played_on_site == [(carcassonne, "Carcassonne", 3), (dixit, "Dixit", 3),
                                         (None, "Carcassonne: Hunters and Gatherers", 1)]


def test_a_session_not_over_yet_is_not_held(library, year_2025):
    """Seen on 15 March at noon, the event (14:00) and what follows are still to come."""
    year = selectors.year_figures(library, 2025, now=at("2025-03-15", "12:00"))
    assert year.sessions_by_kind == {"opening": 3, "event": 0, "group_visit": 0, "game_night": 1}


def test_corrections_after_the_report_was_sent(library, librarian, year_2025):
    sent = at("2026-01-20", "09:00")
    opening = Session.objects.get(organisation=library, kind="opening", starts_at=at("2025-01-22", "14:00"))
    services.edit_session(opening, librarian, {"ends_at": at("2025-01-22", "18:30")}, reason="Fermé plus tard",
                          now=at("2026-01-10"))
    services.correct_door_count(opening, librarian, public="adult", delta=1, reason="Fiche papier retrouvée",
                                now=at("2026-01-25"))
    found = selectors.corrections(library, 2025, since=sent)
    assert [(c.field, c.reason) for c in found] == [("count:adult", "Fiche papier retrouvée")]
    assert len(selectors.corrections(library, 2025, since=at("2026-01-01"))) == 2
    assert selectors.corrections(library, 2026, since=at("2026-01-01")) == []
