from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games.services import import_unimarc
from games.unimarc import UnimarcError


class Command(BaseCommand):
    help = (
        "Create or update catalogue records from a UNIMARC file (ISO 2709 or MARCXML, e.g. exported by PMB): "
        "all of them or none; matched by title, copies by barcode."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", type=Path)

    def handle(self, *args, file: Path, **options) -> None:
        try:
            records = import_unimarc(file.read_bytes())
        except OSError as error:
            raise CommandError(f"{file}: {error.strerror}") from None
        except UnimarcError as error:
            raise CommandError(f"{file}: {error.message}; nothing was imported") from None
        for record in records:
            self.stdout.write(f"{record.pk}\t{record.title}")
        self.stdout.write(f"{len(records)} records imported")
