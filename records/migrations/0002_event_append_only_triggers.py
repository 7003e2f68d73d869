from django.db import migrations

from records.immutability import install_statements, remove_statements


def install(apps, schema_editor):
    for statement in install_statements(schema_editor.connection.vendor):
        schema_editor.execute(statement)


def remove(apps, schema_editor):
    for statement in remove_statements(schema_editor.connection.vendor):
        schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [("records", "0001_initial")]

    operations = [migrations.RunPython(install, remove)]
