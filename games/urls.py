from rest_framework.routers import SimpleRouter

from .api import CatalogueRecordViewSet

router = SimpleRouter()  # the API root lists every app's endpoints: ludolog.api
router.register("catalogue", CatalogueRecordViewSet, basename="catalogue-record")
urlpatterns = router.urls
