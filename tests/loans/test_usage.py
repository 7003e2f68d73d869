"""The librarian's usage page (``/desk/usage/``): loans, plays and holds per catalogue record and
per copy over a period, sorted for the budget, counted by the database, and the same table as CSV.

The small library of :func:`library` (T is today; every figure below counted by hand):

=========  ======  ===============================================  ==================================
record     copies  loans (``lent_on``)                              plays (finished, played on)
=========  ======  ===============================================  ==================================
Azul       A1, A2  A1: T-400 (back T-380), T-100 (back T-79),       A1: T-50; A1: T-400; A1: T-40
                   T-10 (still out); A2: T-30 (back T-20, 1 tuile    *private, a keeper's*; A2: T-200;
                   short: waits for a check)                         no copy named: T-3
Dixit      B1      B1: T-5 (still out)                              B1: T-1; B1: T-2 *in progress*
Catan      C1      none; C1 withdrawn                               none
Scrabble   S1      S1 catalogued as on loan (a loan of no known     none
                   day, from before the desk kept history)
Unheld     none    (not the library's: not listed)                  no copy named: T-6
=========  ======  ===============================================  ==================================

Holds: Dixit waited for by Dubois and Bernard (waiting now, placed today); Catan by Petit
(waiting now); Azul by Petit placed at T-500, cancelled long ago.

Over the last 12 months (from T-364), for a desk volunteer (who may not see the private game):

- Azul: 2 copies, 3 loans (T-100, T-10, T-30), plays 2 with a copy (T-50, T-200) of 3 (and T-3),
  0 waiting, 0 households waited, last lent T-10, last played T-3.
  A1: 2 loans, 1 play, 21 + 10 = 31 days out, on loan; A2: 1 loan, 1 play, 10 days out,
  waiting for a check, 1 × tuiles missing.
- Dixit: 1 copy, 1 loan, 1 play with a copy of 1, 2 waiting, 2 households waited, last lent T-5,
  last played T-1: more waiting than copies. B1: 1 loan, 1 play, 5 days out, on loan.
- Catan: 0 copies (its one copy withdrawn), 0 loans, 0 plays, 1 waiting, 1 household waited,
  never lent nor played: more waiting than copies. C1: withdrawn, nothing.
- Scrabble: 1 copy, 0 loans (its loan has no day), no plays, nobody waiting, last lent unknown.
  S1: on loan, 0 loans, 0 days out.

Over all time: Azul 4 loans, 3 plays with a copy (and T-400) of 4, 1 household waited (Petit,
T-500); A1 3 loans, 2 plays, 20 + 21 + 10 = 51 days out; Scrabble 1 loan (of no known day, no
days out), still never known lent. Staff see the private game too: Azul's
plays with a copy are 3 of 4 over the 12 months, A1's plays 2.

Sorted by loans: Azul, Dixit, then Catan and Scrabble (none, by title); by plays: the same; by
waiting per copy: Catan (nobody can borrow it and a household waits), Dixit (2 per copy), then
Azul and Scrabble (0 per copy: the more lent first). Over all time by loans: Azul (4), Dixit and
Scrabble (1 each: the more played first), Catan.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from dataclasses import dataclass

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from accounts.roles import Role
from games.models import CatalogueRecord, Copy
from loans import services, usage
from loans.models import Component, Hold, Household
from loans.rules import EventType, Piece, Status
from records.models import GameRecord
from records.services import SeatSpec, append_event, start_game
from tests.factories import give_role, the_library

pytestmark = pytest.mark.django_db


@dataclass
class Library:
    today: dt.date
    azul: CatalogueRecord
    dixit: CatalogueRecord
    catan: CatalogueRecord
    unheld: CatalogueRecord
    scrabble: CatalogueRecord
    copies: dict[str, Copy]
    private_play: GameRecord


def days(today: dt.date, back: int) -> dt.date:
    return today - dt.timedelta(days=back)


def household(name: str, card: str, today: dt.date) -> Household:
    return Household.objects.create(organisation=the_library(), name=name, card_number=card, fee_paid=True, loan_limit=5,
                                    membership_starts=days(today, 800), membership_ends=today + dt.timedelta(days=365))


def play(keeper: User, on: dt.date, *, copy: Copy | None = None, record: CatalogueRecord | None = None,
         private: bool = False, finished: bool = True) -> GameRecord:
    """A result logged for a game played on ``on`` with ``copy`` (or of ``record`` with no copy named)."""
    game = start_game(game_slug="azul", seats=[SeatSpec("Ada"), SeatSpec("Bo")], created_by=keeper, result_only=True,
                      copy=copy, catalogue_record=record, played_on=on, is_private=private,
                      organisation=the_library())
    if finished:
        append_event(game, 0, "result", {"scores": [{"seat": 0, "score": 30}, {"seat": 1, "score": 40}]},
                     recorded_by=keeper)
    return game


def library(today: dt.date) -> Library:
    keeper = User.objects.create_user("keeper")
    azul, dixit, catan, unheld, scrabble = (CatalogueRecord.objects.create(title=title)
                                            for title in ("Azul", "Dixit", "Catan", "Unheld", "Scrabble"))
    Component.objects.create(record=azul, kind="tuiles", count=100)
    copies = {"A1": Copy.objects.create(organisation=the_library(), record=azul, barcode="A1"), "A2": Copy.objects.create(organisation=the_library(), record=azul, barcode="A2"),
              "B1": Copy.objects.create(organisation=the_library(), record=dixit, barcode="B1"), "C1": Copy.objects.create(organisation=the_library(), record=catan, barcode="C1"),
              # Catalogued as out before the desk kept history: a "lent" event with no day.
              "S1": Copy.objects.create(organisation=the_library(), record=scrabble, barcode="S1", status=Copy.Status.ON_LOAN)}
    martin, dubois = household("Martin", "H1", today), household("Dubois", "H2", today)
    bernard, petit = household("Bernard", "H3", today), household("Petit", "H4", today)
    a1, a2 = copies["A1"], copies["A2"]
    services.lend(a1, martin, None, today=days(today, 400))
    services.return_copy(a1, None, today=days(today, 380))
    services.lend(a1, martin, None, today=days(today, 100))
    services.return_copy(a1, None, today=days(today, 79))
    services.lend(a1, dubois, None, today=days(today, 10))
    services.lend(a2, bernard, None, today=days(today, 30))
    services.return_copy(a2, None, {"tuiles": 99}, today=days(today, 20))
    services.lend(copies["B1"], martin, None, today=days(today, 5))
    services.place_hold(dixit, dubois, today=today)
    services.place_hold(dixit, bernard, today=today)
    services.move_copy(copies["C1"], EventType.WITHDRAWN, None)
    services.place_hold(catan, petit, today=today)
    Hold.objects.create(record=azul, household=petit, status=Hold.Status.CANCELLED,
                        placed_at=timezone.now() - dt.timedelta(days=500))
    play(keeper, days(today, 50), copy=a1)
    play(keeper, days(today, 400), copy=a1)
    private_play = play(keeper, days(today, 40), copy=a1, private=True)
    play(keeper, days(today, 200), copy=a2)
    play(keeper, days(today, 3), record=azul)
    play(keeper, days(today, 1), copy=copies["B1"])
    play(keeper, days(today, 2), copy=copies["B1"], finished=False)
    play(keeper, days(today, 6), record=unheld)
    return Library(today, azul, dixit, catan, unheld, scrabble, copies, private_play)


@pytest.fixture
def lib() -> Library:
    return library(timezone.localdate())


@pytest.fixture
def volunteer(desk_user) -> User:
    """The desk volunteer these figures are read by (``desk_user``, of ``tests/conftest.py``)."""
    return desk_user


def figures(rows) -> dict[str, tuple]:
    return {row.title: (row.copies, row.loans, row.plays_with_copy, row.plays, row.holds_waiting,
                        row.households_waited, row.last_lent, row.last_played) for row in rows}


def records(user, period, sort=usage.SortKey.LOANS) -> list[usage.RecordUsage]:
    return [usage.RecordUsage.from_row(row) for row in usage.record_usage(user, the_library(), period, sort)]


def test_each_game_counted_over_the_last_twelve_months(lib, volunteer):
    t = lib.today
    rows = records(volunteer, usage.Period.of("12m", t))
    assert figures(rows) == {
        "Azul": (2, 3, 2, 3, 0, 0, days(t, 10), days(t, 3)),
        "Dixit": (1, 1, 1, 1, 2, 2, days(t, 5), days(t, 1)),
        "Catan": (0, 0, 0, 0, 1, 1, None, None),
        "Scrabble": (1, 0, 0, 0, 0, 0, None, None),
    }
    assert [row.more_waiting_than_copies for row in rows] == [False, True, True, False]
    assert [row.demand for row in rows] == [0.0, 2.0, None, 0.0]


def test_each_copy_counted_with_its_days_out_and_missing_pieces(lib, volunteer):
    period = usage.Period.of("12m", lib.today)
    found = usage.copy_usage([lib.azul.pk, lib.dixit.pk, lib.catan.pk, lib.scrabble.pk], volunteer, the_library(), period)
    by_copy = {copy.barcode: (copy.loans, copy.plays, copy.days_on_loan, copy.status, copy.missing)
               for copies in found.values() for copy in copies}
    assert by_copy == {
        "A1": (2, 1, 31, Status.ON_LOAN, ()),
        "A2": (1, 1, 10, Status.NEEDS_CHECK, (Piece("tuiles", 1),)),
        "B1": (1, 1, 5, Status.ON_LOAN, ()),
        "C1": (0, 0, 0, Status.WITHDRAWN, ()),
        "S1": (0, 0, 0, Status.ON_LOAN, ()),
    }
    assert [copy.barcode for copy in found[lib.azul.pk]] == ["A1", "A2"]


def test_all_time_counts_the_old_loans_plays_and_holds(lib, volunteer):
    period = usage.Period.of("all", lib.today)
    all_time = figures(records(volunteer, period))
    assert all_time["Azul"][:6] == (2, 4, 3, 4, 0, 1)
    assert all_time["Scrabble"] == (1, 1, 0, 0, 0, 0, None, None)
    assert [row.title for row in records(volunteer, period)] == ["Azul", "Dixit", "Scrabble", "Catan"]
    a1 = usage.copy_usage([lib.azul.pk], volunteer, the_library(), period)[lib.azul.pk][0]
    assert (a1.loans, a1.plays, a1.days_on_loan) == (3, 2, 51)
    s1 = usage.copy_usage([lib.scrabble.pk], volunteer, the_library(), period)[lib.scrabble.pk][0]
    assert (s1.loans, s1.days_on_loan) == (1, 0)


def test_a_private_game_counts_only_for_whoever_may_see_it(lib, volunteer, django_user_model):
    staff = django_user_model.objects.create_user("staff", is_staff=True)
    period = usage.Period.of("12m", lib.today)
    assert figures(records(staff, period))["Azul"][2:4] == (3, 4)
    a1 = usage.copy_usage([lib.azul.pk], staff, the_library(), period)[lib.azul.pk][0]
    assert a1.plays == 2
    keeper = User.objects.get(username="keeper")  # the private game's own keeper
    assert figures(records(keeper, period))["Azul"][2:4] == (3, 4)


def test_sorted_by_loans_plays_or_households_waiting_per_copy(lib, volunteer):
    period = usage.Period.of("12m", lib.today)
    titles = {sort: [row.title for row in records(volunteer, period, sort)] for sort in usage.SortKey}
    assert titles == {usage.SortKey.LOANS: ["Azul", "Dixit", "Catan", "Scrabble"],
                      usage.SortKey.PLAYS: ["Azul", "Dixit", "Catan", "Scrabble"],
                      usage.SortKey.DEMAND: ["Catan", "Dixit", "Azul", "Scrabble"]}


def test_days_on_loan_count_only_the_days_of_the_period():
    period = usage.Period(usage.PeriodKey.LAST_12_MONTHS, dt.date(2026, 1, 1), dt.date(2026, 6, 30))
    assert usage.days_on_loan([(dt.date(2025, 12, 1), dt.date(2025, 12, 20))], period) == 0
    assert usage.days_on_loan([(dt.date(2025, 12, 25), dt.date(2026, 1, 5))], period) == 4
    assert usage.days_on_loan([(dt.date(2026, 6, 20), None)], period) == 10
    assert usage.days_on_loan([(dt.date(2026, 3, 1), dt.date(2026, 3, 1))], period) == 0


# -- the page --------------------------------------------------------------------------------------


def row_of(html: str, record: CatalogueRecord) -> str:
    return re.search(rf'<tbody data-record="{record.pk}"[^>]*>(.*?)</tbody>', html, re.S)[1]


def figure(row: str, name: str) -> str:
    return re.search(rf'data-figure="{name}">(.*?)</', row, re.S)[1].strip()


def test_the_page_shows_the_table_sorted_with_the_purchase_hint(lib, desk):
    html = desk.get("/desk/usage/").content.decode()
    order = re.findall(r'<tbody data-record="(\d+)"', html)
    assert order == [str(lib.azul.pk), str(lib.dixit.pk), str(lib.catan.pk), str(lib.scrabble.pk)]
    azul, dixit = row_of(html, lib.azul), row_of(html, lib.dixit)
    assert [figure(azul, name) for name in ("copies", "loans", "plays-with-copy", "waiting", "waited")] == [
        "2", "3", "2 with a copy", "0", "0"]
    assert 'data-testid="purchase-hint"' in dixit and 'data-testid="purchase-hint"' not in azul
    assert re.search(r'<li data-copy="A2" data-status="needs_check">.*?1 loan.*?1 play.*?10 days out.*?1 × tuiles',
                     azul, re.S)
    by_demand = desk.get("/desk/usage/?sort=demand&period=all").content.decode()
    assert re.findall(r'<tbody data-record="(\d+)"', by_demand) == [str(lib.catan.pk), str(lib.dixit.pk),
                                                                      str(lib.azul.pk), str(lib.scrabble.pk)]
    assert figure(row_of(by_demand, lib.azul), "loans") == "4"
    assert 'aria-current="true" data-period="all"' in by_demand and 'aria-current="true" data-sort="demand"' in by_demand


def test_the_csv_is_the_same_table(lib, desk):
    answer = desk.get("/desk/usage/?period=12m&sort=loans&format=csv")
    assert answer["Content-Type"].startswith("text/csv")
    assert f'filename="ludolog-usage-12m-{lib.today}.csv"' in answer["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(answer.content.decode("utf-8-sig"))))
    t = lib.today
    assert rows == [
        ["Game", "Copies", "Loans", "Plays with a copy", "All plays", "Holds waiting", "Households that waited",
         "Holds waiting per copy", "Last lent", "Last played"],
        ["Azul", "2", "3", "2", "3", "0", "0", "0.00", str(days(t, 10)), str(days(t, 3))],
        ["Dixit", "1", "1", "1", "1", "2", "2", "2.00", str(days(t, 5)), str(days(t, 1))],
        ["Catan", "0", "0", "0", "0", "1", "1", "", "", ""],
        ["Scrabble", "1", "0", "0", "0", "0", "0", "0.00", "", ""],
    ]


def test_the_page_counts_in_the_database_whatever_the_number_of_games(lib, desk, django_assert_max_num_queries):
    """Nine queries for 4 games or 16: the session, the user, the reader's organisations and their
    roles in the current one,
    the count for the pages, the records' figures, their copies' figures, their copies' loans,
    and the site header's look for the reader's household."""
    with django_assert_max_num_queries(9):
        small = desk.get("/desk/usage/")
    assert small.status_code == 200
    extra = Household.objects.get(card_number="H4")
    for number in range(12):
        record = CatalogueRecord.objects.create(title=f"Jeu {number:02d}")
        copy = Copy.objects.create(organisation=the_library(), record=record, barcode=f"X{number:02d}")
        if number < 3:
            services.lend(copy, extra, None, today=lib.today)
    with django_assert_max_num_queries(9):
        large = desk.get("/desk/usage/")
    assert large.content.decode().count("<tbody data-record=") == 16


def test_only_the_desk_and_librarians_open_it_and_a_bad_choice_is_refused(lib, desk, django_user_model):
    assert Client().get("/desk/usage/").status_code == 302  # to the login page
    member = Client()
    member.force_login(django_user_model.objects.create_user("a-member"))
    assert member.get("/desk/usage/").status_code == 403
    librarian = django_user_model.objects.create_user("librarian")
    give_role(librarian, Role.LIBRARIAN)
    reader = Client()
    reader.force_login(librarian)
    assert reader.get("/desk/usage/").status_code == 200
    assert desk.get("/desk/usage/?period=decade").status_code == 400
    assert desk.get("/desk/usage/?sort=price").status_code == 400


def test_the_desk_home_links_to_the_usage_page(desk):
    assert 'href="/desk/usage/"' in desk.get("/desk/").content.decode()
