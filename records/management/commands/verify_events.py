"""``python manage.py verify_events [--record N]``: recompute every event's hash chain.

Exits 0 printing how many events and records were checked when every hash matches; otherwise
prints one line per event that no longer matches (``record 12 seq 5: …``) and exits 1. The
result is stored for ``/health/`` (records.integrity).
"""

from django.core.management.base import BaseCommand, CommandError

from records.integrity import verify_and_store
from records.models import GameRecord


def plural(count: int, word: str, words: str) -> str:
    return f"{count:,} {word if count == 1 else words}"


class Command(BaseCommand):
    help = "Recompute the events' hash chains; name each record and seq that no longer matches (exit 1)."

    def add_arguments(self, parser):
        parser.add_argument("--record", type=int, metavar="N", help="check this record only")

    def handle(self, *args, record: int | None, **options):
        if record is not None and not GameRecord.objects.filter(pk=record).exists():
            raise CommandError(f"there is no record {record}")
        result = verify_and_store(record)
        checked = (
            f"{plural(result.events, 'event', 'events')} in {plural(result.records, 'record', 'records')} checked"
        )
        if result.ok:
            self.stdout.write(f"{checked}: every hash matches")
            return
        for mismatch in result.mismatches:
            self.stdout.write(str(mismatch))
        mismatches = plural(len(result.mismatches), "mismatch", "mismatches")
        records = plural(len({mismatch.record_id for mismatch in result.mismatches}), "record", "records")
        raise CommandError(f"{mismatches} in {records} ({checked})", returncode=1)
