"""OAI-PMH 2.0 at /oai/: the catalogue harvested by a real client (Sickle) over HTTP, whole and
incrementally, page after page; every error the protocol names, from hand-made requests; the
shape of the response documents; the queries a page costs."""

from __future__ import annotations

import io
import re
from datetime import UTC, datetime, timedelta
from xml.etree import ElementTree

import pymarc
import pytest
from django.test import Client
from sickle import Sickle, oaiexceptions

from games import oai
from games.models import CatalogueRecord, Category
from tests.games.oai_catalogue import CATEGORIES, CHANGED_AT, build_catalogue

OAI = "{http://www.openarchives.org/OAI/2.0/}"
MARC = "{http://www.loc.gov/MARC21/slim}"
DC = "{http://purl.org/dc/elements/1.1/}"


class CountingSickle(Sickle):
    """Sickle, counting the requests (pages) a harvest took."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, timeout=30, **kwargs)
        self.requests: list[dict] = []

    def harvest(self, **kwargs):
        self.requests.append(dict(kwargs))
        return super().harvest(**kwargs)


@pytest.fixture
def small_pages(settings):
    settings.LUDOLOG_OAI_PAGE_SIZE = 50


def ask(client: Client, method: str = "get", headers: dict | None = None, **arguments) -> ElementTree.Element:
    answer = getattr(client, method)("/oai/", arguments, headers=headers)
    assert answer.status_code == 200 and answer["Content-Type"] == "text/xml; charset=utf-8"
    return ElementTree.fromstring(answer.content)


def error_of(document: ElementTree.Element) -> str | None:
    error = document.find(f"{OAI}error")
    return error.get("code") if error is not None else None


def marc_of(record) -> pymarc.Record:
    """The MARCXML record inside a harvested OAI record, read back by pymarc."""
    node = record.xml.find(f".//{OAI}metadata/{MARC}record")
    from lxml import etree

    return pymarc.parse_xml_to_array(io.BytesIO(etree.tostring(node)))[0]


# -- harvested by Sickle over HTTP -----------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_whole_harvest_in_dublin_core_brings_every_record_once_page_after_page(live_server, small_pages):
    ids = build_catalogue(230)
    sickle = CountingSickle(f"{live_server.url}/oai/")
    records = list(sickle.ListRecords(metadataPrefix="oai_dc"))
    identifiers = [record.header.identifier for record in records]
    assert identifiers == [f"oai:localhost:catalogue/{pk}" for pk in ids]  # every one once, in order
    assert len(sickle.requests) == 5  # 50 + 50 + 50 + 50 + 30, each page after a resumption token
    assert [set(r) for r in sickle.requests[1:]] == [{"verb", "resumptionToken"}] * 4
    first = records[0]
    assert first.header.datestamp == "2026-03-01T09:30:15Z"
    assert first.header.setSpecs == ["category:A_406"]
    assert first.metadata["title"] == ["Carcassonne n° 0 – « édition » & <extension>"]
    assert first.metadata["creator"] == ["Klaus-Jürgen Wrede", "Bernhard Weber"]
    assert first.metadata["contributor"] == ["Élodie Noël"]
    assert first.metadata["publisher"] == ["Hans im Glück"]
    assert first.metadata["subject"] == ["A 406 jeu de stratégie (jeu de règles)"]
    assert first.metadata["language"] == ["fre"]
    assert first.metadata["identifier"] == [f"{live_server.url}/catalogue/{ids[0]}/", f"urn:ean:4{ids[0]:012d}"]


@pytest.mark.django_db(transaction=True)
def test_a_whole_harvest_in_unimarc_by_post_brings_every_record_once_as_marcxml(live_server, small_pages):
    ids = build_catalogue(120)
    sickle = CountingSickle(f"{live_server.url}/oai/", http_method="POST")
    records = list(sickle.ListRecords(metadataPrefix="unimarc"))
    assert [r.header.identifier for r in records] == [f"oai:localhost:catalogue/{pk}" for pk in ids]
    assert len(sickle.requests) == 3
    marc = marc_of(records[7])
    assert marc["001"].data == f"ludolog:{ids[7]}"
    assert marc["200"]["a"] == "Carcassonne n° 7 – « édition » & <extension>"
    assert (marc["686"]["a"], marc["210"]["c"]) == ("A 407", "Hans im Glück")


@pytest.mark.django_db(transaction=True)
def test_get_record_in_unimarc_parses_with_pymarc_and_carries_the_title(live_server):
    ids = build_catalogue(3)
    record = Sickle(f"{live_server.url}/oai/").GetRecord(
        identifier=f"oai:localhost:catalogue/{ids[1]}", metadataPrefix="unimarc")
    marc = marc_of(record)
    assert marc["200"]["a"] == "Carcassonne n° 1 – « édition » & <extension>"
    assert [f["a"] for f in marc.get_fields("700", "701")] == ["Weber", "Noël"]
    assert marc["702"]["4"] == "440"  # the illustrator


@pytest.mark.django_db(transaction=True)
def test_an_incremental_harvest_brings_only_the_records_changed_since_its_date(live_server, small_pages):
    ids = build_catalogue(180)
    changed = ids[5::3]  # 59 records, spread over the whole list
    later = CHANGED_AT + timedelta(days=40, seconds=7)
    CatalogueRecord.objects.filter(pk__in=changed).update(updated_at=later)
    sickle = CountingSickle(f"{live_server.url}/oai/")

    since = list(sickle.ListIdentifiers(metadataPrefix="oai_dc", **{"from": "2026-04-10T09:30:22Z"}))
    assert [h.identifier for h in since] == [f"oai:localhost:catalogue/{pk}" for pk in changed]
    assert {h.datestamp for h in since} == {"2026-04-10T09:30:22Z"}
    assert len(sickle.requests) == 2  # 59 records: 50 and 9
    assert list(sickle.ListIdentifiers(metadataPrefix="oai_dc", **{"from": "2026-04-10"})) != []
    with pytest.raises(oaiexceptions.NoRecordsMatch):
        list(sickle.ListIdentifiers(metadataPrefix="oai_dc", **{"from": "2026-04-10T09:30:23Z"}))
    until = list(sickle.ListRecords(metadataPrefix="unimarc", until="2026-03-01"))
    assert len(until) == len(ids) - len(changed)  # the day named is included whole
    assert len(list(sickle.ListIdentifiers(metadataPrefix="oai_dc", until="9999-12-31T23:59:59Z"))) == len(ids)
    assert len(list(sickle.ListIdentifiers(metadataPrefix="oai_dc", until="9999-12-31"))) == len(ids)


@pytest.mark.django_db(transaction=True)
def test_a_record_changed_during_a_harvest_comes_again_at_its_end_and_none_is_missed(live_server, small_pages):
    ids = build_catalogue(120)
    harvest = iter(CountingSickle(f"{live_server.url}/oai/").ListIdentifiers(metadataPrefix="oai_dc"))
    seen = [next(harvest).identifier for _ in range(60)]  # the second page has begun
    CatalogueRecord.objects.filter(pk__in=[ids[10], ids[100]]).update(updated_at=CHANGED_AT + timedelta(hours=1))
    seen += [header.identifier for header in harvest]
    expected = [f"oai:localhost:catalogue/{pk}" for pk in ids]
    # The one changed after it was sent comes again; the one changed before its turn comes once, later.
    assert sorted(seen) == sorted(expected + [expected[10]])
    assert seen[-2:] == [expected[10], expected[100]]


@pytest.mark.django_db(transaction=True)
def test_sets_list_the_categories_and_choose_their_records(live_server, small_pages):
    ids = build_catalogue(150)
    Category.objects.create(code="B:1/2", label="jeu de l'été")
    sickle = Sickle(f"{live_server.url}/oai/")
    sets = {s.setSpec: s.setName for s in sickle.ListSets()}
    assert sets == {"category": "Classification categories",
                    **{f"category:{code.replace(' ', '_')}": f"{code} {label}" for code, label in CATEGORIES},
                    "category:B~3A1~2F2": "B:1/2 jeu de l'été"}
    cooperative = list(sickle.ListIdentifiers(metadataPrefix="oai_dc", set="category:A_407"))
    assert [h.identifier for h in cooperative] == [f"oai:localhost:catalogue/{pk}" for pk in ids[1::3]]
    assert len(list(sickle.ListIdentifiers(metadataPrefix="oai_dc", set="category"))) == 150
    with pytest.raises(oaiexceptions.NoRecordsMatch):
        list(sickle.ListIdentifiers(metadataPrefix="oai_dc", set="category:B~3A1~2F2"))


@pytest.mark.django_db(transaction=True)
def test_identify_and_the_metadata_formats_as_a_client_reads_them(live_server):
    build_catalogue(2)
    sickle = Sickle(f"{live_server.url}/oai/")
    identify = sickle.Identify()
    assert (identify.repositoryName, identify.baseURL, identify.protocolVersion) == (
        "Ludolog", f"{live_server.url}/oai/", "2.0")
    assert (identify.earliestDatestamp, identify.deletedRecord, identify.granularity) == (
        "2026-03-01T09:30:15Z", "persistent", "YYYY-MM-DDThh:mm:ssZ")
    formats = {f.metadataPrefix: f.metadataNamespace for f in sickle.ListMetadataFormats()}
    assert formats == {"oai_dc": "http://www.openarchives.org/OAI/2.0/oai_dc/",
                       "unimarc": "http://www.loc.gov/MARC21/slim"}


# -- every error, from hand-made requests ----------------------------------------------------------


ERRORS = [
    ("badVerb", {}),
    ("badVerb", {"verb": "ListEverything"}),
    ("badVerb", {"verb": ["Identify", "Identify"]}),
    ("badArgument", {"verb": "Identify", "metadataPrefix": "oai_dc"}),
    ("badArgument", {"verb": "ListRecords"}),
    ("badArgument", {"verb": "ListRecords", "metadataPrefix": ["oai_dc", "unimarc"]}),
    ("badArgument", {"verb": "ListRecords", "metadataPrefix": "oai_dc", "from": "yesterday"}),
    ("badArgument", {"verb": "ListRecords", "metadataPrefix": "oai_dc", "from": "2026-02-30"}),
    ("badArgument", {"verb": "ListRecords", "metadataPrefix": "oai_dc", "from": "2026-03-01T09:30"}),
    ("badArgument", {"verb": "ListRecords", "metadataPrefix": "oai_dc", "from": "2026-03-01",
                     "until": "2026-03-02T00:00:00Z"}),
    ("badArgument", {"verb": "ListRecords", "metadataPrefix": "oai_dc", "resumptionToken": "x"}),
    ("badArgument", {"verb": "GetRecord", "metadataPrefix": "oai_dc"}),
    ("cannotDisseminateFormat", {"verb": "ListRecords", "metadataPrefix": "marc21"}),
    ("cannotDisseminateFormat", {"verb": "GetRecord", "metadataPrefix": "mods", "identifier": "{first}"}),
    ("idDoesNotExist", {"verb": "GetRecord", "metadataPrefix": "oai_dc", "identifier": "oai:testserver:catalogue/0"}),
    ("idDoesNotExist", {"verb": "GetRecord", "metadataPrefix": "oai_dc", "identifier": "oai:elsewhere.org:catalogue/{id}"}),
    ("idDoesNotExist", {"verb": "GetRecord", "metadataPrefix": "oai_dc", "identifier": "catalogue/{id}"}),
    ("idDoesNotExist", {"verb": "ListMetadataFormats", "identifier": "oai:testserver:catalogue/99999999999999999999"}),
    ("badResumptionToken", {"verb": "ListRecords", "resumptionToken": "not-a-token"}),
    ("badResumptionToken", {"verb": "ListSets", "resumptionToken": "anything"}),
    ("noRecordsMatch", {"verb": "ListRecords", "metadataPrefix": "oai_dc", "from": "2027-01-01"}),
    ("noRecordsMatch", {"verb": "ListIdentifiers", "metadataPrefix": "oai_dc", "until": "2025-12-31T23:59:59Z"}),
    ("noRecordsMatch", {"verb": "ListIdentifiers", "metadataPrefix": "oai_dc", "set": "category:Z_999"}),
    ("noRecordsMatch", {"verb": "ListIdentifiers", "metadataPrefix": "oai_dc", "set": "shelf:A"}),
]


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["get", "post"])
@pytest.mark.parametrize(("code", "arguments"), ERRORS, ids=[f"{c}-{n}" for n, (c, _a) in enumerate(ERRORS)])
def test_each_error_the_protocol_names_is_answered_200_with_its_code(client, method, code, arguments):
    pk = build_catalogue(1)[0]
    arguments = {name: value.format(id=pk, first=f"oai:testserver:catalogue/{pk}") if isinstance(value, str) else value
                 for name, value in arguments.items()}
    document = ask(client, method, **arguments)
    assert error_of(document) == code
    request = document.find(f"{OAI}request")
    assert request.text == "http://testserver/oai/"
    if code in ("badVerb", "badArgument"):
        assert request.attrib == {}  # the protocol: no attributes echoed from a request not understood
    else:
        assert request.attrib == arguments


@pytest.mark.django_db
def test_the_protocol_is_get_or_post_only(client):
    assert client.put("/oai/?verb=Identify").status_code == 405
    assert client.head("/oai/?verb=Identify").status_code == 200


@pytest.mark.django_db
def test_no_set_hierarchy_while_the_catalogue_has_no_categories(client):
    build_catalogue(2)
    Category.objects.all().delete()
    assert error_of(ask(client, verb="ListSets")) == "noSetHierarchy"
    assert error_of(ask(client, verb="ListRecords", metadataPrefix="oai_dc", set="category")) == "noSetHierarchy"
    assert error_of(ask(client, verb="ListRecords", metadataPrefix="oai_dc")) is None


@pytest.mark.django_db
def test_an_empty_catalogue_has_no_records_to_list(client):
    assert error_of(ask(client, verb="ListIdentifiers", metadataPrefix="unimarc")) == "noRecordsMatch"
    assert ask(client, verb="Identify").find(f"{OAI}Identify/{OAI}earliestDatestamp") is not None


@pytest.mark.django_db
def test_a_resumption_token_altered_or_expired_is_refused(client, settings):
    settings.LUDOLOG_OAI_PAGE_SIZE = 2
    build_catalogue(5)
    token = ask(client, verb="ListIdentifiers", metadataPrefix="oai_dc").find(f".//{OAI}resumptionToken").text
    assert len(ask(client, verb="ListIdentifiers", resumptionToken=token).findall(f".//{OAI}header")) == 2
    altered = token[:-3] + ("AAA" if token[-3:] != "AAA" else "BBB")
    assert error_of(ask(client, verb="ListIdentifiers", resumptionToken=altered)) == "badResumptionToken"
    # A token's verb is the request's own: ListRecords may resume a ListIdentifiers list
    assert len(ask(client, verb="ListRecords", resumptionToken=token).findall(f".//{OAI}record")) == 2
    settings.LUDOLOG_OAI_TOKEN_SECONDS = -1
    assert error_of(ask(client, verb="ListIdentifiers", resumptionToken=token)) == "badResumptionToken"


# -- the documents' shape --------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_response_is_an_oai_pmh_document_with_its_date_and_request(client, settings):
    settings.LUDOLOG_OAI_PAGE_SIZE = 3
    build_catalogue(7)
    before = datetime.now(UTC).replace(microsecond=0)
    answer = client.get("/oai/", {"verb": "ListRecords", "metadataPrefix": "oai_dc", "set": "category"})
    assert answer.content.startswith(b'<?xml version="1.0" encoding="UTF-8"?>')
    document = ElementTree.fromstring(answer.content)
    assert document.tag == f"{OAI}OAI-PMH"
    assert document.get("{http://www.w3.org/2001/XMLSchema-instance}schemaLocation") == (
        "http://www.openarchives.org/OAI/2.0/ http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd")
    assert [child.tag for child in document] == [f"{OAI}responseDate", f"{OAI}request", f"{OAI}ListRecords"]
    answered = datetime.strptime(document.find(f"{OAI}responseDate").text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    assert before <= answered <= datetime.now(UTC)
    request = document.find(f"{OAI}request")
    assert request.attrib == {"verb": "ListRecords", "metadataPrefix": "oai_dc", "set": "category"}
    token = document.find(f"{OAI}ListRecords/{OAI}resumptionToken")
    assert (token.get("cursor"), token.get("completeListSize")) == ("0", "7")
    expires = datetime.strptime(token.get("expirationDate"), "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    assert timedelta(hours=23) < expires - answered <= timedelta(hours=24)
    dc = document.find(f"{OAI}ListRecords/{OAI}record/{OAI}metadata/{{http://www.openarchives.org/OAI/2.0/oai_dc/}}dc")
    assert dc.find(f"{DC}title").text == "Carcassonne n° 0 – « édition » & <extension>"
    last = ask(client, verb="ListRecords", resumptionToken=ask(client, verb="ListRecords", resumptionToken=token.text)
               .find(f".//{OAI}resumptionToken").text)
    end = last.find(f".//{OAI}resumptionToken")
    assert (end.text, end.get("cursor"), end.get("completeListSize")) == (None, "6", "7")
    assert len(last.findall(f".//{OAI}record")) == 1


@pytest.mark.django_db
def test_text_xml_cannot_carry_is_left_out_rather_than_breaking_the_document(client):
    pk = build_catalogue(1)[0]
    CatalogueRecord.objects.filter(pk=pk).update(summary="bell\x07 and form feed\x0c")
    for prefix in ("oai_dc", "unimarc"):
        document = ask(client, verb="GetRecord", metadataPrefix=prefix, identifier=f"oai:testserver:catalogue/{pk}")
        assert "bell and form feed" in ElementTree.tostring(document, encoding="unicode")


@pytest.mark.django_db
def test_identify_names_the_repository_by_its_domain(client, settings):
    settings.ALLOWED_HOSTS = ["ludo.example.org"]
    document = ask(client, verb="Identify", headers={"host": "ludo.example.org"})
    identifier = document.find(f".//{{http://www.openarchives.org/OAI/2.0/oai-identifier}}sampleIdentifier")
    assert identifier.text == "oai:ludo.example.org:catalogue/1"


@pytest.mark.django_db
def test_a_page_of_a_hundred_records_takes_a_handful_of_queries(client, django_assert_max_num_queries):
    build_catalogue(150)
    for prefix in ("oai_dc", "unimarc"):
        # count (records and deleted ones), page, publisher joined, six relations, the deleted page
        with django_assert_max_num_queries(11):
            document = ask(client, verb="ListRecords", metadataPrefix=prefix)
        assert len(document.findall(f".//{OAI}record")) == 100
        with django_assert_max_num_queries(11):
            document = ask(client, verb="ListRecords",
                           resumptionToken=document.find(f".//{OAI}resumptionToken").text)
        assert len(document.findall(f".//{OAI}record")) == 50


# -- the protocol's pure parts ---------------------------------------------------------------------


@pytest.mark.parametrize("code", ["A 406", "A_406", "a~b", "Jeu/Règle", "B:1", "x" * 30, "é à"])
def test_every_category_code_has_a_set_spec_of_its_own_that_reads_back(code):
    spec = oai.set_spec(code)
    assert re.fullmatch(r"([A-Za-z0-9\-_.!~*'()])+(:[A-Za-z0-9\-_.!~*'()]+)*", spec)  # the protocol's syntax
    assert oai.category_code(spec) == code


def test_set_specs_of_other_hierarchies_or_misspelt_name_no_category():
    assert [oai.category_code(s) for s in ("category", "category:", "shelf:A", "category:~ZZ", "category:a b")] == [
        None] * 5


# -- the scale -----------------------------------------------------------------------------


@pytest.mark.postgres
@pytest.mark.slow(seconds=15)
@pytest.mark.django_db(transaction=True)
def test_ten_thousand_records_harvested_whole_and_then_incrementally(live_server, settings):
    settings.LUDOLOG_OAI_PAGE_SIZE = 500
    ids = build_catalogue(10_000)
    changed = ids[3::10]
    CatalogueRecord.objects.filter(pk__in=changed).update(updated_at=CHANGED_AT + timedelta(days=1))
    sickle = CountingSickle(f"{live_server.url}/oai/")
    headers = [h.identifier for h in sickle.ListIdentifiers(metadataPrefix="unimarc")]
    assert len(headers) == len(set(headers)) == 10_000 and len(sickle.requests) == 20
    assert set(headers) == {f"oai:localhost:catalogue/{pk}" for pk in ids}
    since = list(sickle.ListRecords(metadataPrefix="oai_dc", **{"from": "2026-03-02"}))
    assert [r.header.identifier for r in since] == [f"oai:localhost:catalogue/{pk}" for pk in changed]
    assert len(sickle.requests) == 22  # 1,000 records: two pages more
