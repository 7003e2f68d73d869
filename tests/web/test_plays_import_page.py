"""The import page (/history/import/): staff upload a play log, review what it finds and would
store, and confirm; nothing is stored before; a malformed file answers 400 naming its line or field
and stores nothing; others may not import."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from accounts.roles import Role
from games.models import CatalogueRecord
from records.models import GameRecord, Player
from tests.factories import give_role
from tests.plays_exchange.generate_fixtures import MEMBERS, bgg_fixture, bgstats_fixture

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff():
    """An organiser of the club whose history it is (``accounts.roles``: organisers import it)."""
    client = Client()
    client.force_login(give_role(User.objects.create_user("organiser"), Role.ORGANISER))
    for name in MEMBERS:
        Player.objects.create(display_name=name)
    return client


def upload(client: Client, data: bytes, fmt: str = "bgg", name: str = "plays.xml"):
    return client.post("/history/import/", {"format": fmt, "file": SimpleUploadedFile(name, data)})


@pytest.mark.django_db(transaction=True)  # the import is stored by a task queued when the confirmation commits
def test_staff_review_the_plays_then_store_them(staff, celery_eager, imports_root):
    data, games, specs = bgg_fixture(plays=80, game_count=25, seed=11)
    CatalogueRecord.objects.create(title=games[0].title.upper(), bgg_id=None)
    answer = upload(staff, data)
    page = answer.content.decode()
    created = sum(s.quantity for s in specs if not s.skip)
    skipped = sum(1 for s in specs if s.skip)
    assert answer.status_code == 200
    assert f'data-testid="to-create">{created}<' in page and f'data-testid="skipped">{skipped}<' in page
    assert page.count('data-testid="play-row"') == 80 and page.count('data-outcome="skip"') == skipped
    assert "new: added to the catalogue" in page and "by title" in page and "new player" in page
    assert GameRecord.objects.count() == 0  # reviewed, not stored

    token = answer.context["token"]
    stored = staff.post("/history/import/", {"confirm": "1", "token": token}, follow=True)
    assert stored.status_code == 200 and stored.redirect_chain[-1][0].startswith("/history/import/")
    assert 'data-status="done"' in stored.content.decode()
    assert f"Records created: {created}; already imported: 0; plays skipped: {skipped}." in stored.content.decode()
    assert GameRecord.objects.filter(source="bgg").count() == created
    assert CatalogueRecord.objects.get(title=games[0].title.upper()).bgg_id == games[0].bgg_id

    again = upload(staff, data)
    assert 'data-testid="to-create">0<' in again.content.decode()
    assert f'data-testid="matched">{created}<' in again.content.decode()


def test_a_confirmation_without_its_review_stores_nothing(staff):
    answer = staff.post("/history/import/", {"confirm": "1", "token": "0" * 32}, follow=True)
    assert "That review has expired" in answer.content.decode() and GameRecord.objects.count() == 0


@pytest.mark.parametrize(("fmt", "data", "named"), [
    ("bgg", b'<plays>\n<play id="1" date="2024-01-01"><item name="Go" objectid="188"/>\n</plays>', "line 3"),
    ("bgstats", b'{"games": [], "plays": [{"uuid": "a", "gameRefId": 4, "playDate": "2024-01-01"}]}',
     "plays[0].gameRefId"),
])
def test_a_malformed_file_answers_400_naming_its_line_or_field_and_stores_nothing(staff, fmt, data, named):
    answer = upload(staff, data, fmt)
    assert answer.status_code == 400 and named in answer.content.decode()
    assert GameRecord.objects.count() == CatalogueRecord.objects.count() == 0


def test_only_staff_import(client):
    client.force_login(User.objects.create_user("member"))
    assert client.get("/history/import/").status_code == 403
    assert upload(client, bgstats_fixture(plays=5)[0], "bgstats").status_code == 403
    assert GameRecord.objects.count() == 0


def test_the_page_in_french(staff):
    staff.defaults["HTTP_ACCEPT_LANGUAGE"] = "fr"
    page = staff.get("/history/import/").content.decode()
    assert "Importer l’historique du club" in page and "Vérifier les parties" in page
    text = upload(staff, bgstats_fixture(plays=10)[0], "bgstats").content.decode()
    assert "Enregistrer ces parties" in text and "Parties écartées" in text and "nouveau joueur" in text
