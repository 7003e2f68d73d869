"""Building frozen dataclasses quickly, where an engine builds many of them.

A frozen dataclass's generated ``__init__`` sets each field through ``object.__setattr__``, one
call a field: for the values an engine builds by the thousand (a turn's legal actions, the final
scoring's awards) that is most of their cost. :func:`build` fills the instance's ``__dict__`` at
once instead, which is what that ``__init__`` ends with for a dataclass without ``__post_init__``
or slots.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Point:
...     x: int
...     y: int = 0
>>> build(Point, {"x": 1, "y": 2}) == Point(1, 2)
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

T = TypeVar("T")


def build(cls: type[T], fields: Mapping[str, Any]) -> T:
    """The instance of ``cls`` (a frozen dataclass without slots or ``__post_init__``) whose
    fields are ``fields``: every one of them, by name, in the order the class declares them."""
    value = object.__new__(cls)
    value.__dict__.update(fields)
    return value
