"""The operator's outbox, on a phone (390×844) and a laptop (1280×800), in English and French:
from their account page to the mail not sent yet (one waiting, one the mail server refused until
the sweep gave up), its error shown, and *Try again now* sending it. No page on the way is the
Django admin's. Screenshots: outbox-<language>-<width>.png, outbox-retried-….
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlparse

import pytest
from django.core import mail

from accounts.models import Person
from outbox.models import Message
from tests.brokers import CLOSED, broker_at

from .recorder_driver import LAPTOP, PHONE, assert_no_sideways_scroll, at_each_width, logged_in_page

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = {
    "en": {"outbox": "Outbox: mail not sent yet", "heading": "Outbox", "given_up": "failed: no more automatic tries",
           "retry": "Try again now", "retried": "The message will be tried again."},
    "fr": {"outbox": "Boîte d’envoi\u00a0: courriels pas encore envoyés", "heading": "Boîte d’envoi",
           "given_up": "échec\u00a0: plus de nouvel essai automatique", "retry": "Réessayer maintenant",
           "retried": "Le message va être réessayé."},
}


@pytest.mark.slow(seconds=10)
@pytest.mark.parametrize("language, viewport", [("en", LAPTOP), ("fr", PHONE)], ids=["en-1280", "fr-390"])
def test_the_operator_finds_the_mail_not_sent_and_sends_it_again(browser, live_server, artifacts: Path,
                                                                 django_user_model, viewport, language, celery_eager,
                                                                 settings):
    """Done on a laptop in English and on a phone in French (the longer words on the narrower
    screen); the page looked at on both screens."""
    from outbox import services

    words = WORDS[language]
    operator = django_user_model.objects.create_superuser("exploitant", email="ops@example.org", password="x")
    Person.objects.create(user=operator, language=language)
    with broker_at(CLOSED):
        services.enqueue(Message.Kind.HOLD_READY, ["famille.martin-avec-une-adresse-longue@example.org"],
                         "Ludothèque des Quatre Vents : un jeu réservé vous attend", "…", language="fr")
        refused = services.enqueue(Message.Kind.INVITATION, ["camille@example.org"],
                                   "Invitation à rejoindre le Club du Jeudi", "…", language="fr")
    Message.objects.filter(pk=refused.pk).update(
        attempts=settings.LUDOLOG_OUTBOX_MAX_ATTEMPTS,
        last_error="SMTPRecipientsRefused: {'camille@example.org': (550, b'5.1.1 mailbox unavailable')}")
    visited: list[str] = []
    page = logged_in_page(browser, live_server, operator, viewport=viewport,
                          locale="fr-FR" if language == "fr" else "en-US")
    page.on("framenavigated", lambda frame: visited.append(frame.url) if frame == page.main_frame else None)
    page.goto(f"{live_server.url}/account/")
    with page.expect_navigation():
        page.get_by_role("link", name=words["outbox"]).click()
    assert page.locator("h1").inner_text() == words["heading"]
    card = page.locator(f"li[data-message='{refused.pk}']")
    assert words["given_up"] in card.inner_text() and "550" in card.inner_text()
    button = card.get_by_role("button", name=words["retry"])

    def outbox_at(width: int) -> None:
        assert_no_sideways_scroll(page)
        box = button.bounding_box()
        assert box is not None and box["height"] >= 44, (width, box)
        page.screenshot(path=str(artifacts / f"outbox-{language}-{width}.png"), full_page=True)

    at_each_width(page, outbox_at)
    with page.expect_navigation():
        button.click()
    assert words["retried"] in page.locator("body").inner_text()
    assert page.locator(f"li[data-message='{refused.pk}']").count() == 0
    assert Message.objects.get(pk=refused.pk).sent_at is not None and len(mail.outbox) == 1
    at_each_width(page, lambda width: page.screenshot(path=str(artifacts / f"outbox-retried-{language}-{width}.png"),
                                                      full_page=True))
    assert not [url for url in visited if urlparse(url).path.startswith("/admin/")], visited
