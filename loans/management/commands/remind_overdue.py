from django.core.management.base import BaseCommand

from loans.services import remind_overdue


class Command(BaseCommand):
    help = ("Remind each household with games overdue (told on its page and by mail), unless it was reminded less "
            "than the lending rules' days between reminders ago. Celery beat runs it daily (loans.daily).")

    def handle(self, *args, **options) -> None:
        self.stdout.write(f"{remind_overdue()} households reminded")
