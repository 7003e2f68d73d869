"""Which organisation a request is about: the one its visitor chose, else their first.

A person in several organisations switches between them; a visitor looking at a club's public
pages chooses it too. The choice is kept in the session. Without one, a signed-in person is in
their first organisation (the oldest membership), and anyone is in the installation's only
organisation when there is just one; otherwise in none, and the lists that are an
organisation's ask which one.

:class:`CurrentOrganisationMiddleware` gives every request ``request.organisations``, read once
a request and only when asked: ``.current`` (an :class:`~accounts.models.Organisation` or
``None``) and ``.mine`` (the signed-in person's organisations).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse

from .models import Organisation
from .roles import Action, Role, allows, roles_of

SESSION_KEY = "ludolog:organisation"


class Organisations:
    """The organisations of a request's visitor, read when first asked."""

    def __init__(self, request: HttpRequest) -> None:
        self._user = getattr(request, "user", None)
        session = getattr(request, "session", None)
        self._chosen = session.get(SESSION_KEY) if session is not None else None

    @cached_property
    def mine(self) -> list[Organisation]:
        """The organisations the signed-in person belongs to, oldest membership first."""
        if self._user is None or not self._user.is_authenticated:
            return []
        return list(Organisation.objects.filter(memberships__user=self._user).order_by("memberships__joined_at", "pk"))

    @cached_property
    def _first_two(self) -> list[Organisation]:
        """Two of the installation's organisations at most: whether it has none, one or several."""
        return list(Organisation.objects.all()[:2])

    @cached_property
    def current(self) -> Organisation | None:
        if self._chosen is not None:
            chosen = next((organisation for organisation in self.mine if organisation.pk == self._chosen), None)
            if chosen is None:
                chosen = Organisation.objects.filter(pk=self._chosen).first()
            if chosen is not None:
                return chosen
        if self.mine:
            return self.mine[0]
        return self._first_two[0] if len(self._first_two) == 1 else None

    @cached_property
    def roles(self) -> frozenset[Role]:
        """The visitor's roles in the current organisation."""
        return roles_of(self._user, self.current)

    @cached_property
    def choices(self) -> list[Organisation]:
        """The organisations to switch to: the person's own, else (a visitor) every one."""
        if self.mine:
            return self.mine
        if len(self._first_two) < 2:
            return self._first_two
        return list(Organisation.objects.all()[:200])


def current_organisation(request: HttpRequest) -> Organisation | None:
    """The organisation ``request`` is about (see the module's words)."""
    found = getattr(request, "organisations", None)
    return (found if isinstance(found, Organisations) else Organisations(request)).current


class UnknownOrganisation(Http404):
    """An ``organisation`` asked for by a short name nobody has."""

    reason = "unknown_organisation"
    status_code = 404


def scope_of(request: HttpRequest) -> tuple[Organisation | None, bool]:
    """Whose things a list shows: the organisation the request names (``?organisation=<short
    name>``, as a script calling the API does), else the current one (the person's choice, their
    first, the only one); the whole installation's where it has no organisation at all; nothing
    (``False``) where it has several and none is named or chosen."""
    named = request.GET.get("organisation", "") if request.method == "GET" else ""
    if named:
        found = Organisation.objects.filter(slug=named).first()
        if found is None:
            raise UnknownOrganisation(f"no organisation is called {named!r}")
        return found, True
    organisation = current_organisation(request)
    if organisation is not None:
        return organisation, True
    return None, not Organisation.objects.exists()


def may(request: HttpRequest, action: Action) -> bool:
    """Whether the visitor may do ``action`` in the current organisation: ``can(user, action,
    current_organisation(request))``, their roles there read once a request."""
    found = getattr(request, "organisations", None)
    if not isinstance(found, Organisations):
        found = Organisations(request)
    return allows(found.roles, action)


def choose(request: HttpRequest, organisation: Organisation) -> None:
    """Make ``organisation`` the one the visitor's next requests are about, and this one's from now."""
    request.session[SESSION_KEY] = organisation.pk
    request.organisations = Organisations(request)  # type: ignore[attr-defined]


class CurrentOrganisationMiddleware:
    """Gives each request ``request.organisations`` (after the session and the user)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request.organisations = Organisations(request)  # type: ignore[attr-defined]
        return self.get_response(request)


def context(request: HttpRequest) -> dict[str, Any]:
    """For templates: ``organisation`` (the current one), ``organisations`` (those to switch to:
    the person's own, or every one for a visitor), and ``may``, what the person may do there by
    action name (``{% if may.use_desk %}``), asked of :func:`accounts.roles.roles_of` once."""
    found = getattr(request, "organisations", None)
    if not isinstance(found, Organisations):
        return {}
    roles = found.roles
    return {
        "organisation": found.current,
        "organisations": lambda: found.choices,
        "may": {action.value: allows(roles, action) for action in Action},
    }
