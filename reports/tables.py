"""The report's figures as titled tables in the reader's language: what the CSV writes row by row
and the PDF draws table by table (the page lays the same figures out as charts). Call inside
``translation.override(report.language)`` for the organisation's language.

A figure of one value is a table of one row with no key; every number is written plain (digits,
a dot before decimals), so that a spreadsheet reads it as a number.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.utils.translation import gettext, gettext_lazy as _, pgettext_lazy

from agenda.models import PUBLIC_WORDS, Session

from .sections import (
    UNCLASSIFIED, UNKNOWN_AGE, CategoryCount, CategoryScheme, YearReport,
)

AGE_GROUP_WORDS = {
    "child_0_2": _("children 0–2"),
    "child_3_5": _("children 3–5"),
    "child_6_11": _("children 6–11"),
    "child_12_17": _("young people 12–17"),
    "adult": _("adults 18–64"),
    "senior": _("seniors 65 and over"),
    UNKNOWN_AGE: _("age unknown"),
}
ESAR_GROUP_WORDS = {
    "A": _("A – exercise games"),
    "B": _("B – symbolic games"),
    "C": _("C – assembly games"),
    "D": _("D – rule games"),
}
SESSION_KIND_WORDS = {kind.value: kind.label for kind in Session.Kind}
STRUCTURE_WORDS = {kind.value: kind.label for kind in Session.StructureKind}
PUBLIC_KEY_WORDS = {public.value: words for public, words in PUBLIC_WORDS.items()}
TOWN_WORDS = {"": _("town unknown")}
AGE_GROUP_RULE = _("A loan counts once under each age group of the borrowing household's members (their age "
                   "reached in the year); “age unknown” when no member's year of birth is known.")
CATEGORY_RULE = _("A loan counts once under each category of its game: the groups add up to more than the loans "
                  "when a game has several.")


def category_words(line: CategoryCount) -> str:
    if line.key == UNCLASSIFIED:
        return gettext("unclassified")
    if line.key in ESAR_GROUP_WORDS and not line.name:
        return str(ESAR_GROUP_WORDS[line.key])
    return f"{line.key} {line.name}".strip()


def plain(value: int | Decimal | None) -> str:
    """A number as a spreadsheet reads it (``12.5``, ``3``); nothing for ``None``."""
    if value is None:
        return ""
    if isinstance(value, Decimal):
        return format(value.normalize(), "f") if value == value.to_integral() else format(value, "f")
    return str(value)


@dataclass(frozen=True)
class Table:
    """One figure of the report: its section, its title, and (key, value) rows; ``by_month``
    tables are drawn as month charts too."""

    section: str
    title: str
    rows: tuple[tuple[str, str], ...]
    by_month: bool = False


SECTION_WORDS = {
    "sessions": pgettext_lazy("report section", "Sessions and opening hours"),
    "attendance": pgettext_lazy("report section", "Attendance"),
    "events": pgettext_lazy("report section", "Events and group visits"),
    "memberships": pgettext_lazy("report section", "Households and memberships"),
    "loans": pgettext_lazy("report section", "Loans"),
    "games": pgettext_lazy("report section", "Games"),
}


def report_tables(report: YearReport) -> list[Table]:
    """Every figure of ``report``, section by section, in the active language."""
    agenda, membership, loans = report.agenda, report.membership, report.loans
    sessions, attendance, events = (str(SECTION_WORDS[key]) for key in ("sessions", "attendance", "events"))
    households, lending, games = (str(SECTION_WORDS[key]) for key in ("memberships", "loans", "games"))
    one = _one_row
    return [
        one(sessions, gettext("Sessions held"), agenda.sessions_held),
        one(sessions, gettext("Opening hours"), agenda.opening_hours),
        Table(sessions, gettext("Sessions by kind"), _rows(agenda.sessions_by_kind, SESSION_KIND_WORDS)),
        Table(sessions, gettext("Hours by kind"), _rows(agenda.hours_by_kind, SESSION_KIND_WORDS)),
        one(attendance, gettext("Persons counted"), agenda.attendance),
        Table(attendance, gettext("Attendance by month"), _rows(agenda.attendance_by_month), by_month=True),
        Table(attendance, gettext("Attendance by public"), _rows(agenda.attendance_by_public, PUBLIC_KEY_WORDS)),
        Table(attendance, gettext("Families by month"), _rows(agenda.families_by_month), by_month=True),
        Table(events, gettext("Events: registered, waiting, checked in, counted"), tuple(
            (f"{line.title} ({line.starts_at[:10]})",
             " / ".join(plain(value) for value in (line.registered, line.waiting, line.checked_in, line.counted)))
            for line in agenda.events)),
        Table(events, gettext("Group visits by kind: visits, children, adults"), tuple(
            (str(STRUCTURE_WORDS.get(kind, kind)),
             " / ".join(plain(value) for value in (visits.visits, visits.children, visits.adults)))
            for kind, visits in agenda.group_visits_by_kind.items())),
        one(households, gettext("Households active"), membership.households_active),
        one(households, gettext("New households"), membership.households_new),
        one(households, gettext("Households lapsed"), membership.households_lapsed),
        Table(households, gettext("Households by town"), _rows(membership.households_by_town, TOWN_WORDS)),
        Table(households, gettext("Residents and non-residents"), (
            (gettext("residents"), plain(membership.residents)),
            (gettext("non-residents"), plain(membership.non_residents)),
            (gettext("town unknown"), plain(membership.town_unknown)))),
        one(households, gettext("Membership income"), membership.membership_income),
        Table(households, gettext("Income by tariff"), _rows(membership.income_by_tariff)),
        one(households, gettext("Late fees paid"), membership.late_fees_paid),
        one(households, gettext("Late fees waived"), membership.late_fees_waived),
        one(households, gettext("Lending rules overridden"), membership.overrides),
        one(lending, gettext("Loans"), loans.loans),
        one(lending, gettext("Households borrowing"), loans.households_borrowing),
        Table(lending, gettext("Loans by month"), _rows(loans.by_month), by_month=True),
        Table(lending, gettext("Loans by ESAR group") if loans.category_scheme == CategoryScheme.ESAR
              else gettext("Loans by category"),
              tuple((category_words(line), plain(line.loans)) for line in loans.by_category)),
        Table(lending, gettext("Loans by age group"),
              tuple((str(AGE_GROUP_WORDS[group]), plain(count)) for group, count in loans.by_age_group.items())),
        Table(games, gettext("Most lent"), tuple((line.title, plain(line.count)) for line in loans.most_lent)),
        Table(games, gettext("Most played on site"),
              tuple((line.title, plain(line.count)) for line in agenda.games_played_on_site)),
        one(games, gettext("Games never lent"), len(loans.games_never_lent)),
        Table(games, gettext("Games never lent: the list"), tuple((line.title, "") for line in loans.games_never_lent)),
    ]


def _one_row(section: str, title: str, value: int | Decimal) -> Table:
    return Table(section, title, (("", plain(value)),))


def _rows(figures: dict[str, int] | dict[str, Decimal], words: dict | None = None) -> tuple[tuple[str, str], ...]:
    """(key in words, value) rows: a kind or a public as its words (else as stored: a month, a town)."""
    return tuple((str((words or {}).get(key, key)), plain(value)) for key, value in figures.items())
