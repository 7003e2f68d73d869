from __future__ import annotations

import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from accounts.models import Organisation
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
        parser.add_argument("--organisation", metavar="SLUG",
                            help="the club whose history it is (its short name in addresses); the only "
                                 "organisation when there is one")

    def handle(self, *args, file: Path, format: str, dry_run: bool, organisation: str | None = None,
               **options) -> None:
        club = _organisation(organisation)
        try:
            data = file.read_bytes()
        except OSError as error:
            raise CommandError(f"cannot read {file}: {error.strerror}") from None
        try:
            plan = plan_import(READERS[format](data), format)
        except MalformedFile as error:
            self.stderr.write(f"{file}: malformed {format} file: {error}")
            sys.exit(2)
        for line in plan.lines():
            self.stdout.write(line)
        if dry_run:
            self.stdout.write("dry run: nothing stored")
        else:
            store(plan, organisation=club)
        self.stdout.write(plan.summary())


def _organisation(slug: str | None) -> Organisation | None:
    if slug:
        found = Organisation.objects.filter(slug=slug).first()
        if found is None:
            raise CommandError(f"no organisation is called {slug!r} (its short name in addresses)")
        return found
    only = list(Organisation.objects.all()[:2])
    return only[0] if len(only) == 1 else None
