"""UNIMARC exchange with library systems (PMB, Koha): export, import, round trips, refusals."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pymarc
import pytest
from django.core.management import call_command
from django.db.models import Value
from django.db.models.functions import Concat
from django.core.management.base import CommandError
from django.test import Client

from games import unimarc
from games.models import CatalogueRecord, Contribution, Copy, Identifier, Language, OtherTitle
from games.unimarc_import import reason_text
from games.services import catalogue_data, demo_catalogue_data, export_unimarc, import_unimarc, load_catalogue

HG_TITLE = "Carcassonne à la prèhistoire"


def plain(item: dict, like: dict | None = None) -> dict:
    """The fields a UNIMARC file carries back (ids and dates entered are the database's own), as
    far as ``like`` (the demo's data) has them: the demo leaves out what it does not fill."""
    like = like or item

    def alike(value, model):
        if isinstance(value, list) and model and isinstance(model[0], dict):
            return [{k: v for k, v in entry.items() if k in model[0]} for entry in value]
        return value

    return {key: ("" if key == "publisher" and value is None else alike(value, like.get(key)))
            for key, value in item.items() if key not in ("id", "entered_on") and key in like}


def demo_items() -> list[dict]:
    return demo_catalogue_data()["records"]


# -- the mapping alone (no database) -------------------------------------------------------------


@pytest.mark.parametrize("writer", [unimarc.to_iso2709, unimarc.to_marcxml])
def test_the_demo_records_come_back_from_a_file_as_they_went_in(writer):
    data = writer(demo_items())
    back = [unimarc.from_marc(record, n) for n, record in enumerate(unimarc.read(data), start=1)]
    assert [plain(record, item) for record, item in zip(back, demo_items())] == [plain(item) for item in demo_items()]


def test_the_seed_record_in_unimarc_fields():
    record = next(unimarc.read(unimarc.to_iso2709([demo_items()[0]])))
    leader = record.leader
    assert (leader[5], leader[6], leader[7], leader[9], leader[20:24]) == ("n", "r", "m", " ", "450 ")
    general = record["100"]["a"]
    assert len(general) == 36 and general[22:25] == "fre" and general[26:28] == "50" and general[17] == "d"
    assert record["101"].get_subfields("a") == ["fre"]
    assert record["200"]["a"] == HG_TITLE and record["200"]["b"] == "objet à 3 dimensions, artefacts, ..."
    assert record["210"]["c"] == "Hans im gluck"
    assert (record["700"]["a"], record["700"]["b"], record["700"]["4"]) == ("Wrede", "Klaus-Jürgen", "070")
    assert (record["686"]["a"], record["686"]["c"]) == ("A 406", "jeu de stratégie (jeu de règles)")
    assert record["541"]["a"] == "Carcassonne: Hunters and Gatherers" and record["541"]["z"] == "eng"
    custom = {f["n"]: (f["a"], f["l"]) for f in record.get_fields("900")}
    assert custom["nb_joueurs_min"] == ("2", "Nombre minimum de joueurs")
    assert custom["duree_moyenne"] == ("45", "Durée moyenne (minutes)")
    assert custom["moteur_ludolog"][0] == "hunters-gatherers"
    assert record["333"]["a"] == "2 à 5 joueurs, à partir de 10 ans, 45 min"
    assert [(f["f"], f["o"]) for f in record.get_fields("995")] == [
        ("LUD-HG-0001", "available"), ("LUD-HG-0002", "missing_parts")]


def test_a_text_longer_than_an_iso2709_field_is_cut_and_joined_back_exactly():
    notes = ("Déroulement du jeu : chacun joue à son tour.\n" * 600).strip()  # about 27,000 bytes
    item = dict(demo_items()[1], notes=notes)
    data = unimarc.to_iso2709([item])
    record = next(unimarc.read(data))
    pieces = record.get_fields("300")
    assert len(pieces) > 2 and all(len(f["a"].encode()) <= unimarc.FIELD_TEXT_LIMIT for f in pieces)
    assert unimarc.from_marc(record)["notes"] == notes


def test_notes_of_another_system_in_several_fields_read_a_line_apart():
    record = pymarc.Record(force_utf8=True, leader=unimarc.LEADER)
    record.add_field(pymarc.Field("200", pymarc.Indicators("1", " "), [pymarc.Subfield("a", "Jeu")]))
    for note in ("Boîte abîmée", "Règle en allemand"):
        record.add_field(pymarc.Field("300", pymarc.Indicators(" ", " "), [pymarc.Subfield("a", note)]))
    assert unimarc.from_marc(record)["notes"] == "Boîte abîmée\nRègle en allemand"


def test_a_record_too_long_for_iso2709_asks_for_marcxml():
    item = dict(demo_items()[1], notes="mot " * 30_000)
    with pytest.raises(unimarc.UnimarcError, match="too long for an ISO 2709 record.*MARCXML"):
        unimarc.to_iso2709([item])
    assert unimarc.from_marc(next(unimarc.read(unimarc.to_marcxml([item]))))["notes"] == ("mot " * 30_000).strip()


# -- with the database ---------------------------------------------------------------------------

pmb_like = """<?xml version="1.0" encoding="UTF-8"?>
<collection xmlns="http://www.loc.gov/MARC21/slim">
<record><leader>00000nrm  2200000   450 </leader>
<controlfield tag="001">12345</controlfield>
<datafield tag="073" ind1=" " ind2=" "><subfield code="a">4015566018228</subfield></datafield>
<datafield tag="101" ind1="0" ind2=" "><subfield code="a">ger</subfield><subfield code="a">fre</subfield></datafield>
<datafield tag="200" ind1="1" ind2=" "><subfield code="a">Die Siedler von Catan</subfield>
  <subfield code="b">jeu</subfield><subfield code="f">Klaus Teuber</subfield></datafield>
<datafield tag="210" ind1=" " ind2=" "><subfield code="c">Kosmos</subfield><subfield code="d">cop. 1995</subfield></datafield>
<datafield tag="510" ind1="1" ind2=" "><subfield code="a">Les Colons de Catane</subfield><subfield code="z">fre</subfield></datafield>
<datafield tag="700" ind1=" " ind2="1"><subfield code="a">Teuber</subfield><subfield code="b">Klaus</subfield></datafield>
<datafield tag="702" ind1=" " ind2="1"><subfield code="a">Franz</subfield><subfield code="b">Vohwinkel</subfield><subfield code="4">440</subfield></datafield>
<datafield tag="900" ind1=" " ind2=" "><subfield code="a">3</subfield><subfield code="l">Nombre minimum de joueurs</subfield><subfield code="n">nb_joueurs_min</subfield></datafield>
<datafield tag="900" ind1=" " ind2=" "><subfield code="a">4</subfield><subfield code="l">Nombre maximum de joueurs</subfield><subfield code="n">nb_joueurs_max</subfield></datafield>
<datafield tag="995" ind1=" " ind2=" "><subfield code="f">LUD-0042</subfield><subfield code="k">Jeux de société – S</subfield><subfield code="o">on_loan</subfield></datafield>
</record>
</collection>
"""


@pytest.mark.django_db
def test_a_pmb_like_record_is_imported_with_its_people_titles_and_copy():
    [record] = import_unimarc(pmb_like.encode()).records
    assert (record.title, record.document_type, record.publisher.name, record.publication_year) == (
        "Die Siedler von Catan", "jeu", "Kosmos", 1995)
    assert (record.min_players, record.max_players, record.min_age, record.engine_slug) == (3, 4, None, "")
    assert sorted(record.languages.values_list("code", flat=True)) == ["fre", "ger"]
    assert Language.objects.get(code="ger").name == "ger", "an unknown language is created under its code"
    assert [(c.person.name, c.role) for c in Contribution.objects.filter(record=record)] == [
        ("Klaus Teuber", "author"), ("Vohwinkel Franz", "illustrator")]
    assert list(OtherTitle.objects.filter(record=record).values_list("title", "kind", "language")) == [
        ("Les Colons de Catane", "parallel", "fre")]
    assert list(Identifier.objects.filter(record=record).values_list("scheme", "value")) == [("ean", "4015566018228")]
    assert list(Copy.objects.filter(record=record).values_list("barcode", "shelf_location", "status")) == [
        ("LUD-0042", "Jeux de société – S", "on_loan")]


@pytest.mark.django_db
def test_export_import_export_gives_the_same_records_and_a_second_import_changes_nothing():
    load_catalogue(demo_catalogue_data())
    first = export_unimarc(CatalogueRecord.objects.all())
    # As if into an empty database: the copies the desk keeps a history of are never deleted, so
    # the records and copies loaded are renamed out of the import's way instead.
    CatalogueRecord.objects.update(title=Concat(Value("Avant : "), "title"))
    Copy.objects.update(barcode=Concat(Value("OLD-"), "barcode"))
    Identifier.objects.update(value=Concat(Value("OLD-"), "value"))  # else the EANs find the records again
    imported = import_unimarc(first).records
    assert len(imported) == 4
    second = export_unimarc(CatalogueRecord.objects.filter(pk__in=[record.pk for record in imported]))
    demo = sorted(demo_items(), key=lambda i: i["title"])
    assert [plain(item, like) for item, like in zip(catalogue_data(imported)["records"], demo)] == [
        plain(i) for i in demo]
    read = lambda data: [unimarc.from_marc(r) for r in unimarc.read(data)]  # noqa: E731
    assert read(second) == read(first)
    counts = (CatalogueRecord.objects.count(), Copy.objects.count(), Contribution.objects.count())
    import_unimarc(second)
    assert (CatalogueRecord.objects.count(), Copy.objects.count(), Contribution.objects.count()) == counts


def record_xml(*fields: str) -> str:
    return "<record><leader>00000nrm  2200000   450 </leader>" + "".join(fields) + "</record>"


def titled(title: str, *fields: str) -> str:
    return record_xml(f'<datafield tag="200" ind1="1" ind2=" "><subfield code="a">{title}</subfield></datafield>',
                      *fields)


def collection(*records: str) -> bytes:
    return ('<collection xmlns="http://www.loc.gov/MARC21/slim">' + "".join(records) + "</collection>").encode()


@pytest.mark.django_db
@pytest.mark.parametrize("data, message", [
    (b"<collection><record>", r"not a MARCXML document"),
    (collection(), r"the file holds no record"),
])
def test_a_file_that_is_not_unimarc_is_refused_whole(data, message):
    with pytest.raises(unimarc.UnimarcError, match=message):
        import_unimarc(data)
    assert not CatalogueRecord.objects.exists() and not Copy.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("bad, reason", [
    (record_xml(), r"record 2 has no title \(200 \$a\)"),
    (titled("Trop de joueurs",
            '<datafield tag="900" ind1=" " ind2=" "><subfield code="a">6</subfield><subfield code="n">nb_joueurs_min</subfield></datafield>',
            '<datafield tag="900" ind1=" " ind2=" "><subfield code="a">2</subfield><subfield code="n">nb_joueurs_max</subfield></datafield>'),
     r"max_players: The maximum number of players must be at least the minimum \(6\)"),
    (titled("Âge", '<datafield tag="900" ind1=" " ind2=" "><subfield code="a">dix</subfield>'
                   '<subfield code="n">age_min</subfield></datafield>'),
     r"age_min is not a whole number: 'dix'"),
    (titled("Prêté", '<datafield tag="995" ind1=" " ind2=" "><subfield code="f">B-1</subfield>'
                     '<subfield code="o">prêtable</subfield></datafield>'),
     r"copy B-1: status 'prêtable' is not in the mapping's table of statuses"),
    (titled("Langue", '<datafield tag="101" ind1="0" ind2=" "><subfield code="a">FR</subfield></datafield>'),
     r"'FR' is not an ISO 639-2 language code"),
])
def test_a_record_that_cannot_be_taken_is_refused_alone_with_its_reason(bad, reason):
    result = import_unimarc(collection(titled("Bon jeu"), bad))
    assert (result.report["new"], result.report["refused"]) == (1, 1)
    [refusal] = result.report["refusals"]
    assert refusal["record"] == 2 and re.search(reason, reason_text(refusal))
    assert list(CatalogueRecord.objects.values_list("title", flat=True)) == ["Bon jeu"]


@pytest.mark.django_db
def test_the_commands_write_and_read_files(tmp_path: Path):
    load_catalogue(demo_catalogue_data())
    target = tmp_path / "catalogue.xml"
    hg = CatalogueRecord.objects.get(title=HG_TITLE)
    call_command("export_unimarc", str(hg.pk), "--format", "marcxml", "--output", str(target), stderr=io.StringIO())
    assert [r["200"]["a"] for r in unimarc.read(target.read_bytes())] == [HG_TITLE]
    out = io.StringIO()
    call_command("import_unimarc", str(target), stdout=out)
    # Ludolog's own export read back: a record of the source "unimarc" (no 003, no 801), new.
    [line, counts] = out.getvalue().splitlines()
    assert line.endswith(f"\t{HG_TITLE}") and counts == "1 new, 0 updated, 0 unchanged, 0 duplicate, 0 refused"
    out = io.StringIO()
    call_command("import_unimarc", str(target), stdout=out)
    assert out.getvalue().splitlines()[-1] == "0 new, 0 updated, 1 unchanged, 0 duplicate, 0 refused"
    bad = tmp_path / "bad.mrc"
    bad.write_bytes(collection(titled("Bon jeu"), record_xml()))
    out = io.StringIO()
    call_command("import_unimarc", str(bad), "--dry-run", stdout=out)
    assert out.getvalue().splitlines() == [
        "refused: record 2: record 2 has no title (200 $a)",
        "dry run (nothing stored): 1 new, 0 updated, 0 unchanged, 0 duplicate, 1 refused"]
    assert not CatalogueRecord.objects.filter(title="Bon jeu").exists()
    with pytest.raises(CommandError, match="not a MARCXML document.*nothing was imported"):
        (tmp_path / "broken.xml").write_bytes(b"<collection><record>")
        call_command("import_unimarc", str(tmp_path / "broken.xml"))
    with pytest.raises(CommandError, match="no catalogue record 999"):
        call_command("export_unimarc", "999")


@pytest.mark.django_db
def test_the_record_page_and_the_search_offer_unimarc_downloads(client: Client):
    load_catalogue(demo_catalogue_data())
    hg = CatalogueRecord.objects.get(title=HG_TITLE)
    page = client.get(f"/catalogue/{hg.pk}/").content.decode()
    assert f'href="/catalogue/{hg.pk}/unimarc/?format=marcxml"' in page
    response = client.get(f"/catalogue/{hg.pk}/unimarc/?format=marcxml")
    assert response["Content-Type"] == "application/marcxml+xml"
    assert response["Content-Disposition"] == f'attachment; filename="ludolog-{hg.pk}.xml"'
    assert [r["200"]["a"] for r in unimarc.read(response.content)] == [HG_TITLE]
    iso = client.get(f"/catalogue/{hg.pk}/unimarc/")
    assert iso["Content-Type"] == "application/marc" and iso.content[6:8] == b"rm"

    results = client.get("/catalogue/?q=tijdperk").content.decode()
    assert 'href="/catalogue/unimarc/?q=tijdperk&amp;format=iso2709"' in results
    found = client.get("/catalogue/unimarc/?q=tijdperk&format=iso2709")
    assert [r["200"]["a"] for r in unimarc.read(found.content)] == ["Stenen Tijdperk"]
    everything = client.get("/catalogue/unimarc/")
    assert len(list(unimarc.read(everything.content))) == 4

    assert client.get(f"/catalogue/{hg.pk}/unimarc/?format=pdf").status_code == 400
    assert client.get("/catalogue/999/unimarc/").status_code == 404


@pytest.mark.django_db(transaction=True)  # the import is queued when the upload commits
def test_librarians_import_and_export_through_the_admin(client: Client, celery_eager, imports_root):
    from django.contrib.auth.models import User
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(User.objects.create_superuser("librarian", password="pw"))
    listing = client.get("/admin/games/cataloguerecord/").content.decode()
    assert "/admin/games/cataloguerecord/import-unimarc/" in listing
    upload = SimpleUploadedFile("pmb.xml", pmb_like.encode(), content_type="application/xml")
    done = client.post("/admin/games/cataloguerecord/import-unimarc/", {"file": upload}, follow=True)
    assert "1 record new to the catalogue, 0 updated, 0 unchanged" in " ".join(done.content.decode().split())
    assert CatalogueRecord.objects.filter(title="Die Siedler von Catan").exists()

    bad = SimpleUploadedFile("bad.xml", collection(titled("Bon jeu"), record_xml()), content_type="application/xml")
    refused = client.post("/admin/games/cataloguerecord/import-unimarc/", {"file": bad}, follow=True)
    assert "Record 2: record 2 has no title (200 $a)" in refused.content.decode()
    assert "1 record new to the catalogue" in refused.content.decode() and "1 refused" in refused.content.decode()
    assert CatalogueRecord.objects.filter(title="Bon jeu").exists(), "the good record is stored, the bad one alone refused"

    catan = CatalogueRecord.objects.get(title="Die Siedler von Catan")
    exported = client.post("/admin/games/cataloguerecord/",
                           {"action": "export_unimarc", "_selected_action": [catan.pk]})
    assert exported["Content-Type"] == "application/marc"
    assert [r["200"]["a"] for r in unimarc.read(exported.content)] == ["Die Siedler von Catan"]


def test_pmb_xml_a_record_with_a_field_without_a_tag_is_unreadable_alone():
    pmb_xml = """<?xml version="1.0" encoding="utf-8"?><unimarc>
    <notice><rs>n</rs><dt>r</dt><bl>m</bl><f c="001">7</f><f c="200" ind="1 "><s c="a">Quarto</s></f></notice>
    <notice><f c="001">8</f><f c="20"><s c="a">Sans étiquette</s></f></notice>
    </unimarc>""".encode()
    (first, quarto, _), (second, unreadable, error) = unimarc.entries(pmb_xml)
    assert (first, quarto["001"].data, unimarc.title_of(quarto), quarto.leader[5:8]) == (1, "7", "Quarto", "nrm")
    assert (second, unreadable) == (2, None) and "'20'" in error
    with pytest.raises(unimarc.UnimarcError):
        list(unimarc.read(b"<unimarc><notice>"))
