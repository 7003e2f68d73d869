from __future__ import annotations

from django.core.management.base import BaseCommand

from plays_exchange.formats import write_bgg, write_bgstats, write_csv
from plays_exchange.services import exported_plays


class Command(BaseCommand):
    help = (
        "Write the finished plays (result-only and engine records alike: every one a staff reader may "
        "see) to standard output as CSV (one row a seat), BoardGameGeek-shaped XML or a BG Stats-shaped "
        "JSON export; both of the latter read back with import_plays. --player: only that player's."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--format", required=True, choices=["csv", "bgg", "bgstats"])
        parser.add_argument("--player", help="only the plays this player sat at (any case, any accents)")

    def handle(self, *args, format: str, player: str | None, **options) -> None:
        plays, ranks, left_out = exported_plays(player)
        if format == "csv":
            text = write_csv(plays, ranks)
        elif format == "bgg":
            text = write_bgg(plays)
        else:
            text = write_bgstats(plays)
        self.stdout.write(text, ending="")
        for line in left_out:
            self.stderr.write(f"left out (no final score): {line}")
