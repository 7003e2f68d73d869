from django.urls import path
from rest_framework.routers import SimpleRouter

from . import api_status, views

router = SimpleRouter()
router.register("clubs", views.ClubViewSet, basename="club")
# "api-league": the pages' "league-list" and "league-detail" name the leagues' HTML pages.
router.register("leagues", views.LeagueViewSet, basename="api-league")
router.register("recompute", views.RecomputeViewSet, basename="recompute")

urlpatterns = [
    path("records/<int:record_id>/results/", views.RecordResultsView.as_view(), name="record-results"),
    path("records/<int:record_id>/impact/", views.RecordImpactView.as_view(), name="record-impact"),
    path("records/<int:record_id>/scoring/", api_status.RecordScoringView.as_view(), name="record-scoring"),
    path("recompute/<int:run_id>/status/", api_status.RecomputeStatusView.as_view(), name="recompute-status"),
    path("statistics/players/", views.PlayerStatisticsView.as_view(), name="player-statistics"),
    path("statistics/games/", views.GameStatisticsView.as_view(), name="game-statistics"),
    path("ratings/", views.RatingListView.as_view(), name="ratings"),
    path("ratings/history/", views.RatingHistoryView.as_view(), name="rating-history"),
    *router.urls,
]
