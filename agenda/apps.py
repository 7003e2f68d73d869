from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AgendaConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "agenda"
    verbose_name = _("agenda")

    def ready(self) -> None:
        from . import scopes

        scopes.connect()
