from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LoansConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "loans"
    verbose_name = _("loans desk")

    def ready(self) -> None:
        from records.integrity import register_stream

        from . import catalogue_sync, integrity, receivers, scopes

        register_stream(integrity.STREAM)  # verify_events and the checkpoint files cover the copies
        catalogue_sync.connect()
        receivers.connect()
        scopes.connect()
