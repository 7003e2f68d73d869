"""Invitations: an organiser or a librarian invites with a role they may give, by e-mail or by a
link shown at the table; the person who opens it is a member at once, and the player their
account is (their own, a new one named after them, or the one of the club's history the
invitation names). Each refusal has its reason and status and changes nothing; a link is
unguessable and used once."""

from __future__ import annotations

import datetime as dt
import hashlib
import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.utils import timezone

from accounts import joining
from accounts.current import SESSION_KEY
from accounts.models import Invitation, Membership, MembershipRole, Person
from accounts.roles import Role, roles_of
from ludolog import newcomers
from records.errors import PlayersCannotMerge
from records.models import Player
from records.players import PlayerNotClaimable, PlayerTaken, merge_players
from tests.factories import seeded_record

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


def link(token: str) -> str:
    return f"http://testserver/invitations/{token}/"


def invite(by, organisation, role=Role.MEMBER, **given):
    return newcomers.invite(by, organisation, role, link=link, **given)


def token_of(address: str) -> str:
    return address.rstrip("/").rsplit("/", 1)[1]


def everything() -> tuple:
    """What a refusal must leave as it was: the accounts, memberships, roles, players and invitations."""
    return (sorted(get_user_model().objects.values_list("username", flat=True)),
            sorted(Membership.objects.values_list("organisation_id", "user_id")),
            sorted(MembershipRole.objects.values_list("membership_id", "role")),
            sorted(Player.objects.values_list("display_name", "user_id")),
            sorted(Invitation.objects.values_list("pk", "accepted_by", "accepted_at", "revoked_at", "player_id")))


def test_a_link_invitation_makes_the_person_who_opens_it_a_member_at_once_with_a_player(organiser, library, newcomer):
    invitation, address = invite(organiser, library, Role.SCOREKEEPER)
    assert address.startswith("http://testserver/invitations/") and invitation.email == ""
    membership, player = newcomers.join_with_invitation(token_of(address), newcomer)
    assert membership.organisation == library and membership.user == newcomer
    assert roles_of(newcomer, library) == {Role.MEMBER, Role.SCOREKEEPER}
    assert player.user == newcomer and player.display_name == "camille"
    invitation.refresh_from_db()
    assert invitation.accepted_by == newcomer and invitation.accepted_at is not None


def test_the_token_is_random_and_only_its_hash_is_kept(organiser, library):
    first, address = invite(organiser, library)
    second, other = invite(organiser, library)
    token = token_of(address)
    assert len(token) >= 43 and token != token_of(other)  # 32 random bytes, URL-safe base64
    assert first.token_hash == hashlib.sha256(token.encode()).hexdigest()
    assert not Invitation.objects.filter(token_hash=token).exists()
    assert all(token not in str(value) for value in Invitation.objects.values_list(
        "token_hash", "email", "role").get(pk=first.pk))


@pytest.mark.parametrize("made_so, reason, status, error", [
    ("expired", "invitation_expired", 410, joining.InvitationExpired),
    ("used", "invitation_used", 409, joining.InvitationUsed),
    ("revoked", "invitation_revoked", 410, joining.InvitationRevoked),
    ("guessed", "invitation_unknown", 404, joining.InvitationUnknown),
])
def test_an_invitation_that_is_not_open_is_refused_with_its_reason_and_nothing_changes(
        organiser, library, newcomer, django_user_model, made_so, reason, status, error):
    invitation, address = invite(organiser, library, Role.ORGANISER, days=3)
    token = token_of(address)
    now = None
    if made_so == "expired":
        now = timezone.now() + dt.timedelta(days=3, seconds=1)
    elif made_so == "used":
        newcomers.join_with_invitation(token, django_user_model.objects.create_user("first"))
    elif made_so == "revoked":
        joining.revoke(organiser, invitation)
    elif made_so == "guessed":
        token = token[:-1] + ("A" if token[-1] != "A" else "B")
    before = everything()
    with pytest.raises(error) as refused:
        joining.accept(token, newcomer, now=now)
    assert (refused.value.reason, refused.value.status_code) == (reason, status)
    if made_so != "expired":
        with pytest.raises(error):
            newcomers.join_with_invitation(token, newcomer)
    assert everything() == before
    assert not Membership.objects.filter(user=newcomer).exists()


def test_an_invitation_lets_one_person_in_once(organiser, library, newcomer, django_user_model):
    _invitation, address = invite(organiser, library)
    newcomers.join_with_invitation(token_of(address), newcomer)
    second = django_user_model.objects.create_user("second")
    with pytest.raises(joining.InvitationUsed):
        newcomers.join_with_invitation(token_of(address), second)
    assert not Membership.objects.filter(user=second).exists()
    assert not Player.objects.filter(user=second).exists()


def test_an_organiser_of_one_organisation_cannot_invite_into_another(dunes_organiser, library):
    before = everything()
    with pytest.raises(joining.MayNotInvite) as refused:
        invite(dunes_organiser, library)
    assert (refused.value.reason, refused.value.status_code) == ("may_not_invite", 403)
    assert everything() == before


def test_a_plain_member_cannot_invite(member, library):
    with pytest.raises(joining.MayNotInvite):
        invite(member, library)
    assert not Invitation.objects.exists()


@pytest.mark.parametrize("inviter, role, allowed", [
    ("librarian", Role.ORGANISER, False), ("librarian", Role.ADMIN, False), ("librarian", Role.DESK, True),
    ("librarian", Role.LIBRARIAN, True), ("librarian", Role.MEMBER, True),
    ("organiser", Role.LIBRARIAN, False), ("organiser", Role.SCOREKEEPER, True), ("organiser", Role.ORGANISER, True),
])
def test_an_invitation_gives_only_a_role_its_maker_may_give(request, library, inviter, role, allowed):
    by = request.getfixturevalue(inviter)
    assert (role in joining.invitable_roles(by, library)) is allowed
    if allowed:
        invitation, _address = invite(by, library, role)
        assert invitation.role == role
        return
    with pytest.raises(joining.MayNotGrant) as refused:
        invite(by, library, role)
    assert (refused.value.reason, refused.value.status_code) == ("may_not_grant_role", 403)
    assert not Invitation.objects.exists()


@pytest.mark.parametrize("given, field", [({"role": "operator"}, "role"), ({"role": "king"}, "role"),
                                          ({"email": "not an address"}, "email"), ({"days": 0}, "days"),
                                          ({"days": 91}, "days")])
def test_an_invitation_out_of_bounds_is_refused(organiser, library, given, field):
    role = given.pop("role", Role.MEMBER)
    with pytest.raises(joining.InvalidInvitation) as refused:
        invite(organiser, library, role, **given)
    assert refused.value.status_code == 400 and refused.value.details["field"] == field
    assert not Invitation.objects.exists()


def test_a_member_accepting_an_invitation_to_what_they_are_already_is_refused(organiser, library, member):
    _invitation, address = invite(organiser, library)
    before = everything()
    with pytest.raises(joining.AlreadyMember) as refused:
        newcomers.join_with_invitation(token_of(address), member)
    assert refused.value.status_code == 409 and everything() == before
    _invitation, address = invite(organiser, library, Role.SCOREKEEPER)
    newcomers.join_with_invitation(token_of(address), member)  # a role beside: taken
    assert roles_of(member, library) == {Role.MEMBER, Role.SCOREKEEPER}


def test_an_invitation_naming_a_player_of_the_clubs_history_gives_the_account_that_player(
        organiser, library, newcomer):
    seeded_record(2, organisation=library)  # Ada and Bo played at the club
    ada = Player.objects.get(display_name="Ada")
    invitation, address = invite(organiser, library, player_id=ada.pk)
    assert invitation.player_id == ada.pk
    _membership, player = newcomers.join_with_invitation(token_of(address), newcomer)
    assert player == ada and Player.objects.get(pk=ada.pk).user == newcomer
    assert Player.objects.filter(user=newcomer).count() == 1


def test_an_account_with_a_player_of_its_own_claiming_one_of_the_history_makes_them_one(organiser, library, newcomer):
    seeded_record(2, organisation=library)
    own = Player.objects.create(display_name="Camille", user=newcomer)
    ada = Player.objects.get(display_name="Ada")
    _invitation, address = invite(organiser, library, player_id=ada.pk)
    _membership, player = newcomers.join_with_invitation(token_of(address), newcomer)
    assert player == ada and player.user == newcomer
    assert not Player.objects.filter(pk=own.pk).exists()


def test_a_player_taken_since_by_another_account_is_refused_and_nothing_changes(
        organiser, library, newcomer, django_user_model):
    seeded_record(2, organisation=library)
    ada = Player.objects.get(display_name="Ada")
    _invitation, address = invite(organiser, library, player_id=ada.pk)
    Player.objects.filter(pk=ada.pk).update(user=django_user_model.objects.create_user("ada"))
    before = everything()
    with pytest.raises(PlayerTaken) as refused:
        newcomers.join_with_invitation(token_of(address), newcomer)
    assert (refused.value.reason, refused.value.status_code) == ("player_has_an_account", 409)
    assert everything() == before


def test_an_invitation_names_only_a_player_of_the_organisation_without_an_account(
        organiser, library, dunes, django_user_model):
    seeded_record(2, organisation=dunes)  # Ada and Bo played at the other club only
    ada = Player.objects.get(display_name="Ada")
    with pytest.raises(PlayerNotClaimable):
        invite(organiser, library, player_id=ada.pk)
    seeded_record(2, seed=2, organisation=library)
    Player.objects.filter(pk=ada.pk).update(user=django_user_model.objects.create_user("ada"))
    with pytest.raises(PlayerNotClaimable):
        invite(organiser, library, player_id=ada.pk)
    assert not Invitation.objects.exists()


def test_merging_the_player_an_invitation_names_names_the_player_kept(organiser, library):
    seeded_record(2, organisation=library)
    ada, bo = Player.objects.get(display_name="Ada"), Player.objects.get(display_name="Bo")
    keep = Player.objects.create(display_name="Ada L.")
    invitation, _address = invite(organiser, library, player_id=ada.pk)
    merge_players(keep, ada)
    invitation.refresh_from_db()
    assert invitation.player_id == keep.pk
    with pytest.raises(PlayersCannotMerge):  # they sat at one game: nothing moves
        merge_players(bo, keep)


def test_a_new_players_name_keeps_clear_of_the_names_already_known(organiser, library, django_user_model):
    seeded_record(2, organisation=library)  # a player "Ada"
    user = django_user_model.objects.create_user("ada")
    _invitation, address = invite(organiser, library)
    _membership, player = newcomers.join_with_invitation(token_of(address), user)
    assert player.display_name == "ada 2" and Player.objects.get(display_name="Ada").user is None


def test_revoking_is_for_those_who_could_have_given_the_role(organiser, librarian, dunes_organiser, library):
    invitation, _address = invite(organiser, library, Role.ORGANISER)
    with pytest.raises(joining.MayNotInvite):
        joining.revoke(dunes_organiser, invitation)
    with pytest.raises(joining.MayNotGrant):
        joining.revoke(librarian, invitation)
    joining.revoke(organiser, invitation)
    with pytest.raises(joining.InvitationRevoked):
        joining.revoke(organiser, invitation)
    assert list(joining.pending_invitations(library)) == []


def test_an_e_mail_invitation_is_mailed_in_the_language_of_the_one_it_goes_to(
        organiser, library, dunes, newcomer, django_capture_on_commit_callbacks):
    library.language = "fr"
    library.save()
    with django_capture_on_commit_callbacks(execute=True):
        invitation, address = invite(organiser, library, email="nouveau@example.org")
    sent, = mail.outbox
    assert sent.to == ["nouveau@example.org"] and address in sent.body
    assert "Invitation à rejoindre Ludothèque des tests" in sent.subject, sent.subject
    invitation.refresh_from_db()
    assert invitation.emailed_at is not None
    Person.objects.create(user=newcomer, language="en")
    with django_capture_on_commit_callbacks(execute=True):
        invite(organiser, library, email="Camille@example.org")
    assert mail.outbox[1].subject == "Invitation to join Ludothèque des tests"


def test_the_invitations_link_is_not_kept_in_the_outbox_once_mailed(
        organiser, library, settings, django_capture_on_commit_callbacks):
    """The mail carries the link's raw token, which is stored nowhere else: while the broker is
    down the outbox holds it (it has to be sent), once mailed only its subject, address and date."""
    from django.test import Client

    from ludolog.web.organisations import LINKS
    from outbox import services as outbox
    from outbox.models import Message
    from tests.brokers import CLOSED, broker_at

    settings.LUDOLOG_OUTBOX_SWEEP_GRACE_SECONDS = 0
    with broker_at(CLOSED), django_capture_on_commit_callbacks(execute=True):
        invitation, address = invite(organiser, library, email="nouveau@example.org")
    message = Message.objects.get(kind=Message.Kind.INVITATION)
    assert message.about == invitation and address in message.body and message.sent_at is None
    invitation.refresh_from_db()
    assert invitation.emailed_at is None and mail.outbox == []
    client = Client()
    client.force_login(organiser)
    session = client.session
    session[LINKS] = {str(invitation.pk): address}  # as the page that made it keeps it
    session.save()
    page = client.get(f"/organisations/{library.slug}/invitations/{invitation.pk}/").content.decode()
    assert 'data-testid="invitation-mail-waiting"' in page  # on its way, not "could not be mailed"
    assert outbox.sweep() == 1
    sent, = mail.outbox
    assert address in sent.body
    message.refresh_from_db()
    assert message.body == "" and message.sent_at is not None
    assert message.recipient_list == ["nouveau@example.org"] and "Invitation to join" in message.subject
    assert not Message.objects.filter(body__contains=token_of(address)).exists()
    invitation.refresh_from_db()
    assert invitation.emailed_at == message.sent_at


def test_a_mail_server_that_does_not_answer_fails_no_invitation(organiser, library, settings,
                                                                 django_capture_on_commit_callbacks):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", 9, 1  # nothing listens there
    with django_capture_on_commit_callbacks(execute=True):
        invitation, _address = invite(organiser, library, email="nouveau@example.org")
    invitation.refresh_from_db()
    assert invitation.emailed_at is None and joining.pending_invitations(library).get() == invitation


# The pages

def test_the_organiser_makes_a_link_invitation_and_sees_its_qr_code(client, organiser, library):
    client.force_login(organiser)
    page = client.get(f"/organisations/{library.slug}/members/")
    assert page.status_code == 200
    offered = re.findall(r'name="role" value="(\w+)"', page.content.decode())
    assert offered == ["member", "organiser", "scorekeeper"]
    made = client.post(f"/organisations/{library.slug}/members/", {"role": "member", "email": "", "days": "7"})
    invitation = Invitation.objects.get()
    assert made.status_code == 302 and made.url == f"/organisations/{library.slug}/invitations/{invitation.pk}/"
    shown = client.get(made.url).content.decode()
    assert '<svg' in shown and 'class="invitation-qr"' in shown
    address = re.search(r'value="(http://testserver/invitations/[^"]+)"', shown)[1]
    assert hashlib.sha256(token_of(address).encode()).hexdigest() == invitation.token_hash
    listed = client.get(f"/organisations/{library.slug}/members/").content.decode()
    assert f'data-invitation="{invitation.pk}"' in listed


def test_the_invitations_area_is_refused_to_those_who_do_not_invite_there(client, dunes_organiser, member, library):
    for user in (dunes_organiser, member):
        client.force_login(user)
        answer = client.get(f"/organisations/{library.slug}/members/")
        assert answer.status_code == 403 and b'data-reason="may_not_invite"' in answer.content
        assert client.post(f"/organisations/{library.slug}/members/", {"role": "member", "days": "7"}).status_code == 403
    assert not Invitation.objects.exists()


def test_a_refused_role_on_the_page_says_why_and_makes_nothing(client, librarian, library):
    client.force_login(librarian)
    answer = client.post(f"/organisations/{library.slug}/members/", {"role": "organiser", "days": "7"})
    assert answer.status_code == 400 and not Invitation.objects.exists()


def test_a_new_person_creates_an_account_on_the_invitation_page_and_is_a_member_at_once(client, organiser, library):
    _invitation, address = invite(organiser, library, email="dominique@example.org")
    path = address.removeprefix("http://testserver")
    page = client.get(path)
    assert page.status_code == 200 and b'value="dominique@example.org"' in page.content
    assert f'href="/login/?next={path}"'.encode() in page.content  # or sign in, and come back
    answer = client.post(path, {"username": "dominique", "email": "dominique@example.org",
                                "password1": "un-mot-de-passe-long", "password2": "un-mot-de-passe-long",
                                "language": "fr"})
    assert answer.status_code == 302 and answer.url == "/"
    user = get_user_model().objects.get(username="dominique")
    assert int(client.session["_auth_user_id"]) == user.pk and client.session[SESSION_KEY] == library.pk
    assert Membership.objects.filter(user=user, organisation=library).exists()
    assert Player.objects.get(user=user).display_name == "dominique"
    assert client.get("/scorekeeping/").status_code == 200


def test_a_signed_in_person_accepts_with_one_tap(client, organiser, library, newcomer):
    _invitation, address = invite(organiser, library)
    client.force_login(newcomer)
    path = address.removeprefix("http://testserver")
    assert b'data-testid="accept-invitation"' in client.get(path).content
    assert client.post(path).status_code == 302
    assert Membership.objects.filter(user=newcomer, organisation=library).exists()


@pytest.mark.parametrize("made_so, status", [("guessed", 404), ("revoked", 410), ("used", 409)])
def test_a_closed_or_guessed_link_makes_no_account(client, organiser, library, newcomer, made_so, status):
    invitation, address = invite(organiser, library)
    path = address.removeprefix("http://testserver")
    if made_so == "guessed":
        path = "/invitations/" + "x" * 43 + "/"
    elif made_so == "revoked":
        joining.revoke(organiser, invitation)
    else:
        newcomers.join_with_invitation(token_of(address), newcomer)
    before = everything()
    assert client.get(path).status_code == status
    answer = client.post(path, {"username": "intrus", "email": "intrus@example.org",
                                "password1": "un-mot-de-passe-long", "password2": "un-mot-de-passe-long",
                                "language": "fr"})
    assert answer.status_code == status and b"data-reason=\"invitation_" in answer.content
    assert everything() == before


def test_an_invalid_new_account_makes_nothing_and_keeps_the_invitation_open(client, organiser, library):
    _invitation, address = invite(organiser, library)
    path = address.removeprefix("http://testserver")
    before = everything()
    answer = client.post(path, {"username": "dominique", "email": "", "password1": "a", "password2": "b"})
    assert answer.status_code == 400 and everything() == before


def test_a_pending_invitation_is_withdrawn_from_the_page(client, organiser, library):
    invitation, address = invite(organiser, library)
    client.force_login(organiser)
    assert client.post(f"/organisations/{library.slug}/invitations/{invitation.pk}/revoke/").status_code == 302
    assert client.get(address.removeprefix("http://testserver")).status_code == 410
