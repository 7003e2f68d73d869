from rest_framework.routers import SimpleRouter

from .views import GameRecordViewSet

router = SimpleRouter()  # the API root lists every app's endpoints: ludolog.api
router.register("records", GameRecordViewSet, basename="record")
urlpatterns = router.urls
