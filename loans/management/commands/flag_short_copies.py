from django.core.management.base import BaseCommand

from loans import receivers
from records.models import GameRecord


class Command(BaseCommand):
    help = ("Flag for a check the copy of every finished game that ended short of its tiles and whose copy was "
            "not flagged yet (the flag is written once a game ends; this catches up one that failed then). "
            "Safe to run again: a game already heard of flags nothing.")

    def handle(self, *args, **options) -> None:
        ids = GameRecord.objects.filter(copy__isnull=False).values_list("pk", flat=True)
        flagged = receivers.flag_copies(ids.iterator(chunk_size=5000))
        self.stdout.write(f"copies flagged now: {flagged}")
