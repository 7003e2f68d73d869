"""Marking a year's report as sent to the town: who may, what the page then says, and the record
kept as it was (append-only: the model refuses, and PostgreSQL's trigger refuses any client)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import DatabaseError, connection, transaction
from django.test import Client
from lxml import html

from accounts.roles import Role
from reports import selectors, services
from reports.errors import ImmutableReportSentError, MayNotSeeReport, YearInvalid
from reports.models import ReportSent
from tests.factories import give_role, the_library

pytestmark = pytest.mark.django_db


@pytest.fixture
def librarian() -> User:
    return give_role(User.objects.create_user("bibliothecaire"), Role.LIBRARIAN)


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_librarian_marks_the_report_sent_and_the_page_says_when(librarian: User) -> None:
    client = _client(librarian)
    before = html.fromstring(client.get("/reports/2026/").content.decode())
    assert not before.xpath("//*[@data-testid='report-corrections']")
    answer = client.post("/reports/2026/sent/", {"note": "Par courriel à la mairie"})
    assert answer.status_code == 302 and answer.url == "/reports/2026/"
    sent = ReportSent.objects.get()
    assert (sent.organisation, sent.year, sent.by, sent.note) == (the_library(), 2026, librarian,
                                                                  "Par courriel à la mairie")
    page = html.fromstring(client.get("/reports/2026/").content.decode())
    block = page.xpath("//*[@data-testid='report-sent']")[0].text_content()
    assert "bibliothecaire" in block and "Par courriel à la mairie" in block
    assert page.xpath("//*[@data-testid='report-corrections']")  # none yet: the hook answers [] until the agenda's
    client.post("/reports/2026/sent/", {"note": "Corrigé, renvoyé"})
    assert [row.note for row in selectors.sendings(the_library(), 2026)] == ["Par courriel à la mairie",
                                                                             "Corrigé, renvoyé"]
    assert not selectors.sendings(the_library(), 2025)


def test_a_desk_volunteer_may_not_mark_it_sent_nor_a_year_out_of_range(librarian: User) -> None:
    desk = give_role(User.objects.create_user("benevole"), Role.DESK)
    assert _client(desk).post("/reports/2026/sent/", {"note": "x"}).status_code == 403
    with pytest.raises(MayNotSeeReport):
        services.mark_report_sent(the_library(), 2026, desk)
    with pytest.raises(YearInvalid):
        services.mark_report_sent(the_library(), 1999, librarian)
    assert _client(librarian).get("/reports/2026/sent/").status_code == 405
    assert not ReportSent.objects.exists()


def test_a_report_sent_is_never_changed_nor_deleted(librarian: User) -> None:
    sent = services.mark_report_sent(the_library(), 2026, librarian, "envoyé")
    sent.note = "autre chose"
    with pytest.raises(ImmutableReportSentError):
        sent.save()
    with pytest.raises(ImmutableReportSentError):
        sent.delete()
    assert ReportSent.objects.get().note == "envoyé"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)  # and the flush after it empties the table all the same (tests/conftest.py)
def test_postgresql_refuses_any_client_changing_a_report_sent(librarian: User) -> None:
    services.mark_report_sent(the_library(), 2026, librarian, "envoyé")
    for statement in ("UPDATE reports_reportsent SET note = 'changé'", "DELETE FROM reports_reportsent"):
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(statement)
    assert ReportSent.objects.get().note == "envoyé"
