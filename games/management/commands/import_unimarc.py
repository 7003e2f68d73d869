from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games.services import import_unimarc
from games.unimarc import PRESETS, ImportMapping, UnimarcError
from games.unimarc_import import reason_text


class Command(BaseCommand):
    help = (
        "Create or update catalogue records from a UNIMARC file (ISO 2709, MARCXML or PMB XML, e.g. exported by PMB or "
        "Koha): each record matched by its identifier in its source (001), then its ISBN or EAN, never its "
        "title; a record that cannot be taken is refused alone, with its reason. --dry-run says what would be "
        "done and stores nothing."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--dry-run", action="store_true", help="report what the import would do; store nothing")
        parser.add_argument("--source", default="",
                            help="the catalogue the file comes from (default: each record's 003 or 801)")
        parser.add_argument("--preset", choices=sorted(PRESETS), default="pmb",
                            help="the library system's habits: copy statuses, custom fields (default: pmb)")
        parser.add_argument("--mapping", type=Path,
                            help="a JSON file of the mapping (games.unimarc.ImportMapping), over the preset")

    def handle(self, *args, file: Path, dry_run: bool, source: str, preset: str, mapping: Path | None,
               **options) -> None:
        try:
            data = file.read_bytes()
            overrides = json.loads(mapping.read_text(encoding="utf-8")) if mapping else {}
        except OSError as error:
            raise CommandError(f"{error.filename}: {error.strerror}") from None
        except ValueError as error:
            raise CommandError(f"{mapping}: not a JSON mapping: {error}") from None
        try:
            result = import_unimarc(data, source=source, dry_run=dry_run,
                                    mapping=ImportMapping.from_data({"name": preset, **overrides}))
        except UnimarcError as error:
            raise CommandError(f"{file}: {error.message}; nothing was imported") from None
        report = result.report
        if not dry_run:
            for record in result.records:
                self.stdout.write(f"{record.pk}\t{record.title}")
        for refusal in report["refusals"]:
            self.stdout.write(f"refused: record {refusal['record']}: {reason_text(refusal)}")
        for duplicate in report["duplicates"]:
            self.stdout.write(f"duplicate: record {duplicate['record']} repeats record {duplicate['of']}")
        if report["kept_tags"]:
            self.stdout.write("kept, not shown: " + ", ".join(f"{tag} ×{n}" for tag, n in report["kept_tags"].items()))
        self.stdout.write(("dry run (nothing stored): " if dry_run else "")
                          + ", ".join(f"{report[k]} {k}" for k in ("new", "updated", "unchanged", "duplicate", "refused")))
