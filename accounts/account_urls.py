"""A person's own account, mounted at the site's root (``ludolog.web.urls``): sign-up, the
e-mail address and its verification, and the passwords with Django's own views under their
own URL names (``password_reset``, ``password_reset_done``, ``password_reset_confirm``,
``password_reset_complete``, ``password_change``, ``password_change_done``), the reset's mail in
its reader's language. The paths that send mail are braked with the logins
(``LUDOLOG_MAILING_PATHS``). The account page itself is the site's (``account``)."""

from django.contrib.auth import views as auth_views
from django.urls import path

from . import account_views

urlpatterns = [
    path("signup/", account_views.SignUpView.as_view(), name="signup"),
    path("verify-email/<str:token>/", account_views.verify_email, name="verify-email"),
    path("account/email/", account_views.change_email, name="email-change"),
    path("account/email/verify/", account_views.send_verification_again, name="verification-send"),
    path("password/reset/", account_views.PasswordResetView.as_view(), name="password_reset"),
    path("password/reset/sent/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path("password/reset/<uidb64>/<token>/", account_views.PasswordResetConfirmView.as_view(),
         name="password_reset_confirm"),
    path("password/reset/done/", auth_views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
    path("account/password/", account_views.PasswordChangeView.as_view(), name="password_change"),
    path("account/password/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
]
