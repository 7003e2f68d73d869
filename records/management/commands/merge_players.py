from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from records.errors import PlayersCannotMerge
from records.models import Player
from records.players import merge_players


class Command(BaseCommand):
    help = "Merge a duplicate player (a typo, a nickname) into the player to keep: seats, results, leagues, ratings."

    def add_arguments(self, parser) -> None:
        parser.add_argument("keep", help="display name (or id) of the player to keep")
        parser.add_argument("duplicate", help="display name (or id) of the duplicate, deleted once merged")

    def _player(self, key: str) -> Player:
        player = Player.objects.filter(display_name=key).first()
        if player is None and key.isdigit():
            player = Player.objects.filter(pk=int(key)).first()
        if player is None:
            raise CommandError(f"no player {key!r}")
        return player

    def handle(self, *args, keep: str, duplicate: str, **options) -> None:
        kept, gone = self._player(keep), self._player(duplicate)
        try:
            moved = merge_players(kept, gone)
        except PlayersCannotMerge as error:
            raise CommandError(error.message) from None
        self.stdout.write(f"{gone.display_name} merged into {kept.display_name}: {len(moved)} game(s) moved")
