"""Catalogue records as UNIMARC, the format French library systems (PMB, Koha) exchange.

Pure mapping between pymarc records and the plain catalogue data of
:func:`games.services.load_catalogue` / :func:`games.services.catalogue_data` (no Django here), so
that a ludothèque can move its records between Ludolog and its library system: ISO 2709 files
(``.mrc``/``.iso``), MARCXML, or PMB's own XML UNIMARC (read only).

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

What PMB itself writes (its export, tests/games/data/pmb-ludotheque.*) and how it is read: 995 $o
is the status's "codage import", written only when the librarian gave the status one; beside each
995, a 996 repeats the copy with everything PMB knows of it ($f barcode, $1 the status's label,
$v the location's label). A copy without $o takes its status from its 996's label, its location
from 996 $v. PMB's "indexation décimale", where ludothèques keep ESAR codes, comes out as 676
$a code $l label: a 676 with an ESAR code is read as ESAR. 200 $d (parallel title) is read as
a parallel title.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
from dataclasses import asdict, dataclass, field, fields as dataclass_fields, replace
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

TITLE_FIELDS = {"original": ("454", "t"), "parallel": ("510", "a"), "translated": ("541", "a"),
                "variant": ("517", "a"), "key": ("530", "a"), "abbreviated": ("531", "a")}

CATEGORY_FIELDS = {"ludotheque": "686", "esar": "686", "other": "686", "subject": "606", "keyword": "610",
                   "dewey": "676"}


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


def _category_field(category: dict[str, Any]) -> Field | None:
    scheme = category.get("scheme") or CATEGORY_SYSTEM
    tag = CATEGORY_FIELDS.get(scheme, "686")
    if tag == "686":
        return _field(tag, " ", " ", ("a", category["code"]), ("c", category["label"]),
                      ("2", CATEGORY_SYSTEM if scheme == "ludotheque" else scheme))
    if tag == "676":
        return _field(tag, " ", " ", ("a", category["code"].removeprefix("Dewey ")))
    return _field(tag, " ", " ", *(("a" if n == 0 else "x", part) for n, part in enumerate(category["label"].split(" -- "))))


def to_marc(item: dict[str, Any], keep: bool = True) -> Record:
    """One catalogue record (plain data) as a UNIMARC record; one imported with its source record
    kept (``keep``) gives back every field it came with (:func:`merged`)."""
    if keep and item.get("source_record"):
        return merged(item)
    record = Record(force_utf8=True, leader=LEADER)
    fields: list[Field | None] = []
    if item.get("id") is not None:
        fields.append(Field(tag="001", data=f"ludolog:{item['id']}"))
    for scheme, tag in (("isbn", "010"), ("issn", "011"), ("ean", "073")):
        fields += [_field(tag, " ", " ", ("a", i["value"])) for i in item.get("identifiers", []) if i["scheme"] == scheme]
    if item.get("bgg_id"):
        fields.append(_field("035", " ", " ", ("a", f"{BGG_PREFIX}{item['bgg_id']}")))
    fields.append(_field("100", " ", " ", ("a", _processing_data(item))))
    fields.append(_field("101", "0", " ", *(("a", code) for code in sorted(item.get("languages", [])))))
    authors = [c["name"] for c in item.get("contributors", []) if c["role"] == "author"]
    fields.append(_field("200", "1", " ", ("a", item["title"]), ("b", item.get("document_type")),
                         ("f", ", ".join(authors))))
    fields.append(_field("210", " ", " ", ("a", item.get("place")), ("c", item.get("publisher")),
                         ("d", item.get("publication_year"))))
    fields.append(_field("225", "2", " ", ("a", item.get("series"))))
    fields += _text_fields("300", " ", item.get("notes"))
    fields += _text_fields("327", "1", item.get("contents"))
    fields += _text_fields("330", " ", item.get("summary"))
    fields.append(_field("333", " ", " ", ("a", audience_note(item))))
    for kind, (tag, code) in TITLE_FIELDS.items():
        for other in item.get("other_titles", []):
            if other["kind"] == kind:
                fields.append(_field(tag, "1" if tag != "454" else " ", "1" if tag == "454" else " ",
                                     (code, other["title"]), ("z", other.get("language"))))
    fields += [_category_field(c) for c in item.get("categories", [])]
    fields += [_field("856", "4", " ", ("u", link.get("url")), ("z", link.get("note"))) for link in item.get("links") or []]
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
        fields.append(_field("995", " ", " ", ("f", copy["barcode"]), ("e", copy.get("location")),
                             ("k", copy.get("shelf_location")),
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


def gettext_noop(message: str) -> str:
    """Marks a reason for translation (``makemessages`` finds it); the import translates it."""
    return message


class Refusal(UnimarcError):
    """One record that cannot be taken: refused alone, the rest of the file goes on. ``template``
    is the English reason with ``%(name)s`` placeholders (a msgid), ``params`` fills them."""

    def __init__(self, template: str, record: int | None = None, **params: Any) -> None:
        super().__init__(template % params, record=record)
        self.template, self.params = template, params


@dataclass(frozen=True)
class ImportMapping:
    """How a library system's fields become Ludolog's, beyond what UNIMARC fixes.

    ``copy_status``: a copy's status code (995 ``status_subfield``) → a ``Copy.Status`` value;
    a code not in the table takes ``other_status``, or refuses its record when that is empty.
    ``game_facts``: a custom field's name (900 ``$n``, as PMB exports them) → a record's field
    (``min_players``, ``max_players``, ``min_age``, ``max_age``, ``duration_minutes``,
    ``engine_slug``). Plain data, so that a page can show and edit it (:meth:`as_data`).
    """

    name: str = "pmb"
    status_subfield: str = "o"
    copy_status: dict[str, str] = field(default_factory=dict)
    other_status: str = ""
    game_facts: dict[str, str] = field(default_factory=dict)

    def as_data(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_data(cls, data: dict[str, Any] | None) -> "ImportMapping":
        """A mapping from :meth:`as_data`'s form; missing keys from the preset it names (PMB's)."""
        data = dict(data or {})
        preset = PRESETS.get(data.get("name") or "pmb", PRESETS["pmb"])
        known = {f.name for f in dataclass_fields(cls)}
        return replace(preset, **{key: value for key, value in data.items() if key in known})


STATUSES = ("available", "on_loan", "missing_parts", "withdrawn")
"""``Copy.Status``'s values (this module does not import the models)."""

PMB_GAME_FACTS = {name: key for key, name, _label in CUSTOM_FIELDS}

PRESETS = {
    # PMB exports a copy's status as its label or its code; Ludolog's own export writes its values.
    "pmb": ImportMapping(
        name="pmb",
        copy_status={**{status: status for status in STATUSES},
                     "1": "available", "disponible": "available", "en bon état": "available",
                     "en prêt": "on_loan", "emprunté": "on_loan", "2": "on_loan",
                     "incomplet": "missing_parts", "pièces manquantes": "missing_parts", "3": "missing_parts",
                     "retiré": "withdrawn", "pilonné": "withdrawn", "perdu": "withdrawn", "exclu du prêt": "withdrawn",
                     "4": "withdrawn",
                     # The labels of the statuses a new PMB base has (its 996 $1 when 995 $o is empty).
                     "document en bon état": "available", "détérioré": "missing_parts",
                     "consultation sur place": "withdrawn", "en cours d'import/saisie": "withdrawn"},
        game_facts=dict(PMB_GAME_FACTS)),
    # Koha's 995 $o is "not for loan": 0 lends, any other value (1 not for loan, -1 ordered, staff
    # collection…) keeps the box off the desk.
    "koha": ImportMapping(name="koha", copy_status={"0": "available", "": "available"}, other_status="withdrawn",
                          game_facts=dict(PMB_GAME_FACTS)),
}

MAPPED_TAGS = frozenset({
    "001", "010", "035", "011", "073", "100", "101", "200", "210", "214", "225", "300", "327", "330", "333",
    "410", "411", "454", "461", "510", "517", "530", "531", "541", "606", "610", "676", "686",
    "700", "701", "702", "710", "711", "712", "856", "900", "995",
})
"""Tags whose data Ludolog's pages show (the rest is kept whole and given back by exports)."""

BGG_PREFIX = "(BGG)"
"""A 035 (other systems' control numbers) naming the game's BoardGameGeek entry: the system's code
in brackets before the number, as 035 $a is written for any other catalogue."""

ESAR_CODE = re.compile(r"^[A-D]\s?\d{3}(\s?\d+)*$")
"""An ESAR classification code (Exercise, Symbolic, Assembly, Rules): a letter, three digits."""

SERIES_LINKS = ("410", "411", "461")


def read(data: bytes) -> Iterator[Record]:
    """The records of an ISO 2709 file or a MARCXML document (told apart by their first byte);
    :class:`UnimarcError` at the first that cannot be read."""
    for number, record, error in entries(data):
        if record is None:
            raise UnimarcError(error, record=number)
        yield record


def entries(data: bytes) -> Iterator[tuple[int, Record | None, str]]:
    """Each record of the file with its number (from 1), or None and why it cannot be read: one
    record that cannot be read never stops the others (ISO 2709 gives each its length)."""
    if data.lstrip()[:1] == b"<" and PMB_XML_ROOT.search(data[:4096]):
        yield from _pmb_xml_entries(data)
        return
    if data.lstrip()[:1] == b"<":
        try:
            records = pymarc.parse_xml_to_array(io.BytesIO(data))
        except Exception as error:  # the XML parser's own errors
            raise UnimarcError(f"not a MARCXML document: {error}") from None
        for number, record in enumerate(records, start=1):
            yield number, record, ""
        return
    reader = pymarc.MARCReader(data, to_unicode=True, force_utf8=True, utf8_handling="strict")
    for number, record in enumerate(reader, start=1):
        if record is None:
            yield number, None, f"record {number}: {reader.current_exception}"
        else:
            yield number, record, ""


PMB_XML_ROOT = re.compile(rb"<unimarc[\s>]")
"""PMB's own XML UNIMARC ("UNIMARC PMB XML" in its export): ``<unimarc><notice>``, the leader in
parts (``rs`` status, ``dt`` type, ``bl`` level, ``hl`` hierarchy, ``el`` encoding level, ``ru``
cataloguing form), then ``<f c="200" ind="1 "><s c="a">…</s></f>``."""

PMB_LEADER_PARTS = {"rs": 5, "dt": 6, "bl": 7, "hl": 8, "el": 17, "ru": 18}


def _pmb_xml_entries(data: bytes) -> Iterator[tuple[int, Record | None, str]]:
    try:
        root = ElementTree.fromstring(data)
    except ElementTree.ParseError as error:
        raise UnimarcError(f"not a PMB XML UNIMARC document: {error}") from None
    for number, notice in enumerate(root.iter("notice"), start=1):
        leader = list(LEADER)
        for part, position in PMB_LEADER_PARTS.items():
            value = (notice.findtext(part) or "").strip()
            if len(value) == 1:
                leader[position] = value
        record = Record(force_utf8=True, leader="".join(leader))
        for found in notice.iter("f"):
            tag = found.get("c", "")
            if not re.fullmatch(r"\d{3}", tag):
                yield number, None, f"record {number}: a field without a three-digit tag ({tag!r})"
                break
            if tag < "010":
                record.add_field(Field(tag=tag, data=found.text or ""))
                continue
            indicators = (found.get("ind") or "  ").ljust(2)[:2]
            record.add_field(Field(tag=tag, indicators=Indicators(indicators[0], indicators[1]),
                                   subfields=[Subfield(s.get("c", " "), s.text or "") for s in found.iter("s")]))
        else:
            yield number, record, ""


def _first(record: Record, tag: str, code: str) -> str:
    for found in record.get_fields(tag):
        for value in found.get_subfields(code):
            if value.strip():
                return str(value).strip()
    return ""


def title_of(record: Record) -> str:
    return _first(record, "200", "a")


def _text(record: Record, tag: str) -> str:
    """The $a of every ``tag`` field, joined: as they were cut by :func:`_chunks` (each piece ending
    in a space), or a line apart (notes from another system)."""
    text = ""
    for found in record.get_fields(tag):
        for value in found.get_subfields("a"):
            text += value if not text or text[-1].isspace() else "\n" + value
    return text.strip()


def _integer(value: str, what: str, number: int) -> int | None:
    if not value:
        return None
    match = re.fullmatch(r"\s*(\d+)\s*", value)
    if match is None:
        raise Refusal(gettext_noop("%(field)s is not a whole number: %(value)s"), record=number,
                      field=what, value=repr(value))
    return int(match.group(1))


def _one(found: Field, code: str) -> str:
    return (found.get_subfields(code) or [""])[0].strip()


def _heading(found: Field) -> str:
    """A subject heading with its subdivisions: "Finances publiques -- Etats-Unis -- Périodiques"."""
    return " -- ".join(value.strip() for code, value in _pairs(found) if code in "axyz" and value.strip())


def _pairs(found: Field) -> list[tuple[str, str]]:
    return [(sub.code, sub.value) for sub in found.subfields]


def category_code(scheme: str, code: str, label: str) -> str:
    """A category's code: a classification's own code (686, ESAR), the Dewey number prefixed, or
    for a subject heading or keyword (which have none) a short fingerprint of the heading."""
    if scheme in ("ludotheque", "esar", "other"):
        return code
    if scheme == "dewey":
        return f"Dewey {code}"[:32]
    fingerprint = hashlib.sha1(label.casefold().encode("utf-8")).hexdigest()[:10]
    return f"{'Sujet' if scheme == 'subject' else 'Mot-clé'} {fingerprint}"


def _categories(record: Record) -> list[dict[str, str]]:
    found: list[dict[str, str]] = []
    for classification in record.get_fields("686"):
        code, system = _one(classification, "a"), _one(classification, "2").lower()
        if not code:
            continue
        scheme = ("esar" if system == "esar" or (system != CATEGORY_SYSTEM and ESAR_CODE.match(code))
                  else "ludotheque" if system in (CATEGORY_SYSTEM, "") else "other")
        found.append({"code": code, "label": _one(classification, "c") or code, "scheme": scheme})
    for tag, scheme in (("606", "subject"), ("610", "keyword")):
        for subject in record.get_fields(tag):
            label = _heading(subject)
            if label:
                found.append({"code": category_code(scheme, "", label), "label": label[:200], "scheme": scheme})
    for dewey in record.get_fields("676"):
        number = _one(dewey, "a")
        label = _one(dewey, "c") or _one(dewey, "l") or number  # PMB writes the label in $l
        if number and ESAR_CODE.match(number):  # a ludothèque's ESAR code in PMB's decimal indexing
            found.append({"code": number, "label": label, "scheme": "esar"})
        elif number:
            found.append({"code": category_code("dewey", number, number), "label": label, "scheme": "dewey"})
    unique = {c["code"]: c for c in found}
    return list(unique.values())


def _other_titles(record: Record, title: str) -> list[dict[str, Any]]:
    """The 4XX/5XX titles, then a 200 $d parallel title (as PMB writes one) not already among them."""
    found: dict[str, dict[str, Any]] = {}
    for kind, (tag, code) in TITLE_FIELDS.items():
        for f in record.get_fields(tag):
            value = (f.get_subfields(code) or [""])[0].strip()
            if value:
                found[value] = {"title": value, "kind": kind, "language": (f.get_subfields("z") or [None])[0]}
    for f in record.get_fields("200"):
        for value in f.get_subfields("d"):
            found.setdefault(value.strip(), {"title": value.strip(), "kind": "parallel", "language": None})
    return [other for name, other in found.items() if name and name != title]


def _contributor_name(found: Field) -> str:
    if found.tag.startswith("71"):  # a corporate body: its name, then its subdivisions
        return ". ".join(value.strip() for code, value in _pairs(found) if code in "ab" and value.strip())
    return " ".join(part for part in (_one(found, "b"), _one(found, "a")) if part)


def _series(record: Record) -> str:
    for found in record.get_fields("225"):
        title, number = _one(found, "a"), _one(found, "v")
        if title:
            return f"{title} ; {number}" if number else title
    for found in record.get_fields(*SERIES_LINKS):
        title, number = _one(found, "t"), _one(found, "v")
        if title:
            return f"{title} ; {number}" if number else title
    return ""


def _copy_details(record: Record) -> dict[str, Field]:
    """PMB's 996 beside each 995, by the barcode it repeats ($f)."""
    return {_one(f, "f"): f for f in record.get_fields("996") if _one(f, "f")}


def _copy(found: Field, mapping: ImportMapping, number: int, details: dict[str, Field]) -> dict[str, Any]:
    barcode = _one(found, "f")
    detail = details.get(barcode)
    code = (found.get_subfields(mapping.status_subfield) or [""])[0].strip()
    if not code and detail is not None:
        code = _one(detail, "1")  # PMB: a status without an import code is known by its label
    status = (mapping.copy_status.get(code) or mapping.copy_status.get(code.casefold())
              or (mapping.other_status if code else "available"))
    if status not in STATUSES:
        raise Refusal(gettext_noop("copy %(barcode)s: status %(code)s is not in the mapping's table of statuses"),
                      record=number, barcode=barcode, code=repr(code))
    acquired = _one(found, "m") or None
    if acquired and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", acquired):
        acquired = None  # another system's date form: kept in the source record, not in ours
    location = _one(found, "e") or (_one(detail, "v") if detail is not None else "")
    return {"barcode": barcode, "shelf_location": _one(found, "k"), "location": location,
            "status": status, "acquired_on": acquired, "missing_pieces": _one(found, "u")}


def from_marc(record: Record, number: int = 1, mapping: ImportMapping | None = None) -> dict[str, Any]:
    """One UNIMARC record as plain catalogue data (``number``: its place in the file, for errors;
    ``mapping``: the library system's habits, PMB's by default). :class:`Refusal` says why the
    record cannot be taken."""
    mapping = mapping or PRESETS["pmb"]
    title = _first(record, "200", "a")
    if not title:
        raise Refusal(gettext_noop("record %(number)s has no title (200 $a)"), record=number, number=number)
    published = "210" if record.get_fields("210") else "214"
    year = re.search(r"\d{4}", _first(record, published, "d"))
    details = _copy_details(record)
    custom = {}
    for found in record.get_fields("900"):
        names = found.get_subfields("n")
        if names:
            custom[names[0].strip()] = (found.get_subfields("a") or [""])[0].strip()
    item: dict[str, Any] = {
        "title": title,
        "document_type": _first(record, "200", "b"),
        "publisher": _first(record, published, "c"),
        "place": _first(record, published, "a"),
        "publication_year": int(year.group()) if year else None,
        "languages": list(dict.fromkeys(
            code.strip() for f in record.get_fields("101") for code in f.get_subfields("a") if code.strip())),
        "notes": _text(record, "300"),
        "contents": _text(record, "327"),
        "summary": _text(record, "330"),
        "series": _series(record),
        "links": [{"url": _one(f, "u"), "note": _one(f, "z")} for f in record.get_fields("856") if _one(f, "u")],
        "identifiers": list({(i["scheme"], i["value"]): i for i in (
            {"scheme": scheme, "value": value.strip()}
            for scheme, tag in (("isbn", "010"), ("issn", "011"), ("ean", "073"))
            for f in record.get_fields(tag) for value in f.get_subfields("a") if value.strip()
        )}.values()),
        "other_titles": _other_titles(record, title),
        "categories": _categories(record),
        "contributors": list({(c["name"], c["role"]): c for c in (
            {"name": _contributor_name(f),
             "role": RELATOR_TO_ROLE.get(_one(f, "4"), "author" if f.tag in ("700", "701", "710", "711") else "other")}
            for f in record.get_fields("700", "701", "702", "710", "711", "712") if _one(f, "a")
        )}.values()),
        "copies": [_copy(f, mapping, number, details) for f in record.get_fields("995") if _one(f, "f")],
        "bgg_id": _bgg_id(record),
    }
    for name, key in mapping.game_facts.items():
        value = custom.get(name, "")
        item[key] = _integer(value, name, number) if key in INTEGER_FIELDS else value
    for key, _name, _label in CUSTOM_FIELDS:
        item.setdefault(key, None if key in INTEGER_FIELDS else "")
    return item


def _bgg_id(record: Record) -> int | None:
    """The BoardGameGeek id a 035 names (``(BGG)4390``), if one does."""
    for found in record.get_fields("035"):
        for value in found.get_subfields("a"):
            number = value.strip().removeprefix(BGG_PREFIX)
            if value.strip().startswith(BGG_PREFIX) and number.isdigit() and 0 < int(number) < 2**31:
                return int(number)
    return None


# -- the source record, kept whole -----------------------------------------------------------------


def as_data(record: Record) -> dict[str, Any]:
    """A record as JSON-able data that :func:`from_data` turns back into the same record."""
    return {"leader": str(record.leader), "fields": [
        [f.tag, f.data] if f.is_control_field() else
        [f.tag, f.indicator1 or " ", f.indicator2 or " ", [[s.code, s.value] for s in f.subfields]]
        for f in record.fields]}


def from_data(data: dict[str, Any]) -> Record:
    record = Record(force_utf8=True, leader=data["leader"])
    for entry in data["fields"]:
        if len(entry) == 2:
            record.add_field(Field(tag=entry[0], data=entry[1]))
        else:
            tag, first, second, pairs = entry
            record.add_field(Field(tag=tag, indicators=Indicators(first, second),
                                   subfields=[Subfield(code, value) for code, value in pairs]))
    return record


def digest(data: dict[str, Any]) -> str:
    """A fingerprint of a source record: the same record exported again has the same one."""
    return hashlib.sha256(json.dumps(data, ensure_ascii=False, sort_keys=True).encode("utf-8")).hexdigest()


def source_identity(record: Record, source: str = "") -> tuple[str, str]:
    """(source, identifier) of a record: its 001 in the catalogue it comes from — the ``source``
    named at import, else its 003, else the agency of its 801 (the last, the one that issued it);
    a record without 001 is known by the fingerprint of its content, so importing the same file
    again finds it."""
    control = record.get_fields("001")
    identifier = (control[0].data or "").strip() if control else ""
    if not source:
        origin = record.get_fields("003")
        agencies = [_one(f, "b") for f in record.get_fields("801") if _one(f, "b")]
        source = ((origin[0].data or "").strip() if origin else "") or (agencies[-1] if agencies else "") or "unimarc"
    return source[:100], (identifier or "sha256:" + digest(as_data(record))[:40])[:100]


def fields_shown_elsewhere(record: Record) -> list[str]:
    """The tags of the record's fields that no page of Ludolog shows (kept in the source record)."""
    return [f.tag for f in record.fields if f.tag not in MAPPED_TAGS]


def merged(item: dict[str, Any]) -> Record:
    """A record with a kept source record: every field it came with, except where Ludolog changed
    what a tag says (its fields for that tag then win). For each tag Ludolog writes, the fields
    written from the data as imported (``source["mapped"]``) and from the data now are compared:
    equal, the source's own fields stay as they came (with the subfields Ludolog does not read)."""
    source = item["source_record"]
    ours, then = to_marc(item, keep=False), to_marc({**item, **source["mapped"]}, keep=False)
    changed = {tag for tag in {f.tag for f in ours.fields} | {f.tag for f in then.fields}
               if _written(ours, tag) != _written(then, tag)}
    record = from_data(source["marc"])
    kept = [f for f in record.fields if f.tag not in changed]
    record.fields = kept + [f for f in ours.fields if f.tag in changed]
    record.fields.sort(key=lambda f: f.tag)  # stable: each tag's fields keep their order
    return record


def _written(record: Record, tag: str) -> list[str]:
    return sorted(str(f) for f in record.get_fields(tag))


MAPPED_KEYS = (
    "title", "document_type", "publisher", "place", "publication_year", "languages", "notes", "contents",
    "summary", "series", "links", "identifiers", "other_titles", "categories", "contributors", "copies",
    *(key for key, _name, _label in CUSTOM_FIELDS),
)
"""What :func:`from_marc` reads: kept as imported beside the source record, for :func:`merged`."""
