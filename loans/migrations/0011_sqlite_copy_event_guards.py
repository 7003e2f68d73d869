"""SQLite (``make run``): the copy events refuse UPDATE, DELETE and a REPLACE INTO over a stored
event, as the game events do (loans.immutability). PostgreSQL has had its trigger since 0002."""

from django.db import migrations

from loans.immutability import sqlite_triggers


class Migration(migrations.Migration):
    dependencies = [("loans", "0010_copy_event_chain")]

    operations = [sqlite_triggers()]
