"""A person's own account: signing up, the e-mail address and its verification link, the
language. (Signing in and the passwords are Django's own views, wired in
``accounts.account_urls``; the account page joins the apps, and is the site's,
``ludolog.web.account``.)"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views import i18n
from django.views.decorators.http import require_POST
from django.views.generic import FormView

from . import language, selectors, services
from .errors import EmailInUse, LinkRefused
from .forms import EmailForm, MailedPasswordResetForm, ProvingSetPasswordForm, SignUpForm


def _back(request: HttpRequest) -> str:
    """The page of this site posted as ``next``, if any."""
    back = request.POST.get("next", "") or request.GET.get("next", "")
    if back and url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()},
                                                require_https=request.is_secure()):
        return back
    return ""


def _site_url(request: HttpRequest) -> str:
    return request.build_absolute_uri("/")


def _reasons(form: Any) -> str:
    """The codes of a form's errors, for programs reading the page (``data-reason``)."""
    return " ".join(sorted({error.code or "invalid" for errors in form.errors.as_data().values() for error in errors}))


class RefusedSaysWhy:
    """For a form view: a form refused is answered 400, its errors' codes in the page
    (``reason``), as every refusal of the site is (Django's own views answer it 200)."""

    def form_invalid(self, form: Any) -> HttpResponse:
        response = self.render_to_response(self.get_context_data(form=form, reason=_reasons(form)))  # type: ignore[attr-defined]
        response.status_code = 400
        return response


class PasswordResetView(RefusedSaysWhy, auth_views.PasswordResetView):
    """Django's, its mail in its reader's language (Ludolog's words, ``registration/password_reset_*.txt``).

    It mails any active account with the address and a usable password, verified or not (Django's
    rule, kept): the link goes to the account's own address, so it helps nobody else in, and
    refusing unverified addresses would shut out whoever forgot their password before opening
    the verification mail. Following the link verifies the address (:class:`ProvingSetPasswordForm`)."""

    form_class = MailedPasswordResetForm
    subject_template_name = "registration/password_reset_subject.txt"
    email_template_name = "registration/password_reset_email.txt"
    extra_email_context = {"days": max(1, settings.PASSWORD_RESET_TIMEOUT // 86400)}


class PasswordResetConfirmView(RefusedSaysWhy, auth_views.PasswordResetConfirmView):
    form_class = ProvingSetPasswordForm


class PasswordChangeView(RefusedSaysWhy, auth_views.PasswordChangeView):
    pass


class SignUpView(RefusedSaysWhy, FormView):
    """Creating an account where sign-up is open (``LUDOLOG_SIGNUP = "open"``); else the page
    says that one joins by invitation, and a sign-up posted is refused (403, nothing created).

    An invitation's page signs its guest up with this view: a subclass whose :meth:`is_open`
    answers whether its token is good, whose :meth:`get_initial` fills in the address it was
    sent to, and whose :meth:`signed_up` accepts the invitation in the same transaction as the
    account is made."""

    form_class = SignUpForm
    template_name = "registration/signup.html"

    def is_open(self) -> bool:
        return settings.LUDOLOG_SIGNUP == "open"

    def signed_up(self, user: Any) -> None:
        """What follows the new account in its transaction (nothing here)."""

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.user.is_authenticated:
            return redirect("account")
        if not self.is_open():
            return render(request, self.template_name, {"closed": True, "reason": "signup_by_invitation"},
                          status=403 if request.method == "POST" else 200)
        return super().dispatch(request, *args, **kwargs)

    def form_valid(self, form: SignUpForm) -> HttpResponse:
        data = form.cleaned_data
        try:
            with transaction.atomic():
                user = services.sign_up(data["username"], data["email"], data["password1"], data["language"],
                                        site_url=_site_url(self.request))
                self.signed_up(user)
        except EmailInUse as taken:  # taken between the form's check and now
            form.add_error("email", ValidationError(taken.words, code=taken.reason))
            return self.form_invalid(form)
        login(self.request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(self.request, gettext(
            "Welcome, %(name)s. We have mailed a link to %(email)s: open it to verify your address.")
            % {"name": user.get_username(), "email": user.email})
        return redirect(_back(self.request) or "account")


def verify_email(request: HttpRequest, token: str) -> HttpResponse:
    """The link mailed to an address: verified, then the account page (or the login page for
    someone not signed in); a link that verifies nothing says why, with its status."""
    try:
        user = services.verify_email(token)
    except LinkRefused as refused:
        return render(request, "registration/verify_email_refused.html", {"refused": refused},
                      status=refused.status_code)
    messages.success(request, gettext("Your e-mail address %(email)s is verified.") % {"email": user.email})
    return redirect("account" if request.user.is_authenticated else "login")


@login_required
@require_POST
def send_verification_again(request: HttpRequest) -> HttpResponse:
    """A new verification link to the signed-in person's address (the last one lost or expired)."""
    user = request.user
    if not user.email:
        return _refused(request, "no_email", gettext("Your account has no e-mail address yet: give one first."))
    if selectors.person_of(user).email_verified_at is not None:
        messages.info(request, gettext("Your e-mail address is verified already."))
    else:
        services.send_verification(user, site_url=_site_url(request))
        messages.success(request, gettext("We have mailed a new link to %(email)s.") % {"email": user.email})
    return redirect("account")


@login_required
def change_email(request: HttpRequest) -> HttpResponse:
    """A new address for the signed-in person: verified when they open the link mailed to it."""
    form = EmailForm(request.user, request.POST or None, initial={"email": request.user.email})
    if request.method == "POST":
        if form.is_valid():
            try:
                mailed = services.change_email(request.user, form.cleaned_data["email"], site_url=_site_url(request))
            except EmailInUse as taken:
                form.add_error("email", ValidationError(taken.words, code=taken.reason))
            else:
                if mailed:
                    messages.success(request, gettext(
                        "We have mailed a link to %(email)s: open it to verify the address.")
                        % {"email": request.user.email})
                else:
                    messages.info(request, gettext("Your e-mail address is verified already."))
                return redirect("account")
        return render(request, "registration/email_change.html", {"form": form, "reason": _reasons(form)}, status=400)
    return render(request, "registration/email_change.html", {"form": form})


def set_language(request: HttpRequest) -> HttpResponse:
    """Django's language switch (the language cookie); for a signed-in person the language of
    their pages and mail from now on, on every device (``Person.language``)."""
    response = i18n.set_language(request)
    chosen = request.POST.get("language", "")
    if request.method == "POST" and request.user.is_authenticated and chosen in dict(settings.LANGUAGES):
        services.set_language(request.user, chosen)
        language.remember(request, chosen)
    return response


def _refused(request: HttpRequest, reason: str, words: str, status: int = 400) -> HttpResponse:
    return render(request, "registration/refused.html", {"reason": reason, "words": words}, status=status)
