from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class WebConfig(AppConfig):
    """The server-rendered pages: catalogue, game history, replay viewer, leagues, scorekeeping."""

    name = "ludolog.web"
    label = "web"
    verbose_name = _("Web pages")

    def ready(self) -> None:
        # Failed logins are counted by a signal receiver that lives beside the login brake.
        from .. import middleware  # noqa: F401
