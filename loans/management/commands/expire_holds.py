from django.core.management.base import BaseCommand

from loans.services import expire_holds


class Command(BaseCommand):
    help = ("Cancel the holds whose copy has waited on the hold shelf longer than the library's rules keep it "
            "(run daily); each copy goes to the next household waiting.")

    def handle(self, *args, **options) -> None:
        self.stdout.write(f"{expire_holds()} holds expired")
