"""Counted phrases kept in tables, for ``ngettext`` to pick from later."""

from __future__ import annotations


def plural_noop(singular: str, plural: str) -> tuple[str, str]:
    """A counted phrase's English singular and plural, unchanged: the mark that lets
    ``makemessages`` (its keyword ``plural_noop:1,2``) give the translators a phrase that a drawing
    keeps in a table and counts only when it draws."""
    return singular, plural
