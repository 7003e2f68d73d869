from django.core.management.base import BaseCommand, CommandError

from loans.errors import CopyChainsBroken
from loans.services import rebuild_copy_states


class Command(BaseCommand):
    help = ("Recompute every copy's loan state (status, borrower, due date, missing pieces) from its events, once "
            "they verify (a copy whose events were tampered with is named, and nothing is rebuilt).")

    def handle(self, *args, **options) -> None:
        try:
            count = rebuild_copy_states()
        except CopyChainsBroken as broken:
            for problem in broken.problems:
                self.stdout.write(problem)
            copies = ", ".join(f"copy {copy_id}" for copy_id in broken.copy_ids)
            raise CommandError(f"nothing rebuilt: the events of {copies} fail verification "
                               "(python manage.py verify_events)", returncode=1) from None
        self.stdout.write(f"{count} copies' states rebuilt from their events")
