"""What the accounts announce; the apps above them listen (``accounts`` imports none of them)."""

from django.dispatch import Signal

account_created = Signal()
"""Sent inside the transaction that created an account (:func:`accounts.services.sign_up`);
kwargs: ``user``. ``records`` gives the new account its player: for a person, their account and
their player are one thing."""
