from django.core.management.base import BaseCommand

from records.models import GameRecord, Snapshot
from records.replay import rebuild_snapshots


class Command(BaseCommand):
    help = "Drop every position snapshot and rebuild them from the events (snapshots are only a cache)."

    def add_arguments(self, parser):
        parser.add_argument("--drop-only", action="store_true", help="drop the snapshots without rebuilding")

    def handle(self, *args, drop_only: bool, **options):
        dropped, _ = Snapshot.objects.all().delete()
        written = 0
        if not drop_only:
            for record in GameRecord.objects.filter(result_only=False).iterator():
                written += rebuild_snapshots(record)
        self.stdout.write(f"dropped {dropped} snapshots, wrote {written}")
