"""Names typed on a form that seats players (the start form, the result form): each person once,
and a name nobody has yet seats a new player only once the typist has said so, by ticking "add …
as a new player" (a typo would otherwise make a second Chloé)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext_lazy as _

from games.spelling import name_key
from records import players


def confirm_new_players(form: forms.Form, names: Sequence[tuple[int, str, str]], data: Mapping[str, Any],
                        keeper: AbstractBaseUser | None, *, duplicate: str) -> dict[int, str]:
    """Check ``names`` (row number, field, tidied visible name) as typed on ``form``: a name
    whose player is already on an earlier row gets ``duplicate`` as its error; a name that finds
    no player ``keeper`` may see needs its ``new_<number>`` box confirming it, else an error asks
    for it. Returns the new names by row number, for the form to offer the box."""
    known = players.known_players((name for _number, _field, name in names), seen_by=keeper)
    new_names: dict[int, str] = {}
    seen: set[str] = set()
    for number, field, name in names:
        key = name_key(name)
        if key in seen:
            form.add_error(field, forms.ValidationError(duplicate, code="duplicate_player"))
            continue
        seen.add(key)
        if key not in known:
            new_names[number] = name
            if name_key(data.get(f"new_{number}") or "") != key:
                form.add_error(field, forms.ValidationError(
                    _("No player called “%(name)s” yet."), code="new_player", params={"name": name}))
    return new_names
