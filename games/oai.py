"""OAI-PMH 2.0, the Open Archives Initiative's harvesting protocol, over the catalogue: pure.

Another library's system or a union catalogue harvests Ludolog's records with it, all of them once
and then only those changed since its last visit (``from``). The protocol is all here, with no
Django: a request's arguments in, the response's XML out. The records come through a
:class:`Repository` (``games.harvest`` reads them from the database) as the plain data of
``games.services.record_data``, with their datestamp and page address; resumption tokens are
sealed and opened by a :class:`TokenSeal` (the site signs them with Django's signing).

What the repository says of itself:

- identifiers ``oai:<host>:catalogue/<id>``, ``host`` the name the harvester reached the site by;
- datestamps to the second (``YYYY-MM-DDThh:mm:ssZ``), a record's last change; ``from`` and
  ``until`` are taken to the day or to the second, both ends included;
- formats ``oai_dc`` (simple Dublin Core) and ``unimarc`` (UNIMARC in MARCXML slim, the mapping of
  :mod:`games.unimarc`);
- sets: ``category``, every record with a classification category, and one set per category,
  ``category:<code>`` (the code's space written ``_``, see :func:`set_spec`);
- deleted records kept (``persistent``): a record deleted from the catalogue is harvested as a
  header marked ``status="deleted"`` (no metadata) from the moment it went, in its sets;
- resumption tokens that carry the whole state of a list (format, bounds, set, the last record
  sent, the count so far and the list's size), so a harvest needs nothing kept on the server and
  stays right while the catalogue changes: records go out in (datestamp, id) order and a page
  starts after the last record of the one before.

>>> set_spec("A 406")
'category:A_406'
>>> category_code("category:A_406")
'A 406'
>>> set_spec("Jeu/Règle_2")
'category:Jeu~2FR~C3~A8gle~5F2'
>>> category_code(set_spec("Jeu/Règle_2"))
'Jeu/Règle_2'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any, Protocol
from xml.sax.saxutils import escape, quoteattr

from . import unimarc

OAI_NAMESPACE = "http://www.openarchives.org/OAI/2.0/"
XSI_NAMESPACE = "http://www.w3.org/2001/XMLSchema-instance"
OAI_SCHEMA = "http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd"
OAI_DC_NAMESPACE = "http://www.openarchives.org/OAI/2.0/oai_dc/"
OAI_DC_SCHEMA = "http://www.openarchives.org/OAI/2.0/oai_dc.xsd"
DC_NAMESPACE = "http://purl.org/dc/elements/1.1/"
MARCXML_NAMESPACE = "http://www.loc.gov/MARC21/slim"
MARCXML_SCHEMA = "http://www.loc.gov/standards/marcxml/schema/MARC21slim.xsd"

METADATA_FORMATS = {
    "oai_dc": (OAI_DC_SCHEMA, OAI_DC_NAMESPACE),
    "unimarc": (MARCXML_SCHEMA, MARCXML_NAMESPACE),
}
GRANULARITY = "YYYY-MM-DDThh:mm:ssZ"
CATEGORY_SETS = "category"
QUERY = ("metadataPrefix", "from", "until", "set")
"""The arguments that choose a list: a resumption token carries them."""

# Each verb's required and optional arguments; a resumption token comes alone (the verb aside).
VERBS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "Identify": (frozenset(), frozenset()),
    "ListMetadataFormats": (frozenset(), frozenset({"identifier"})),
    "ListSets": (frozenset(), frozenset({"resumptionToken"})),
    "ListIdentifiers": (frozenset({"metadataPrefix"}), frozenset({"from", "until", "set", "resumptionToken"})),
    "ListRecords": (frozenset({"metadataPrefix"}), frozenset({"from", "until", "set", "resumptionToken"})),
    "GetRecord": (frozenset({"identifier", "metadataPrefix"}), frozenset()),
}

DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
SECOND = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z")
# What XML 1.0 cannot carry at all, even escaped: a catalogue note pasted from elsewhere may hold it.
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
# oai-identifier.xsd's repositoryIdentifier: a domain name whose labels start with a letter.
DOMAIN = re.compile(r"[a-zA-Z][a-zA-Z0-9\-]*(\.[a-zA-Z][a-zA-Z0-9\-]*)+")
SET_SPEC_SAFE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-.!*'()")


class OAIError(Exception):
    """An error the protocol names (``badArgument``, ``noRecordsMatch`` …), answered in the XML."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Selection:
    """What a list request asks for: a format, datestamps in ``[start, end)``, perhaps a set."""

    prefix: str
    start: datetime | None = None
    end: datetime | None = None
    category: str | None = None
    """A category's code: only its records."""
    in_a_category: bool = False
    """The ``category`` set: only records with some category."""


class Repository(Protocol):
    """The catalogue as the protocol reads it. An item is ``games.services.record_data``'s plain
    data with ``datestamp`` (an aware datetime, the last change) and ``url`` (its page) added; the
    items of a page without metadata need only ``id``, ``datestamp`` and ``categories``."""

    def earliest_datestamp(self) -> datetime | None: ...

    def categories(self) -> list[tuple[str, str]]:
        """Every classification category as ``(code, label)``, in code order."""
        ...

    def count(self, selection: Selection) -> int: ...

    def page(self, selection: Selection, after: tuple[datetime, int] | None, limit: int,
             metadata: str | None) -> list[dict[str, Any]]:
        """At most ``limit`` items in (datestamp, id) order, those after ``after`` only; with
        everything the format ``metadata`` (a prefix, or None for headers only) needs."""
        ...

    def record(self, pk: int) -> dict[str, Any] | None: ...


class TokenSeal(Protocol):
    """Seals a list's state into an opaque resumption token and opens it again: ``open`` raises
    ``ValueError`` for a token it did not seal, one altered, or one older than ``lifetime``."""

    lifetime: timedelta

    def seal(self, state: dict[str, Any]) -> str: ...

    def open(self, token: str) -> dict[str, Any]: ...


# -- sets and identifiers --------------------------------------------------------------------------


def set_spec(code: str) -> str:
    """The set of a category's records: ``category:`` and its code, the characters setSpec may not
    hold written ``~`` and their UTF-8 bytes in hexadecimal, except the space (``_``), so that
    ``A 406`` reads ``A_406`` and every code has a set of its own."""
    written = []
    for character in code:
        if character in SET_SPEC_SAFE:
            written.append(character)
        elif character == " ":
            written.append("_")
        else:
            written.append("".join(f"~{byte:02X}" for byte in character.encode("utf-8")))
    return f"{CATEGORY_SETS}:{''.join(written)}"


def category_code(spec: str) -> str | None:
    """The category code a ``category:…`` set names (its spelling checked), or None."""
    prefix, colon, written = spec.partition(":")
    if prefix != CATEGORY_SETS or not colon or not re.fullmatch(r"([A-Za-z0-9\-.!*'()_]|~[0-9A-F]{2})+", written):
        return None
    data = bytearray()
    for piece in re.findall(r"~[0-9A-F]{2}|.", written):
        data += bytes([int(piece[1:], 16)]) if piece.startswith("~") else (b" " if piece == "_" else piece.encode())
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def datestamp(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_datestamp(value: str) -> tuple[datetime, timedelta]:
    """A ``from``/``until`` argument: the moment it names and its granularity (a day or a second).

    >>> parse_datestamp("2026-12-05")
    (datetime.datetime(2026, 12, 5, 0, 0, tzinfo=datetime.timezone.utc), datetime.timedelta(days=1))
    >>> parse_datestamp("2026-12-05T21:30:00Z")[0].isoformat()
    '2026-12-05T21:30:00+00:00'
    """
    try:
        if DAY.fullmatch(value):
            return datetime.strptime(value, "%Y-%m-%d").replace(tzinfo=UTC), timedelta(days=1)
        if SECOND.fullmatch(value):
            return datetime.strptime(value, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC), timedelta(seconds=1)
    except ValueError:
        pass
    raise OAIError("badArgument", f"{value!r} is not a date (YYYY-MM-DD) or a time (YYYY-MM-DDThh:mm:ssZ)")


# -- the endpoint ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Endpoint:
    """The repository's answers to harvesters. ``host`` is the name identifiers are made with."""

    repository: Repository
    seal: TokenSeal
    base_url: str
    host: str
    name: str = "Ludolog"
    admin_emails: Sequence[str] = ()
    page_size: int = 100

    def respond(self, arguments: Mapping[str, Sequence[str]], now: datetime) -> bytes:
        """The response document to a request with these arguments (each name with its values,
        as a query string or a form gives them)."""
        verb_values = arguments.get("verb", [])
        verb = verb_values[0] if len(verb_values) == 1 else None
        echoed: dict[str, str] = {}
        try:
            if verb not in VERBS:
                raise OAIError("badVerb", "Missing verb" if not verb_values else
                               "The verb is repeated" if len(verb_values) > 1 else f"Illegal verb {verb_values[0]!r}")
            given = self._arguments(verb, arguments)
            echoed = {"verb": verb, **given}
            body = getattr(self, f"_{verb}")(given, now)
        except OAIError as error:
            if error.code in ("badVerb", "badArgument"):
                echoed = {}  # the protocol echoes no attributes of a request it could not read
            body = f'<error code="{error.code}">{escape(error.message)}</error>'
        return self._document(echoed, body, now)

    def identifier(self, pk: int) -> str:
        return f"oai:{self.host}:catalogue/{pk}"

    # -- the verbs ---------------------------------------------------------------------------------

    def _Identify(self, arguments: dict[str, str], now: datetime) -> str:
        earliest = self.repository.earliest_datestamp() or now
        parts = [
            _element("repositoryName", self.name),
            _element("baseURL", self.base_url),
            _element("protocolVersion", "2.0"),
            *(_element("adminEmail", email) for email in self.admin_emails),
            _element("earliestDatestamp", datestamp(earliest)),
            _element("deletedRecord", "persistent"),
            _element("granularity", GRANULARITY),
        ]
        if DOMAIN.fullmatch(self.host):
            parts.append(
                '<description><oai-identifier xmlns="http://www.openarchives.org/OAI/2.0/oai-identifier" '
                f'xmlns:xsi="{XSI_NAMESPACE}" xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/oai-identifier '
                'http://www.openarchives.org/OAI/2.0/oai-identifier.xsd"><scheme>oai</scheme>'
                f"{_element('repositoryIdentifier', self.host)}<delimiter>:</delimiter>"
                f"{_element('sampleIdentifier', self.identifier(1))}</oai-identifier></description>"
            )
        return _wrap("Identify", parts)

    def _ListMetadataFormats(self, arguments: dict[str, str], now: datetime) -> str:
        if "identifier" in arguments:
            self._item(arguments["identifier"])
        return _wrap("ListMetadataFormats", [
            f"<metadataFormat>{_element('metadataPrefix', prefix)}{_element('schema', schema)}"
            f"{_element('metadataNamespace', namespace)}</metadataFormat>"
            for prefix, (schema, namespace) in METADATA_FORMATS.items()
        ])

    def _ListSets(self, arguments: dict[str, str], now: datetime) -> str:
        if "resumptionToken" in arguments:
            raise OAIError("badResumptionToken", "The list of sets comes whole: it has no resumption token")
        categories = self.repository.categories()
        if not categories:
            raise OAIError("noSetHierarchy", "The catalogue has no classification categories, hence no sets")
        sets = [(CATEGORY_SETS, "Classification categories")]
        sets += [(set_spec(code), f"{code} {label}".strip()) for code, label in categories]
        return _wrap("ListSets", [
            f"<set>{_element('setSpec', spec)}{_element('setName', name)}</set>" for spec, name in sets
        ])

    def _GetRecord(self, arguments: dict[str, str], now: datetime) -> str:
        item = self._item(arguments["identifier"])
        prefix = self._prefix(arguments["metadataPrefix"])
        return _wrap("GetRecord", [self._record(item, prefix)])

    def _ListIdentifiers(self, arguments: dict[str, str], now: datetime) -> str:
        return self._list("ListIdentifiers", arguments, now)

    def _ListRecords(self, arguments: dict[str, str], now: datetime) -> str:
        return self._list("ListRecords", arguments, now)

    def _list(self, verb: str, arguments: dict[str, str], now: datetime) -> str:
        if "resumptionToken" in arguments:
            state = self._open(arguments["resumptionToken"])
            query = {name: state[name] for name in QUERY if state.get(name) is not None}
            after = (datetime.fromisoformat(state["after"][0]), int(state["after"][1]))
            cursor, size = int(state["cursor"]), int(state["size"])
            selection = self._selection(query)
        else:
            query = {name: arguments[name] for name in QUERY if name in arguments}
            selection = self._selection(query)
            after, cursor, size = None, 0, self.repository.count(selection)
            if not size:
                raise OAIError("noRecordsMatch", "No record matches these arguments")
        metadata = selection.prefix if verb == "ListRecords" else None
        items = self.repository.page(selection, after, self.page_size + 1, metadata)
        if not items:
            raise OAIError("noRecordsMatch", "No record is left to harvest in this list")
        more, items = len(items) > self.page_size, items[: self.page_size]
        write = (lambda item: self._record(item, selection.prefix)) if metadata else self._header
        parts = [write(item) for item in items]
        sent = cursor + len(items)
        size = max(size, sent + more)  # records added since the list began make it longer
        if more:
            last = items[-1]
            token = self.seal.seal(query | {"after": [last["datestamp"].isoformat(), last["id"]],
                                            "cursor": sent, "size": size})
            expires = datestamp(now + self.seal.lifetime)
            parts.append(f'<resumptionToken expirationDate="{expires}" completeListSize="{size}" '
                         f'cursor="{cursor}">{escape(token)}</resumptionToken>')
        elif cursor:
            parts.append(f'<resumptionToken completeListSize="{sent}" cursor="{cursor}"/>')
        return _wrap(verb, parts)

    # -- reading the arguments ---------------------------------------------------------------------

    @staticmethod
    def _arguments(verb: str, arguments: Mapping[str, Sequence[str]]) -> dict[str, str]:
        required, optional = VERBS[verb]
        given: dict[str, str] = {}
        for name, values in arguments.items():
            if name == "verb":
                continue
            if name not in required | optional:
                raise OAIError("badArgument", f"{verb} takes no argument {name!r}")
            if len(values) != 1:
                raise OAIError("badArgument", f"The argument {name!r} is repeated")
            given[name] = values[0]
        if "resumptionToken" in given:
            if len(given) > 1:
                raise OAIError("badArgument", "A resumptionToken comes alone (with the verb)")
            return given
        missing = sorted(required - given.keys())
        if missing:
            raise OAIError("badArgument", f"{verb} needs {', '.join(missing)}")
        return given

    def _prefix(self, prefix: str) -> str:
        if prefix not in METADATA_FORMATS:
            raise OAIError("cannotDisseminateFormat",
                           f"No format {prefix!r} here: {', '.join(METADATA_FORMATS)}")
        return prefix

    def _selection(self, arguments: Mapping[str, str]) -> Selection:
        start = end = None
        if "from" in arguments:
            start, start_step = parse_datestamp(arguments["from"])
        if "until" in arguments:
            until, end_step = parse_datestamp(arguments["until"])
            end = until + end_step if until.date() < date.max else None  # until=9999-12-31: no bound
            if start is not None and start_step != end_step:
                raise OAIError("badArgument", "'from' and 'until' must have the same granularity")
        prefix = self._prefix(arguments["metadataPrefix"])
        if "set" not in arguments:
            return Selection(prefix, start, end)
        categories = self.repository.categories()
        if not categories:
            raise OAIError("noSetHierarchy", "The catalogue has no classification categories, hence no sets")
        if arguments["set"] == CATEGORY_SETS:
            return Selection(prefix, start, end, in_a_category=True)
        code = category_code(arguments["set"])
        if code is None or code not in {code for code, _label in categories}:
            raise OAIError("noRecordsMatch", f"No set {arguments['set']!r} here (ListSets lists them)")
        return Selection(prefix, start, end, category=code)

    def _item(self, identifier: str) -> dict[str, Any]:
        prefix = f"oai:{self.host}:catalogue/"
        local = identifier[len(prefix):] if identifier.startswith(prefix) else ""
        item = self.repository.record(int(local)) if local.isdigit() and len(local) < 19 else None
        if item is None:
            raise OAIError("idDoesNotExist", f"No record {identifier!r} here")
        return item

    def _open(self, token: str) -> dict[str, Any]:
        """A resumption token's state, checked: the list it continues is still one to give."""
        try:
            state = self.seal.open(token)
            self._selection({name: state[name] for name in QUERY if state.get(name) is not None})
            datetime.fromisoformat(state["after"][0]), int(state["after"][1]), int(state["cursor"]), int(state["size"])
            return state
        except (ValueError, KeyError, TypeError, IndexError, OAIError):
            raise OAIError("badResumptionToken", "The resumption token is unknown, altered or expired") from None

    # -- writing -----------------------------------------------------------------------------------

    def _header(self, item: dict[str, Any]) -> str:
        specs = "".join(_element("setSpec", set_spec(c["code"])) for c in item.get("categories", []))
        status = ' status="deleted"' if item.get("deleted") else ""
        return (f"<header{status}>{_element('identifier', self.identifier(item['id']))}"
                f"{_element('datestamp', datestamp(item['datestamp']))}{specs}</header>")

    def _record(self, item: dict[str, Any], prefix: str) -> str:
        if item.get("deleted"):
            return f"<record>{self._header(item)}</record>"  # a deleted record has no metadata
        metadata = unimarc.marcxml_record(item) if prefix == "unimarc" else dublin_core(item)
        return f"<record>{self._header(item)}<metadata>{metadata}</metadata></record>"

    def _document(self, echoed: dict[str, str], body: str, now: datetime) -> bytes:
        attributes = "".join(f" {name}={quoteattr(value)}" for name, value in echoed.items())
        text = (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<OAI-PMH xmlns="{OAI_NAMESPACE}" xmlns:xsi="{XSI_NAMESPACE}" '
            f'xsi:schemaLocation="{OAI_NAMESPACE} {OAI_SCHEMA}">\n'
            f"<responseDate>{datestamp(now)}</responseDate>\n"
            f"<request{attributes}>{escape(self.base_url)}</request>\n{body}\n</OAI-PMH>\n"
        )
        return NOT_XML.sub("", text).encode("utf-8")


def _element(tag: str, text: Any) -> str:
    return f"<{tag}>{escape(str(text))}</{tag}>"


def _wrap(tag: str, parts: Iterable[str]) -> str:
    return f"<{tag}>" + "\n".join(parts) + f"</{tag}>"


# -- simple Dublin Core ----------------------------------------------------------------------------

def dublin_core(item: dict[str, Any]) -> str:
    """A catalogue record as ``oai_dc``: unqualified Dublin Core, every element that has a value;
    the authors are its creators, the illustrators, translators and others its contributors.

    >>> print(dublin_core({"id": 1, "title": "Carcassonne", "publisher": "Hans im Glück",
    ...     "contributors": [{"name": "Klaus-Jürgen Wrede", "role": "author"}], "languages": ["fre"],
    ...     "publication_year": 2000, "url": "https://ludo.example/catalogue/1/"}).replace("><", ">\\n<"))
    ... # doctest: +ELLIPSIS
    <oai_dc:dc ...>
    <dc:title>Carcassonne</dc:title>
    <dc:creator>Klaus-Jürgen Wrede</dc:creator>
    <dc:publisher>Hans im Glück</dc:publisher>
    <dc:date>2000</dc:date>
    <dc:type>PhysicalObject</dc:type>
    <dc:identifier>https://ludo.example/catalogue/1/</dc:identifier>
    <dc:language>fre</dc:language>
    </oai_dc:dc>
    """
    elements: list[tuple[str, Any]] = [("title", item["title"])]
    elements += [("title", other["title"]) for other in item.get("other_titles", [])]
    contributors = item.get("contributors", [])
    elements += [("creator", c["name"]) for c in contributors if c["role"] == "author"]
    elements += [("subject", f"{c['code']} {c['label']}".strip()) for c in item.get("categories", [])]
    elements += [("description", item.get("summary")), ("description", unimarc.audience_note(item))]
    elements += [("publisher", item.get("publisher"))]
    elements += [("contributor", c["name"]) for c in contributors if c["role"] != "author"]
    elements += [("date", item.get("publication_year")), ("type", "PhysicalObject"),
                 ("type", item.get("document_type")), ("format", item.get("contents")),
                 ("identifier", item.get("url"))]
    elements += [("identifier", f"urn:isbn:{i['value']}" if i["scheme"] == "isbn" else f"urn:ean:{i['value']}")
                 for i in item.get("identifiers", []) if i["scheme"] in ("isbn", "ean")]
    elements += [("language", code) for code in item.get("languages", [])]
    body = "".join(f"<dc:{name}>{escape(str(value))}</dc:{name}>" for name, value in elements
                   if value not in (None, ""))
    return (f'<oai_dc:dc xmlns:oai_dc="{OAI_DC_NAMESPACE}" xmlns:dc="{DC_NAMESPACE}" '
            f'xmlns:xsi="{XSI_NAMESPACE}" xsi:schemaLocation="{OAI_DC_NAMESPACE} {OAI_DC_SCHEMA}">'
            f"{body}</oai_dc:dc>")

