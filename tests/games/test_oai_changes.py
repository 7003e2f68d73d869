"""What an incremental OAI-PMH harvest learns beyond a record's own fields: a record deleted is
harvested as deleted (in its sets, by GetRecord too), and a record's datestamp moves when its
parts or the names it carries change (a copy added, a person's or publisher's name corrected, a
category given); the desk lending a copy does not move it. Harvested by Sickle over HTTP."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sickle import Sickle, oaiexceptions

from games.models import CatalogueRecord, Category, Contribution, Copy, DeletedRecord, Person, Publisher
from loans import services
from loans.models import Household
from tests.games.oai_catalogue import CHANGED_AT, build_catalogue

pytestmark = pytest.mark.django_db(transaction=True)
OAI = "{http://www.openarchives.org/OAI/2.0/}"


def since(moment: datetime) -> dict[str, str]:
    return {"from": moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")}


def identifiers(sickle: Sickle, **arguments) -> list[tuple[str, bool]]:
    try:
        return [(header.identifier, header.deleted) for header in sickle.ListIdentifiers(metadataPrefix="oai_dc",
                                                                                        **arguments)]
    except oaiexceptions.NoRecordsMatch:
        return []


def test_a_deleted_record_is_harvested_as_deleted_from_when_it_went(live_server):
    ids = build_catalogue(6)
    record = CatalogueRecord.objects.prefetch_related("categories").get(pk=ids[1])
    code = record.categories.first().code
    before = datetime.now(UTC) - timedelta(seconds=1)
    record.delete()
    sickle = Sickle(f"{live_server.url}/oai/")
    gone = f"oai:localhost:catalogue/{ids[1]}"
    assert identifiers(sickle, **since(before)) == [(gone, True)]
    assert (gone, True) in identifiers(sickle, set=f"category:{code.replace(' ', '_')}")
    whole = identifiers(sickle)
    assert len(whole) == 6 and whole[-1] == (gone, True)
    deleted = sickle.GetRecord(identifier=gone, metadataPrefix="unimarc")
    assert deleted.header.deleted and deleted.xml.find(f".//{OAI}metadata") is None
    # ListRecords carries the deleted header, without metadata.
    records = list(sickle.ListRecords(metadataPrefix="unimarc", **since(before)))
    assert [(r.header.identifier, r.header.deleted) for r in records] == [(gone, True)]
    assert sickle.Identify().deletedRecord == "persistent"
    assert DeletedRecord.objects.get(record_id=ids[1]).categories == [code]


def test_a_records_datestamp_moves_with_its_parts_and_names_not_with_its_loans(live_server):
    ids = build_catalogue(8)
    sickle = Sickle(f"{live_server.url}/oai/")
    person = Person.objects.create(name="Klaus Wredë (typo)")
    for pk in ids[2:4]:
        Contribution.objects.create(record_id=pk, person=person, role="author")
    publisher = Publisher.objects.create(name="Hans im Glueck (typo)")
    CatalogueRecord.objects.filter(pk=ids[5]).update(publisher=publisher)
    household = Household.objects.create(name="Martin", card_number="M-1", membership_ends=datetime(2099, 1, 1).date(),
                                         fee_paid=True)

    def moved_by(change) -> set[str]:
        """The records an incremental harvest brings after ``change``, everything else long unchanged."""
        CatalogueRecord.objects.update(updated_at=CHANGED_AT)
        checkpoint = datetime.now(UTC) - timedelta(seconds=1)
        change()
        return {identifier for identifier, _ in identifiers(sickle, **since(checkpoint))}

    def name(pk: int) -> str:
        return f"oai:localhost:catalogue/{pk}"

    assert moved_by(lambda: None) == set()
    assert moved_by(lambda: Copy.objects.create(record_id=ids[0], barcode="NEW-1")) == {name(ids[0])}
    copy = Copy.objects.get(barcode="NEW-1")

    def shelve_elsewhere() -> None:
        copy.shelf_location = "JEU W"
        copy.save()

    assert moved_by(shelve_elsewhere) == {name(ids[0])}

    def correct_the_persons_name() -> None:
        person.name = "Klaus Wrede-Zwei"
        person.save()

    assert moved_by(correct_the_persons_name) == {name(ids[2]), name(ids[3])}

    def rename_the_publisher() -> None:
        publisher.name = "Hans im Glück-Zwei"
        publisher.save()

    assert moved_by(rename_the_publisher) == {name(ids[5])}
    category = Category.objects.create(code="Z 9", label="neuf")
    assert moved_by(lambda: CatalogueRecord.objects.get(pk=ids[6]).categories.add(category)) == {name(ids[6])}
    # The desk lending and taking back a copy is circulation, not a change of the record.
    assert moved_by(lambda: services.lend(copy, household, None)) == set()
    assert moved_by(lambda: services.return_copy(copy, None)) == set()
