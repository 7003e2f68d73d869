"""The librarian's record form on the catalogue's own pages (``/catalogue/new/``,
``/catalogue/<pk>/edit/``): a game catalogued with a person, an EAN and two copies, then edited;
the duplicate check shared with the admin's form (an EAN refused, the same title, publisher and
year asked about, then stored "anyway"); others refused; nothing stored on a refusal."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import Organisation
from accounts.roles import Role
from games.models import CatalogueRecord, Contribution, Copy, Identifier, Publisher
from loans.models import Component
from tests.factories import give_role, the_library

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def librarian(django_user_model) -> Client:
    return client_of(give_role(django_user_model.objects.create_user("librarian"), Role.LIBRARIAN))


def posted(record: CatalogueRecord | None = None, *, people=(), identifiers=(), copies=(), **fields) -> dict:
    """The form as a browser posts it: the record's fields, and its lines (those of ``record``
    kept as they are, then the new ones)."""
    data = {"title": "", "publisher_name": "", "document_type": "", "publication_year": "", **fields}
    kept = {
        "other_titles": [], "contributions": [
            {"id": c.pk, "name": c.person.name, "role": c.role} for c in (record.contributions.all() if record else [])],
        "identifiers": [{"id": i.pk, "scheme": i.scheme, "value": i.value}
                        for i in (record.identifiers.all() if record else [])],
        "copies": [],
    }
    new = {"other_titles": [], "contributions": [{"name": n, "role": r} for n, r in people],
           "identifiers": [{"scheme": s, "value": v} for s, v in identifiers],
           "copies": [{"barcode": b, "shelf_location": shelf, "status": "available"} for b, shelf in copies]}
    for prefix in kept:
        lines = kept[prefix] + new[prefix]
        data[f"{prefix}-TOTAL_FORMS"], data[f"{prefix}-INITIAL_FORMS"] = len(lines), len(kept[prefix])
        for index, line in enumerate(lines):
            data.update({f"{prefix}-{index}-{name}": value for name, value in line.items()})
    return data


def test_a_game_catalogued_then_edited(librarian):
    assert b'href="/catalogue/new/"' in librarian.get("/catalogue/").content
    page = librarian.get("/catalogue/new/")
    assert page.status_code == 200 and b"/admin/" not in page.content
    answer = librarian.post("/catalogue/new/", posted(
        title="Carcassonne", publisher_name="Hans im Glück", publication_year="2000", min_players="2",
        max_players="5", contents="72 tiles\n40 meeples", people=[("Klaus-Jürgen Wrede", "author")],
        identifiers=[("ean", "4015566018211")], copies=[("LUD-001", "A 406 CAR"), ("LUD-002", "A 406 CAR")]))
    record = CatalogueRecord.objects.get()
    assert answer.status_code == 302 and answer["Location"] == f"/catalogue/{record.pk}/"
    assert (record.publisher.name, record.publication_year, record.max_players) == ("Hans im Glück", 2000, 5)
    assert [(c.person.name, c.role) for c in record.contributions.all()] == [("Klaus-Jürgen Wrede", "author")]
    assert list(record.identifiers.values_list("scheme", "value")) == [("ean", "4015566018211")]
    assert sorted(record.copies.values_list("barcode", "shelf_location", "organisation")) == [
        ("LUD-001", "A 406 CAR", the_library().pk), ("LUD-002", "A 406 CAR", the_library().pk)]
    # As the admin's save does: the desk's checklist read from the contents (loans listens).
    assert Component.objects.filter(record=record).count() == 2
    shown = librarian.get(answer["Location"]).content.decode()
    assert f'href="/catalogue/{record.pk}/edit/"' in shown and "/admin/" not in shown

    form = librarian.get(f"/catalogue/{record.pk}/edit/").content.decode()
    assert 'value="Hans im Glück"' in form and "LUD-001" in form
    edited = librarian.post(f"/catalogue/{record.pk}/edit/", posted(
        record, title="Carcassonne", publisher_name="hans im glück", publication_year="2001",
        people=[("Chris Quilliams", "illustrator")], copies=[("LUD-003", "")]))
    assert edited.status_code == 302
    record.refresh_from_db()
    assert record.publication_year == 2001 and Publisher.objects.count() == 1  # found whatever its case
    assert [c.person.name for c in record.contributions.all()] == ["Klaus-Jürgen Wrede", "Chris Quilliams"]
    assert record.copies.count() == 3


def test_the_duplicate_rule_of_the_admin_form_refuses_an_ean_and_asks_about_a_title(librarian):
    first = CatalogueRecord.objects.create(title="Azul", publisher=Publisher.objects.create(name="Plan B"),
                                           publication_year=2017)
    Identifier.objects.create(record=first, scheme="ean", value="0826956600107")
    before = (CatalogueRecord.objects.count(), Copy.objects.count(), Contribution.objects.count())

    same_ean = librarian.post("/catalogue/new/", posted(
        title="Azul (2nd edition)", identifiers=[("ean", "0826956600107")], copies=[("AZ-1", "")],
        people=[("Michael Kiesling", "author")]))
    text = same_ean.content.decode()
    assert same_ean.status_code == 422 and 'data-reason="duplicate_ean"' in text
    assert "already has this EAN" in text and f'href="/catalogue/{first.pk}/"' in text and "/admin/" not in text
    assert 'name="catalogue_anyway"' not in text  # an EAN is refused, never asked about
    assert (CatalogueRecord.objects.count(), Copy.objects.count(), Contribution.objects.count()) == before

    again = posted(title="AZUL", publisher_name="plan b", publication_year="2017", copies=[("AZ-2", "")])
    asked = librarian.post("/catalogue/new/", again)
    assert asked.status_code == 422 and 'data-reason="same_title"' in asked.content.decode()
    assert 'name="catalogue_anyway"' in asked.content.decode()
    assert (CatalogueRecord.objects.count(), Copy.objects.count()) == before[:2]
    anyway = librarian.post("/catalogue/new/", {**again, "catalogue_anyway": "on"})
    assert anyway.status_code == 302 and CatalogueRecord.objects.filter(title="AZUL").exists()


def test_an_invalid_form_is_shown_again_in_the_readers_language_and_stores_nothing(librarian):
    answer = librarian.post("/catalogue/new/", posted(title="", min_players="5", max_players="2",
                                                      copies=[("X-1", "")]), HTTP_ACCEPT_LANGUAGE="fr")
    text = answer.content.decode()
    assert answer.status_code == 422 and 'data-reason="invalid_record"' in text
    assert "Ce champ est obligatoire." in text and CatalogueRecord.objects.count() == Copy.objects.count() == 0


def test_others_are_refused_and_another_librarys_librarian_adds_its_own_copies(client, django_user_model):
    record = CatalogueRecord.objects.create(title="Dixit")
    ours = Copy.objects.create(record=record, barcode="OURS-1", organisation=the_library())
    member = client_of(give_role(django_user_model.objects.create_user("member")))
    for visitor in (client, member):
        for url in ("/catalogue/new/", f"/catalogue/{record.pk}/edit/"):
            refused = visitor.post(url, posted(title="Dixit 2"))
            assert refused.status_code == 403 and 'data-reason="not_a_librarian"' in refused.content.decode()
    assert b"/catalogue/new/" not in member.get("/catalogue/").content
    assert CatalogueRecord.objects.get().title == "Dixit"

    # The catalogue is the installation's (records are not an organisation's): another library's
    # librarian completes the record; the copy they add is theirs, ours stays as it was.
    other = Organisation.objects.create(slug="autre", name="Autre ludo", kind=Organisation.Kind.LIBRARY)
    theirs = client_of(give_role(django_user_model.objects.create_user("other"), Role.LIBRARIAN, other))
    answer = theirs.post(f"/catalogue/{record.pk}/edit/", posted(record, title="Dixit", copies=[("AUTRE-1", "")]))
    assert answer.status_code == 302
    assert dict(record.copies.values_list("barcode", "organisation")) == {"OURS-1": the_library().pk,
                                                                          "AUTRE-1": other.pk}
    ours.refresh_from_db()
    assert ours.organisation == the_library()
