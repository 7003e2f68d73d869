from django.db import migrations

from reports.immutability import append_only_trigger


class Migration(migrations.Migration):
    dependencies = [("reports", "0001_initial")]

    operations = [append_only_trigger()]
