"""The catalogue's copy status and free-text note become the desk's history: a copy catalogued (or
imported) as missing parts, on loan or withdrawn starts with the events that say so, its note kept
in its history; from then on the desk's events decide its status, and the catalogue's columns
(what the search's availability and the exports read) are written back from them. The migration
does the same for the copies catalogued before the desk existed."""

from __future__ import annotations

import datetime as dt
import importlib

import pytest
from django.apps import apps

from games.models import CatalogueRecord, Copy
from games.services import demo_catalogue_data, load_catalogue
from loans import services
from loans.models import CopyEvent, CopyState
from tests.factories import make_household, the_library

pytestmark = pytest.mark.django_db
FAR = dt.date(2099, 12, 31)


def history(barcode: str) -> list[tuple[str, dict]]:
    return [(event.type, event.payload) for event in CopyEvent.objects.filter(copy__barcode=barcode).order_by("seq")]


def test_the_demo_catalogues_copies_start_with_what_the_catalogue_said():
    load_catalogue(demo_catalogue_data())
    assert history("LUD-HG-0002") == [("noted", {"note": "Il manque 1 disque en bois vert.",
                                                 "needs_check": True})]
    assert CopyState.objects.get(copy__barcode="LUD-HG-0002").status == "needs_check"
    assert history("LUD-SA-0001") == [("lent", {"lent_on": None, "due_on": None, "catalogued": True})]
    assert history("LUD-CA-0002") == [("withdrawn", {"catalogued": True})]
    assert history("LUD-HG-0001") == [] and not CopyState.objects.filter(copy__barcode="LUD-HG-0001").exists()
    # The catalogue's columns say what they said: the round trip of an export keeps them.
    columns = dict(Copy.objects.values_list("barcode", "status"))
    assert columns == {"LUD-HG-0001": "available", "LUD-HG-0002": "missing_parts", "LUD-SA-0001": "on_loan",
                       "LUD-CA-0001": "available", "LUD-CA-0002": "withdrawn", "LUD-MC-0001": "available"}
    assert Copy.objects.get(barcode="LUD-HG-0002").missing_pieces == "Il manque 1 disque en bois vert."
    # Loaded again: nothing new.
    events = CopyEvent.objects.count()
    load_catalogue(demo_catalogue_data())
    assert CopyEvent.objects.count() == events


def test_the_desk_owns_the_status_once_it_keeps_the_copy(desk_user):
    load_catalogue(demo_catalogue_data())
    # The copy catalogued on loan, with no known borrower, is taken back at the desk like any loan.
    copy = Copy.objects.get(barcode="LUD-SA-0001")
    result = services.return_copy(copy, desk_user)
    assert result.state.status.value == "available" and result.days_late == 0
    assert Copy.objects.get(barcode="LUD-SA-0001").status == "available"
    services.lend(copy, make_household("Martin", membership_ends=FAR), desk_user)
    assert Copy.objects.get(barcode="LUD-SA-0001").status == "on_loan"
    # A catalogue file that still says "available" does not put a lent copy back on the shelves.
    load_catalogue(demo_catalogue_data())
    assert Copy.objects.get(barcode="LUD-SA-0001").status == "on_loan"
    assert CopyState.objects.get(copy=copy).status == "on_loan"


def test_the_search_counts_only_the_copies_the_desk_has_on_the_shelves(client, desk_user):
    load_catalogue(demo_catalogue_data())
    record = CatalogueRecord.objects.get(copies__barcode="LUD-HG-0001")
    before = client.get("/catalogue/", {"q": record.title}).content.decode()
    assert "2 copies, 1 available" in before
    services.lend(Copy.objects.get(barcode="LUD-HG-0001"), make_household("Martin", membership_ends=FAR), desk_user)
    after = client.get("/catalogue/", {"q": record.title}).content.decode()
    assert "2 copies, 0 available" in after


def test_the_migration_turns_the_old_columns_into_events(record):
    on_loan, noted, plain = (Copy.objects.create(organisation=the_library(),
                                                 record=record, barcode=code) for code in ("OLD-1", "OLD-2", "OLD-3"))
    # As the columns stood before the desk existed (update: no signal, no events).
    Copy.objects.filter(pk=on_loan.pk).update(status="on_loan")
    Copy.objects.filter(pk=noted.pk).update(missing_pieces="une hutte rouge remplacée")
    migration = importlib.import_module("loans.migrations.0003_catalogued_copies_history")
    migration.adopt_catalogued_copies(apps, None)
    assert history("OLD-1") == [("lent", {"lent_on": None, "due_on": None, "catalogued": True})]
    assert history("OLD-2") == [("noted", {"note": "une hutte rouge remplacée", "needs_check": False})]
    assert history("OLD-3") == []
    assert CopyState.objects.get(copy=noted).note == "une hutte rouge remplacée"
    assert CopyState.objects.get(copy=noted).status == "available"
    migration.adopt_catalogued_copies(apps, None)  # twice: nothing more
    assert CopyEvent.objects.filter(copy__record=record).count() == 2
    assert services.rebuild_copy_states() >= 2
    assert CopyState.objects.get(copy=on_loan).status == "on_loan"


def test_the_desk_adds_notes_to_a_copys_history(desk, copies):
    copy = copies[0]
    answer = desk.post(f"/desk/copies/{copy.barcode}/", {"action": "note", "note": "coin de boîte déchiré",
                                                         "needs_check": "1"}, follow=True)
    page = answer.content.decode()
    assert "“coin de boîte déchiré”" in page
    assert CopyState.objects.get(copy=copy).status == "needs_check"
    assert Copy.objects.get(pk=copy.pk).missing_pieces == "coin de boîte déchiré"
    events = CopyEvent.objects.count()
    empty = desk.post(f"/desk/copies/{copy.barcode}/", {"action": "note", "note": "  "})
    assert empty.status_code == 422 and 'data-reason="empty_note"' in empty.content.decode()
    assert CopyEvent.objects.count() == events
