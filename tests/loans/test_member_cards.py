"""Member cards: ten to an A4 sheet; each card read back from the printed page (drawn as a
picture at 300 dpi, as a scanner or a phone's camera sees it) gives its household's desk page
from the QR code and its card number from the Code 39 barcode; desk staff print them from
/desk/cards.pdf (one household, several, or every current one) and from the household admin;
nobody else does."""

from __future__ import annotations

import datetime as dt
import io

import pypdf
import pypdfium2
import pytest
import zxingcpp

from games.labels import A4_BUSINESS_CARDS_2x5, MemberCardData, household_desk_url, member_card_sheet
from tests.factories import make_household

BASE_URL = "https://ludotheque.example"


def read_pages(pdf: bytes) -> list[list[tuple[str, str]]]:
    """Every barcode on each page, as (format, text), read from the page drawn at 300 dpi."""
    document = pypdfium2.PdfDocument(pdf)
    pages = []
    for page in document:
        image = page.render(scale=300 / 72).to_pil()
        pages.append(sorted((barcode.format.name, barcode.text) for barcode in zxingcpp.read_barcodes(image)))
    return pages


def test_every_card_reads_back_as_its_households_page_and_number():
    cards = [MemberCardData(household=f"Famille n° {n}", card_number=f"M-{n:04}", heading="Ludothèque des Quatre Vents",
                            caption="Carte d'adhérent") for n in range(1, 13)]
    pdf = member_card_sheet(cards, base_url=BASE_URL)
    pages = read_pages(pdf)
    assert len(pages) == 2  # ten cards to a sheet
    assert len(pages[0]) == 2 * A4_BUSINESS_CARDS_2x5.per_page
    read = [item for page in pages for item in page]
    assert sorted(text for kind, text in read if kind == "QRCode") == sorted(
        household_desk_url(BASE_URL, card.card_number) for card in cards)
    assert sorted(text for kind, text in read if kind == "Code39") == sorted(card.card_number for card in cards)
    # The text layer, a heading wrapped on two lines read as one.
    text = " ".join(" ".join(page.extract_text().split()) for page in pypdf.PdfReader(io.BytesIO(pdf)).pages)
    assert "Famille n° 12" in text and "Ludothèque des Quatre Vents" in text


def test_a_card_number_code_39_cannot_spell_keeps_its_qr_code_only():
    pdf = member_card_sheet([MemberCardData("Petit", "m-ünïcode", "Ludothèque", "Carte")], base_url=BASE_URL, skip=3)
    assert read_pages(pdf) == [[("QRCode", f"{BASE_URL}/desk/households/m-%C3%BCn%C3%AFcode/")]]


@pytest.mark.django_db
def test_desk_staff_print_one_several_or_every_current_households_cards(desk):
    martin = make_household("Martin", membership_ends=dt.date(2099, 1, 1))
    dubois = make_household("Dubois", membership_ends=dt.date(2099, 1, 1))
    make_household("Ancien", membership_ends=dt.date(2001, 1, 1))
    one = desk.get("/desk/cards.pdf", {"card": martin.card_number})
    assert one.status_code == 200 and one["Content-Type"] == "application/pdf"
    assert one["Content-Disposition"] == 'inline; filename="member-cards.pdf"'
    assert [kind for kind, _ in read_pages(one.content)[0]] == ["Code39", "QRCode"]
    assert ("QRCode", f"http://testserver/desk/households/{martin.card_number}/") in read_pages(one.content)[0]
    current = desk.get("/desk/cards.pdf", {"current": "1"})
    assert sorted(text for kind, text in read_pages(current.content)[0] if kind == "Code39") == sorted(
        [martin.card_number, dubois.card_number])
    assert desk.get("/desk/cards.pdf").status_code == 400
    assert desk.get("/desk/cards.pdf", {"card": "NOBODY"}).status_code == 400
    assert desk.get("/desk/cards.pdf", {"card": martin.card_number, "skip": "10"}).status_code == 400
    # The household's desk page links to its card.
    page = desk.get(f"/desk/households/{martin.card_number}/").content.decode()
    assert f'href="/desk/cards.pdf?card={martin.card_number}"' in page


@pytest.mark.django_db
def test_only_desk_staff_print_member_cards(client, django_user_model):
    martin = make_household("Martin", membership_ends=dt.date(2099, 1, 1))
    assert client.get("/desk/cards.pdf", {"card": martin.card_number}).status_code == 302  # to the login page
    client.force_login(django_user_model.objects.create_user("member"))
    assert client.get("/desk/cards.pdf", {"card": martin.card_number}).status_code == 403


@pytest.mark.django_db
def test_the_household_admin_prints_the_selected_cards(admin_client):
    martin = make_household("Martin", membership_ends=dt.date(2099, 1, 1))
    answer = admin_client.post("/admin/loans/household/", {"action": "print_member_cards",
                                                          "_selected_action": [martin.pk]})
    assert answer.status_code == 302
    assert answer["Location"] == f"/desk/cards.pdf?card={martin.card_number}"
