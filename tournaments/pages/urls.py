"""The tournaments' pages, mounted by ``ludolog.web.urls`` by this module's name."""

from django.urls import path

from . import exports, views

urlpatterns = [
    path("tournaments/", views.tournament_list, name="tournaments"),
    path("tournaments/<int:pk>/", views.tournament_page, name="tournament"),
    path("tournaments/<int:pk>/settings/", views.settings_page, name="tournament-settings"),
    path("tournaments/<int:pk>/standings.csv", exports.standings_csv, name="tournament-standings-csv"),
    path("tournaments/<int:pk>/standings.pdf", exports.standings_pdf, name="tournament-standings-pdf"),
    path("tournaments/<int:pk>/rounds/<int:number>/", views.round_page, name="tournament-round"),
    path("tournaments/<int:pk>/rounds/<int:number>/pairing.pdf", exports.pairing_pdf, name="tournament-pairing-pdf"),
    path("tournaments/<int:pk>/rounds/<int:number>/tables/<int:table>/", views.table_page, name="tournament-table"),
    path("tournaments/<int:pk>/rounds/<int:number>/tables/<int:table>/sheet.pdf", exports.score_sheet_pdf,
         name="tournament-score-sheet-pdf"),
]
