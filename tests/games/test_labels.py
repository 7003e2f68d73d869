"""Copy labels: the PDF opens, holds 24 labels a sheet, every QR code read back from it opens its
copy's desk page, the titles keep their accents; staff print them from /catalogue/labels.pdf and
the Copy admin, and nobody else does."""

from __future__ import annotations

import io
from urllib.parse import quote

import pypdf
import pytest
import zxingcpp
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from accounts.models import Organisation
from accounts.roles import Role
from games.labels import A4_3x8, LabelData, desk_url, label_sheet
from games.models import CatalogueRecord, Copy
from tests.factories import give_role, the_library

pytestmark = pytest.mark.usefixtures("in_english")

BASE_URL = "https://ludotheque.example"
AWKWARD_BARCODE = "LUD 7/é#?%"
"""A barcode whose every odd character must be quoted in the desk page's address."""


def decoded_urls(pdf: bytes) -> list[str]:
    """Every QR code of every image of the PDF, read back as text."""
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    return [barcode.text for page in reader.pages for image in page.images
            for barcode in zxingcpp.read_barcodes(image.image, formats=zxingcpp.BarcodeFormat.QRCode)]


def text_of(pdf: bytes) -> str:
    """The PDF's text layer, its line breaks (a title wrapped on a label) read as spaces."""
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    return " ".join(" ".join(page.extract_text().split()) for page in reader.pages)


def thirty_copies() -> list[LabelData]:
    copies = [LabelData(title=f"Carcassonne à la préhistoire {n}", shelf_mark=f"JEU CAR {n}", barcode=f"LUD-{n:04}")
              for n in range(29)]
    return [*copies, LabelData(title="Œdipe et le Sphinx", shelf_mark="JEU ŒDI", barcode=AWKWARD_BARCODE)]


def test_thirty_copies_print_on_two_sheets_and_each_qr_code_opens_its_copys_desk_page():
    copies = thirty_copies()
    pdf = label_sheet(copies, base_url=BASE_URL + "/")

    assert len(pypdf.PdfReader(io.BytesIO(pdf)).pages) == 2
    urls = decoded_urls(pdf)
    assert len(urls) == 30
    assert set(urls) == {f"{BASE_URL}/desk/copies/{quote(copy.barcode, safe='')}/" for copy in copies}
    assert f"{BASE_URL}/desk/copies/LUD%207%2F%C3%A9%23%3F%25/" in urls


def test_the_labels_keep_the_titles_accents():
    text = text_of(label_sheet(thirty_copies(), base_url=BASE_URL))

    assert "Carcassonne à la préhistoire 28" in text
    assert "Œdipe et le Sphinx" in text
    assert "JEU ŒDI" in text and AWKWARD_BARCODE in text


def test_a_title_too_long_for_its_label_ends_in_an_ellipsis():
    title = "Les Aventuriers du Rail : Europe, édition du quinzième anniversaire, avec ses wagons peints à la main"
    text = text_of(label_sheet([LabelData(title=title, shelf_mark="JEU AVE", barcode="LUD-0100")], base_url=BASE_URL))

    assert text.startswith("Les Aventuriers du Rail")
    assert "…" in text and "peints à la main" not in text


def test_labels_left_blank_on_a_used_sheet_push_the_rest_to_the_next():
    copies = thirty_copies()[:24]
    assert len(pypdf.PdfReader(io.BytesIO(label_sheet(copies, base_url=BASE_URL))).pages) == 1
    assert len(pypdf.PdfReader(io.BytesIO(label_sheet(copies, base_url=BASE_URL, skip=1))).pages) == 2
    with pytest.raises(ValueError):
        label_sheet(copies, base_url=BASE_URL, skip=A4_3x8.per_page)


# --- printed by staff -----------------------------------------------------------------------------


@pytest.fixture
def catalogue(db):
    """Two records on two shelves: Carcassonne's three copies, Stone Age's two."""
    carcassonne = CatalogueRecord.objects.create(title="Carcassonne à la préhistoire")
    stone_age = CatalogueRecord.objects.create(title="Âge de pierre")
    Copy.objects.bulk_create([
        Copy(organisation=the_library(), record=carcassonne, barcode="CAR-1", shelf_location="JEU CAR"),
        Copy(organisation=the_library(), record=carcassonne, barcode="CAR-2", shelf_location="JEU CAR"),
        Copy(organisation=the_library(), record=carcassonne, barcode=AWKWARD_BARCODE, shelf_location="JEU CAR"),
        Copy(organisation=the_library(), record=stone_age, barcode="AGE-1", shelf_location="JEU AGE"),
        Copy(organisation=the_library(), record=stone_age, barcode="AGE-2", shelf_location="RÉSERVE AGE"),
    ])
    return {"carcassonne": carcassonne, "stone_age": stone_age}


@pytest.fixture
def staff(db):
    """At the desk of the library that owns the copies: the desk prints their labels."""
    client = Client()
    client.force_login(give_role(User.objects.create_user("desk"), Role.DESK))
    return client


def desk_urls(*barcodes: str) -> set[str]:
    return {desk_url("http://testserver/", barcode) for barcode in barcodes}


def test_staff_print_the_labels_of_a_records_copies(staff, catalogue):
    answer = staff.get("/catalogue/labels.pdf", {"record": catalogue["carcassonne"].pk})

    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/pdf"
    assert answer["Content-Disposition"] == 'inline; filename="labels.pdf"'
    assert set(decoded_urls(answer.content)) == desk_urls("CAR-1", "CAR-2", AWKWARD_BARCODE)
    assert "Carcassonne à la préhistoire" in text_of(answer.content)


def test_staff_choose_copies_one_by_one_or_by_shelf(staff, catalogue):
    ids = dict(Copy.objects.values_list("barcode", "pk"))
    chosen = staff.get("/catalogue/labels.pdf", {"copy": [ids["CAR-1"], ids["AGE-2"]]})
    shelf = staff.get("/catalogue/labels.pdf", {"shelf": "JEU"})

    assert set(decoded_urls(chosen.content)) == desk_urls("CAR-1", "AGE-2")
    assert set(decoded_urls(shelf.content)) == desk_urls("CAR-1", "CAR-2", AWKWARD_BARCODE, "AGE-1")


def test_a_request_without_a_copy_or_with_too_many_answers_400_saying_why(staff, catalogue):
    nothing = staff.get("/catalogue/labels.pdf")
    no_match = staff.get("/catalogue/labels.pdf", {"shelf": "GRENIER"})
    bad = staff.get("/catalogue/labels.pdf", {"copy": "CAR-1"})
    Copy.objects.bulk_create(Copy(organisation=the_library(), record=catalogue["stone_age"], barcode=f"BULK-{n}",
                                  shelf_location="JEU BULK")
                             for n in range(240))
    too_many = staff.get("/catalogue/labels.pdf", {"shelf": "JEU"})

    assert nothing.status_code == no_match.status_code == bad.status_code == too_many.status_code == 400
    assert "No copy selected" in nothing.content.decode()
    assert "No copy matches" in no_match.content.decode()
    assert "244 copies selected" in too_many.content.decode() and "at most 240" in too_many.content.decode()


def test_a_library_prints_only_its_own_copies_labels(staff, catalogue):
    """A copy of another game library is none of this desk's: not printed, even named by its id."""
    other = Organisation.objects.create(name="Ludothèque voisine", slug="voisine", kind=Organisation.Kind.LIBRARY)
    theirs = Copy.objects.create(organisation=other, record=catalogue["stone_age"], barcode="VOISINE-1",
                                 shelf_location="JEU AGE")
    answer = staff.get("/catalogue/labels.pdf", {"copy": [theirs.pk], "shelf": "JEU AGE"})
    assert set(decoded_urls(answer.content)) == desk_urls("AGE-1")


def test_only_staff_print_labels(client, catalogue):
    anonymous = client.get("/catalogue/labels.pdf", {"record": catalogue["carcassonne"].pk})
    client.force_login(User.objects.create_user("member"))
    member = client.get("/catalogue/labels.pdf", {"record": catalogue["carcassonne"].pk})

    assert anonymous.status_code == 302 and anonymous["Location"].startswith(reverse("login") + "?next=")
    assert member.status_code == 403


def test_the_copy_admin_prints_the_selected_copies_labels(admin_client, catalogue):
    selected = list(Copy.objects.filter(barcode__in=["CAR-2", "AGE-1"]).values_list("pk", flat=True))
    answer = admin_client.post("/admin/games/copy/", {"action": "print_labels", "_selected_action": selected})

    assert answer.status_code == 200 and answer["Content-Type"] == "application/pdf"
    assert set(decoded_urls(answer.content)) == desk_urls("CAR-2", "AGE-1")


def test_the_record_page_offers_staff_its_copies_labels(staff, client, catalogue):
    record = catalogue["carcassonne"]
    link = f'href="/catalogue/labels.pdf?record={record.pk}"'

    assert link in staff.get(f"/catalogue/{record.pk}/").content.decode()
    assert link not in client.get(f"/catalogue/{record.pk}/").content.decode()


def test_the_copy_admin_refuses_more_than_a_requests_labels(admin_client, catalogue):
    Copy.objects.bulk_create(Copy(organisation=the_library(),
                                  record=catalogue["stone_age"], barcode=f"BULK-{n}") for n in range(240))
    selected = list(Copy.objects.values_list("pk", flat=True))
    answer = admin_client.post("/admin/games/copy/", {"action": "print_labels", "_selected_action": selected},
                               follow=True)

    assert answer["Content-Type"].startswith("text/html")
    assert "245 copies selected: labels are printed at most 240 at a time." in answer.content.decode()
