from __future__ import annotations

import sys

from django.core.management.base import BaseCommand, CommandError

from games.models import CatalogueRecord
from games.services import UNIMARC_FORMATS, export_unimarc
from games.unimarc import UnimarcError


class Command(BaseCommand):
    help = "Write catalogue records as UNIMARC (ISO 2709, or MARCXML) for PMB, Koha and other library systems."

    def add_arguments(self, parser) -> None:
        parser.add_argument("ids", nargs="*", type=int, help="the records to export (default: all of them)")
        parser.add_argument("--format", choices=sorted(UNIMARC_FORMATS), default="iso2709")
        parser.add_argument("--output", "-o", help="file to write (default: standard output)")

    def handle(self, *args, ids: list[int], format: str, output: str | None, **options) -> None:
        records = CatalogueRecord.objects.filter(pk__in=ids) if ids else CatalogueRecord.objects.all()
        missing = sorted(set(ids) - set(records.values_list("pk", flat=True)))
        if missing:
            raise CommandError(f"no catalogue record {', '.join(map(str, missing))}")
        try:
            data = export_unimarc(records, format)
        except UnimarcError as error:
            raise CommandError(error.message) from None
        if output:
            with open(output, "wb") as file:
                file.write(data)
            self.stderr.write(f"{records.count()} records written to {output}")
        else:
            sys.stdout.buffer.write(data)
            sys.stdout.flush()
