from django.core.management.base import BaseCommand

from loans.services import rebuild_copy_states


class Command(BaseCommand):
    help = "Recompute every copy's loan state (status, borrower, due date, missing pieces) from its events."

    def handle(self, *args, **options) -> None:
        count = rebuild_copy_states()
        self.stdout.write(f"{count} copies' states rebuilt from their events")
