"""A ``<select>`` whose options are written in Python rather than through a template each.

Django renders every ``<option>`` of a select through its own template (and its attributes
through another): fine for a few, slow for the start form's hundreds — Carcassonne Maps' set-up
asks for seven squares of the map, 66 choices each, which took more time to render than every
query of the page. Same HTML, same attributes (``create_option``'s, so a subclass's
``data-…`` attributes come out too), written in one pass.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.forms.utils import flatatt
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe


class QuickSelect(forms.Select):
    def render(self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None) -> SafeString:
        widget = self.get_context(name, value, attrs)["widget"]
        parts = []
        for group_name, options, _index in widget["optgroups"]:
            written = format_html_join("", "<option value=\"{}\"{}>{}</option>", (
                (option["value"] if option["value"] is not None else "",
                 flatatt({**option["attrs"], **({"selected": True} if option["selected"] else {})}),
                 option["label"]) for option in options))
            parts.append(format_html("<optgroup label=\"{}\">{}</optgroup>", group_name, written)
                         if group_name else written)
        return format_html("<select name=\"{}\"{}>{}</select>", widget["name"], flatatt(widget["attrs"]),
                           mark_safe("".join(parts)))


def quick(field: forms.Field) -> forms.Field:
    """``field``, its plain single select (if it has one) made a :class:`QuickSelect`."""
    if type(field.widget) is forms.Select:
        field.widget = QuickSelect(attrs=field.widget.attrs, choices=field.widget.choices)
    return field
