"""Checkpoint files: the records' checkpoints (:mod:`records.integrity`) written out and signed,
for a club to keep away from the database (another machine, a USB stick, an e-mail to itself).

Someone who can rewrite the database can rewrite the checkpoints stored in it too; a copy kept
elsewhere is what shows that a record no longer holds what it held: ``verify_events --export
FILE`` writes one, ``verify_events --against FILE`` checks the store against it.

The format, ``ludolog-checkpoints/1``, is one JSON object::

    {"format": "ludolog-checkpoints/1", "exported_at": "YYYY-MM-DDTHH:MM:SS.ffffffZ",
     "records": [{"record": <id>, "header": <header digest>, "last_seq": <int>, "head": <its hash>,
                  "ruleset_moves": <int>, "ruleset_moves_head": <hash>,
                  "seat_moves": <int>, "seat_moves_head": <hash>}, ...],
     "copies": [{"copy": <id>, "last_seq": <int>, "head": <its hash>}, ...],
     "hmac": <hex>}

Beside ``records``, each stream another app registers (:data:`records.integrity.STREAMS`: the
loans desk's copy events, ``copies``) has its section; a file without a stream's section (one
written before it was registered) checks nothing of that stream.

``hmac`` is the HMAC-SHA256 of the canonical JSON (:func:`records.integrity.canonical_json`) of
the object without it, keyed with Django's ``salted_hmac`` (salt ``ludolog.records.checkpoints``)
from the setting ``LUDOLOG_CHECKPOINT_KEY``, or from ``SECRET_KEY`` when that is empty. A file
whose HMAC does not match (edited, or signed with another key) is refused as a whole: set
``LUDOLOG_CHECKPOINT_KEY`` before ever rotating ``SECRET_KEY``, or the files kept so far can no
longer be checked.
"""

from __future__ import annotations

import hmac
import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.crypto import salted_hmac

from .integrity import STREAMS, Checkpoint, canonical_json, canonical_time

FORMAT = "ludolog-checkpoints/1"
SALT = "ludolog.records.checkpoints"
FIELDS = ("header", "last_seq", "head", "ruleset_moves", "ruleset_moves_head", "seat_moves", "seat_moves_head")


class CheckpointFileError(Exception):
    """The file cannot be used: not a checkpoint file, or its HMAC does not match."""


def signature(body: dict[str, Any]) -> str:
    secret = getattr(settings, "LUDOLOG_CHECKPOINT_KEY", "") or settings.SECRET_KEY
    return salted_hmac(SALT, canonical_json(body), secret=secret, algorithm="sha256").hexdigest()


def export_document(using: str = "default") -> dict[str, Any]:
    """Every stored checkpoint (a record that failed its last verification: its last good one),
    signed."""
    from .models import RecordCheckpoint

    records = []
    for row in RecordCheckpoint.objects.using(using).order_by("record_id"):
        line = {"record": row.record_id, **{name: getattr(row, name) for name in FIELDS}}
        if line["header"] or line["last_seq"] or line["ruleset_moves"] or line["seat_moves"]:
            records.append(line)
    body = {"format": FORMAT, "exported_at": canonical_time(timezone.now()), "records": records,
            **{section: stream.export(using) for section, stream in STREAMS.items()}}
    return {**body, "hmac": signature(body)}


def write(path: Path, using: str = "default") -> int:
    """Write the signed checkpoints to ``path`` (whole or not at all: written beside it, then
    renamed over it); returns how many records it holds."""
    document = export_document(using)
    path.parent.mkdir(parents=True, exist_ok=True)
    written = path.with_name(f".{path.name}.writing")
    written.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    written.replace(path)
    return len(document["records"])


def read(path: Path) -> dict[int, Checkpoint]:
    """The records' checkpoints of the file at ``path``, by record; :class:`CheckpointFileError` when
    it cannot be read, is not a checkpoint file, or its HMAC does not match."""
    return read_all(path)[0]


def read_all(path: Path) -> tuple[dict[int, Checkpoint], dict[str, Any]]:
    """The records' checkpoints of the file at ``path``, by record, and each registered stream's
    section as that stream reads it (by section; a section the file lacks reads as empty)."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise CheckpointFileError(f"{path}: cannot be read ({error.strerror or error})") from None
    except (UnicodeDecodeError, ValueError):
        raise CheckpointFileError(f"{path}: not a checkpoint file (not JSON)") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise CheckpointFileError(f"{path}: not a checkpoint file (its format is not {FORMAT!r})")
    given = document.pop("hmac", None)
    if not isinstance(given, str) or not hmac.compare_digest(given, signature(document)):
        raise CheckpointFileError(
            f"{path}: its HMAC does not match: the file was changed, or signed with another key "
            "(LUDOLOG_CHECKPOINT_KEY, else one derived from SECRET_KEY); nothing was checked against it")
    checkpoints: dict[int, Checkpoint] = {}
    for line in document.get("records") or []:
        try:
            record_id = int(line["record"])
            checkpoints[record_id] = Checkpoint(record_id, **{name: type(default)(line[name]) for name, default in
                                                              zip(FIELDS, ("", 0, "", 0, "", 0, ""))})
        except (KeyError, TypeError, ValueError):
            raise CheckpointFileError(f"{path}: a record's line is not a checkpoint: {line!r}") from None
    sections: dict[str, Any] = {}
    for section, stream in STREAMS.items():
        lines = document.get(section) or []
        try:
            sections[section] = stream.parse(lines if isinstance(lines, list) else [lines])
        except (KeyError, TypeError, ValueError) as error:
            raise CheckpointFileError(f"{path}: a line of its {section!r} is not a checkpoint: {error}") from None
    return checkpoints, sections
