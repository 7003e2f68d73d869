"""Catalogue records as UNIMARC, the format French library systems (PMB, Koha) exchange.

Pure mapping between pymarc records and the plain catalogue data of
:func:`games.services.load_catalogue` / :func:`games.services.catalogue_data` (no Django here), so
that a ludothèque can move its records between Ludolog and its library system: ISO 2709 files
(``.mrc``/``.iso``) or MARCXML.

Where the data goes (UNIMARC bibliographic; the 900 and 995 fields follow PMB's habits):

====== ======================================================================================
leader ``n`` new, ``r`` three-dimensional artefact (a game box), ``m`` monograph
001    ``ludolog:<id>`` (export only)
010    $a ISBN                      073 $a EAN-13
100    $a general processing data (date entered, year, audience from the minimum age,
       ``fre`` cataloguing, ``50`` = Unicode)
101    $a each language (ISO 639-2)
200    $a title $b document type $f authors (export only: the authors come back from 70X)
210    $c publisher $d year
300    $a notes                     327 $a contents (the material in the box)
330    $a summary                   333 $a players, ages, duration in words (export only)
454    $t original title            510 $a parallel title $z language
541    $a title in another language $z language
686    $a category code $c its label $2 ``ludotheque``
700    $a surname $b forenames $4 ``070``: the first author (701: the other authors)
702    $a $b $4: illustrator ``440``, translator ``730``, developer ``205``, other ``570``
900    PMB-style custom fields, $a value $l label $n name: players, ages, duration, engine
995    one per copy: $f barcode $k shelf $o status $m acquisition date (ISO) $u missing pieces
====== ======================================================================================
"""

from __future__ import annotations

import io
import re
from xml.etree import ElementTree
from collections.abc import Iterable, Iterator
from datetime import date
from typing import Any

import pymarc
from pymarc import Field, Indicators, Record, Subfield

LEADER = "00000nrm  2200000   450 "
CATEGORY_SYSTEM = "ludotheque"

ROLE_TO_RELATOR = {"author": "070", "illustrator": "440", "translator": "730", "developer": "205", "other": "570"}
RELATOR_TO_ROLE = {code: role for role, code in ROLE_TO_RELATOR.items()}

# PMB-style custom fields (900 $n name, $l label as the seed's OPAC shows it).
CUSTOM_FIELDS = (
    ("min_players", "nb_joueurs_min", "Nombre minimum de joueurs"),
    ("max_players", "nb_joueurs_max", "Nombre maximum de joueurs"),
    ("min_age", "age_min", "Age minimum"),
    ("max_age", "age_max", "Age maximum"),
    ("duration_minutes", "duree_moyenne", "Durée moyenne (minutes)"),
    ("engine_slug", "moteur_ludolog", "Moteur de règles Ludolog"),
)
INTEGER_FIELDS = {"min_players", "max_players", "min_age", "max_age", "duration_minutes"}

TITLE_FIELDS = {"original": ("454", "t"), "parallel": ("510", "a"), "translated": ("541", "a")}


class UnimarcError(ValueError):
    """A file or record that cannot be read; ``record`` is its 1-based number in the file."""

    reason = "invalid_unimarc"
    status_code = 400

    def __init__(self, message: str, record: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details = {"record": record} if record is not None else {}


# -- writing -------------------------------------------------------------------------------------


def _field(tag: str, first: str, second: str, *pairs: tuple[str, Any]) -> Field | None:
    subfields = [Subfield(code, str(value)) for code, value in pairs if value not in (None, "")]
    return Field(tag=tag, indicators=Indicators(first, second), subfields=subfields) if subfields else None


FIELD_TEXT_LIMIT = 9000
"""ISO 2709 counts a field's length in four digits: a longer text goes into several fields."""


def _chunks(text: str, limit: int = FIELD_TEXT_LIMIT) -> list[str]:
    """``text`` cut into pieces of at most ``limit`` UTF-8 bytes, each ending just after a space
    where it can, so that joining the pieces gives the text back exactly (see :func:`_text`)."""
    pieces = []
    while len(text.encode("utf-8")) > limit:
        cut = len(text.encode("utf-8")[:limit].decode("utf-8", errors="ignore"))
        space = max(text.rfind(" ", 0, cut), text.rfind("\n", 0, cut))
        cut = space + 1 if space > 0 else cut
        pieces.append(text[:cut])
        text = text[cut:]
    return [*pieces, text] if text else pieces


def _text_fields(tag: str, first: str, text: str | None) -> list[Field | None]:
    return [_field(tag, first, " ", ("a", piece)) for piece in _chunks(text or "")]


def _audience(min_age: int | None) -> str:
    """100/17: b pre-primary (0–5), c primary (5–10), d children (9–14), e young adult, m adult."""
    if min_age is None:
        return "u"
    for limit, code in ((5, "b"), (9, "c"), (14, "d"), (18, "e")):
        if min_age < limit:
            return code
    return "m"


def _processing_data(item: dict[str, Any]) -> str:
    entered = (item.get("entered_on") or date.today().isoformat()).replace("-", "")
    year = item.get("publication_year")
    dates = f"d{year:04d}    " if year else "u        "
    value = f"{entered}{dates}{_audience(item.get('min_age'))}  y0frey50      ba"
    assert len(value) == 36, value
    return value


def audience_note(item: dict[str, Any]) -> str:
    """Players, ages and duration in words: "2 à 5 joueurs, à partir de 8 ans, 30 min"."""
    parts = []
    if item.get("min_players") or item.get("max_players"):
        parts.append(f"{item.get('min_players') or '?'} à {item.get('max_players') or '?'} joueurs")
    if item.get("min_age") is not None:
        parts.append(f"à partir de {item['min_age']} ans")
    if item.get("duration_minutes"):
        parts.append(f"{item['duration_minutes']} min")
    return ", ".join(parts)


def _split_name(name: str) -> tuple[str, str]:
    """"Klaus-Jürgen Wrede" → ("Wrede", "Klaus-Jürgen"): the last word is the entry element."""
    words = name.split()
    return (words[-1], " ".join(words[:-1])) if len(words) > 1 else (name, "")


def to_marc(item: dict[str, Any]) -> Record:
    """One catalogue record (plain data) as a UNIMARC record."""
    record = Record(force_utf8=True, leader=LEADER)
    fields: list[Field | None] = []
    if item.get("id") is not None:
        fields.append(Field(tag="001", data=f"ludolog:{item['id']}"))
    for scheme, tag in (("isbn", "010"), ("ean", "073")):
        fields += [_field(tag, " ", " ", ("a", i["value"])) for i in item.get("identifiers", []) if i["scheme"] == scheme]
    fields.append(_field("100", " ", " ", ("a", _processing_data(item))))
    fields.append(_field("101", "0", " ", *(("a", code) for code in item.get("languages", []))))
    authors = [c["name"] for c in item.get("contributors", []) if c["role"] == "author"]
    fields.append(_field("200", "1", " ", ("a", item["title"]), ("b", item.get("document_type")),
                         ("f", ", ".join(authors))))
    fields.append(_field("210", " ", " ", ("c", item.get("publisher")), ("d", item.get("publication_year"))))
    fields += _text_fields("300", " ", item.get("notes"))
    fields += _text_fields("327", "1", item.get("contents"))
    fields += _text_fields("330", " ", item.get("summary"))
    fields.append(_field("333", " ", " ", ("a", audience_note(item))))
    for kind, (tag, code) in TITLE_FIELDS.items():
        for other in item.get("other_titles", []):
            if other["kind"] == kind:
                fields.append(_field(tag, "1" if tag != "454" else " ", "1" if tag == "454" else " ",
                                     (code, other["title"]), ("z", other.get("language"))))
    fields += [_field("686", " ", " ", ("a", c["code"]), ("c", c["label"]), ("2", CATEGORY_SYSTEM))
               for c in item.get("categories", [])]
    first_author = True
    for contributor in item.get("contributors", []):
        role = contributor["role"]
        tag = ("700" if first_author else "701") if role == "author" else "702"
        first_author = first_author and role != "author"
        surname, forenames = _split_name(contributor["name"])
        fields.append(_field(tag, " ", "1", ("a", surname), ("b", forenames), ("4", ROLE_TO_RELATOR[role])))
    for key, name, label in CUSTOM_FIELDS:
        fields.append(_field("900", " ", " ", ("a", item.get(key)), ("l", label), ("n", name)))
    for copy in item.get("copies", []):
        fields.append(_field("995", " ", " ", ("f", copy["barcode"]), ("k", copy.get("shelf_location")),
                             ("o", copy.get("status")), ("m", copy.get("acquired_on")),
                             ("u", copy.get("missing_pieces"))))
    record.add_ordered_field(*(f for f in fields if f is not None))
    return record


def _iso2709(record: Record) -> bytes:
    """The record's ISO 2709 bytes, its leader made UNIMARC's.

    pymarc writes MARC 21's "a" (UTF-8) at leader/09 and "4500" at 20–23; in UNIMARC 09 is
    undefined (100 $a/26–29 says Unicode) and 20–23 read "450 ". Same lengths, so the directory
    and the base address stay right.
    """
    data: bytes = record.as_marc()
    if len(data) > 99999:
        raise UnimarcError(f"{record['200']['a']!r} is too long for an ISO 2709 record ({len(data)} bytes): "
                           "export it as MARCXML")
    return data[:9] + b" " + data[10:20] + b"450 " + data[24:]


def to_iso2709(items: Iterable[dict[str, Any]]) -> bytes:
    return b"".join(_iso2709(to_marc(item)) for item in items)


def to_marcxml(items: Iterable[dict[str, Any]]) -> bytes:
    """A MARCXML collection (the slim schema, as Koha writes UNIMARC records in XML).

    The leader's record length and base address are zeros: they describe an ISO 2709 file, and
    an XML record may exceed that format's 99,999 bytes.
    """
    records = [marcxml_record(item, namespace=False) for item in items]
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<collection xmlns="http://www.loc.gov/MARC21/slim">\n' + "\n".join(records) + "\n</collection>\n"
    ).encode("utf-8")


def marcxml_record(item: dict[str, Any], namespace: bool = True) -> str:
    """One catalogue record as a MARCXML ``record`` element; with ``namespace``, a document of its
    own (the slim namespace and its schema declared on it), as OAI-PMH carries it in ``metadata``."""
    node = pymarc.record_to_xml_node(to_marc(item), namespace=namespace)
    return ElementTree.tostring(node, encoding="unicode")


# -- reading -------------------------------------------------------------------------------------


def read(data: bytes) -> Iterator[Record]:
    """The records of an ISO 2709 file or a MARCXML document (told apart by their first byte)."""
    if data.lstrip()[:1] == b"<":
        try:
            records = pymarc.parse_xml_to_array(io.BytesIO(data))
        except Exception as error:  # the XML parser's own errors
            raise UnimarcError(f"not a MARCXML document: {error}") from None
        yield from records
        return
    reader = pymarc.MARCReader(data, to_unicode=True, force_utf8=True, utf8_handling="strict")
    for number, record in enumerate(reader, start=1):
        if record is None:
            raise UnimarcError(f"record {number}: {reader.current_exception}", record=number)
        yield record


def _first(record: Record, tag: str, code: str) -> str:
    for field in record.get_fields(tag):
        for value in field.get_subfields(code):
            if value.strip():
                return str(value).strip()
    return ""


def _text(record: Record, tag: str) -> str:
    """The $a of every ``tag`` field, joined: as they were cut by :func:`_chunks` (each piece ending
    in a space), or a line apart (notes from another system)."""
    text = ""
    for field in record.get_fields(tag):
        for value in field.get_subfields("a"):
            text += value if not text or text[-1].isspace() else "\n" + value
    return text.strip()


def _integer(value: str, what: str, number: int) -> int | None:
    if not value:
        return None
    match = re.fullmatch(r"\s*(\d+)\s*", value)
    if match is None:
        raise UnimarcError(f"record {number}: {what} is not a whole number: {value!r}", record=number)
    return int(match.group(1))


def from_marc(record: Record, number: int = 1) -> dict[str, Any]:
    """One UNIMARC record as plain catalogue data (``number``: its place in the file, for errors)."""
    title = _first(record, "200", "a")
    if not title:
        raise UnimarcError(f"record {number} has no title (200 $a)", record=number)
    year = re.search(r"\d{4}", _first(record, "210", "d"))
    custom = {}
    for field in record.get_fields("900"):
        names = field.get_subfields("n")
        if names:
            custom[names[0]] = (field.get_subfields("a") or [""])[0].strip()
    item: dict[str, Any] = {
        "title": title,
        "document_type": _first(record, "200", "b"),
        "publisher": _first(record, "210", "c"),
        "publication_year": int(year.group()) if year else None,
        "languages": [code.strip() for f in record.get_fields("101") for code in f.get_subfields("a") if code.strip()],
        "notes": _text(record, "300"),
        "contents": _text(record, "327"),
        "summary": _text(record, "330"),
        "identifiers": [
            {"scheme": scheme, "value": value.strip()}
            for scheme, tag in (("isbn", "010"), ("ean", "073"))
            for f in record.get_fields(tag) for value in f.get_subfields("a") if value.strip()
        ],
        "other_titles": [
            {"title": f.get_subfields(code)[0].strip(), "kind": kind,
             "language": (f.get_subfields("z") or [None])[0]}
            for kind, (tag, code) in TITLE_FIELDS.items()
            for f in record.get_fields(tag) if f.get_subfields(code)
        ],
        "categories": [
            {"code": f.get_subfields("a")[0].strip(), "label": (f.get_subfields("c") or [""])[0].strip()}
            for f in record.get_fields("686") if f.get_subfields("a")
        ],
        "contributors": [
            {"name": " ".join(part for part in ((f.get_subfields("b") or [""])[0].strip(),
                                               (f.get_subfields("a") or [""])[0].strip()) if part),
             "role": RELATOR_TO_ROLE.get((f.get_subfields("4") or [""])[0].strip(),
                                         "author" if f.tag in ("700", "701") else "other")}
            for f in record.get_fields("700", "701", "702") if f.get_subfields("a")
        ],
        "copies": [
            {"barcode": f.get_subfields("f")[0].strip(),
             "shelf_location": (f.get_subfields("k") or [""])[0].strip(),
             "status": (f.get_subfields("o") or ["available"])[0].strip(),
             "acquired_on": (f.get_subfields("m") or [None])[0],
             "missing_pieces": (f.get_subfields("u") or [""])[0].strip()}
            for f in record.get_fields("995") if f.get_subfields("f")
        ],
    }
    for key, name, _label in CUSTOM_FIELDS:
        value = custom.get(name, "")
        item[key] = _integer(value, name, number) if key in INTEGER_FIELDS else value
    return item
