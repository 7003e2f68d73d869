import json
import sys

from django.core.management.base import BaseCommand, CommandError

from records.files import RecordFileError, import_document


class Command(BaseCommand):
    help = (
        "Import a ludolog-record/1 file, validating every event through the rules engine. "
        "Prints the new record's id alone on the last line; on the first bad event stores nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", help="the record file, or - for standard input")

    def handle(self, *args, path: str, **options):
        try:
            text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
        except OSError as error:
            raise CommandError(f"cannot read {path}: {error}") from None
        try:
            document = json.loads(text)
        except json.JSONDecodeError as error:
            raise CommandError(f"{path} is not JSON: {error}") from None
        try:
            record = import_document(document)
        except RecordFileError as error:
            raise CommandError(f"{error.reason}: {error.message}") from None
        self.stdout.write(f"imported {len(document['events'])} events as record {record.pk}")
        self.stdout.write(str(record.pk))
