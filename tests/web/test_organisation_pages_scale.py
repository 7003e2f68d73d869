"""An organisation's own pages cost the same few queries however many organisations, members and
games the installation hosts: the start page, members and invitations, the organisation's page and
the statistics page, read by one of its members (or its organiser), before and after four more
clubs with their members and games, and more games of its own, come in.

``bench/bench_organisations.py`` measures the time of these pages among 100 organisations; this
holds their number of queries, and that each shows its own organisation's people only.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import Organisation
from accounts.roles import Role
from records.models import Player
from scoring import tasks
from tests.factories import club_with_league, give_role, result_game

pytestmark = pytest.mark.django_db

PAGES = {
    "start page": ("/scorekeeping/", "member"),
    "members and invitations": ("/organisations/{slug}/members/", "organiser"),
    "organisation page": ("/organisations/{slug}/", "member"),
    "statistics": ("/statistics/", "member"),
}


def club(name: str, members: list[str]) -> tuple[Organisation, dict[str, object]]:
    """A club whose league has ``members``, each with an account that is a member of it, the
    first its organiser."""
    organisation = club_with_league(name, "Saison", members).organisation
    accounts = {}
    for number, member in enumerate(members):
        user = get_user_model().objects.create_user(f"{organisation.slug}-{number}")
        Player.objects.filter(display_name=member).update(user=user)
        give_role(user, Role.ORGANISER if number == 0 else None, organisation)
        accounts["organiser" if number == 0 else "member" if number == 1 else member] = user
    return organisation, accounts


def games(organisation: Organisation, names: list[str], count: int, first: int = 0) -> None:
    """``count`` scored result-only games of ``organisation``, three of ``names`` at each, every
    fifth one private (the first of them, game 2, without the second name: hidden from them)."""
    for number in range(first, first + count):
        seated = [names[(number + seat) % len(names)] for seat in range(3)]
        record = result_game({name: 50 + 7 * seat + number for seat, name in enumerate(seated)},
                             date(2026, 1, 1) + timedelta(days=number), organisation=organisation,
                             is_private=number % 5 == 2)
        tasks.score_record(record.pk)


def queries(path: str, user) -> tuple[int, str]:
    client = Client()
    client.force_login(user)
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path)
    assert response.status_code == 200, path
    return len(captured), response.content.decode()


def test_an_organisations_pages_take_as_many_queries_among_five_organisations_as_alone():
    names = ["Ada", "Bastien", "Chloé", "Dana"]
    measured, people = club("Le Club mesuré", names)
    games(measured, names, 6)

    def read() -> dict[str, tuple[int, str]]:
        return {page: queries(path.format(slug=measured.slug), people[reader])
                for page, (path, reader) in PAGES.items()}

    alone = read()
    for number in range(4):
        others = [f"Autre {number}-{member}" for member in range(5)]
        other, _accounts = club(f"Autre club {number}", others)
        games(other, others, 5)
    games(measured, names, 6, first=6)
    among = read()

    assert {page: count for page, (count, _html) in among.items()} == {
        page: count for page, (count, _html) in alone.items()}
    for page in ("start page", "members and invitations", "organisation page"):
        html = among[page][1]
        assert "Chloé" in html, page
        assert not re.search(r"Autre \d-\d", html), f"another club's member on the {page}"
