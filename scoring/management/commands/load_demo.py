from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from games.services import demo_catalogue_data, load_catalogue

DEMO_ADMIN_USERNAME = "admin"
DEMO_ADMIN_PASSWORD = "ludolog-demo"


class Command(BaseCommand):
    help = "Load the demo catalogue and the demo admin account (idempotent: safe to run again)."

    def handle(self, *args, **options):
        records = load_catalogue(demo_catalogue_data())
        self.stdout.write(f"catalogue: {len(records)} records")
        User = get_user_model()
        admin, created = User.objects.get_or_create(
            username=DEMO_ADMIN_USERNAME, defaults={"is_staff": True, "is_superuser": True}
        )
        if created:
            admin.set_password(DEMO_ADMIN_PASSWORD)
            admin.save()
            self.stdout.write(f"demo admin created: {DEMO_ADMIN_USERNAME} / {DEMO_ADMIN_PASSWORD}")
