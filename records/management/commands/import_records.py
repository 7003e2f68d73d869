from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from records.files import RecordFileError, import_document


class Command(BaseCommand):
    help = (
        "Import many ludolog-record/1 files (files, or folders of *.json files, in name order), each "
        "validated through its rules engine and stored whole or not at all. Lists what was refused "
        "and exits with an error if anything was."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("paths", nargs="+", type=Path)

    def handle(self, *args, paths: list[Path], **options) -> None:
        files: list[Path] = []
        for path in paths:
            if path.is_dir():
                files += sorted(path.glob("*.json"))
            elif path.is_file():
                files.append(path)
            else:
                raise CommandError(f"no file or folder {path}")
        imported, refused = 0, []
        for path in files:
            try:
                record = import_document(json.loads(path.read_text(encoding="utf-8")))
            except json.JSONDecodeError as error:
                refused.append(f"{path.name}: not JSON: {error}")
            except RecordFileError as error:
                refused.append(f"{path.name}: {error.reason}: {error.message}")
            else:
                imported += 1
                self.stdout.write(f"{path.name}\t{record.pk}")
        self.stdout.write(f"{imported} record(s) imported, {len(refused)} refused")
        if refused:
            raise CommandError("refused (nothing stored for these):\n  " + "\n  ".join(refused))
