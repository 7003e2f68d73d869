from __future__ import annotations

import datetime as dt
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from records.files import dumps, export_document
from records.models import GameRecord


class Command(BaseCommand):
    help = (
        "Write game records as ludolog-record/1 files, one per record, into a folder: a club's whole "
        "history in the open format (a backup, or the way to another Ludolog). import_records reads them back."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("folder", type=Path)
        parser.add_argument("--game", help="only records of this game slug")
        parser.add_argument("--since", type=dt.date.fromisoformat, help="only records played on or after YYYY-MM-DD")
        parser.add_argument("--finished", action="store_true", help="only finished records")

    def handle(self, *args, folder: Path, game: str | None, since: dt.date | None, finished: bool, **options) -> None:
        records = GameRecord.objects.order_by("pk")
        if game:
            records = records.filter(game_slug=game)
        if since:
            records = records.filter(played_on__gte=since)
        if finished:
            records = records.filter(status=GameRecord.Status.FINISHED)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise CommandError(f"cannot write to {folder}: {error.strerror}") from None
        written = 0
        for record in records.iterator(chunk_size=200):
            path = folder / f"record-{record.pk:06d}-{record.game_slug}.json"
            path.write_text(dumps(export_document(record)), encoding="utf-8")
            written += 1
        self.stdout.write(f"{written} record(s) written to {folder}")
