"""What the league form's lists need of a name: its key (:func:`games.spelling.name_key`), which
the page's filter box compares with the key of what is typed (``names.js``, its browser twin)."""

from django import template

from games.spelling import name_key

register = template.Library()


@register.filter(name="name_key")
def name_key_of(name: object) -> str:
    return name_key(str(name))
