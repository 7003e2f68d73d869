from __future__ import annotations

import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from plays_exchange.formats import FORMATS, READERS, MalformedFile
from plays_exchange.services import plan_import, store


class Command(BaseCommand):
    help = (
        "Import a BoardGameGeek plays file (XML) or a BG Stats export (JSON): each play a result-only "
        "record, games matched to the catalogue, players to the members. Prints the games and players "
        "matched or new and each play skipped with its reason, then, last, "
        "'created N, matched M, skipped K'. Exit 2 for a malformed file (its line or field named), "
        "nothing stored."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--format", required=True, choices=FORMATS)
        parser.add_argument("--dry-run", action="store_true", help="print what would be done, store nothing")

    def handle(self, *args, file: Path, format: str, dry_run: bool, **options) -> None:
        try:
            data = file.read_bytes()
        except OSError as error:
            raise CommandError(f"cannot read {file}: {error.strerror}") from None
        try:
            plays = READERS[format](data)
        except MalformedFile as error:
            self.stderr.write(f"{file}: malformed {format} file: {error}")
            sys.exit(2)
        plan = plan_import(plays, format)
        for line in plan.lines():
            self.stdout.write(line)
        if dry_run:
            self.stdout.write("dry run: nothing stored")
        else:
            store(plan)
        self.stdout.write(plan.summary())
