from django.db import migrations

from records.immutability import install_statements, remove_statements, vendor_statements


class Migration(migrations.Migration):
    dependencies = [("records", "0001_initial")]

    operations = [vendor_statements(install_statements, remove_statements)]
