"""The accounts' forms: Django's own (``UserCreationForm``, ``PasswordResetForm``,
``SetPasswordForm``), with what Ludolog adds to each."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm, SetPasswordForm, UserCreationForm
from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from . import selectors, services
from .errors import EmailInUse


def _address_field(help_text: Any = _("We mail a link to it: open it to verify the address.")) -> forms.EmailField:
    return forms.EmailField(label=_("E-mail address"), max_length=254, help_text=help_text,
                            widget=forms.EmailInput(attrs={"autocomplete": "email"}))


def _free_address(email: str, other_than: Any = None) -> str:
    """``email`` tidied, refused (``email_in_use``) when another account has it."""
    if selectors.email_in_use(email, other_than=other_than):
        raise ValidationError(EmailInUse.words, code=EmailInUse.reason)
    return email.strip()


class SignUpForm(UserCreationForm):
    """A username, an e-mail address that no account has, a language, a password twice (checked
    by the installation's password rules, ``AUTH_PASSWORD_VALIDATORS``)."""

    email = _address_field()
    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES,
                                 help_text=_("Of your pages and of the mail you are sent."))

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["language"].initial = translation.get_language()
        self.fields["username"].widget.attrs["autocomplete"] = "username"
        self.fields["username"].help_text = _("Letters, digits and . + - _ (150 at most): how the club knows you.")

    def clean_username(self) -> str | None:
        username = super().clean_username()
        if username and "@" in username:
            # An @ is how the login form tells an address from a username.
            raise ValidationError(_("A username has no @ in it (you may sign in with your e-mail address too)."),
                                  code="at_in_username")
        return username

    def clean_email(self) -> str:
        return _free_address(self.cleaned_data["email"])


class EmailForm(forms.Form):
    """A new address for a signed-in person's account."""

    email = _address_field()

    def __init__(self, user: Any, *args: Any, **kwargs: Any) -> None:
        self.user = user
        super().__init__(*args, **kwargs)

    def clean_email(self) -> str:
        return _free_address(self.cleaned_data["email"], other_than=self.user)


class LoginForm(AuthenticationForm):
    """Django's login form, saying that a verified address signs in too (``accounts.backends``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["username"].label = _("Username or e-mail address")


class MailedPasswordResetForm(PasswordResetForm):
    """Django's reset form, its mail in the language of the person it goes to (their own, else
    their organisation's, else the installation's), whatever the language of the page that asked."""

    email = _address_field(help_text="")

    def send_mail(self, subject_template_name: str, email_template_name: str, context: dict[str, Any],
                  from_email: str | None, to_email: str, html_email_template_name: str | None = None) -> None:
        with translation.override(selectors.mail_language(context["user"])):
            super().send_mail(subject_template_name, email_template_name, context, from_email, to_email,
                              html_email_template_name)


class ProvingSetPasswordForm(SetPasswordForm):
    """The new password of a reset: the link came by mail to the account's address, so opening it
    proves the address is the person's; it is verified too if it was not yet."""

    def save(self, commit: bool = True) -> Any:
        user = super().save(commit)
        if commit:
            services.address_proven(user)
        return user
