"""The desk's camera, end to end: Chromium's fake camera plays a picture of a real QR code (a copy
label's, a member card's; a card's Code 39 too), the page reads it with the vendored zxing-wasm reader (Debian's
Chromium has no native BarcodeDetector), fills the scan box and sends the form, and the server
lends the copy or opens the household. On a phone (390×844) and a laptop (1280×800).

Also: the camera view in English and in French with nothing to read yet (screenshots
desk-camera-view-<width>-<lang>.png), Stop closing it with the camera off; a browser with no
camera, or whose camera was refused, saying so on the button while the typed box keeps working;
without JavaScript, no button at all; and nothing fetched from outside the site (the .wasm
comes from our static files, not from the library's CDN default).

The fake camera is a launch argument, so these tests start their own Chromium (with the shared
fixture's binary and arguments) instead of the session's browser."""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import segno
import zxingcpp
from PIL import Image, ImageDraw

from games.labels import desk_url
from games.models import CatalogueRecord, Copy
from loans.models import CopyEvent, Household
from tests.factories import the_library

from .conftest import CHROMIUM, CHROMIUM_ARGS
from .recorder_driver import LAPTOP, PHONE, assert_no_sideways_scroll, logged_in_page

pytestmark = pytest.mark.django_db(transaction=True)

FRAME_WIDTH, FRAME_HEIGHT = 640, 480
Y4M_HEADER = f"YUV4MPEG2 W{FRAME_WIDTH} H{FRAME_HEIGHT} F10:1 Ip A1:1 C420jpeg\n".encode()
FAKE_CAMERA = ["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream"]
STATIC_VENDOR = "/static/loans/vendor/barcode-detector-"
PUBLIC_SITE = "https://ludotheque.example.org"
"""The site a label was printed with: the desk may be reached at another address (here the live
server's), and the label's QR still gives its barcode."""


def settled(page) -> None:
    """The scan buttons are shown once what the browser knows of its camera is asked (desk-scan.js)."""
    page.wait_for_selector("html[data-camera-ready]", state="attached")


def qr_code(text: str) -> Image.Image:
    """A QR code as our labels print it (segno, error correction M, four modules of quiet zone)."""
    qr = segno.make(text, error="m")
    drawn = io.BytesIO()
    qr.save(drawn, kind="png", scale=min(8, 330 // qr.symbol_size(border=4)[0]), border=4)
    return Image.open(drawn).convert("L")


def code_39(text: str) -> Image.Image:
    """A Code 39 barcode (a member card's), drawn by ZXing-C++'s writer."""
    drawn = memoryview(zxingcpp.create_barcode(text, zxingcpp.BarcodeFormat.Code39).to_image(scale=2))
    return Image.frombytes("L", (drawn.shape[1], drawn.shape[0]), drawn.tobytes())


def camera_frame(path: Path, code: Image.Image | None, caption: str) -> Path:
    """A one-frame Y4M video of a sticker on a table: ``code`` (a picture of a QR code or a
    barcode, or nothing) and ``caption`` under it. Grey only: the Y plane is the picture, U and V
    the neutral 128."""
    table = Image.new("L", (FRAME_WIDTH, FRAME_HEIGHT), 150)
    draw = ImageDraw.Draw(table)
    draw.rectangle((140, 40, 500, 440), fill=250)
    if code is not None:
        table.paste(code, ((FRAME_WIDTH - code.width) // 2, 50))
    draw.text((170, 405), caption, fill=20)
    chroma = bytes([128]) * (FRAME_WIDTH // 2 * FRAME_HEIGHT // 2)
    path.write_bytes(Y4M_HEADER + b"FRAME\n" + table.tobytes() + chroma + chroma)
    return path


@pytest.fixture
def camera_browser(browser) -> Iterator[Callable[..., Any]]:
    """Starts a Chromium whose camera plays ``video`` (a real-looking camera the page is allowed
    to use), or, with ``answer_prompts=False``, one whose camera permission nobody grants."""
    launched: list[Any] = []

    def launch(video: Path, *, answer_prompts: bool = True) -> Any:
        args = [*CHROMIUM_ARGS, "--use-fake-device-for-media-stream", f"--use-file-for-fake-video-capture={video}"]
        if answer_prompts:
            args.append("--use-fake-ui-for-media-stream")
        started = browser.browser_type.launch(executable_path=CHROMIUM, args=args)
        launched.append(started)
        return started

    yield launch
    for started in launched:
        started.close()


@pytest.fixture
def desk(desk_user):
    """The desk volunteer (``desk_user``, of ``tests/conftest.py``), with a copy of Azul on the
    shelves and a household to lend it to."""
    record = CatalogueRecord.objects.create(title="Azul")
    Copy.objects.create(organisation=the_library(),
                        record=record, barcode="LUD-0001", shelf_location="Jeux de tuiles – A")
    Household.objects.create(organisation=the_library(),
                             name="Famille Lefèvre-Dubois", card_number="CARD-00042", fee_paid=True,
                             membership_starts=dt.date(2026, 1, 1), membership_ends=dt.date(2099, 12, 31))
    return desk_user


def camera_page(browser, live_server, user, *, viewport, locale: str = "en-US"):
    """A logged-in page allowed the camera, which records every request it makes."""
    page = logged_in_page(browser, live_server, user, viewport=viewport, locale=locale)
    page.context.grant_permissions(["camera"], origin=live_server.url)
    page.requests = []  # type: ignore[attr-defined]
    page.on("request", lambda request: page.requests.append((request.method, request.url)))
    return page


def assert_only_our_site(page, live_server) -> None:
    """Everything came from the site: the reader's module and its .wasm from our static files."""
    elsewhere = [url for _, url in page.requests if not url.startswith((live_server.url, "data:", "blob:"))]
    assert elsewhere == []
    wasm = page.locator('[data-testid="camera-view"]').get_attribute("data-wasm-url")
    assert wasm.startswith(STATIC_VENDOR) and wasm.endswith("/zxing_reader.wasm")
    assert f"{live_server.url}{wasm}" in [url for _, url in page.requests]


@pytest.mark.slow(seconds=15)
@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["390", "1280"])
def test_a_copy_label_read_by_the_camera_is_lent_to_the_household(camera_browser, live_server, artifacts: Path,
                                                                  desk, tmp_path, viewport):
    width = viewport["width"]
    label = camera_frame(tmp_path / "label.y4m", qr_code(desk_url(PUBLIC_SITE, "LUD-0001")), "Azul · LUD-0001")
    page = camera_page(camera_browser(label), live_server, desk, viewport=viewport)
    household = f"{live_server.url}/desk/households/CARD-00042/"
    page.goto(household)
    settled(page)
    scan = page.get_by_role("button", name="Scan with the camera")
    assert scan.is_visible() and scan.is_enabled()
    with page.expect_navigation(timeout=30_000):
        scan.click()
    assert page.url == household
    assert "Azul lent until" in page.locator(".messages").inner_text()
    assert page.locator('[data-testid="household-loans"] li[data-copy="LUD-0001"]').count() == 1
    # One read, one form sent: the camera kept seeing the label, but the page sent it once.
    assert [method for method, url in page.requests if url == household].count("POST") == 1
    assert CopyEvent.objects.filter(copy__barcode="LUD-0001", type="lent").count() == 1
    assert_only_our_site(page, live_server)
    assert_no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / f"desk-camera-lent-{width}.png"), full_page=True)
    assert page.script_errors == []  # type: ignore[attr-defined]


@pytest.mark.slow(seconds=15)
@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["390", "1280"])
def test_a_member_card_read_by_the_camera_opens_its_household(camera_browser, live_server, desk, tmp_path,
                                                              viewport):
    card = camera_frame(tmp_path / "card.y4m", qr_code(f"{live_server.url}/desk/households/CARD-00042/"),
                        "Famille Lefèvre-Dubois · CARD-00042")
    page = camera_page(camera_browser(card), live_server, desk, viewport=viewport)
    page.goto(f"{live_server.url}/desk/")
    settled(page)
    with page.expect_navigation(timeout=30_000):
        page.get_by_role("button", name="Scan with the camera").click()
    page.wait_for_url(f"{live_server.url}/desk/households/CARD-00042/")
    assert page.locator("h1").inner_text() == "Famille Lefèvre-Dubois"
    assert page.locator('[data-testid="household-facts"]').inner_text().count("CARD-00042") == 1
    assert_only_our_site(page, live_server)
    assert page.script_errors == []  # type: ignore[attr-defined]


@pytest.mark.slow(seconds=8)
def test_a_member_cards_code_39_read_by_the_camera_opens_its_household(camera_browser, live_server, desk, tmp_path):
    """The card's barcode, for the desks whose camera or scanner reads only barcodes."""
    card = camera_frame(tmp_path / "card.y4m", code_39("CARD-00042"), "Famille Lefèvre-Dubois")
    page = camera_page(camera_browser(card), live_server, desk, viewport=PHONE)
    page.goto(f"{live_server.url}/desk/")
    settled(page)
    with page.expect_navigation(timeout=30_000):
        page.get_by_role("button", name="Scan with the camera").click()
    page.wait_for_url(f"{live_server.url}/desk/households/CARD-00042/")
    assert page.locator("h1").inner_text() == "Famille Lefèvre-Dubois"
    assert_only_our_site(page, live_server)
    assert page.script_errors == []  # type: ignore[attr-defined]


VIEW_WORDS = {
    "en": {"button": "Scan with the camera", "aim": "Hold the QR code or the barcode inside the square.",
           "stop": "Stop"},
    "fr": {"button": "Scanner avec la caméra", "aim": "Tenez le code QR ou le code-barres dans le carré.",
           "stop": "Arrêter"},
}
"""The French as in /work/notes/fr-camera.json (compiled into locale/ by the lead)."""


@pytest.mark.slow(seconds=20)
@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["390", "1280"])
def test_the_camera_view_fits_the_screen_and_stops(camera_browser, live_server, artifacts: Path, desk, tmp_path,
                                                   viewport):
    """Nothing to read (a box's side): the view stays open, framed on the screen, until Stop; the
    camera is then off and the typed box lends as before."""
    width = viewport["width"]
    box_side = camera_frame(tmp_path / "box.y4m", None, "Azul")
    started = camera_browser(box_side)
    for language, locale in (("en", "en-US"), ("fr", "fr-FR")):
        words = VIEW_WORDS[language]
        page = camera_page(started, live_server, desk, viewport=viewport, locale=locale)
        page.goto(f"{live_server.url}/desk/copies/LUD-0001/")
        settled(page)
        page.get_by_role("button", name=words["button"]).click()
        view = page.locator('[data-testid="camera-view"]')
        status = view.locator("[data-camera-status]")
        page.wait_for_function("([node, aim]) => node.textContent === aim", arg=[status.element_handle(), words["aim"]],
                               timeout=30_000)
        assert view.get_attribute("data-reader") == "zxing-wasm"
        assert page.evaluate("document.querySelector('#camera-scan video').videoWidth") == FRAME_WIDTH
        box = view.bounding_box()
        assert box["x"] >= 0 and box["y"] >= 0
        assert box["x"] + box["width"] <= viewport["width"] and box["y"] + box["height"] <= viewport["height"]
        stop = view.get_by_role("button", name=words["stop"])
        assert stop.bounding_box()["height"] >= 44
        page.wait_for_timeout(400)  # a few frames read and found empty: the view stays open
        assert view.is_visible()
        page.screenshot(path=str(artifacts / f"desk-camera-view-{width}-{language}.png"))
        stop.click()
        assert not view.is_visible()
        assert page.evaluate("document.querySelector('#camera-scan video').srcObject") is None
        assert page.url.endswith("/desk/copies/LUD-0001/")
        page.close()
    page = camera_page(started, live_server, desk, viewport=viewport)
    page.goto(f"{live_server.url}/desk/copies/LUD-0001/")
    settled(page)
    page.fill("#card", "CARD-00042")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.locator('[data-testid="copy-status"]').get_attribute("data-status") == "on_loan"
    assert page.script_errors == []  # type: ignore[attr-defined]


@pytest.mark.slow(seconds=10)
def test_without_a_camera_the_button_says_so_and_the_typed_box_works(browser, live_server, artifacts: Path, desk):
    """The session's browser has no camera at all."""
    page = logged_in_page(browser, live_server, desk, viewport=PHONE)
    page.goto(f"{live_server.url}/desk/households/CARD-00042/")
    settled(page)
    scan = page.locator('[data-testid="camera-scan"]')
    scan.filter(has_text="No camera here").wait_for()
    assert scan.inner_text() == "No camera here: type or scan the code"
    assert scan.is_disabled()
    assert_no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / "desk-camera-absent-390.png"), full_page=True)
    page.fill("#copy", "LUD-0001")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.locator('[data-testid="household-loans"] li[data-copy="LUD-0001"]').count() == 1
    assert page.script_errors == []  # type: ignore[attr-defined]


@pytest.mark.slow(seconds=10)
def test_a_refused_camera_is_said_on_the_button(camera_browser, live_server, desk, tmp_path):
    """Nobody grants the camera: the permission is still to be asked, and the prompt nobody sees
    in a headless browser answers no."""
    label = camera_frame(tmp_path / "label.y4m", qr_code(desk_url(PUBLIC_SITE, "LUD-0001")), "Azul · LUD-0001")
    page = logged_in_page(camera_browser(label, answer_prompts=False), live_server, desk, viewport=PHONE)
    page.goto(f"{live_server.url}/desk/copies/LUD-0001/")
    settled(page)
    scan = page.locator('[data-testid="camera-scan"]')
    assert page.evaluate("navigator.permissions.query({name: 'camera'}).then(asked => asked.state)") == "prompt"
    scan.click()
    scan.filter(has_text="Camera refused").wait_for()
    assert scan.is_disabled()
    assert not page.locator('[data-testid="camera-view"]').is_visible()
    assert page.evaluate("document.querySelector('#camera-scan video').srcObject") is None
    page.fill("#card", "CARD-00042")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.locator('[data-testid="copy-status"]').get_attribute("data-status") == "on_loan"
    assert page.script_errors == []  # type: ignore[attr-defined]


def test_what_a_read_puts_in_the_box(browser, live_server, desk):
    """A desk address gives its last part (unquoted, from any site); any other text is used as is."""
    page = logged_in_page(browser, live_server, desk, viewport=LAPTOP)
    page.goto(f"{live_server.url}/desk/")
    settled(page)
    reads = {
        desk_url(PUBLIC_SITE, "LUD-0001"): "LUD-0001",
        desk_url("http://192.168.1.20:8000", "LUD 12/b"): "LUD 12/b",
        f"{live_server.url}/desk/households/CARD-00042/": "CARD-00042",
        "https://ludotheque.example.org/desk/households/CARD-7": "CARD-7",
        "  LUD-0007\n": "LUD-0007",
        "9782070612758": "9782070612758",
        "https://ludotheque.example.org/catalogue/12/": "https://ludotheque.example.org/catalogue/12/",
        "https://ludotheque.example.org/desk/": "https://ludotheque.example.org/desk/",
    }
    put = page.evaluate("reads => reads.map(LudologDeskScan.codeFromRead)", list(reads))
    assert dict(zip(reads, put)) == reads


def test_without_javascript_the_desk_shows_no_camera_button(browser, live_server, desk):
    context = browser.new_context(java_script_enabled=False, viewport=PHONE)
    page = logged_in_page(browser, live_server, desk, viewport=PHONE)
    context.add_cookies(page.context.cookies())
    plain = context.new_page()
    plain.goto(f"{live_server.url}/desk/")
    assert plain.locator('[data-testid="camera-scan"]').count() == 1
    assert not plain.locator('[data-testid="camera-scan"]').is_visible()
    assert not plain.locator('[data-testid="camera-view"]').is_visible()
    plain.fill("#code", "CARD-00042")
    with plain.expect_navigation():
        plain.keyboard.press("Enter")
    assert plain.url.endswith("/desk/households/CARD-00042/")


def test_only_the_desk_may_compile_webassembly(client, desk):
    """The reader's .wasm needs 'wasm-unsafe-eval' on the desk's pages; elsewhere, and for
    JavaScript's eval everywhere, the policy stays as strict as before."""
    client.force_login(desk)
    for path in ("/desk/", "/desk/households/CARD-00042/", "/desk/copies/LUD-0001/"):
        scripts = client.get(path)["Content-Security-Policy"].split("script-src")[1].split(";")[0].split()
        assert scripts == ["'self'", "'wasm-unsafe-eval'"]
    scripts = client.get("/")["Content-Security-Policy"].split("script-src")[1].split(";")[0].split()
    assert scripts == ["'self'"]


def test_the_vendored_wasm_is_the_one_its_module_was_built_for():
    """After an update (docs/loans.md), the .wasm beside the module is the build the module
    expects: zxing-wasm pins its .wasm's SHA-256 in the JavaScript."""
    vendored = sorted((Path(__file__).resolve().parents[2] / "loans/static/loans/vendor").glob("barcode-detector-*"))
    assert len(vendored) == 1, "one version of the reader at a time"
    wasm = hashlib.sha256((vendored[0] / "zxing_reader.wasm").read_bytes()).hexdigest()
    assert wasm in re.findall(r'"([0-9a-f]{64})"', (vendored[0] / "zxing-exported.js").read_text())
    assert {"LICENSE", "LICENSE-zxing-wasm", "LICENSE-zxing-cpp", "ponyfill.js"} <= {path.name for path in vendored[0].iterdir()}
