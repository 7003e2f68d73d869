from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PlaysExchangeConfig(AppConfig):
    name = "plays_exchange"
    verbose_name = _("Play history exchange")
    default_auto_field = "django.db.models.BigAutoField"
