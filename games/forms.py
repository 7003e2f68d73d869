"""The catalogue's record forms: the librarian's own (``/catalogue/new/``, ``/catalogue/<pk>/edit/``)
and the rule both it and the admin's form keep, a likely duplicate warned of before saving.

The librarian's form names a publisher and each contributor as typed (found by name, or new to
the catalogue when saved: :func:`games.services.catalogue_record`); its lines are formsets with
the admin inlines' prefixes (``identifiers``, …), so that the duplicate check reads the EANs of
either form from the same data.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.forms.models import BaseInlineFormSet, inlineformset_factory
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from .models import CatalogueRecord, Category, Contribution, Copy, Identifier, Language, OtherTitle, Publisher
from .selectors import likely_duplicates, record_label

MAX_LINES = 200
"""Lines of one kind a record's form takes (a record has a handful; a form posted with thousands is refused)."""


class LikelyDuplicatesCheck(forms.Form):
    """A record catalogued by hand, warned of a likely duplicate before it is saved: another record
    with one of its EANs (which the catalogue cannot hold twice), or with the same title,
    publisher and year (saved anyway once "Catalogue it anyway" is ticked: two editions may
    share all three). Mixed into a record's ModelForm, before it; the form names where a record
    warned of is read (:meth:`record_url`)."""

    catalogue_anyway = forms.BooleanField(
        label=_("Catalogue it anyway"), required=False,
        help_text=_("Tick it when the record named above is another game or another edition."))

    duplicate_reason: str = ""
    """``"duplicate_ean"`` or ``"same_title"`` once :meth:`clean` found one (the refusal's reason)."""
    asks_anyway: bool = False
    """Whether a record with the same title, publisher and year stopped the save ("anyway" would not)."""

    def record_url(self, record: CatalogueRecord) -> str:
        raise NotImplementedError

    def duplicate_publisher(self, cleaned: dict[str, Any]) -> tuple[int | None, bool]:
        """The publisher's id as the form says it, and whether the catalogue knows it (a publisher
        new to the catalogue has no record to repeat)."""
        publisher = cleaned.get("publisher")
        return (publisher.pk if publisher else None), True

    def _eans(self) -> list[str]:
        """The EANs typed in the identifiers' lines (the lines' own fields, read from the same
        data: the record's form is checked before its lines are)."""
        data, eans = self.data, []
        try:
            total = int(data.get("identifiers-TOTAL_FORMS") or 0)
        except ValueError:
            total = 0  # the lines' formset refuses it
        for index in range(min(total, MAX_LINES)):
            if data.get(f"identifiers-{index}-scheme") == Identifier.Scheme.EAN and not data.get(
                    f"identifiers-{index}-DELETE"):
                eans.append(data.get(f"identifiers-{index}-value", ""))
        return eans

    def clean(self) -> dict:
        cleaned = super().clean()
        publisher_id, known = self.duplicate_publisher(cleaned)
        title = (cleaned.get("title") or "") if known else ""
        duplicates = likely_duplicates(title, publisher_id, cleaned.get("publication_year"), self._eans(),
                                       exclude=self.instance.pk)
        for record, why in duplicates:
            described = format_html("<a href=\"{}\">{}</a>", self.record_url(record), record_label(record))
            if why == "ean":
                self.duplicate_reason = "duplicate_ean"
                self.add_error(None, format_html(
                    _("Likely a duplicate: {record} already has this EAN. Add a copy to it rather than a new record."),
                    record=described))
            elif not cleaned.get("catalogue_anyway"):
                self.duplicate_reason = self.duplicate_reason or "same_title"
                self.asks_anyway = True
                self.add_error(None, format_html(
                    _("Likely a duplicate: {record} has the same title, publisher and year. Add a copy to it, or "
                      "tick “Catalogue it anyway” if this is another game or edition."), record=described))
        return cleaned


class LibrarianRecordForm(LikelyDuplicatesCheck, forms.ModelForm):
    """A record's own fields as a librarian fills them on the catalogue's pages (what the admin's
    form offers, less the fields an import keeps: its source, its links, its BoardGameGeek id)."""

    publisher_name = forms.CharField(
        label=_("publisher"), max_length=200, required=False,
        help_text=_("As the box names it: a publisher new to the catalogue is added with the record."))

    class Meta:
        model = CatalogueRecord
        fields = ["title", "document_type", "publication_year", "place", "series", "languages", "categories",
                  "min_players", "max_players", "min_age", "max_age", "duration_minutes", "engine_slug",
                  "contents", "summary", "notes", "cover"]
        widgets = {
            "contents": forms.Textarea(attrs={"rows": 4}),
            "summary": forms.Textarea(attrs={"rows": 4}),
            "notes": forms.Textarea(attrs={"rows": 3}),
            "languages": forms.SelectMultiple(attrs={"size": 6}),
            "categories": forms.SelectMultiple(attrs={"size": 8}),
        }

    def __init__(self, *args: Any, record_url: Any, engine_names: dict[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._record_url = record_url
        if self.instance.pk and self.instance.publisher_id and not self.is_bound:
            self.initial["publisher_name"] = self.instance.publisher.name
        self.fields["languages"].queryset = Language.objects.order_by("name")
        # Grouped by scheme (the ludothèque's classification, ESAR, subjects…), each by its code.
        by_scheme: dict[str, list[tuple[int, str]]] = {}
        for category in Category.objects.order_by("code"):
            by_scheme.setdefault(category.scheme, []).append((category.pk, str(category)))
        self.fields["categories"].choices = [(label, by_scheme[scheme]) for scheme, label in Category.Scheme.choices
                                             if scheme in by_scheme]
        current = self.instance.engine_slug
        engines = {**({current: current} if current else {}), **engine_names}
        self.fields["engine_slug"] = forms.ChoiceField(
            label=CatalogueRecord._meta.get_field("engine_slug").verbose_name, required=False,
            choices=[("", _("none: the game is not replayed here")), *sorted(engines.items(), key=lambda e: e[1])],
            help_text=_("The rules Ludolog replays this game with, where it has them."))
        for name in ("min_players", "max_players", "min_age", "max_age", "duration_minutes", "publication_year"):
            self.fields[name].widget.attrs["inputmode"] = "numeric"

    def record_url(self, record: CatalogueRecord) -> str:
        return self._record_url(record)

    def clean_publisher_name(self) -> str:
        return " ".join(self.cleaned_data["publisher_name"].split())

    def duplicate_publisher(self, cleaned: dict[str, Any]) -> tuple[int | None, bool]:
        name = cleaned.get("publisher_name") or ""
        if not name:
            return None, True
        found = Publisher.objects.filter(name__iexact=name).values_list("pk", flat=True).first()
        return found, found is not None


class ContributionForm(forms.ModelForm):
    """A person's part in the record, the person named as typed."""

    name = forms.CharField(label=_("name"), max_length=200)
    field_order = ["name", "role"]

    class Meta:
        model = Contribution
        fields = ["role"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk and not self.is_bound:
            self.initial["name"] = self.instance.person.name
        self.fields["name"].required = False  # an empty extra line is left out; a line with a role needs one

    def clean_name(self) -> str:
        return " ".join(self.cleaned_data["name"].split())

    def clean(self) -> dict:
        cleaned = super().clean()
        if self.has_changed() and not cleaned.get("name") and not cleaned.get("DELETE"):
            self.add_error("name", forms.ValidationError(_("Name the person, or leave the whole line empty."),
                                                         code="required"))
        return cleaned

    def has_changed(self) -> bool:
        # A new line's role shows "author" before anything is typed: only a name makes it a line.
        if self.instance.pk is None:
            return bool((self.data.get(self.add_prefix("name")) or "").strip())
        return super().has_changed()


class BaseContributionLines(BaseInlineFormSet):
    def clean(self) -> None:
        super().clean()
        seen: set[tuple[str, str]] = set()
        for form in self.forms:
            if (form.instance.pk is None and not form.has_changed()) or self._should_delete_form(form):
                continue
            key = ((form.cleaned_data.get("name") or "").casefold(), form.cleaned_data.get("role") or "")
            if key in seen:
                form.add_error("name", _("This person has this role twice."))
            seen.add(key)


class NewCopyForm(forms.ModelForm):
    """A new box of the record: barcode, call number, section, the state it comes in and when."""

    class Meta:
        model = Copy
        fields = ["barcode", "shelf_location", "location", "status", "acquired_on"]
        widgets = {"acquired_on": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}


def _lines(model: type, form: type = forms.ModelForm, formset: type = BaseInlineFormSet, **options: Any) -> Any:
    return inlineformset_factory(CatalogueRecord, model, form=form, formset=formset, max_num=MAX_LINES,
                                 absolute_max=MAX_LINES, validate_max=True, **options)


OtherTitleLines = _lines(OtherTitle, fields=["title", "kind", "language"], extra=1, can_delete=True)
ContributionLines = _lines(Contribution, form=ContributionForm, formset=BaseContributionLines, extra=2, can_delete=True)
IdentifierLines = _lines(Identifier, fields=["scheme", "value"], extra=2, can_delete=True)
NewCopyLines = _lines(Copy, form=NewCopyForm, extra=2, can_delete=False)


@dataclass
class RecordLines:
    """The record's lines as its form shows them: titles, people, identifiers, new copies (a
    copy's later life is the loans desk's: the form adds copies, never changes one)."""

    other_titles: Any
    contributions: Any
    identifiers: Any
    new_copies: Any

    @classmethod
    def of(cls, record: CatalogueRecord, data: Any = None, files: Any = None) -> RecordLines:
        return cls(
            other_titles=OtherTitleLines(data, files, instance=record),
            contributions=ContributionLines(data, files, instance=record,
                                            queryset=Contribution.objects.select_related("person")),
            identifiers=IdentifierLines(data, files, instance=record),
            new_copies=NewCopyLines(data, files, instance=record, queryset=Copy.objects.none(), prefix="copies"),
        )

    def all(self) -> list[Any]:
        return [self.other_titles, self.contributions, self.identifiers, self.new_copies]

    def is_valid(self) -> bool:
        return all([formset.is_valid() for formset in self.all()])  # each checked, for its errors shown
