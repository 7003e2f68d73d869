"""The checklist page on a phone (390×844) and a laptop (1280×800), in English and French: a
librarian opens the demo Hunters and Gatherers record's checklist (read from its contents), types
one count wrong and saves, sees the disagreement in words beside the line, takes the engine's
count, then types a kind twice and is refused with the reason, nothing saved; nothing scrolls
sideways. Screenshots: checklist-<width>-<lang>.png, checklist-refused-<width>-<lang>.png."""

from __future__ import annotations

from pathlib import Path

import pytest

from accounts.roles import Role
from games.models import CatalogueRecord
from games.services import demo_catalogue_data, load_catalogue
from loans.models import Component
from loans.services import fill_components
from tests.factories import give_role

from .recorder_driver import LAPTOP, PHONE, assert_no_sideways_scroll, at_each_width, logged_in_page

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = {
    "en": {"differs": "Differs: the engine says 79, the checklist 78", "saved": "Checklist saved",
           "twice": "This kind is already on the checklist"},
    # As in /work/notes/fr-components.json (compiled in by the lead).
    "fr": {"differs": "Diffère\u00a0: le moteur dit 79, la liste 78", "saved": "Liste de contrôle enregistrée",
           "twice": "Cette pièce est déjà sur la liste"},
}


@pytest.fixture
def librarian(django_user_model):
    user = django_user_model.objects.create_user("librarian")
    give_role(user, Role.LIBRARIAN)
    load_catalogue(demo_catalogue_data())
    fill_components(CatalogueRecord.objects.get(engine_slug="hunters-gatherers"))
    return user


def line(page, index: int):
    return page.locator('[data-testid="checklist-line"]').nth(index)


def save(page, selector: str = '[data-testid="save-checklist"]') -> None:
    with page.expect_navigation():
        page.locator(selector).first.click()


def tap_sizes_below(page, least: int) -> list[str]:
    return page.evaluate("""(least) => [...document.querySelectorAll('main button, main input')]
        .filter(n => n.type !== 'hidden' && n.type !== 'checkbox' && !n.classList.contains('visually-hidden'))
        .map(n => n.getBoundingClientRect()).filter(b => b.width && b.height < least - 0.5)
        .map(b => Math.round(b.width) + '×' + Math.round(b.height))""", least)


@pytest.mark.slow(seconds=15)
def test_a_librarian_checks_the_checklist_against_the_engine(browser, live_server, artifacts: Path, librarian):
    """Done on a laptop in English and on a phone in French (the longer words on the narrower
    screen); each state of the checklist looked at on both screens."""
    record = CatalogueRecord.objects.get(engine_slug="hunters-gatherers")
    for language, locale, viewport in (("en", "en-US", LAPTOP), ("fr", "fr-FR", PHONE)):
        words = WORDS[language]
        page = logged_in_page(browser, live_server, librarian, viewport=viewport, locale=locale)
        page.goto(f"{live_server.url}/catalogue/{record.pk}/")
        with page.expect_navigation():
            page.locator('[data-testid="checklist-link"]').click()
        assert page.url.endswith(f"/catalogue/{record.pk}/checklist/")
        assert line(page, 0).get_attribute("data-status") == "agrees"

        def fits(width: int) -> None:
            assert_no_sideways_scroll(page)
            assert tap_sizes_below(page, 44) == [], width

        at_each_width(page, fits)

        # One count typed wrong: the engine's count is offered beside it, in words.
        line(page, 0).locator('input[name$="-count"]').fill("78")
        save(page)
        assert words["saved"] in page.locator(".messages").inner_text()
        assert line(page, 0).get_attribute("data-status") == "differs"
        assert words["differs"] in line(page, 0).inner_text()

        def differs_at(width: int) -> None:
            assert_no_sideways_scroll(page)
            page.screenshot(path=str(artifacts / f"checklist-{width}-{language}.png"), full_page=True)

        at_each_width(page, differs_at)
        save(page, '[data-testid="take-count"]')
        assert line(page, 0).get_attribute("data-status") == "agrees"
        assert Component.objects.get(record=record, kind="tuiles paysage").count == 79

        # A kind typed twice: refused with its reason beside the line, nothing saved.
        before = list(Component.objects.filter(record=record).values_list("kind", "count"))
        line(page, 1).locator('input[name$="-kind"]').fill("tuiles paysage")
        save(page)
        assert line(page, 1).get_attribute("data-reason") == "duplicate_kind"
        assert words["twice"] in page.locator('[data-testid="checklist-problems"]').inner_text()
        assert list(Component.objects.filter(record=record).values_list("kind", "count")) == before

        def refused_at(width: int) -> None:
            assert_no_sideways_scroll(page)
            assert page.locator('[data-testid="add-missing"]').is_visible()  # the unsaved line hides the bonus tiles
            assert tap_sizes_below(page, 44) == [], width
            page.screenshot(path=str(artifacts / f"checklist-refused-{width}-{language}.png"), full_page=True)

        at_each_width(page, refused_at)
        assert page.script_errors == []  # type: ignore[attr-defined]
        page.context.close()
