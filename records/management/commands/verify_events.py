"""``python manage.py verify_events [--record N] [--against FILE] [--export FILE]``: verify the
records (records.integrity): every event's hash chain from the record's header, the ruleset and
seat moves, and that each record still holds what its last checkpoint saw.

Exits 0 printing how many events and records were checked when everything matches; otherwise
prints one line per problem (``record 12 seq 5: …``, ``record 12: …``) and exits 1. Each record
found intact is checkpointed; the result is stored for ``/health/``.

``--against FILE`` also checks the store against a checkpoint file written before (it exits 2,
checking nothing, when the file's HMAC does not match or it is no checkpoint file); ``--export
FILE`` writes the checkpoints, signed, to FILE once verified (records.checkpoint_file).
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from records import checkpoint_file
from records.integrity import verify_and_store
from records.models import GameRecord


def plural(count: int, word: str, words: str) -> str:
    return f"{count:,} {word if count == 1 else words}"


class Command(BaseCommand):
    help = ("Verify the records: their events' hash chains from their headers, their moves and checkpoints; name "
            "each record that no longer matches (exit 1).")

    def add_arguments(self, parser):
        parser.add_argument("--record", type=int, metavar="N", help="check this record only")
        parser.add_argument("--against", type=Path, metavar="FILE",
                            help="also check the store against this checkpoint file (written by --export)")
        parser.add_argument("--export", type=Path, metavar="FILE",
                            help="then write the records' checkpoints to FILE, signed, for keeping elsewhere")

    def handle(self, *args, record: int | None, against: Path | None, export: Path | None, **options):
        if record is not None and not GameRecord.objects.filter(pk=record).exists():
            raise CommandError(f"there is no record {record}")
        kept = None
        if against is not None:
            try:
                kept = checkpoint_file.read(against)
            except checkpoint_file.CheckpointFileError as error:
                raise CommandError(str(error), returncode=2) from None
            if record is not None:
                kept = {record: kept[record]} if record in kept else {}
        result = verify_and_store(record, against=kept)
        if export is not None:
            written = checkpoint_file.write(export)
            self.stdout.write(f"checkpoints of {plural(written, 'record', 'records')} written to {export}")
        checked = (
            f"{plural(result.events, 'event', 'events')} in {plural(result.records, 'record', 'records')} checked"
            + ("" if against is None else f", and against {against}")
        )
        if result.ok:
            self.stdout.write(f"{checked}: every hash matches")
            return
        for mismatch in result.mismatches:
            self.stdout.write(str(mismatch))
        mismatches = plural(len(result.mismatches), "mismatch", "mismatches")
        records = plural(len({mismatch.record_id for mismatch in result.mismatches}), "record", "records")
        raise CommandError(f"{mismatches} in {records} ({checked})", returncode=1)
