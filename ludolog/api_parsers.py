"""The API's JSON parser: what would crash Python's parser or the database is a 400, not a 500.

Python's ``json`` recurses once per nesting level, so a body nested a hundred thousand levels
deep raises ``RecursionError`` instead of a parse error; and a payload deeper than any game needs
only costs every later reader (the schema check, the database's JSON functions) more. Bodies
nested deeper than :data:`MAX_JSON_DEPTH` are refused with the API's error shape.
"""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

MAX_JSON_DEPTH = 32
"""Nesting levels a request body may have (a record file has five, an event payload three)."""


def json_depth(data: Any) -> int:
    """How deep ``data`` nests (a scalar: 0, ``[]``: 1), measured without recursion."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            children = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        depth += 1
        deepest = max(deepest, depth)
        if depth > MAX_JSON_DEPTH:
            break
        stack.extend((child, depth) for child in children)
    return deepest


class BoundedJSONParser(JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(f"JSON parse error - nested deeper than {MAX_JSON_DEPTH} levels") from None
        if json_depth(data) > MAX_JSON_DEPTH:
            raise ParseError(f"JSON parse error - nested deeper than {MAX_JSON_DEPTH} levels")
        return data
