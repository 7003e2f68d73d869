"""People with accounts for the accounts' tests: ``make_person`` (an account with its Person, its
address verified or not), ``signup_open`` (the installation's sign-up open to anyone), and
``committed``, which runs what a request left for its transaction's commit (the verification
mail is sent then; a test's transaction never commits)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import Person
from tests.factories import PASSWORD


@pytest.fixture
def make_person(django_user_model) -> Callable[..., Any]:
    def make(username: str, email: str = "", *, verified: bool = True, language: str = "") -> Any:
        user = django_user_model.objects.create_user(username, email=email, password=PASSWORD)
        Person.objects.create(user=user, language=language, email_verified_at=timezone.now() if verified else None)
        return user
    return make


@pytest.fixture
def signup_open(settings) -> None:
    settings.LUDOLOG_SIGNUP = "open"


@pytest.fixture
def committed(django_capture_on_commit_callbacks) -> Callable[[Callable[[], Any]], Any]:
    """``committed(lambda: client.post(...))``: the request's answer, after what it left for the
    commit of its transaction has run (the mail it sends)."""
    def run(request: Callable[[], Any]) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return request()
    return run
