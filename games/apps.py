from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Catalogue")

    def ready(self) -> None:
        # The Maps adapter reads no database: it is told where staff-loaded map files are.
        from .adapters.carcassonne_maps import CarcassonneMapsAdapter

        CarcassonneMapsAdapter.map_source = staticmethod(stored_map)  # type: ignore[assignment]

        from . import scopes, signals

        signals.connect()
        scopes.connect()


def stored_map(name: str, version: str):
    from .models import MapFile

    return MapFile.objects.filter(name=name, version=version).values_list("data", flat=True).first()
