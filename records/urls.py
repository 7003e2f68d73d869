from rest_framework.routers import DefaultRouter

from .views import GameRecordViewSet

router = DefaultRouter()
router.register("records", GameRecordViewSet, basename="record")
urlpatterns = router.urls
