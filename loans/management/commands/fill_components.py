from django.core.management.base import BaseCommand

from games.models import CatalogueRecord
from loans.services import fill_components


class Command(BaseCommand):
    help = ("Read each catalogue record's contents (\"Contenu\") into its components checklist, for the records "
            "without one yet (all records, or those whose ids are given).")

    def add_arguments(self, parser) -> None:
        parser.add_argument("record_ids", nargs="*", type=int)

    def handle(self, *args, record_ids: list[int], **options) -> None:
        records = CatalogueRecord.objects.all()
        if record_ids:
            records = records.filter(pk__in=record_ids)
        for record in records:
            lines = fill_components(record)
            self.stdout.write(f"{record.pk} {record.title}: {len(lines)} components")
