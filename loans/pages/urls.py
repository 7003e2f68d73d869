"""The desk's and the member's page URLs, mounted at the site's root (``ludolog.web.urls``)."""

from django.urls import path

from . import account, desk, member_cards

urlpatterns = [
    path("account/loans/", account.account, name="account-loans"),
    path("desk/", desk.desk_home, name="desk"),
    path("desk/cards.pdf", member_cards.member_cards_pdf, name="desk-member-cards"),
    path("desk/households/<str:card>/", desk.household_desk, name="desk-household"),
    path("desk/copies/<path:barcode>/", desk.copy_desk, name="desk-copy"),
    path("desk/usage/", desk.usage_page, name="desk-usage"),
]
