from rest_framework.routers import SimpleRouter

from .api import CatalogueRecordViewSet

router = SimpleRouter()  # the API root view is records' (included after this)
router.register("catalogue", CatalogueRecordViewSet, basename="catalogue-record")
urlpatterns = router.urls
