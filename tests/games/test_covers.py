"""Covers of catalogue records, as a librarian uploads them in the admin and readers see them.

The images are made with Pillow in each test; files go to a MEDIA_ROOT of the test's own.
"""

from __future__ import annotations

import io
import os
import re
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import translation
from PIL import Image

from games import covers
from games.models import CatalogueRecord

pytestmark = pytest.mark.django_db

INLINES = ("other_titles", "contributions", "identifiers", "copies")


@pytest.fixture(autouse=True)
def media(settings, tmp_path) -> Path:
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


def image_file(name: str = "box.png", size: tuple[int, int] = (1200, 800), format: str = "PNG",
               mode: str = "RGB", noise: bool = False) -> SimpleUploadedFile:
    """A real image, drawn with Pillow: a plain colour, or random pixels (which no format compresses)."""
    if noise:
        image = Image.frombytes(mode, size, os.urandom(size[0] * size[1] * len(mode)))
    else:
        image = Image.new(mode, size, (200, 120, 40, 128)[: len(mode)])
    buffer = io.BytesIO()
    image.save(buffer, format)
    return SimpleUploadedFile(name, buffer.getvalue(), content_type=Image.MIME.get(format, "image/png"))


def admin_form(title: str, cover=None, **fields) -> dict:
    data = {"title": title, "document_type": "", **fields}
    for prefix in INLINES:
        data |= {f"{prefix}-TOTAL_FORMS": "0", f"{prefix}-INITIAL_FORMS": "0"}
    if cover is not None:
        data["cover"] = cover
    return data


def upload(admin_client, title: str, cover, record: CatalogueRecord | None = None, **fields):
    url = f"/admin/games/cataloguerecord/{record.pk}/change/" if record else "/admin/games/cataloguerecord/add/"
    return admin_client.post(url, admin_form(title, cover, **fields))


def errors(response) -> list[str]:
    return [" ".join(error.split()) for error in re.findall(r'<ul class="errorlist[^"]*"[^>]*><li>(.*?)</li>',
                                                             response.content.decode(), re.S)]


def stored(media: Path) -> list[str]:
    return sorted(str(path.relative_to(media)) for path in media.rglob("*") if path.is_file()) if media.exists() else []


def test_a_cover_uploaded_in_the_admin_gets_two_thumbnails_beside_it(admin_client, media):
    response = upload(admin_client, "Azul", image_file("Azul box (front).png", (1200, 800)))
    assert response.status_code == 302, errors(response)
    record = CatalogueRecord.objects.get(title="Azul")
    # A name of our own, with the extension of what the file is; the thumbnails beside it.
    assert re.fullmatch(r"covers/[0-9a-f]{32}\.png", record.cover.name)
    stem = record.cover.name.removesuffix(".png")
    assert stored(media) == sorted([record.cover.name, f"{stem}.160.webp", f"{stem}.480.webp"])
    for size, expected in ((160, (160, 107)), (480, (480, 320))):
        with Image.open(media / f"{stem}.{size}.webp") as thumbnail:
            assert (thumbnail.format, thumbnail.size) == ("WEBP", expected)  # the proportions kept
    # Shown to readers: the small one in the hit list, the large one on the record page.
    results = admin_client.get("/catalogue/").content.decode()
    assert f'src="/media/{stem}.160.webp"' in results
    page = admin_client.get(f"/catalogue/{record.pk}/").content.decode()
    assert f'<a href="/media/{record.cover.name}"><img class="cover cover-large" src="/media/{stem}.480.webp"' in page
    # The change form shows it to the librarian.
    form = admin_client.get(f"/admin/games/cataloguerecord/{record.pk}/change/").content.decode()
    assert f'src="/media/{stem}.480.webp"' in form and 'enctype="multipart/form-data"' in form


def test_a_jpeg_a_webp_and_a_transparent_png_are_accepted(admin_client, media):
    # A PNG named .jpg is kept as what it is, a PNG; its transparency stays in the thumbnails.
    assert upload(admin_client, "Transparent", image_file("scan.jpg", mode="RGBA")).status_code == 302
    transparent = CatalogueRecord.objects.get(title="Transparent").cover.name
    assert transparent.endswith(".png")
    with Image.open(media / covers.thumbnail_name(transparent, 160)) as thumbnail:
        assert thumbnail.mode == "RGBA"
    assert upload(admin_client, "Photo", image_file("photo.jpeg", format="JPEG")).status_code == 302
    assert CatalogueRecord.objects.get(title="Photo").cover.name.endswith(".jpg")
    assert upload(admin_client, "Web", image_file("web.webp", format="WEBP")).status_code == 302
    assert CatalogueRecord.objects.get(title="Web").cover.name.endswith(".webp")


@pytest.mark.django_db(transaction=True)  # the old files go when the change commits
def test_replacing_or_clearing_a_cover_removes_the_old_files(admin_client, media):
    upload(admin_client, "Azul", image_file())
    record = CatalogueRecord.objects.get(title="Azul")
    first = record.cover.name
    assert upload(admin_client, "Azul", image_file("other.png", (300, 300)), record).status_code == 302
    record.refresh_from_db()
    assert record.cover.name != first
    assert len(stored(media)) == 3 and not any(name.startswith(first.removesuffix(".png")) for name in stored(media))
    # Saving the record again without touching the cover keeps it and its thumbnails.
    assert upload(admin_client, "Azul (2017)", None, record).status_code == 302
    record.refresh_from_db()
    assert record.cover and len(stored(media)) == 3
    assert upload(admin_client, "Azul", None, record, **{"cover-clear": "on"}).status_code == 302
    record.refresh_from_db()
    assert not record.cover and stored(media) == []
    assert "data-cover=\"placeholder\"" in admin_client.get(f"/catalogue/{record.pk}/").content.decode()


@pytest.mark.django_db(transaction=True)  # the old files go when the change commits
def test_deleting_a_record_removes_its_cover(admin_client, media):
    upload(admin_client, "Azul", image_file())
    record = CatalogueRecord.objects.get(title="Azul")
    response = admin_client.post(f"/admin/games/cataloguerecord/{record.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302 and stored(media) == []


@pytest.mark.parametrize("file, message", [
    (SimpleUploadedFile("box.png", b"not an image at all, only words", content_type="image/png"),
     "Upload a valid image. The file you uploaded was either not an image or a corrupted image."),
    (image_file("box.gif", (40, 40), "GIF"), "The cover is a GIF image; use a JPEG, PNG or WebP image."),
    (image_file("long.png", (4001, 10)), "The cover measures 4001 × 10 pixels; at most 4000 × 4000 is accepted."),
    (image_file("heavy.png", (1300, 1400), noise=True), "The cover weighs 5.2 MB; at most 5 MB is accepted."),
], ids=["not an image", "GIF", "over 4000 pixels", "over 5 MB"])
def test_an_upload_that_is_not_a_usable_cover_is_refused_with_a_clear_message(admin_client, media, file, message):
    response = upload(admin_client, "Refused", file)
    assert response.status_code == 200
    assert errors(response) == [message]
    assert not CatalogueRecord.objects.filter(title="Refused").exists() and stored(media) == []


def test_the_checks_name_the_problem_in_french_too():
    with translation.override("fr"):
        with pytest.raises(ValidationError) as refused:
            covers.validate_cover(image_file("heavy.png", (1300, 1400), noise=True))
        assert refused.value.messages == ["La couverture pèse 5,2 Mo\u00a0; 5 Mo au plus sont acceptés."]
        with pytest.raises(ValidationError) as refused:
            covers.validate_cover(truncated_jpeg())
        assert refused.value.messages == ["La couverture n’a pas pu être lue en entier (le fichier est tronqué ou "
                                          "abîmé)\u00a0; envoyez-le à nouveau ou choisissez une autre image."]


def test_a_stored_cover_is_not_checked_again_when_its_record_is_validated(admin_client, media):
    upload(admin_client, "Azul", image_file())
    record = CatalogueRecord.objects.get(title="Azul")
    (media / record.cover.name).unlink()  # gone from the disk: validation must not open it
    record.full_clean()


def test_covers_leave_the_unimarc_exchange_unchanged(admin_client, media):
    from games.services import export_unimarc

    CatalogueRecord.objects.create(title="Azul")
    before = export_unimarc(CatalogueRecord.objects.all(), "marcxml")
    record = CatalogueRecord.objects.get(title="Azul")
    assert upload(admin_client, "Azul", image_file(), record, document_type=record.document_type).status_code == 302
    record.refresh_from_db()
    assert record.cover
    assert export_unimarc(CatalogueRecord.objects.all(), "marcxml") == before


def truncated_jpeg(name: str = "cut.jpg") -> SimpleUploadedFile:
    """A JPEG cut off just after its header: its format and size read well, its pixels do not."""
    whole = image_file(name, (400, 300), "JPEG", noise=True).read()
    start_of_scan = whole.index(b"\xff\xda")
    return SimpleUploadedFile(name, whole[: start_of_scan + 20], content_type="image/jpeg")


def cover_files(name: str) -> list[str]:
    return sorted([name, *(covers.thumbnail_name(name, size) for size in covers.THUMBNAIL_SIZES)])


@pytest.mark.django_db(transaction=True)
def test_a_truncated_jpeg_is_refused_and_the_cover_it_would_replace_is_kept(admin_client, media):
    """Decoded whole before anything is replaced: a form error, the old cover and its thumbnails
    where they were and still the record's, no trace of the broken file."""
    assert upload(admin_client, "Azul", image_file("first.jpg", format="JPEG")).status_code == 302
    record = CatalogueRecord.objects.get(title="Azul")
    old, before = record.cover.name, stored(media)
    assert before == cover_files(old)
    contents = {name: (media / name).read_bytes() for name in before}

    admin_client.raise_request_exception = False
    response = upload(admin_client, "Azul", truncated_jpeg(), record)
    record.refresh_from_db()
    assert record.cover.name == old and record.title == "Azul"
    assert stored(media) == before, "no broken file left behind, no old file removed"
    assert {name: (media / name).read_bytes() for name in before} == contents
    assert response.status_code == 200
    assert errors(response) == ["The cover could not be read whole (the file is cut short or damaged); "
                                "upload it again or choose another image."]
    assert admin_client.get(f"/catalogue/{record.pk}/").status_code == 200


@pytest.mark.django_db(transaction=True)
def test_a_truncated_jpeg_is_refused_for_a_new_record_too(admin_client, media):
    response = upload(admin_client, "Cut", truncated_jpeg())
    assert response.status_code == 200 and len(errors(response)) == 1
    assert not CatalogueRecord.objects.filter(title="Cut").exists() and stored(media) == []


@pytest.mark.django_db(transaction=True)
def test_a_good_jpeg_replaces_the_cover_and_the_old_files_go_once_the_record_points_at_the_new(admin_client, media):
    assert upload(admin_client, "Azul", image_file("first.jpg", format="JPEG")).status_code == 302
    record = CatalogueRecord.objects.get(title="Azul")
    old = record.cover.name
    assert upload(admin_client, "Azul", image_file("second.jpg", (300, 300), "JPEG"), record).status_code == 302
    record.refresh_from_db()
    assert record.cover.name != old
    assert stored(media) == cover_files(record.cover.name)
    with Image.open(media / record.cover.name) as image:
        assert image.size == (300, 300)


def test_the_old_cover_stays_until_the_change_is_committed(admin_client, media, django_capture_on_commit_callbacks):
    """Inside the save's transaction both covers' files exist; the old ones go on commit."""
    with django_capture_on_commit_callbacks(execute=True):
        upload(admin_client, "Azul", image_file())
    record = CatalogueRecord.objects.get(title="Azul")
    old = record.cover.name
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert upload(admin_client, "Azul", image_file("other.png", (300, 300)), record).status_code == 302
    record.refresh_from_db()
    assert stored(media) == sorted(cover_files(old) + cover_files(record.cover.name)), "both, before the commit"
    for callback in callbacks:
        callback()
    assert stored(media) == cover_files(record.cover.name)
