from django.urls import path
from rest_framework.routers import DefaultRouter

from . import views

router = DefaultRouter()
router.register("clubs", views.ClubViewSet, basename="club")
router.register("leagues", views.LeagueViewSet, basename="league")
router.register("recompute", views.RecomputeViewSet, basename="recompute")

urlpatterns = [
    path("records/<int:record_id>/results/", views.RecordResultsView.as_view(), name="record-results"),
    path("statistics/players/", views.PlayerStatisticsView.as_view(), name="player-statistics"),
    path("statistics/games/", views.GameStatisticsView.as_view(), name="game-statistics"),
    path("ratings/", views.RatingListView.as_view(), name="ratings"),
    path("ratings/history/", views.RatingHistoryView.as_view(), name="rating-history"),
    *router.urls,
]
