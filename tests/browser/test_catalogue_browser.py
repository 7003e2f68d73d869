"""The catalogue in Chromium at a laptop's and a phone's width: nothing scrolls sideways, the
facets are lists beside the results on the laptop and drop-downs on the phone, both narrow the
search in place, and the record page shows its cover (screenshots in tests/artifacts/)."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image, ImageDraw

from games import covers
from games.models import CatalogueRecord
from games.services import demo_catalogue_data, load_catalogue
from tests.browser.recorder_driver import LAPTOP, PHONE, assert_no_sideways_scroll

pytestmark = pytest.mark.django_db(transaction=True)

HG_TITLE = "Carcassonne à la prèhistoire"
HG_ENGLISH_TITLE = "Carcassonne: Hunters and Gatherers"
WIDTHS = {"laptop": LAPTOP, "phone": PHONE}


def loaded_width(image: Any) -> int:
    """The width of an image once loaded and decoded: a cover may still be on its way when the
    page is (a lazy one only starts once near the screen); decode() waits for it."""
    image.scroll_into_view_if_needed()
    return int(image.evaluate("(img) => img.decode().then(() => img.naturalWidth)"))


@pytest.fixture
def catalogue(settings, tmp_path) -> CatalogueRecord:
    """The demo catalogue, the Hunters and Gatherers box with a cover (drawn here), the others without."""
    settings.MEDIA_ROOT = tmp_path / "media"
    load_catalogue(demo_catalogue_data())
    record = CatalogueRecord.objects.get(title=HG_TITLE)
    image = Image.new("RGB", (900, 1200), (38, 84, 62))
    ImageDraw.Draw(image).ellipse((200, 350, 700, 850), fill=(214, 132, 46))
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    record.cover = SimpleUploadedFile("box.png", buffer.getvalue(), content_type="image/png")
    record.full_clean()
    record.save()
    covers.record_cover_changed(record, "")
    return record


@pytest.fixture
def open_page(browser, live_server, settings) -> Iterator[Any]:
    """A new page at the given viewport. The live server does not run with DEBUG, so it serves no
    /media/: the browser is handed the files from MEDIA_ROOT, as nginx would serve them."""
    contexts = []

    def serve_media(route: Any) -> None:
        path = Path(settings.MEDIA_ROOT) / route.request.url.split("/media/", 1)[1]
        if path.is_file():
            route.fulfill(path=str(path))
        else:
            route.fulfill(status=404)

    def open_(viewport: dict[str, int], path: str, locale: str = "en-US") -> Any:
        context = browser.new_context(viewport=dict(viewport), locale=locale)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.script_errors = errors
        page.route(re.compile(r".*/media/.*"), serve_media)
        page.goto(live_server.url + path)
        return page

    try:
        yield open_
    finally:
        for context in contexts:
            context.close()


def visible(page: Any, selector: str) -> bool:
    return page.locator(selector).first.is_visible()


@pytest.mark.parametrize("width", WIDTHS)
def test_the_catalogue_fits_the_screen_with_its_facets_as_lists_or_drop_downs(open_page, catalogue, artifacts, width):
    viewport = WIDTHS[width]
    for path, name in (("/catalogue/", "list"), ("/catalogue/?q=carcassonne&language=fre", "search")):
        page = open_page(viewport, path)
        assert_no_sideways_scroll(page)
        # Lists with counts beside the results on a laptop; drop-downs on a phone.
        assert visible(page, ".facet-lists") == (width == "laptop")
        assert visible(page, ".facet-selects") == (width == "phone")
        assert loaded_width(page.locator(".hit img.cover").first) == 120  # 160 high
        page.screenshot(path=str(artifacts / f"catalogue-{name}-{viewport['width']}.png"), full_page=True)
        assert page.script_errors == []
    chips = page.locator(".active-filters .chip").all_inner_texts()
    assert [" ".join(chip.replace("×", "").split()) for chip in chips] == ["Language: French"]


@pytest.mark.parametrize("width", WIDTHS)
def test_a_mistyped_search_offers_the_corrected_one(open_page, catalogue, artifacts, width):
    viewport = WIDTHS[width]
    for locale, offer in (("en-US", "Did you mean:"), ("fr-FR", "Vouliez-vous dire :")):
        page = open_page(viewport, "/catalogue/?q=Carcassonne+pr%C3%A9histiore", locale)
        assert_no_sideways_scroll(page)
        did_you_mean = page.locator('[data-testid="did-you-mean"]')
        assert " ".join(did_you_mean.inner_text().split()) == f"{offer} carcassonne prehistoire"
        # The search was made with the corrected words: the record is there already.
        assert page.locator(".hit h3").all_inner_texts() == [HG_TITLE if locale == "fr-FR" else HG_ENGLISH_TITLE]
        page.screenshot(path=str(artifacts / f"catalogue-did-you-mean-{locale[:2]}-{viewport['width']}.png"),
                        full_page=True)
        did_you_mean.get_by_role("link").click()
        page.wait_for_url(re.compile(r"q=carcassonne\+prehistoire"))
        assert page.locator("#catalogue-q").input_value() == "carcassonne prehistoire"
        assert page.locator('[data-testid="did-you-mean"]').count() == 0
        assert page.script_errors == []


@pytest.mark.parametrize("width", WIDTHS)
def test_the_record_page_fits_the_screen_and_shows_its_cover(open_page, catalogue, artifacts, width):
    viewport = WIDTHS[width]
    page = open_page(viewport, f"/catalogue/{catalogue.pk}/")
    # An English reader is shown the record's English title (its catalogued one is French).
    assert page.locator("h1").inner_text() == HG_ENGLISH_TITLE
    cover = page.locator("figure.record-cover img")
    assert cover.get_attribute("alt") == f"Cover of {HG_ENGLISH_TITLE}"
    assert loaded_width(cover) == 360  # 480 px high, 3:4
    assert page.get_by_text("Maximum age").count() == 0 and page.get_by_text("Document type").count() == 0
    assert page.locator('[data-testid="record-game"]').is_visible()
    assert_no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / f"catalogue-record-{viewport['width']}.png"), full_page=True)
    # A record without a cover shows the drawn placeholder, never an image.
    other = open_page(viewport, f"/catalogue/{CatalogueRecord.objects.get(title='Stenen Tijdperk').pk}/")
    assert other.locator("figure.record-cover svg.cover-placeholder").is_visible()
    assert other.locator("figure.record-cover img").count() == 0
    assert_no_sideways_scroll(other)


def test_a_facet_link_narrows_the_results_in_place_and_its_cross_widens_them(open_page, catalogue):
    page = open_page(LAPTOP, "/catalogue/")
    assert page.locator(".result-count").inner_text() == "4 records found"
    page.locator('.facet[data-facet="language"]').get_by_role("link", name="Dutch").click()
    page.wait_for_url(re.compile(r"/catalogue/\?language=dut$"))
    page.wait_for_function("() => document.querySelector('.result-count').textContent.trim() === '1 record found'")
    assert page.locator(".hit h3").all_inner_texts() == ["Stone Age"]  # Stenen Tijdperk, to an English reader
    assert page.locator("#catalogue-q").count() == 1  # swapped in place: the search bar is the same
    page.get_by_role("link", name="Remove the filter Language: Dutch").first.click()
    page.wait_for_url(re.compile(r"/catalogue/$"))
    page.wait_for_function("() => document.querySelector('.result-count').textContent.trim() === '4 records found'")
    # Back returns to the narrowed search (htmx pushed each one).
    page.go_back()
    page.wait_for_url(re.compile(r"language=dut"))
    page.wait_for_function("() => document.querySelector('.result-count').textContent.trim() === '1 record found'")
    assert page.script_errors == []


def test_a_drop_down_narrows_the_results_on_a_phone(open_page, catalogue):
    page = open_page(PHONE, "/catalogue/")
    page.locator("#facet-language").select_option("dut")
    page.wait_for_url(re.compile(r"language=dut"))
    page.wait_for_function("() => document.querySelector('.result-count').textContent.trim() === '1 record found'")
    assert page.locator(".hit h3").all_inner_texts() == ["Stone Age"]  # Stenen Tijdperk, to an English reader
    assert_no_sideways_scroll(page)
    assert page.script_errors == []
