"""A visitor makes an account and gets back in by mail, on a phone (390×844) and a laptop
(1280×800), in English and French, with sign-up open: from the header's "Sign up" to the form,
the account page (address not verified), the link from the mail (the test mailbox: the live
server runs in this process), the account page again (verified); the new account asks to join a
second club, whose organiser accepts and makes them a trusted scorekeeper from the member's roles
page, and the club's page then says they are a member; then logged out, "Forgot your
password?", the reset link from the mail, a new password, and a login with the e-mail address
and it, back to the account page. No page on the way is the Django admin's, none scrolls
sideways, and the buttons are thumb-sized. Screenshots: accounts-<step>-<language>-<width>.png."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.core import mail

from accounts.models import Organisation, Person
from accounts.roles import Role, roles_of
from tests.factories import give_role

from .recorder_driver import (
    LAPTOP, PHONE, TAP_TARGET_PX, assert_no_sideways_scroll, at_each_width, logged_in_page,
)

# The mails go through the outbox at once, as in `make run`: the test mailbox is this process's.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("celery_eager")]

PASSWORD = "tuiles-et-meeples-42"
NEW_PASSWORD = "un-nouveau-mot-de-passe-7"
WORDS = {
    "en": {"sign_up": "Sign up", "create": "Create the account", "account": "Your account",
           "forgot": "Forgot your password?", "mail_me": "Mail me the link", "save": "Save the new password",
           "log_in": "Log in", "log_out": "Log out", "verified": "verified on", "unverified": "not verified yet",
           "pending": "its organisers will answer", "area": "Members and invitations", "accepted": "is a member now.",
           "save_roles": "Save the roles", "member": "You are a member."},
    "fr": {"sign_up": "Créer un compte", "create": "Créer le compte", "account": "Votre compte",
           "forgot": "Mot de passe oublié\u00a0?", "mail_me": "M’envoyer le lien",
           "save": "Enregistrer le nouveau mot de passe", "log_in": "Se connecter", "log_out": "Se déconnecter",
           "verified": "vérifiée le", "unverified": "pas encore vérifiée",
           "pending": "ses organisateurs vous répondront", "area": "Membres et invitations",
           "accepted": "est membre désormais.", "save_roles": "Enregistrer les rôles", "member": "Vous en êtes membre."},
}


def link_in_last_mail(pattern: str) -> str:
    return re.search(pattern, mail.outbox[-1].body)[0]


def assert_thumb_sized(page: Any) -> None:
    """The page's buttons and its own links (not the running text's) are 44 px high at least."""
    small = page.evaluate("""(least) => [...document.querySelectorAll(
            'main button, main a.button-link, main .account-links a, main select, main input:not([type=hidden])')]
        .map(node => [node.textContent.trim() || node.name, node.getBoundingClientRect().height])
        .filter(([, height]) => height && height < least - 0.5)""", TAP_TARGET_PX)
    assert small == [], f"too small to tap: {small}"


@pytest.mark.slow(seconds=12)
@pytest.mark.parametrize("language, viewport", [("en", LAPTOP), ("fr", PHONE)], ids=["en-1280", "fr-390"])
def test_a_visitor_signs_up_verifies_the_address_and_gets_back_in_by_mail(browser, live_server, artifacts: Path,
                                                                          settings, django_user_model, viewport,
                                                                          language):
    """Clicked through on a laptop in English and on a phone in French (the longer words on the
    narrower screen); each step looked at on both screens."""
    settings.LUDOLOG_SIGNUP = "open"
    words = WORDS[language]
    dunes = Organisation.objects.create(name="Club des Dunes", slug="les-dunes", open_to_requests=True)
    dunes_organiser = give_role(django_user_model.objects.create_user("dunes"), Role.ORGANISER, dunes)
    context = browser.new_context(viewport=dict(viewport), locale="fr-FR" if language == "fr" else "en-US")
    page = context.new_page()
    page.set_default_timeout(15_000)
    visited: list[str] = []
    page.on("framenavigated", lambda frame: visited.append(frame.url) if frame == page.main_frame else None)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    width = viewport["width"]

    def shot(step: str) -> None:
        def at(width: int) -> None:
            assert_no_sideways_scroll(page)
            assert_thumb_sized(page)
            page.screenshot(path=str(artifacts / f"accounts-{step}-{language}-{width}.png"), full_page=True)

        at_each_width(page, at)

    page.goto(f"{live_server.url}/")
    with page.expect_navigation():
        page.locator('header [data-testid="signup-link"]').click()
    assert page.url.endswith("/signup/")
    page.fill("#id_username", f"nadia-{language}-{width}")
    page.fill("#id_email", f"nadia.{language}.{width}@example.org")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    assert page.locator("#id_language").input_value() == language  # the page's language, offered
    shot("signup")
    with page.expect_navigation():
        page.get_by_role("button", name=words["create"]).click()
    assert page.url.endswith("/account/")
    assert page.locator("h1").inner_text().startswith(words["account"])
    assert words["unverified"] in page.locator('[data-testid="account-email"]').inner_text()
    shot("account-new")

    page.goto(link_in_last_mail(r"http://\S+/verify-email/\S+/"))
    assert page.url.endswith("/account/")
    assert words["verified"] in page.locator('[data-testid="email-verified"]').inner_text()
    assert page.locator('[data-testid="account-player-link"]').inner_text() == f"nadia-{language}-{width}"
    shot("account-verified")

    # The new account asks to join the second club; its organiser accepts and gives a role.
    username = f"nadia-{language}-{width}"
    page.goto(f"{live_server.url}/organisations/")
    with page.expect_navigation():
        page.get_by_role("link", name="Club des Dunes").click()
    page.locator("textarea[name=message]").fill("Bonjour, je joue le jeudi.")
    with page.expect_navigation():
        page.get_by_test_id("ask-to-join").click()
    assert words["pending"] in page.get_by_test_id("request-pending").inner_text()
    shot("join-ask")
    deciding = logged_in_page(browser, live_server, dunes_organiser, viewport=viewport,
                              locale="fr-FR" if language == "fr" else "en-US")

    def deciding_shot(step: str) -> None:
        def at(width: int) -> None:
            assert_no_sideways_scroll(deciding)
            deciding.screenshot(path=str(artifacts / f"accounts-{step}-{language}-{width}.png"), full_page=True)

        at_each_width(deciding, at)

    deciding.on("framenavigated", lambda frame: visited.append(frame.url) if frame == deciding.main_frame else None)
    deciding.goto(f"{live_server.url}/")
    with deciding.expect_navigation():
        deciding.get_by_role("link", name=words["area"]).click()
    assert "Bonjour, je joue le jeudi." in deciding.get_by_test_id("join-requests").inner_text()
    with deciding.expect_navigation():
        deciding.get_by_test_id("accept-request").click()
    assert words["accepted"] in deciding.locator(".messages").inner_text()
    deciding_shot("join-accepted")
    with deciding.expect_navigation():
        deciding.get_by_test_id("member-list").locator("li", has_text=username).get_by_test_id("member-roles").click()
    deciding.locator("#role-scorekeeper").check()
    assert deciding.locator("#role-librarian").is_disabled()  # a librarian's to give, not an organiser's
    deciding_shot("member-roles")
    with deciding.expect_navigation():
        deciding.get_by_role("button", name=words["save_roles"]).click()
    newcomer = django_user_model.objects.get(username=username)
    assert roles_of(newcomer, dunes) == {Role.MEMBER, Role.SCOREKEEPER}
    page.reload()
    assert words["member"] in page.get_by_test_id("join-box").inner_text()

    with page.expect_navigation():
        page.get_by_role("button", name=words["log_out"]).click()
    page.goto(f"{live_server.url}/login/")
    with page.expect_navigation():
        page.get_by_role("link", name=words["forgot"]).click()
    page.fill("#id_email", f"NADIA.{language}.{width}@example.org")
    shot("reset")
    with page.expect_navigation():
        page.get_by_role("button", name=words["mail_me"]).click()
    assert page.url.endswith("/password/reset/sent/")
    assert mail.outbox[-1].subject == ("Ludolog\u00a0: choisissez un nouveau mot de passe" if language == "fr"
                                       else "Ludolog: choose a new password")
    page.goto(link_in_last_mail(r"http://\S+/password/reset/\S+/"))
    page.fill("#id_new_password1", NEW_PASSWORD)
    page.fill("#id_new_password2", NEW_PASSWORD)
    shot("new-password")
    with page.expect_navigation():
        page.get_by_role("button", name=words["save"]).click()
    assert page.url.endswith("/password/reset/done/")
    with page.expect_navigation():
        page.locator('[data-testid="login-link"]').click()
    page.fill("#id_username", f"nadia.{language}.{width}@example.org")  # the verified address
    page.fill("#id_password", NEW_PASSWORD)
    shot("login")
    with page.expect_navigation():
        page.locator("main").get_by_role("button", name=words["log_in"]).click()
    with page.expect_navigation():
        page.locator('[data-testid="account-link"]').click()
    assert page.url.endswith("/account/")
    assert Person.objects.get(user__username=f"nadia-{language}-{width}").language == language

    admin = [url for url in visited if url.removeprefix(live_server.url).startswith("/admin/")]
    assert admin == [] and len(visited) >= 10
    assert errors == []
    context.close()
