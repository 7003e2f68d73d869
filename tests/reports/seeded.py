"""The seeded year every report test counts, 2026 at the tests' ludothèque (in French), by hand:

Catalogue (one copy each at the library; categories ESAR):

==================  ===============  =========================================================
record              ESAR             copy events (``lent_on`` → household; returned after)
==================  ===============  =========================================================
Memory des animaux  A 101            lent 2026-01-10 Martin, back; lent 2026-03-20 Dubois,
                                     back; lent 2026-06-12 Petit (still out)
Carcassonne         D 401, D 402     lent 2026-01-24 Martin, back
Dobble              A 103, D 403     lent 2026-01-15 Dubois, back
Marchande           B 201            lent 2026-03-03 Petit, back
Puzzle              (none)           lent 2026-06-05 Martin, back
Kapla               C 301            catalogued as on loan (no day), back 2026-02-02
Tangram             C 302            lent 2025-12-28 Bernard, back 2026-01-05
==================  ===============  =========================================================

Another ludothèque's copy of Memory des animaux, lent 2026-02-01 to its own household: not ours.

Households: Martin (Villeurbanne; members born 1985, 2019, 2023), Dubois (Villeurbanne; born
1958 and one of unknown year), Petit (Lyon; one member of unknown year), Bernard (Bron; born
1990, nothing lent in 2026).

Hand-counted for 2026:

- 7 loans: January 3 (Memory, Dobble, Carcassonne), March 2 (Marchande, Memory), June 2 (Puzzle,
  Memory); every other month 0 (Kapla's has no day, Tangram's was in 2025, February's is the
  other library's).
- By ESAR group, a loan once under each group of its record: A 4 (Memory 3, Dobble), B 1
  (Marchande), C 0, D 2 (Carcassonne once for its two D codes, Dobble); unclassified 1 (Puzzle).
- By age group in 2026, a loan once under each group of its household: Martin's 3 loans under
  adult (41), 6–11 (7) and 3–5 (3); Dubois's 2 under senior (68); Petit's 2 under unknown.
  0–2: 0, 3–5: 3, 6–11: 3, 12–17: 0, adult: 3, senior: 2, unknown: 2.
- 3 households borrowing (Martin, Dubois, Petit).
- Games never lent: 2 — Kapla, Tangram.
- Most lent: Memory des animaux 3, then Carcassonne, Dobble, Marchande, Puzzle 1 each (by title).

Sessions (Europe/Paris), counted at the door in taps (a tap is one person, or one family):

- Opening Wednesday 14 January 14:00–18:00 (4 h): 3 families, 4 adults, 2 children 3–5, 3 children
  6–11: 9 persons. Games on site: Carcassonne twice, Dobble once.
- Opening Saturday 17 January 10:00–12:30 (2.5 h): 2 families, 2 adults, 1 child 0–2, 1 senior: 4
  persons. Carcassonne once.
- Opening Wednesday 4 March 14:00–18:00 (4 h): 1 family, 1 adult, children 6–11 tapped 3 times and
  one tap taken back: 3 persons.
- Opening Wednesday 11 March, cancelled (an adult and a Puzzle were counted before): not held.
- Event "Soirée jeux" Friday 20 March 20:00–23:00 (3 h), 10 places: Anne 4 places (checked in),
  Bruno 4, Chloé 2 (checked in), David 3 waiting, Emma 2 cancelled; 6 adults counted at the door.
  Dobble twice; Kapla once, taken back.
- A crèche ("Les Lutins") Tuesday 12 May 09:30–11:00 (1.5 h), booked for 12 children and 3 adults,
  counted 10 and 3: 13 persons.
- A school ("École Jean-Jaurès") Thursday 4 June 14:00–15:30 (1.5 h), booked for 24 children and 2
  adults, not counted at the door: 26 persons, as booked.
- Not 2026's: an opening of 20 December 2025 (5 adults); the other ludothèque's opening of 14
  January 2026 (7 adults).

Hand-counted for 2026: 6 sessions held (3 openings, 1 event, 2 group visits); opening hours 10.5
(4 + 2.5 + 4); hours by kind: openings 10.5, event 3, group visits 3; attendance January 13,
March 9 (3 + 6), May 13, June 26, 61 in all; by public: 0–2: 1, 3–5: 2, 6–11: 5, 12–17: 0, adults
13, seniors 1, group children 34, group adults 5; families January 5, March 1; the event 10
registered, 3 waiting, 6 checked in, 6 counted; group visits: crèche 1 (10 children, 3 adults),
school 1 (24, 2); played on site: Carcassonne 3, Dobble 3.

Memberships (the library is in Villeurbanne; tariffs "Adhésion Villeurbanne" 20.00 a household,
"Hors commune" 12.00 a person):

- Martin: a membership typed for 2025, renewed at the desk on 10 January 2026 (20.00): active,
  not new.
- Dubois: first membership paid on 1 March 2026 (20.00): active, new.
- Petit (Lyon, one member): first membership paid on 1 February 2026, "Hors commune" (12.00):
  active, new.
- Bernard (Bron): a membership typed from 1 June 2025 to 31 May 2026, not renewed: active, lapsed.

Hand-counted for 2026: 4 households active, 2 new, 1 lapsed; by town Villeurbanne 2, Lyon 1,
Bron 1; 2 residents, 2 non-residents; membership income 52.00 (Adhésion Villeurbanne 40.00,
Hors commune 12.00); no late fee paid or waived; no override.
"""

from __future__ import annotations

import datetime as dt
import itertools
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone

from accounts.models import Organisation
from accounts.roles import Role
from agenda.models import DoorCount, PlayTally, Registration, Session
from games.models import CatalogueRecord, Category, Copy
from loans import memberships
from loans.models import CopyEvent, Household, Member, Tariff
from tests.factories import give_role, make_household, the_library

YEAR = 2026
LOANS_BY_MONTH = {f"2026-{month:02d}": 0 for month in range(1, 13)} | {"2026-01": 3, "2026-03": 2, "2026-06": 2}
LOANS_BY_CATEGORY = {"A": 4, "B": 1, "C": 0, "D": 2, "unclassified": 1}
LOANS_BY_AGE_GROUP = {"child_0_2": 0, "child_3_5": 3, "child_6_11": 3, "child_12_17": 0, "adult": 3, "senior": 2,
                      "unknown": 2}
NEVER_LENT = ["Kapla", "Tangram"]
MONTHS = {f"2026-{month:02d}": 0 for month in range(1, 13)}
ATTENDANCE_BY_MONTH = MONTHS | {"2026-01": 13, "2026-03": 9, "2026-05": 13, "2026-06": 26}
FAMILIES_BY_MONTH = MONTHS | {"2026-01": 5, "2026-03": 1}
ATTENDANCE_BY_PUBLIC = {"child_0_2": 1, "child_3_5": 2, "child_6_11": 5, "child_12_17": 0, "adult": 13, "senior": 1,
                        "group_child": 34, "group_adult": 5}
SESSIONS_BY_KIND = {"opening": 3, "event": 1, "group_visit": 2, "game_night": 0}
HOURS_BY_KIND = {"opening": Decimal("10.50"), "event": Decimal("3.00"), "group_visit": Decimal("3.00"),
                 "game_night": Decimal("0.00")}
GROUP_VISITS = {"creche": (1, 10, 3), "school": (1, 24, 2), "leisure_centre": (0, 0, 0), "care_home": (0, 0, 0),
                "other": (0, 0, 0)}
EVENT = ("Soirée jeux", 10, 3, 6, 6)
"""The event's title, places registered, waiting, checked in, persons counted."""
PLAYED_ON_SITE = [("Carcassonne", 3), ("Dobble", 3)]
HOUSEHOLDS_BY_TOWN = {"Villeurbanne": 2, "Lyon": 1, "Bron": 1}
INCOME_BY_TARIFF = {"Adhésion Villeurbanne": Decimal("40.00"), "Hors commune": Decimal("12.00")}
MOST_LENT = [("Memory des animaux", 3), ("Carcassonne", 1), ("Dobble", 1), ("Marchande", 1), ("Puzzle", 1)]


@dataclass
class SeededYear:
    library: Organisation
    other: Organisation
    records: dict[str, CatalogueRecord]
    households: dict[str, Household]


def _lent(copy: Copy, seq: int, household: Household | None, day: str | None, **extra: Any) -> CopyEvent:
    due = None if day is None else (dt.date.fromisoformat(day) + dt.timedelta(days=21)).isoformat()
    return CopyEvent(copy=copy, seq=seq, type="lent", household=household,
                     payload={"lent_on": day, "due_on": due, **extra})


def _returned(copy: Copy, seq: int, household: Household | None, day: str) -> CopyEvent:
    return CopyEvent(copy=copy, seq=seq, type="returned", household=household, payload={"returned_on": day})


def seed_year() -> SeededYear:
    library = the_library()
    library.language, library.town = "fr", "Villeurbanne"
    library.save(update_fields=["language", "town"])
    other = Organisation.objects.create(name="Autre ludothèque", slug="autre-ludotheque",
                                        kind=Organisation.Kind.LIBRARY)
    esar = {code: Category(code=code, label=f"ESAR {code}", scheme=Category.Scheme.ESAR)
            for code in ("A 101", "A 103", "B 201", "C 301", "C 302", "D 401", "D 402", "D 403")}
    Category.objects.bulk_create(esar.values())
    classes = {"Memory des animaux": ["A 101"], "Carcassonne": ["D 401", "D 402"], "Dobble": ["A 103", "D 403"],
               "Marchande": ["B 201"], "Puzzle": [], "Kapla": ["C 301"], "Tangram": ["C 302"]}
    records = {title: CatalogueRecord.objects.create(title=title) for title in classes}
    for title, codes in classes.items():
        records[title].categories.set([esar[code] for code in codes])
    copies = Copy.objects.bulk_create([Copy(record=record, barcode=f"REP-{index:03d}", organisation=library)
                                       for index, record in enumerate(records.values(), start=1)])
    copy = {record.title: found for record, found in zip(records.values(), copies)}
    theirs = Copy.objects.create(record=records["Memory des animaux"], barcode="AUTRE-001", organisation=other)

    never = {"membership_starts": None, "membership_ends": None, "fee_paid": False}
    martin = make_household("Martin", town="Villeurbanne", membership_starts=dt.date(2025, 1, 1),
                            membership_ends=dt.date(2025, 12, 31))
    dubois = make_household("Dubois", town="Villeurbanne", **never)
    petit = make_household("Petit", town="Lyon", **never)
    bernard = make_household("Bernard", town="Bron", membership_starts=dt.date(2025, 6, 1),
                             membership_ends=dt.date(2026, 5, 31))
    stranger = make_household("Étranger", organisation=other)
    Member.objects.bulk_create([
        Member(household=martin, display_name="Paul", birth_year=1985),
        Member(household=martin, display_name="Léa", birth_year=2019),
        Member(household=martin, display_name="Tom", birth_year=2023),
        Member(household=dubois, display_name="Jeanne", birth_year=1958),
        Member(household=dubois, display_name="Marc", birth_year=None),
        Member(household=petit, display_name="Sam", birth_year=None),
        Member(household=bernard, display_name="Luc", birth_year=1990),
    ])
    memory = copy["Memory des animaux"]
    CopyEvent.objects.bulk_create([
        _lent(memory, 1, martin, "2026-01-10"), _returned(memory, 2, martin, "2026-01-30"),
        _lent(memory, 3, dubois, "2026-03-20"), _returned(memory, 4, dubois, "2026-04-10"),
        _lent(memory, 5, petit, "2026-06-12"),
        _lent(copy["Carcassonne"], 1, martin, "2026-01-24"), _returned(copy["Carcassonne"], 2, martin, "2026-02-10"),
        _lent(copy["Dobble"], 1, dubois, "2026-01-15"), _returned(copy["Dobble"], 2, dubois, "2026-02-01"),
        _lent(copy["Marchande"], 1, petit, "2026-03-03"), _returned(copy["Marchande"], 2, petit, "2026-03-24"),
        _lent(copy["Puzzle"], 1, martin, "2026-06-05"), _returned(copy["Puzzle"], 2, martin, "2026-06-26"),
        _lent(copy["Kapla"], 1, None, None, catalogued=True), _returned(copy["Kapla"], 2, None, "2026-02-02"),
        _lent(copy["Tangram"], 1, bernard, "2025-12-28"), _returned(copy["Tangram"], 2, bernard, "2026-01-05"),
        _lent(theirs, 1, stranger, "2026-02-01"),
    ])
    _seed_sessions(library, other, records)
    _seed_memberships(library, martin, dubois, petit)
    return SeededYear(library=library, other=other, records=records,
                      households={"Martin": martin, "Dubois": dubois, "Petit": petit, "Bernard": bernard})


def _at(day: str, time: str) -> dt.datetime:
    return timezone.make_aware(dt.datetime.fromisoformat(f"{day}T{time}"))


_keys = itertools.count(1)


def _taps(session: Session, *taps: tuple[str, int]) -> list[DoorCount]:
    """One door count a tap (``delta`` +1, or −1 to take one back), as the door counter stores them."""
    return [DoorCount(session=session, public=public, delta=delta, key=f"seed-{next(_keys)}",
                      counted_at=session.starts_at, recorded_at=session.starts_at)
            for public, times in taps for delta in ([1] * times if times > 0 else [-1] * -times)]


def _plays(session: Session, record: CatalogueRecord, *deltas: int) -> list[PlayTally]:
    return [PlayTally(session=session, record=record, delta=delta, key=f"seed-{next(_keys)}",
                      counted_at=session.starts_at, recorded_at=session.starts_at) for delta in deltas]


def _seed_sessions(library: Organisation, other: Organisation, records: dict[str, CatalogueRecord]) -> None:
    def session(kind: str, day: str, starts: str, ends: str, organisation: Organisation = library,
                **fields: Any) -> Session:
        return Session.objects.create(organisation=organisation, kind=kind, starts_at=_at(day, starts),
                                      ends_at=_at(day, ends), **fields)

    opening = Session.Kind.OPENING
    january_14 = session(opening, "2026-01-14", "14:00", "18:00")
    january_17 = session(opening, "2026-01-17", "10:00", "12:30")
    march_4 = session(opening, "2026-03-04", "14:00", "18:00")
    march_11 = session(opening, "2026-03-11", "14:00", "18:00", cancelled_at=_at("2026-03-11", "13:00"),
                       cancel_reason="Animatrice malade")
    evening = session(Session.Kind.EVENT, "2026-03-20", "20:00", "23:00", title="Soirée jeux", capacity=10,
                      registration=True)
    creche = session(Session.Kind.GROUP_VISIT, "2026-05-12", "09:30", "11:00", structure_kind="creche",
                     structure_name="Les Lutins", children_expected=12, adults_expected=3)
    session(Session.Kind.GROUP_VISIT, "2026-06-04", "14:00", "15:30", structure_kind="school",
            structure_name="École Jean-Jaurès", children_expected=24, adults_expected=2)
    last_december = session(opening, "2025-12-20", "10:00", "12:30")
    theirs = session(opening, "2026-01-14", "14:00", "18:00", organisation=other)
    DoorCount.objects.bulk_create([
        *_taps(january_14, ("family", 3), ("adult", 4), ("child_3_5", 2), ("child_6_11", 3)),
        *_taps(january_17, ("family", 2), ("adult", 2), ("child_0_2", 1), ("senior", 1)),
        *_taps(march_4, ("family", 1), ("adult", 1), ("child_6_11", 3), ("child_6_11", -1)),
        *_taps(march_11, ("adult", 1)),
        *_taps(evening, ("adult", 6)),
        *_taps(creche, ("group_child", 10), ("group_adult", 3)),
        *_taps(last_december, ("adult", 5)),
        *_taps(theirs, ("adult", 7)),
    ])
    PlayTally.objects.bulk_create([
        *_plays(january_14, records["Carcassonne"], 1, 1), *_plays(january_14, records["Dobble"], 1),
        *_plays(january_17, records["Carcassonne"], 1), *_plays(evening, records["Dobble"], 1, 1),
        *_plays(evening, records["Kapla"], 1, -1), *_plays(march_11, records["Puzzle"], 1),
    ])
    registered, waiting, cancelled = (Registration.Status.REGISTERED, Registration.Status.WAITING,
                                      Registration.Status.CANCELLED)
    checked_in = _at("2026-03-20", "20:05")
    Registration.objects.bulk_create([
        Registration(session=evening, name="Anne", places=4, status=registered, checked_in_at=checked_in),
        Registration(session=evening, name="Bruno", places=4, status=registered),
        Registration(session=evening, name="Chloé", places=2, status=registered, checked_in_at=checked_in),
        Registration(session=evening, name="David", places=3, status=waiting),
        Registration(session=evening, name="Emma", places=2, status=cancelled),
    ])


def _seed_memberships(library: Organisation, martin: Household, dubois: Household, petit: Household) -> None:
    desk = give_role(User.objects.create_user("accueil-annuel"), Role.DESK, library)
    in_town, outside = Tariff.objects.bulk_create([
        Tariff(organisation=library, name="Adhésion Villeurbanne", kind="resident", amount=Decimal("20.00")),
        Tariff(organisation=library, name="Hors commune", kind="non_resident", per="person", amount=Decimal("12.00")),
    ])
    memberships.take_membership(desk, martin, in_town, method="cash", today=dt.date(2026, 1, 10))
    memberships.take_membership(desk, dubois, in_town, method="card", today=dt.date(2026, 3, 1))
    memberships.take_membership(desk, petit, outside, method="cheque", today=dt.date(2026, 2, 1))
