"""What an import's report says, in the reader's language."""

from __future__ import annotations

from typing import Any

from django import template

from games.unimarc_import import reason_text

register = template.Library()


@register.filter
def refusal_reason(refusal: dict[str, Any]) -> str:
    """A refused record's reason (kept as a msgid and its values) in the active language."""
    return reason_text(refusal)
