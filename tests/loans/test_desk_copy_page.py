"""The desk's copy page (the one a label's QR opens): desk staff lend a copy by a member card's
number, take it back counting only what differs from the box's list, renew it; a refusal shows
the rule's words with the API's status and changes nothing; others may not use it."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client

from games.labels import desk_url
from loans.models import CopyEvent, Hold
from tests.factories import make_copies, make_household, page_of

pytestmark = pytest.mark.django_db

FAR = dt.date(2099, 12, 31)


def test_the_labels_qr_address_is_the_desk_page(copies, desk):
    url = desk_url("http://testserver/", copies[0].barcode)
    assert desk.get(url.removeprefix("http://testserver")).status_code == 200


def test_lend_take_back_with_two_pieces_missing_then_the_next_household_waits(copies, desk):
    martin = make_household("Martin", membership_ends=FAR)
    dubois = make_household("Dubois", membership_ends=FAR)
    copy = copies[0]
    answer = desk.post(page_of(copy), {"action": "lend", "card": martin.card_number}, follow=True)
    page = answer.content.decode()
    assert 'data-status="on_loan"' in page and "Lent to Martin" in page
    assert desk.post(page_of(copy), {"action": "renew"}).status_code == 302
    second = copies[1]
    desk.post(page_of(second), {"action": "lend", "card": martin.card_number})
    Hold.objects.create(record=copy.record, household=dubois)
    refused = desk.post(page_of(second), {"action": "renew"})
    assert refused.status_code == 422
    assert re.search(r'data-reason="renewal_refused_hold_waiting"', refused.content.decode())
    page = desk.get(page_of(copy)).content.decode()
    fields = dict(re.findall(r'<label for="(count_\d+)">([^<]+)</label>', page))
    field_of = {kind: field for field, kind in fields.items()}
    answer = desk.post(page_of(copy), {"action": "return", field_of["tuiles bonus"]: "11",
                                       field_of["huttes en bois"]: "9", field_of["tuiles paysage"]: "79"}, follow=True)
    page = answer.content.decode()
    assert 'data-status="needs_check"' in page
    assert re.search(r'data-testid="copy-missing">1 × tuiles bonus, 1 × huttes en bois|data-testid="copy-missing">1 × huttes en bois, 1 × tuiles bonus', page)
    assert [e.type for e in CopyEvent.objects.filter(copy=copy).order_by("seq")][:3] == ["lent", "renewed", "returned"]
    assert not CopyEvent.objects.filter(copy=second, type="renewed").exists(), "the refused renewal stored nothing"
    assert 'data-testid="copy-history"' in page and "Martin" in page


def test_a_refused_loan_changes_nothing_and_says_why(copies, desk):
    martin = make_household("Martin", membership_ends=FAR, loan_limit=1)
    desk.post(page_of(copies[0]), {"action": "lend", "card": martin.card_number})
    before = CopyEvent.objects.count()
    refused = desk.post(page_of(copies[1]), {"action": "lend", "card": martin.card_number})
    assert refused.status_code == 422 and 'data-reason="loan_limit_reached"' in refused.content.decode()
    unknown = desk.post(page_of(copies[1]), {"action": "lend", "card": "NO-SUCH-CARD"})
    assert unknown.status_code == 404 and 'data-reason="unknown_household"' in unknown.content.decode()
    assert CopyEvent.objects.count() == before


def test_only_desk_staff_use_the_page(copies, django_user_model):
    assert Client().get(page_of(copies[0])).status_code == 302  # to the login page
    member = Client()
    member.force_login(django_user_model.objects.create_user("a-member"))
    assert member.get(page_of(copies[0])).status_code == 403


def test_an_unknown_barcode_is_a_clear_404(desk):
    answer = desk.get("/desk/copies/NOPE-1/")
    assert answer.status_code == 404 and "NOPE-1" in answer.content.decode()


def test_the_desk_opens_what_is_scanned_and_lists_what_is_overdue(copies, desk):
    martin = make_household("Martin", membership_ends=FAR)
    assert desk.get(f"/desk/?code={martin.card_number}")["Location"] == f"/desk/households/{martin.card_number}/"
    assert desk.get(f"/desk/?code={copies[0].barcode}")["Location"] == f"/desk/copies/{copies[0].barcode}/"
    unknown = desk.get("/desk/?code=ZZZ")
    assert unknown.status_code == 404 and 'data-testid="desk-unknown"' in unknown.content.decode()
    from loans import services

    services.lend(copies[0], martin, None, today=dt.date(2026, 1, 5))  # due long ago
    home = desk.get("/desk/").content.decode()
    assert copies[0].barcode in home and "Martin" in home


def test_a_household_page_lends_scanned_copies_and_takes_holds(copies, desk):
    martin = make_household("Martin", membership_ends=FAR, loan_limit=1)
    page = f"/desk/households/{martin.card_number}/"
    assert desk.post(page, {"action": "lend", "copy": copies[0].barcode}).status_code == 302
    refused = desk.post(page, {"action": "lend", "copy": copies[1].barcode})
    assert refused.status_code == 422 and 'data-reason="loan_limit_reached"' in refused.content.decode()
    missing = desk.post(page, {"action": "hold", "title": "No such game"})
    assert missing.status_code == 404
    dubois = make_household("Dubois", membership_ends=FAR)
    answer = desk.post(f"/desk/households/{dubois.card_number}/", {"action": "hold", "title": copies[0].record.title})
    assert answer.status_code == 302
    assert Hold.objects.get(household=dubois).status in ("waiting", "ready")
    assert desk.get("/desk/households/NO-CARD/").status_code == 404


def test_a_title_two_records_share_is_reserved_once_the_desk_says_which(copies, desk):
    from games.models import CatalogueRecord, Publisher

    first = copies[0].record
    first.publisher, first.publication_year = Publisher.objects.create(name="Hans im Glück"), 2002
    first.save()
    other = CatalogueRecord.objects.create(title=first.title.upper(), publication_year=2018)
    make_copies(other, 1, prefix="LUD-O")
    martin = make_household("Martin", membership_ends=FAR)
    page = f"/desk/households/{martin.card_number}/"
    offered = desk.get(page).content.decode()
    assert f'label="{first.title} — Hans im Glück, 2002 (n° {first.pk})"' in offered
    assert f'label="{other.title} — 2018 (n° {other.pk})"' in offered

    asked = desk.post(page, {"action": "hold", "title": first.title}, HTTP_ACCEPT_LANGUAGE="en")
    text = asked.content.decode()
    assert asked.status_code == 409 and not Hold.objects.exists(), "never one picked silently"
    assert f'value="{first.pk}"' in text and f'value="{other.pk}"' in text and "which one?" in text
    assert desk.post(page, {"action": "hold", "record": str(other.pk)}).status_code == 302
    assert Hold.objects.get(household=martin).record == other
    assert desk.post(page, {"action": "hold", "record": "99999999"}).status_code == 404
