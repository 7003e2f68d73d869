from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LoansConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "loans"
    verbose_name = _("loans desk")

    def ready(self) -> None:
        from . import catalogue_sync, receivers, scopes

        catalogue_sync.connect()
        receivers.connect()
        scopes.connect()
