"""The seeded year's figures (:mod:`tests.reports.seeded`, counted by hand in its docstring) as
the librarian reads them: on the page (by ``data-testid`` and each bar's ``data-key``), in the
CSV (parsed with :mod:`csv`), in the PDF (its text read back with pypdf) and from the API; and
who may read them, and which years."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext
from lxml import html
from pypdf import PdfReader

from accounts.roles import Role
from reports.tables import AGE_GROUP_WORDS
from tests.factories import api_client, give_role
from tests.reports import seeded

pytestmark = pytest.mark.django_db


@pytest.fixture
def year() -> seeded.SeededYear:
    return seeded.seed_year()


@pytest.fixture
def librarian(year: seeded.SeededYear) -> User:
    return give_role(User.objects.create_user("bibliothecaire"), Role.LIBRARIAN, year.library)


def _signed_in(user: User, language: str = "fr") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


@pytest.fixture
def client_of(librarian: User):
    def signed_in(user: User = librarian, language: str = "fr") -> Client:
        return _signed_in(user, language)
    return signed_in


def _bars(page, chart_id: str) -> dict[str, str]:
    return {row.get("data-key"): row.find_class("bar-figure")[0].text_content().strip()
            for row in page.get_element_by_id(chart_id).find_class("bar-row")}


def test_the_page_shows_the_hand_counted_figures(client_of) -> None:
    answer = client_of().get("/reports/2026/")
    assert answer.status_code == 200
    page = html.fromstring(answer.content.decode())
    figure = {element.get("data-testid"): element.text_content().strip()
              for element in page.xpath("//dd[@data-testid]")}
    assert (figure["report-loans"], figure["report-households-borrowing"], figure["report-never-lent"]) == (
        "7", "3", "2")
    assert (figure["report-opening-hours"], figure["report-sessions"], figure["report-attendance"],
            figure["report-households-active"], figure["report-households-new"]) == ("10,5", "6", "61", "4", "2")
    assert (figure["report-households-lapsed"], figure["report-residents"], figure["report-non-residents"],
            figure["report-town-unknown"], figure["report-membership-income"], figure["report-overrides"]) == (
        "1", "2", "2", "0", "52,00", "0")
    assert _bars(page, "loans-by-month") == {month: str(n) for month, n in seeded.LOANS_BY_MONTH.items()}
    assert _bars(page, "attendance-by-month") == {month: str(n) for month, n in seeded.ATTENDANCE_BY_MONTH.items()}
    assert _bars(page, "attendance-by-public") == {key: str(n) for key, n in seeded.ATTENDANCE_BY_PUBLIC.items()}
    assert _bars(page, "sessions-by-kind") == {key: str(n) for key, n in seeded.SESSIONS_BY_KIND.items()}
    assert _bars(page, "hours-by-kind") == {"opening": "10,5", "event": "3", "group_visit": "3", "game_night": "0"}
    assert _bars(page, "group-visits") == {kind: str(visits) for kind, (visits, _c, _a) in seeded.GROUP_VISITS.items()}
    assert _bars(page, "households-by-town") == {town: str(n) for town, n in seeded.HOUSEHOLDS_BY_TOWN.items()}
    event, = page.xpath("//*[@data-testid='report-event']")
    assert [cell.text_content() for cell in event.xpath("td")] == ["10", "10", "3", "6", "6"]
    assert "20/03/2026" in event.text_content()  # the day as a French reader writes it
    played = page.get_element_by_id("played-on-site").find_class("bar-row")
    assert [(row.get("data-label"), row.find_class("bar-figure")[0].text_content()) for row in played] == [
        (title, str(n)) for title, n in seeded.PLAYED_ON_SITE]
    assert _bars(page, "loans-by-category") == {key: str(n) for key, n in seeded.LOANS_BY_CATEGORY.items()}
    assert _bars(page, "loans-by-age-group") == {key: str(n) for key, n in seeded.LOANS_BY_AGE_GROUP.items()}
    most_lent = page.get_element_by_id("most-lent").find_class("bar-row")
    assert [(row.get("data-label"), row.find_class("bar-figure")[0].text_content()) for row in most_lent] == [
        (title, str(n)) for title, n in seeded.MOST_LENT]
    assert [item.text_content() for item in page.xpath("//*[@data-testid='never-lent']//li")] == seeded.NEVER_LENT
    assert page.xpath("//*[@data-testid='age-group-rule']")[0].text_content().strip()


def test_the_csv_has_every_figure_as_a_row_in_the_organisations_language(client_of) -> None:
    answer = client_of(language="en").get("/reports/2026.csv")
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/csv")
    assert answer.content.startswith(b"\xef\xbb\xbf")  # the byte order mark Excel reads UTF-8 by
    rows = list(csv.reader(io.StringIO(answer.content.decode("utf-8-sig"))))
    assert rows[0][3] == "valeur"  # the organisation's French, whatever the reader's language
    figures: dict[str, dict[str, str]] = {}
    for _section, figure, key, value in rows[1:]:
        figures.setdefault(figure, {})[key] = value
    with translation.override("fr"):
        title = {words: gettext(words) for words in (
            "Loans", "Loans by month", "Loans by ESAR group", "Loans by age group", "Households borrowing",
            "Games never lent", "Games never lent: the list", "Most lent", "Attendance by month", "Opening hours",
            "Sessions held", "Persons counted", "Families by month", "Households active", "New households",
            "Households lapsed", "Membership income", "Income by tariff", "Households by town",
            "Most played on site", "Events: registered, waiting, checked in, counted",
            "Group visits by kind: visits, children, adults", "Residents and non-residents")}
        age_words = {str(AGE_GROUP_WORDS[group]): group for group in seeded.LOANS_BY_AGE_GROUP}
    assert title["Loans"] == "Prêts"
    assert figures["Prêts"] == {"": "7"}
    assert figures[title["Loans by month"]] == {month: str(n) for month, n in seeded.LOANS_BY_MONTH.items()}
    assert figures[title["Attendance by month"]] == {month: str(n) for month, n in seeded.ATTENDANCE_BY_MONTH.items()}
    assert figures[title["Families by month"]] == {month: str(n) for month, n in seeded.FAMILIES_BY_MONTH.items()}
    assert figures[title["Opening hours"]] == {"": "10.50"}
    assert (figures[title["Sessions held"]], figures[title["Persons counted"]]) == ({"": "6"}, {"": "61"})
    assert [figures[title[words]][""] for words in ("Households active", "New households", "Households lapsed",
                                                   "Membership income")] == ["4", "2", "1", "52"]
    assert figures[title["Income by tariff"]] == {"Adhésion Villeurbanne": "40", "Hors commune": "12"}
    assert figures[title["Households by town"]] == {town: str(n) for town, n in seeded.HOUSEHOLDS_BY_TOWN.items()}
    assert list(figures[title["Residents and non-residents"]].values()) == ["2", "2", "0"]
    assert figures[title["Events: registered, waiting, checked in, counted"]] == {
        "Soirée jeux (2026-03-20)": "10 / 3 / 6 / 6"}
    assert list(figures[title["Group visits by kind: visits, children, adults"]].values())[:2] == [
        "1 / 10 / 3", "1 / 24 / 2"]
    assert [(key, int(value)) for key, value in figures[title["Most played on site"]].items()] == (
        seeded.PLAYED_ON_SITE)
    assert list(figures[title["Loans by ESAR group"]].values()) == [str(n) for n in seeded.LOANS_BY_CATEGORY.values()]
    assert {age_words[key]: int(value) for key, value in figures[title["Loans by age group"]].items()} == (
        seeded.LOANS_BY_AGE_GROUP)
    assert figures[title["Households borrowing"]] == {"": "3"}
    assert figures[title["Games never lent"]] == {"": "2"}
    assert list(figures[title["Games never lent: the list"]]) == seeded.NEVER_LENT
    assert [(key, int(value)) for key, value in figures[title["Most lent"]].items()] == seeded.MOST_LENT
    assert len({row[0] for row in rows[1:]}) == 6  # sessions, attendance, events, households, loans, games


def test_the_pdf_names_the_organisation_and_the_year_and_holds_the_figures(client_of) -> None:
    answer = client_of().get("/reports/2026.pdf")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/pdf"
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(answer.content)).pages)
    assert "Ludothèque des tests" in text and "2026" in text
    lines = [re.sub(r"\s+", " ", line).strip() for line in text.splitlines()]
    assert "Prêts 7" in lines
    for words, figure in (("Séances tenues", "6"), ("Personnes comptées", "61"), ("Foyers actifs", "4"),
                          ("Nouveaux foyers", "2"), ("Recettes des adhésions", "52")):
        assert f"{words} {figure}" in lines, (words, lines)
    assert " ".join(str(n) for n in seeded.ATTENDANCE_BY_MONTH.values()) in lines
    assert " ".join(str(loans) for loans in seeded.LOANS_BY_MONTH.values()) in lines  # under the months' bars
    for title in seeded.NEVER_LENT:
        assert title in lines
    for title, loans in seeded.MOST_LENT:
        assert f"{title} {loans}" in lines


def test_the_api_answers_every_figure(year: seeded.SeededYear, librarian: User) -> None:
    answer = api_client(librarian).get(f"/api/organisations/{year.library.pk}/report/", {"year": "2026"})
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["loans_by_month"] == seeded.LOANS_BY_MONTH
    assert body["loans_by_category"] == seeded.LOANS_BY_CATEGORY
    assert body["loans_by_age_group"] == seeded.LOANS_BY_AGE_GROUP
    assert (body["loans"], body["households_borrowing"], body["games_never_lent"]) == (7, 3, 2)
    assert [line["title"] for line in body["games_never_lent_records"]] == seeded.NEVER_LENT
    assert [(line["title"], line["loans"]) for line in body["most_lent"]] == seeded.MOST_LENT
    assert body["attendance_by_month"] == seeded.ATTENDANCE_BY_MONTH
    assert (body["sessions"], body["opening_hours"], body["households_active"], body["households_new"]) == (
        6, "10.50", 4, 2)


@pytest.mark.parametrize("asked", [None, "", "deux-mille", "1999", "2100", "20.5"])
def test_a_year_missing_or_out_of_range_is_refused_in_words(year: seeded.SeededYear, librarian: User,
                                                           asked: str | None) -> None:
    query = {} if asked is None else {"year": asked}
    answer = api_client(librarian).get(f"/api/organisations/{year.library.pk}/report/", query)
    assert answer.status_code == 400
    assert answer.json()["reason"] == "year_invalid" and "2000" in answer.json()["detail"]


def test_only_those_who_may_see_the_report_read_it(year: seeded.SeededYear, client_of) -> None:
    desk = give_role(User.objects.create_user("benevole"), Role.DESK, year.library)
    organiser = give_role(User.objects.create_user("organisatrice"), Role.ORGANISER, year.library)
    outsider = give_role(User.objects.create_user("autre"), Role.LIBRARIAN, year.other)
    url = f"/api/organisations/{year.library.pk}/report/?year=2026"
    assert api_client().get(url).status_code == 401
    assert api_client(desk).get(url).status_code == 403
    assert api_client(desk).get(url).json()["reason"] == "may_not_see_report"
    assert api_client(outsider).get(url).status_code == 403
    assert api_client(organiser).get(url).status_code == 200
    for page in ("/reports/2026/", "/reports/2026.csv", "/reports/2026.pdf"):
        assert client_of(desk).get(page).status_code == 403
        assert Client().get(page).status_code == 302  # to the sign-in page
    assert client_of(organiser).get("/reports/2026/").status_code == 200


def test_the_operator_with_no_organisation_chosen_is_asked_to_choose_one(year: seeded.SeededYear) -> None:
    operator = User.objects.create_superuser("operateur")
    page = html.fromstring(_signed_in(operator).get("/reports/2026/").content.decode())
    assert [button.text_content() for button in page.xpath("//*[@data-testid='organisation-choices']//button")] == [
        "Autre ludothèque", "Ludothèque des tests"]


def test_the_pages_refuse_a_year_out_of_range(client_of) -> None:
    client = client_of()
    assert client.get("/reports/1999/").status_code == 400
    assert client.get("/reports/2100.csv").status_code == 400
    assert client.get("/reports/?year=abc").status_code == 400
    assert client.get("/reports/?year=2025").url == "/reports/2025/"
