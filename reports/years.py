"""Which years a report may be asked for: from :data:`FIRST_YEAR` to next year (a town asks for
next year's budget figures before it starts; nothing is counted before 2000)."""

from __future__ import annotations

import datetime as dt

from django.utils.translation import gettext

from .errors import YearInvalid

FIRST_YEAR = 2000


def last_year_reported(today: dt.date) -> int:
    return today.year + 1


def report_year(text: str | int | None, today: dt.date) -> int:
    """The year ``text`` names, or :class:`YearInvalid` (``year_invalid``) in the reader's language."""
    last = last_year_reported(today)
    words = gettext("Give the year as a number from %(first)s to %(last)s.") % {"first": FIRST_YEAR, "last": last}
    if text is None or str(text).strip() == "":
        raise YearInvalid(gettext("Which year? %(rule)s") % {"rule": words}, first=FIRST_YEAR, last=last)
    try:
        year = int(str(text).strip())
    except ValueError:
        raise YearInvalid(words, first=FIRST_YEAR, last=last) from None
    if not FIRST_YEAR <= year <= last:
        raise YearInvalid(words, first=FIRST_YEAR, last=last)
    return year
