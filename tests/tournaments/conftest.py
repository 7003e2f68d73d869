"""The tournaments' tests: the tests' library, an organiser of it, a plain member, and a
tournament of thirteen registered and checked-in players at tables of four."""

from __future__ import annotations

import pytest

from accounts.roles import Role
from games.models import CatalogueRecord
from records.models import Player
from tests.factories import give_role, the_library
from tournaments import services
from tournaments.models import Entrant, Tournament


@pytest.fixture
def library(db):
    return the_library()


@pytest.fixture
def organiser(django_user_model, library):
    return give_role(django_user_model.objects.create_user("organisatrice"), Role.ORGANISER)


@pytest.fixture
def member(django_user_model, library):
    return give_role(django_user_model.objects.create_user("joueuse"))


@pytest.fixture
def game(db) -> CatalogueRecord:
    return CatalogueRecord.objects.create(title="Terra Mystica", added_with_a_result=True)


def thirteen(tournament: Tournament) -> list[Entrant]:
    players = Player.objects.bulk_create([Player(display_name=f"Joueur {i:02d}", name_key=f"joueur {i:02d}")
                                          for i in range(1, 14)])
    return Entrant.objects.bulk_create([Entrant(tournament=tournament, player=player, checked_in=True)
                                        for player in players])


@pytest.fixture
def tournament(library, organiser, game) -> Tournament:
    made = services.create_tournament(library, organiser, name="Open de printemps", table_size=4,
                                      rounds_planned=3, game=game)
    thirteen(made)
    return made
