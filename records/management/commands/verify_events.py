"""``python manage.py verify_events [--record N] [--against [FILE]] [--export FILE]``: verify the
records (records.integrity): every event's hash chain from the record's header, the ruleset and
seat moves, and that each record still holds what its last checkpoint saw; and, for the whole
store, every stream registered beside them (the loans desk's copy events, loans.integrity).

Exits 0 printing how many events and records (and copies) were checked when everything matches;
otherwise prints one line per problem (``record 12 seq 5: …``, ``record 12: …``, ``copy 7
(LUD-0007) seq 3: …``) and exits 1. Each record or copy found intact is checkpointed; the result
is stored for ``/health/``.

``--against FILE`` also checks the store against a checkpoint file written before (it exits 2,
checking nothing, when the file's HMAC does not match or it is no checkpoint file); without FILE,
the one the beat writes (``LUDOLOG_CHECKPOINT_EXPORT``). ``--export FILE`` writes the
checkpoints, signed, to FILE once verified (records.checkpoint_file).
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from records import checkpoint_file
from records.integrity import verify_and_store
from records.models import GameRecord
from records.tasks import checkpoint_export_path


def plural(count: int, word: str, words: str) -> str:
    return f"{count:,} {word if count == 1 else words}"


BEAT_FILE = object()
"""``--against`` given without a file: the one the beat writes."""




class Command(BaseCommand):
    help = ("Verify the records and the copies' loan events: their hash chains, moves and checkpoints; name each "
            "record or copy that no longer matches (exit 1).")

    def add_arguments(self, parser):
        parser.add_argument("--record", type=int, metavar="N", help="check this record only (and no copy)")
        parser.add_argument("--against", type=Path, metavar="FILE", nargs="?", const=BEAT_FILE,
                            help="also check the store against this checkpoint file (written by --export; without "
                                 "FILE, the one the beat writes: LUDOLOG_CHECKPOINT_EXPORT)")
        parser.add_argument("--export", type=Path, metavar="FILE",
                            help="then write the checkpoints to FILE, signed, for keeping elsewhere")

    def handle(self, *args, record: int | None, against: Path | None, export: Path | None, **options):
        if record is not None and not GameRecord.objects.filter(pk=record).exists():
            raise CommandError(f"there is no record {record}")
        kept, others = None, None
        if against is BEAT_FILE:
            against = checkpoint_export_path()
            if against is None:
                raise CommandError("no checkpoint file is configured (LUDOLOG_CHECKPOINT_EXPORT): name one",
                                   returncode=2)
        if against is not None:
            try:
                kept, others = checkpoint_file.read_all(against)
            except checkpoint_file.CheckpointFileError as error:
                raise CommandError(str(error), returncode=2) from None
            if record is not None:
                kept = {record: kept[record]} if record in kept else {}
        result = verify_and_store(record, against=kept, others_against=others)
        if export is not None:
            written = checkpoint_file.write(export)
            self.stdout.write(f"checkpoints of {plural(written, 'record', 'records')} written to {export}")
        checked = (
            f"{plural(result.events, 'event', 'events')} in {plural(result.records, 'record', 'records')}"
            + "".join(f", {plural(found.events, 'event', 'events')} in {plural(found.streams, stream.word, stream.words)}"
                      for stream, found in result.others if found.streams)
            + " checked" + ("" if against is None else f", and against {against}")
        )
        if result.ok:
            self.stdout.write(f"{checked}: every hash matches")
            return
        for problem in result.sentences():
            self.stdout.write(problem)
        mismatches = plural(len(result.sentences()), "mismatch", "mismatches")
        failed = [plural(len(records), "record", "records")
                  for records in [{mismatch.record_id for mismatch in result.mismatches}] if records] + [
            plural(len(found.failed), stream.word, stream.words) for stream, found in result.others if not found.ok]
        raise CommandError(f"{mismatches} in {' and '.join(failed)} ({checked})", returncode=1)
