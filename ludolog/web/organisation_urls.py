"""The organisations' pages for joining them (:mod:`ludolog.web.organisations`), named
``organisations:…``."""

from django.urls import path

from . import organisation_settings, organisations

app_name = "organisations"

urlpatterns = [
    path("organisations/", organisations.organisation_list, name="list"),
    path("organisations/<slug:slug>/", organisations.organisation_page, name="detail"),
    path("organisations/<slug:slug>/join/", organisations.ask_to_join, name="join"),
    path("organisations/<slug:slug>/members/", organisations.members_and_invitations, name="members"),
    path("organisations/<slug:slug>/settings/", organisation_settings.organisation_settings, name="settings"),
    path("organisations/<slug:slug>/members/<int:pk>/", organisation_settings.member_roles, name="member"),
    path("organisations/<slug:slug>/members/<int:pk>/remove/", organisation_settings.remove_member,
         name="remove-member"),
    path("organisations/<slug:slug>/invitations/<int:pk>/", organisations.invitation_link_page,
         name="invitation-link"),
    path("organisations/<slug:slug>/invitations/<int:pk>/revoke/", organisations.revoke, name="revoke"),
    path("organisations/<slug:slug>/requests/<int:pk>/", organisations.decide, name="decide"),
    path("invitations/<str:token>/", organisations.invitation_page, name="invitation"),
]
