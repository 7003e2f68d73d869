"""SQLite: REPLACE INTO may not overwrite a stored event, and a record that has events may not be
deleted or renumbered by a client with foreign keys off (records.immutability)."""

from django.db import migrations

from records.immutability import sqlite_guard_remove_statements, sqlite_guard_statements, vendor_statements


class Migration(migrations.Migration):
    dependencies = [("records", "0006_event_hash")]

    operations = [vendor_statements(sqlite_guard_statements, sqlite_guard_remove_statements)]
