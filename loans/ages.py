"""The age bands a ludothèque reports by (attendance counted at the door, loans by borrower age),
as pure values: the standard library only.

A person is counted in the band of the age they reach in the year counted (their year of birth is
all the desk asks for), so that a whole year falls in one band:

>>> band_of(2020, 2026).value, band_of(2021, 2026).value, band_of(1960, 2026).value
('child_6_11', 'child_3_5', 'senior')
>>> band_of(None, 2026) is None
True
"""

from __future__ import annotations

from enum import StrEnum


class AgeBand(StrEnum):
    CHILD_0_2 = "child_0_2"
    CHILD_3_5 = "child_3_5"
    CHILD_6_11 = "child_6_11"
    CHILD_12_17 = "child_12_17"
    ADULT = "adult"
    SENIOR = "senior"


BAND_STARTS: tuple[tuple[int, AgeBand], ...] = (
    (65, AgeBand.SENIOR), (18, AgeBand.ADULT), (12, AgeBand.CHILD_12_17), (6, AgeBand.CHILD_6_11),
    (3, AgeBand.CHILD_3_5), (0, AgeBand.CHILD_0_2),
)
"""The first age of each band, oldest first (the ages French towns and the CAF ask figures by)."""

CHILDREN = (AgeBand.CHILD_0_2, AgeBand.CHILD_3_5, AgeBand.CHILD_6_11, AgeBand.CHILD_12_17)


def band_of(birth_year: int | None, year: int) -> AgeBand | None:
    """The band of a person born in ``birth_year`` during ``year``; None when the year of birth is unknown."""
    if birth_year is None:
        return None
    age = max(0, year - birth_year)
    return next(band for first_age, band in BAND_STARTS if age >= first_age)
