from django.db import migrations

from loans.immutability import append_only_trigger


class Migration(migrations.Migration):
    dependencies = [("loans", "0001_initial")]

    operations = [append_only_trigger()]
