"""What the event store announces. ``scoring`` listens; ``records`` never imports it."""

from django.dispatch import Signal

record_finished = Signal()
"""Sent after the transaction that finished a record commits; kwargs: ``record_id``."""

records_finished = Signal()
"""Sent once after the transaction that finished many records together commits (a bulk import,
``records.services.finishing_together``), instead of ``record_finished`` for each; kwargs:
``record_ids``."""

players_merging = Signal()
"""Sent inside the transaction that merges two players, after the seats moved and before the
duplicate is deleted; kwargs: ``keep_id``, ``duplicate_id``, ``record_ids`` (the records whose
seats moved). Read models move what they hold of the duplicate to ``keep_id`` here."""

ruleset_moved = Signal()
"""Sent after the transaction that moved a record to another ruleset commits (``records.rulesets``);
kwargs: ``record_id``. A finished record's results are worked out again under its new rules."""
