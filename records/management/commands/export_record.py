from django.core.management.base import BaseCommand, CommandError

from records.files import dumps, export_document
from records.models import GameRecord


class Command(BaseCommand):
    help = "Print a game record as a ludolog-record/1 JSON file."

    def add_arguments(self, parser):
        parser.add_argument("record_id", type=int)

    def handle(self, *args, record_id: int, **options):
        try:
            record = GameRecord.objects.get(pk=record_id)
        except GameRecord.DoesNotExist:
            raise CommandError(f"no record {record_id}") from None
        self.stdout.write(dumps(export_document(record)), ending="")
