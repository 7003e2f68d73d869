"""The checklist page of a catalogue record (/catalogue/<id>/checklist/): a librarian edits the
lines (kind, count, colours, order; adds one, removes one), fills an empty checklist from the
record's contents, and, for the demo Hunters and Gatherers record, sees where the checklist and the
engine disagree, takes the engine's count, adds its missing pieces. Desk staff read it; members
may not. A checklist that cannot be saved is answered 422 with its reasons and changes nothing."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from accounts.roles import Role
from games.models import CatalogueRecord
from games.services import demo_catalogue_data, load_catalogue
from loans.models import Component, Member
from loans.services import fill_components
from tests.factories import give_role

pytestmark = pytest.mark.django_db


@pytest.fixture
def librarian(django_user_model) -> Client:
    user = django_user_model.objects.create_user("librarian")
    give_role(user, Role.LIBRARIAN)
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def hunters(db) -> CatalogueRecord:
    """The demo catalogue's Hunters and Gatherers, its checklist read from its contents."""
    load_catalogue(demo_catalogue_data())
    record = CatalogueRecord.objects.get(engine_slug="hunters-gatherers")
    fill_components(record)
    return record


def url(record) -> str:
    return f"/catalogue/{record.pk}/checklist/"


def checklist(record) -> list[tuple[str, int, int | None]]:
    return [(c.kind, c.count, c.per_colour) for c in Component.objects.filter(record=record)]


def form_of(answer) -> dict[str, str]:
    """The page's form as the browser would post it unchanged."""
    formset = answer.context["formset"]
    data = {f"{formset.prefix}-{key}": value for key, value in formset.management_form.initial.items()}
    data["version"] = answer.context["version"]
    for form in formset.forms:
        for name in ("kind", "count", "colours", "order"):
            value = form.initial.get(name)
            data[form.add_prefix(name)] = "" if value is None else str(value)
    return data


def line_of(answer, kind: str) -> str:
    """The form prefix of the line whose kind is ``kind``."""
    formset = answer.context["formset"]
    return next(form.prefix for form in formset.forms if form.initial.get("kind") == kind)


def statuses(page: str) -> list[str]:
    return re.findall(r'data-testid="checklist-line" data-status="([^"]+)"', page)


def test_a_librarian_changes_a_count_adds_a_line_and_removes_one(record, librarian):
    answer = librarian.get(url(record))
    assert answer.status_code == 200
    data = form_of(answer)
    data[line_of(answer, "tuiles bonus") + "-count"] = "11"
    data[line_of(answer, "jetons en bois vert") + "-DELETE"] = "on"
    blank = answer.context["formset"].forms[-1].prefix
    data |= {f"{blank}-kind": "sac en tissu", f"{blank}-count": "1", f"{blank}-order": "0"}
    saved = librarian.post(url(record), data)
    assert saved.status_code == 302 and saved["Location"] == url(record)
    assert checklist(record) == [("sac en tissu", 1, None), ("tuiles paysage", 79, None), ("tuiles bonus", 11, None),
                                 ("huttes en bois", 10, None)]
    assert "Checklist saved." in librarian.get(url(record)).content.decode()


def test_a_checklist_that_cannot_be_saved_answers_422_with_its_reasons_and_changes_nothing(record, librarian):
    before = checklist(record)
    answer = librarian.get(url(record))
    for kind, count, reason in (("tuiles bonus", "-1", "negative_count"), ("tuiles paysage", "12", "duplicate_kind"),
                                ("", "12", "empty_kind"), ("tuiles bonus", "douze", "not_a_number")):
        data = form_of(answer)
        prefix = line_of(answer, "tuiles bonus")
        data |= {f"{prefix}-kind": kind, f"{prefix}-count": count}
        refused = librarian.post(url(record), data)
        assert refused.status_code == 422, reason
        page = refused.content.decode()
        assert f'data-reason="{reason}"' in page and 'data-testid="checklist-problems"' in page
        assert checklist(record) == before
    assert "A count cannot be negative." in librarian.post(url(record), form_of(answer) | {
        line_of(answer, "huttes en bois") + "-count": "-3"}).content.decode()


def test_a_refused_page_keeps_the_removals_ticked_and_saves_them_once_corrected(record, librarian):
    answer = librarian.get(url(record))
    data = form_of(answer)
    removed, wrong = line_of(answer, "jetons en bois vert"), line_of(answer, "tuiles bonus")
    data |= {f"{removed}-DELETE": "on", f"{wrong}-count": "-12"}
    refused = librarian.post(url(record), data)
    assert refused.status_code == 422
    page = refused.content.decode()
    assert statuses(page).count("removed") == 1 and f'name="{removed}-DELETE" id="id_{removed}-DELETE" checked' in page
    corrected = {**data, f"{wrong}-count": "12"}
    assert librarian.post(url(record), corrected).status_code == 302
    assert [kind for kind, _count, _colours in checklist(record)] == ["tuiles paysage", "tuiles bonus", "huttes en bois"]


def test_desk_staff_read_the_checklist_and_may_not_change_it(record, desk):
    answer = desk.get(url(record))
    page = answer.content.decode()
    assert answer.status_code == 200 and "tuiles paysage" in page
    assert 'name="form-0-kind"' not in page and 'data-testid="save-checklist"' not in page
    before = checklist(record)
    assert desk.post(url(record), {"action": "fill"}).status_code == 403
    assert checklist(record) == before


def test_members_and_strangers_may_not_see_it(record, django_user_model, household):
    user = django_user_model.objects.create_user("martin-parent")
    Member.objects.create(household=household, display_name="Claire Martin", user=user)
    member = Client()
    member.force_login(user)
    assert member.get(url(record)).status_code == 403
    assert member.post(url(record), {"action": "fill"}).status_code == 403
    assert Client().get(url(record)).status_code == 302  # to the login page


def test_the_demo_hunters_and_gatherers_record_beside_its_engine(hunters, librarian):
    page = librarian.get(url(hunters)).content.decode()
    # Read from the contents, every line the engine knows agrees; the others are not its pieces.
    assert statuses(page) == ["agrees", "agrees", "unknown", "unknown", "agrees", "agrees", "unknown", "unknown", "new"]
    assert "The rules engine agrees with every line it knows." in page
    assert re.search(r"Not one of the engine(&#x27;|')s pieces", page)

    # A count typed wrong: said in words, with the engine's count to take.
    answer = librarian.get(url(hunters))
    data = form_of(answer)
    data[line_of(answer, "tuiles paysage") + "-count"] = "78"
    librarian.post(url(hunters), data)
    answer = librarian.get(url(hunters))
    page = answer.content.decode()
    assert statuses(page)[0] == "differs"
    assert "Differs: the engine says 79, the checklist 78" in page
    assert "The rules engine counts 1 line differently." in page
    take = re.search(r'name="take_count" value="(\d+)"', page)
    assert take is not None
    taken = librarian.post(url(hunters), form_of(answer) | {"take_count": take.group(1)})
    assert taken.status_code == 302
    assert ("tuiles paysage", 79, None) in checklist(hunters)

    # A line removed: the engine's piece is listed as missing, and added back.
    answer = librarian.get(url(hunters))
    librarian.post(url(hunters), form_of(answer) | {line_of(answer, "huttes en bois") + "-DELETE": "on"})
    page = librarian.get(url(hunters)).content.decode()
    assert 'data-testid="engine-missing"' in page and "10 × huts" in page and "(in 5 colours)" in page
    answer = librarian.get(url(hunters))
    assert librarian.post(url(hunters), form_of(answer) | {"action": "add_missing"}).status_code == 302
    assert checklist(hunters)[-1] == ("huttes", 10, 5)
    assert "The rules engine agrees with every line it knows." in librarian.get(url(hunters)).content.decode()


def test_an_edit_of_a_checklist_changed_meanwhile_is_refused(record, librarian):
    answer = librarian.get(url(record))
    Component.objects.filter(record=record, kind="tuiles bonus").update(count=10)  # another librarian
    data = form_of(answer)
    data[line_of(answer, "tuiles paysage") + "-count"] = "80"
    refused = librarian.post(url(record), data)
    assert refused.status_code == 409
    assert ("tuiles paysage", 79, None) in checklist(record) and ("tuiles bonus", 10, None) in checklist(record)


def test_an_empty_checklist_is_read_again_from_the_contents(record, librarian):
    Component.objects.filter(record=record).delete()
    page = librarian.get(url(record)).content.decode()
    assert 'data-testid="fill"' in page
    assert librarian.post(url(record), {"action": "fill"}).status_code == 302
    assert checklist(record)[:2] == [("tuiles paysage", 79, None), ("tuiles bonus", 12, None)]
    assert 'data-testid="fill"' not in librarian.get(url(record)).content.decode()


def test_the_record_page_and_the_desk_copy_page_link_to_it(record, copies, desk, django_user_model):
    link = f'href="{url(record)}"'
    assert link in desk.get(f"/catalogue/{record.pk}/").content.decode()
    assert link in desk.get(f"/desk/copies/{copies[0].barcode}/").content.decode()
    reader = Client()
    reader.force_login(django_user_model.objects.create_user("a-reader"))
    assert link not in reader.get(f"/catalogue/{record.pk}/").content.decode()
