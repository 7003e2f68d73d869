"""What the event store announces. ``scoring`` listens; ``records`` never imports it."""

from django.dispatch import Signal

record_finished = Signal()
"""Sent after the transaction that finished a record commits; kwargs: ``record_id``."""
