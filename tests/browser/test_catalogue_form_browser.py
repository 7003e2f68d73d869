"""A librarian catalogues a game in French on the catalogue's own form, on a phone and on a laptop:
from the catalogue's "Catalogue a game" link, the title, publisher, an author, an EAN and a copy
typed in, saved, and read on the record's page. Nothing scrolls sideways; the form's labels are in
French. Screenshots: catalogue-form-{390,1280}-fr.png (the form filled in)."""

from __future__ import annotations

from pathlib import Path

import pytest

from accounts.roles import Role
from games.models import CatalogueRecord
from tests.factories import give_role

from .recorder_driver import LAPTOP, PHONE, assert_no_sideways_scroll, logged_in_page

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_librarian_catalogues_a_game_in_french(browser, live_server, artifacts: Path, django_user_model):
    librarian = give_role(django_user_model.objects.create_user("bibliothecaire"), Role.LIBRARIAN)
    for viewport, title, barcode in ((PHONE, "Les Aventuriers du Rail", "LUD-0390"),
                                     (LAPTOP, "Les Aventuriers du Rail : Europe", "LUD-1280")):
        page = logged_in_page(browser, live_server, librarian, viewport=viewport, locale="fr-FR")
        page.goto(live_server.url + "/catalogue/")
        page.get_by_test_id("catalogue-a-game").click()
        page.wait_for_url("**/catalogue/new/")
        labels = {name: page.locator(f"label[for=id_{name}]").inner_text()
                  for name in ("title", "publisher_name", "publication_year", "min_players")}
        assert labels == {"title": "Titre", "publisher_name": "Éditeur", "publication_year": "Année d'édition",
                          "min_players": "Nombre minimum de joueurs"}
        page.locator("#id_title").fill(title)
        page.locator("#id_publisher_name").fill("Days of Wonder")
        page.locator("#id_publication_year").fill("2004")
        page.locator("#id_contributions-0-name").fill("Alan R. Moon")
        page.locator("#id_identifiers-0-scheme").select_option("ean")
        page.locator("#id_identifiers-0-value").fill(f"0824968717{viewport['width']}")
        page.locator("#id_copies-0-barcode").fill(barcode)
        assert_no_sideways_scroll(page)
        page.screenshot(path=str(artifacts / f"catalogue-form-{viewport['width']}-fr.png"), full_page=True)
        page.get_by_test_id("save-record").click()
        record = CatalogueRecord.objects.get(title=title)
        page.wait_for_url(f"**/catalogue/{record.pk}/")
        assert page.locator("h1").inner_text() == title
        assert "Alan R. Moon" in page.content() and barcode in page.content()
        assert page.get_by_test_id("edit-record").inner_text() == "Modifier la notice"
        assert_no_sideways_scroll(page)
        page.context.close()
