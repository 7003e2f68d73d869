"""The "report sent" table made append-only by the database itself on PostgreSQL (the model
refuses updates and deletes everywhere; the trigger refuses any client, raw SQL included), as
the copy events are guarded (:mod:`loans.immutability`)."""

from __future__ import annotations

from django.db import migrations

from records.immutability import postgresql_append_only, vendor_statements

REPORT_SENT_TABLE = "reports_reportsent"
MESSAGE = "reports_reportsent is append-only: a report once marked as sent stays as it was"

POSTGRESQL_INSTALL, POSTGRESQL_REMOVE = postgresql_append_only(REPORT_SENT_TABLE, MESSAGE)


def append_only_trigger() -> migrations.RunPython:
    """The migration operation installing the trigger on PostgreSQL (nothing elsewhere)."""
    return vendor_statements(lambda vendor: POSTGRESQL_INSTALL if vendor == "postgresql" else [],
                             lambda vendor: POSTGRESQL_REMOVE if vendor == "postgresql" else [])
