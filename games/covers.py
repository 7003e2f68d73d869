"""Cover images of catalogue records: what an upload must be, where it is kept, its thumbnails.

A cover helps a reader recognise the box on the shelf (Koha's OPAC shows one beside each hit).
The librarian uploads a photo or scan in the admin; it is checked here (a real JPEG, PNG or WebP
image, at most ``MAX_BYTES`` and ``MAX_SIDE`` pixels a side) and kept under ``MEDIA_ROOT`` as
``covers/<random>.<format>``, with a thumbnail per size in ``THUMBNAIL_SIZES`` beside it
(``covers/<random>.160.webp``): the hit list shows the small one, the record page the large
one. An upload is decoded whole before it is accepted. ``record_cover_changed`` makes the
thumbnails and, once the save commits, removes the files of a cover replaced or cleared; the
admin calls it after each save.

The UNIMARC exchange does not carry covers (``games.unimarc`` knows nothing of them).
"""

from __future__ import annotations

import io
import posixpath
import uuid
from typing import Any

from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.core.files.storage import Storage, default_storage
from django.db import transaction
from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _
from PIL import Image, ImageOps, UnidentifiedImageError

MAX_BYTES = 5 * 1024 * 1024
MAX_SIDE = 4000
FORMATS = {"JPEG": "jpg", "PNG": "png", "WEBP": "webp"}
"""The formats a cover may come in (as Pillow names them), with the extension it is stored under."""
THUMBNAIL_SIZES = (160, 480)
"""The longest side of each thumbnail, in pixels: the hit list's and the record page's."""
THUMBNAIL_QUALITY = 82
UPLOAD_FOLDER = "covers"


def _image_format(file: Any) -> tuple[str, tuple[int, int]]:
    """The format and size an image file declares, read from its header (nothing decoded yet)."""
    file.seek(0)
    try:
        with Image.open(file) as image:
            return image.format or "", image.size
    except (UnidentifiedImageError, OSError, Image.DecompressionBombError) as error:
        raise ValidationError(
            _("The cover must be an image (JPEG, PNG or WebP); this file is not one that can be read."),
            code="not_an_image",
        ) from error
    finally:
        file.seek(0)


def validate_cover(value: Any) -> None:
    """Refuse an uploaded cover that is not a JPEG, PNG or WebP image, weighs more than 5 MB or
    measures more than 4000 pixels a side, with a sentence saying which.

    A cover already stored was checked when it was uploaded, and is not opened again each time its
    record is validated (``_committed`` is how Django's files tell a stored file from a new one).
    """
    if not value or getattr(value, "_committed", False):
        return
    if value.size > MAX_BYTES:
        raise ValidationError(
            _("The cover weighs %(size)s MB; at most 5 MB is accepted."),
            code="too_heavy", params={"size": number_format(value.size / 1024 / 1024, 1)},
        )
    file = getattr(value, "file", value)
    format, (width, height) = _image_format(file)
    if format not in FORMATS:
        raise ValidationError(
            _("The cover is a %(format)s image; use a JPEG, PNG or WebP image."),
            code="format", params={"format": format or "?"},
        )
    if width > MAX_SIDE or height > MAX_SIDE:
        raise ValidationError(
            _("The cover measures %(width)s × %(height)s pixels; at most 4000 × 4000 is accepted."),
            code="too_large", params={"width": width, "height": height},
        )
    _decode_whole(file)


def _decode_whole(file: Any) -> None:
    """Decode every pixel (bounded by ``MAX_SIDE``), so that a file whose header reads well but
    whose image data is cut short or damaged is refused before it replaces anything: the
    thumbnails, made after the save, would fail on it."""
    file.seek(0)
    try:
        with Image.open(file) as image:
            image.load()
    except (OSError, SyntaxError, ValueError, Image.DecompressionBombError) as error:
        raise ValidationError(
            _("The cover could not be read whole (the file is cut short or damaged); "
              "upload it again or choose another image."),
            code="damaged",
        ) from error
    finally:
        file.seek(0)


def cover_upload_to(record: Any, filename: str) -> str:
    """A name of our own for a new cover (never the uploader's file name), with the extension of
    the format the file really is."""
    extension = "img"
    file = getattr(record.cover, "file", None)
    if file is not None:
        try:
            extension = FORMATS.get(_image_format(file)[0], extension)
        except ValidationError:
            pass
    return f"{UPLOAD_FOLDER}/{uuid.uuid4().hex}.{extension}"


def thumbnail_name(cover_name: str, size: int) -> str:
    """Where the thumbnail of a cover is kept.

    >>> thumbnail_name("covers/3f2a.png", 160)
    'covers/3f2a.160.webp'
    """
    stem, _extension = posixpath.splitext(cover_name)
    return f"{stem}.{size}.webp"


def thumbnail_url(cover_name: str | None, size: int, storage: Storage = default_storage) -> str | None:
    """The URL of a cover's thumbnail (``None`` without a cover), for a page that read the name only."""
    if not cover_name:
        return None
    return storage.url(thumbnail_name(cover_name, size))


def make_thumbnails(cover_name: str, storage: Storage = default_storage) -> list[str]:
    """Write a WebP thumbnail of each size beside the cover (replacing any made before); its names.

    The photo's EXIF orientation is applied and its metadata left behind; transparency is kept.
    """
    with storage.open(cover_name, "rb") as file, Image.open(file) as original:
        image = ImageOps.exif_transpose(original)
        image = image.convert("RGBA" if "A" in image.getbands() or "transparency" in image.info else "RGB")
    names = []
    for size in THUMBNAIL_SIZES:
        thumbnail = image.copy()
        thumbnail.thumbnail((size, size), Image.Resampling.LANCZOS)
        buffer = io.BytesIO()
        thumbnail.save(buffer, "WEBP", quality=THUMBNAIL_QUALITY, method=4)
        name = thumbnail_name(cover_name, size)
        if storage.exists(name):
            storage.delete(name)
        names.append(storage.save(name, ContentFile(buffer.getvalue())))
    return names


def delete_cover_files(cover_name: str, storage: Storage = default_storage) -> None:
    """Remove a cover and its thumbnails from storage (those that are there)."""
    for name in (cover_name, *(thumbnail_name(cover_name, size) for size in THUMBNAIL_SIZES)):
        if storage.exists(name):
            storage.delete(name)


def delete_cover_files_on_commit(cover_name: str, storage: Storage = default_storage) -> None:
    """Remove a cover's files once the database no longer points at them: if the change is rolled
    back, the record still shows that cover, so its files must still be there."""
    transaction.on_commit(lambda: delete_cover_files(cover_name, storage))


def record_cover_changed(record: Any, previous_name: str | None) -> None:
    """After a record was saved with a new cover, or without the one it had: thumbnails for the
    new one, then the old one's files removed when the save commits (no other record points to a
    cover's random name). If the thumbnails cannot be made, the new cover's files go and the
    error stands: the save is rolled back and the old cover stays whole."""
    current = record.cover.name if record.cover else ""
    if current and current != previous_name:
        try:
            make_thumbnails(current, record.cover.storage)
        except Exception:
            delete_cover_files(current, record.cover.storage)
            raise
    if previous_name and previous_name != current:
        delete_cover_files_on_commit(previous_name, record.cover.storage)
