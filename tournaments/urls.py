"""The tournaments' API, mounted under ``/api/`` by ``ludolog.urls``."""

from django.urls import path

from . import views

urlpatterns = [
    path("organisations/<int:pk>/tournaments/", views.OrganisationTournaments.as_view(),
         name="api-organisation-tournaments"),
    path("tournaments/<int:pk>/", views.TournamentDetail.as_view(), name="api-tournament"),
    path("tournaments/<int:pk>/standings/", views.TournamentStandings.as_view(), name="api-tournament-standings"),
    path("tournaments/<int:pk>/rounds/", views.TournamentRounds.as_view(), name="api-tournament-rounds"),
    path("tournaments/<int:pk>/rounds/<int:number>/", views.TournamentRound.as_view(), name="api-tournament-round"),
    path("tournaments/<int:pk>/rounds/<int:number>/tables/<int:table>/result/", views.TableResultView.as_view(),
         name="api-tournament-table-result"),
]
