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
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from accounts.models import Organisation
from games.models import CatalogueRecord, Category, Copy
from loans.models import CopyEvent, Household, Member
from tests.factories import make_household, the_library

YEAR = 2026
LOANS_BY_MONTH = {f"2026-{month:02d}": 0 for month in range(1, 13)} | {"2026-01": 3, "2026-03": 2, "2026-06": 2}
LOANS_BY_CATEGORY = {"A": 4, "B": 1, "C": 0, "D": 2, "unclassified": 1}
LOANS_BY_AGE_GROUP = {"child_0_2": 0, "child_3_5": 3, "child_6_11": 3, "child_12_17": 0, "adult": 3, "senior": 2,
                      "unknown": 2}
NEVER_LENT = ["Kapla", "Tangram"]
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
    library.language = "fr"
    library.save(update_fields=["language"])
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

    martin = make_household("Martin", town="Villeurbanne")
    dubois = make_household("Dubois", town="Villeurbanne")
    petit = make_household("Petit", town="Lyon")
    bernard = make_household("Bernard", town="Bron")
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
    return SeededYear(library=library, other=other, records=records,
                      households={"Martin": martin, "Dubois": dubois, "Petit": petit, "Bernard": bernard})
