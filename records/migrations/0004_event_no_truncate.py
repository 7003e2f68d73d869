from django.db import migrations

from records.immutability import truncate_guard_remove_statements, truncate_guard_statements


def install(apps, schema_editor):
    for statement in truncate_guard_statements(schema_editor.connection.vendor):
        schema_editor.execute(statement)


def remove(apps, schema_editor):
    for statement in truncate_guard_remove_statements(schema_editor.connection.vendor):
        schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [("records", "0003_snapshots_seed_result_only")]

    operations = [migrations.RunPython(install, remove)]
