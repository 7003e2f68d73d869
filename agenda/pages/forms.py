"""The agenda pages' forms: plain fields, a phone's date and time pickers, the services check
the rest (their refusals are shown beside the fields)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from agenda.models import Closure, OpeningHours, Session

DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
TIME = forms.TimeInput(attrs={"type": "time"}, format="%H:%M")
NUMBER = forms.NumberInput(attrs={"inputmode": "numeric", "min": 0})


class HoursForm(forms.ModelForm):
    class Meta:
        model = OpeningHours
        fields = ["weekday", "starts", "ends", "valid_from", "valid_until", "label", "public"]
        widgets = {"starts": TIME, "ends": TIME, "valid_from": DATE, "valid_until": DATE}


class EndHoursForm(forms.Form):
    last_day = forms.DateField(label=_("Last opening day"), widget=DATE)


class ClosureForm(forms.ModelForm):
    class Meta:
        model = Closure
        fields = ["first_day", "last_day", "reason"]
        widgets = {"first_day": DATE, "last_day": DATE}


KIND_FIELDS = {
    Session.Kind.EVENT: ["title", "day", "starts", "ends", "capacity", "registration", "public"],
    Session.Kind.GAME_NIGHT: ["title", "day", "starts", "ends", "capacity", "public"],
    Session.Kind.GROUP_VISIT: ["structure_kind", "structure_name", "day", "starts", "ends", "children_expected",
                               "adults_expected", "title"],
    Session.Kind.OPENING: ["title", "day", "starts", "ends", "public"],
}
"""The fields each kind of session asks for, in the order asked."""


class SessionForm(forms.Form):
    """A session's details as a person types them: a day, a start and an end time (ending after
    midnight: the next day)."""

    structure_kind = forms.ChoiceField(label=_("Kind of structure"), choices=Session.StructureKind.choices,
                                       required=False)
    structure_name = forms.CharField(label=_("Structure"), max_length=200, required=False)
    title = forms.CharField(label=_("Title"), max_length=200, required=False)
    day = forms.DateField(label=_("Day"), widget=DATE)
    starts = forms.TimeField(label=_("Starts at"), widget=TIME)
    ends = forms.TimeField(label=_("Ends at"), widget=TIME)
    capacity = forms.IntegerField(label=_("Capacity"), required=False, widget=NUMBER,
                                  help_text=_("How many people at most (empty: no limit)."))
    registration = forms.BooleanField(label=_("People register (with a waiting list when full)"), required=False)
    public = forms.BooleanField(label=_("On the public calendar"), required=False, initial=True)
    children_expected = forms.IntegerField(label=_("Children expected"), required=False, widget=NUMBER)
    adults_expected = forms.IntegerField(label=_("Adults expected"), required=False, widget=NUMBER)

    def __init__(self, *args: Any, kind: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in list(self.fields):
            if name not in KIND_FIELDS[Session.Kind(kind)]:
                del self.fields[name]
        self.order_fields(KIND_FIELDS[Session.Kind(kind)])
        if "title" in self.fields and kind in (Session.Kind.EVENT, Session.Kind.GAME_NIGHT):
            self.fields["title"].required = True

    def session_fields(self) -> dict[str, Any]:
        """The cleaned data as :func:`agenda.services.plan_session` takes it."""
        data = dict(self.cleaned_data)
        day, starts, ends = data.pop("day"), data.pop("starts"), data.pop("ends")
        starts_at = timezone.make_aware(dt.datetime.combine(day, starts))
        ends_at = timezone.make_aware(dt.datetime.combine(day + dt.timedelta(days=ends <= starts), ends))
        return {**data, "starts_at": starts_at, "ends_at": ends_at}

    @classmethod
    def initial_of(cls, session: Session) -> dict[str, Any]:
        starts, ends = timezone.localtime(session.starts_at), timezone.localtime(session.ends_at)
        return {"title": session.title, "day": starts.date(), "starts": starts.time(), "ends": ends.time(),
                "capacity": session.capacity, "registration": session.registration, "public": session.public,
                "structure_kind": session.structure_kind, "structure_name": session.structure_name,
                "children_expected": session.children_expected, "adults_expected": session.adults_expected}


class RegisterForm(forms.Form):
    name = forms.CharField(label=_("Your name"), max_length=150)
    email = forms.EmailField(label=_("Your e-mail address"), required=False,
                             help_text=_("To be told if a place frees up for you."))
    places = forms.IntegerField(label=_("Places"), min_value=1, max_value=50, initial=1, widget=NUMBER)


def show_refusal(form: forms.Form, errors: dict[str, list[str]]) -> None:
    """A service's refusal of some fields, shown beside them (the form's own names where they differ)."""
    renamed = {"starts_at": "starts", "ends_at": "ends"}
    for field, messages in errors.items():
        field = renamed.get(field, field)
        for message in messages:
            form.add_error(field if field in form.fields else None, message)
