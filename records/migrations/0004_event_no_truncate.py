from django.db import migrations

from records.immutability import truncate_guard_remove_statements, truncate_guard_statements, vendor_statements


class Migration(migrations.Migration):
    dependencies = [("records", "0003_snapshots_seed_result_only")]

    operations = [vendor_statements(truncate_guard_statements, truncate_guard_remove_statements)]
