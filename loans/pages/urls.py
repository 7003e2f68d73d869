"""The desk's, the member's and the game library's own page URLs, mounted at the site's root
(``ludolog.web.urls``)."""

from django.urls import path

from . import account, desk, households, library, member_cards, tariffs

urlpatterns = [
    path("account/loans/", account.account, name="account-loans"),
    path("desk/", desk.desk_home, name="desk"),
    path("desk/cards.pdf", member_cards.member_cards_pdf, name="desk-member-cards"),
    path("desk/households/<str:card>/", desk.household_desk, name="desk-household"),
    path("desk/copies/<path:barcode>/", desk.copy_desk, name="desk-copy"),
    path("desk/usage/", desk.usage_page, name="desk-usage"),
    path("library/households/", households.household_list, name="library-households"),
    path("library/households/new/", households.household_new, name="library-household-new"),
    path("library/households/<int:pk>/", households.household_page, name="library-household"),
    path("library/households/<int:pk>/members/", households.member_add, name="library-member-add"),
    path("library/households/<int:pk>/members/<int:member>/", households.member_page, name="library-member"),
    path("library/households/<int:pk>/members/<int:member>/remove/", households.member_remove,
         name="library-member-remove"),
    path("library/lending-rules/", library.lending_rules, name="library-lending-rules"),
    path("library/volunteers/", library.volunteers, name="library-volunteers"),
    path("library/tariffs/", tariffs.tariff_list, name="library-tariffs"),
    path("library/tariffs/<int:pk>/", tariffs.tariff_page, name="library-tariff"),
    path("library/tariffs/<int:pk>/retire/", tariffs.tariff_retire, name="library-tariff-retire"),
    path("library/tariffs/<int:pk>/delete/", tariffs.tariff_delete, name="library-tariff-delete"),
]
