"""JSON Schema checks compiled once into plain Python functions: the payload check of every
append, at a few microseconds instead of the tens that ``jsonschema``'s validator takes.

A compiled check answers only *valid or not*, exactly as ``jsonschema``'s Draft 2020-12
validator would (a differential test holds it to that, ``tests/games/test_schema_check.py``); the
error a client reads is still worked out by ``jsonschema`` (``best_match``) when a check fails,
so the messages stay the same. A schema using a keyword this module does not know is not
compiled: :func:`compile_schema` returns ``None`` and the caller asks ``jsonschema``.

Known keywords: ``type``, ``enum``, ``const``, ``properties``, ``required``,
``additionalProperties``, ``dependentRequired``, ``propertyNames``, ``items``, ``minItems``,
``maxItems``, ``uniqueItems``, ``minLength``, ``maxLength``, ``pattern``, ``minimum``,
``maximum``, and the annotations (``description``, ``title``, ``$comment``, ``default``,
``examples``).
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Callable, Mapping
from typing import Any

from jsonschema import _utils  # the validator's own equality (1 == 1.0, True != 1) and uniqueness

Check = Callable[[Any], bool]

ANNOTATIONS = frozenset({"description", "title", "$comment", "default", "examples"})
KNOWN = ANNOTATIONS | {
    "type", "enum", "const", "properties", "required", "additionalProperties", "dependentRequired",
    "propertyNames", "items", "minItems", "maxItems", "uniqueItems", "minLength", "maxLength", "pattern",
    "minimum", "maximum",
}


class Unsupported(Exception):
    pass


def _is_number(value: Any) -> bool:
    return isinstance(value, numbers.Number) and not isinstance(value, bool)


def _is_integer(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and value.is_integer())


TYPES: dict[str, Check] = {
    "object": lambda value: isinstance(value, dict),
    "array": lambda value: isinstance(value, list),
    "string": lambda value: isinstance(value, str),
    "integer": _is_integer,
    "number": _is_number,
    "boolean": lambda value: isinstance(value, bool),
    "null": lambda value: value is None,
}


def compile_schema(schema: Any) -> Check | None:
    """A function telling whether a value is valid against ``schema``, or ``None`` when the
    schema uses a keyword this module does not compile."""
    try:
        return _compile(schema)
    except Unsupported:
        return None


def _compile(schema: Any) -> Check:
    if schema is True:
        return lambda value: True
    if schema is False:
        return lambda value: False
    if not isinstance(schema, Mapping) or set(schema) - KNOWN:
        raise Unsupported
    checks: list[Check] = []

    if "type" in schema:
        names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if any(name not in TYPES for name in names):
            raise Unsupported
        kinds = [TYPES[name] for name in names]
        checks.append(kinds[0] if len(kinds) == 1 else (lambda value: any(kind(value) for kind in kinds)))

    if "enum" in schema:
        members = list(schema["enum"])
        simple = all(isinstance(m, str) for m in members)
        if simple:
            allowed = frozenset(members)
            checks.append(lambda value: isinstance(value, str) and value in allowed)
        else:
            checks.append(lambda value: any(_utils.equal(member, value) for member in members))

    if "const" in schema:
        constant = schema["const"]
        checks.append(lambda value: _utils.equal(constant, value))

    # Strings.
    if "pattern" in schema:
        search = re.compile(schema["pattern"]).search
        checks.append(lambda value: not isinstance(value, str) or search(value) is not None)
    if "minLength" in schema:
        shortest = schema["minLength"]
        checks.append(lambda value: not isinstance(value, str) or len(value) >= shortest)
    if "maxLength" in schema:
        longest = schema["maxLength"]
        checks.append(lambda value: not isinstance(value, str) or len(value) <= longest)

    # Numbers.
    if "minimum" in schema:
        low = schema["minimum"]
        checks.append(lambda value: not _is_number(value) or value >= low)
    if "maximum" in schema:
        high = schema["maximum"]
        checks.append(lambda value: not _is_number(value) or value <= high)

    # Arrays.
    if "items" in schema:
        item = _compile(schema["items"])
        checks.append(lambda value: not isinstance(value, list) or all(item(each) for each in value))
    if "minItems" in schema:
        fewest = schema["minItems"]
        checks.append(lambda value: not isinstance(value, list) or len(value) >= fewest)
    if "maxItems" in schema:
        most = schema["maxItems"]
        checks.append(lambda value: not isinstance(value, list) or len(value) <= most)
    if schema.get("uniqueItems"):
        checks.append(lambda value: not isinstance(value, list) or bool(_utils.uniq(value)))

    # Objects.
    properties = {name: _compile(sub) for name, sub in schema.get("properties", {}).items()}
    if properties:
        pairs = tuple(properties.items())

        def check_properties(value: Any) -> bool:
            if not isinstance(value, dict):
                return True
            for name, check in pairs:
                if name in value and not check(value[name]):
                    return False
            return True

        checks.append(check_properties)
    if "required" in schema:
        required = tuple(schema["required"])
        checks.append(lambda value: not isinstance(value, dict) or all(name in value for name in required))
    if "dependentRequired" in schema:
        dependencies = tuple((name, tuple(needed)) for name, needed in schema["dependentRequired"].items())
        checks.append(lambda value: not isinstance(value, dict) or all(
            all(other in value for other in needed) for name, needed in dependencies if name in value))
    if "propertyNames" in schema:
        key_check = _compile(schema["propertyNames"])
        checks.append(lambda value: not isinstance(value, dict) or all(key_check(key) for key in value))
    if "additionalProperties" in schema:
        known = frozenset(properties)
        extra = schema["additionalProperties"]
        if extra is False:
            checks.append(lambda value: not isinstance(value, dict) or known.issuperset(value))
        else:
            extra_check = _compile(extra)
            checks.append(lambda value: not isinstance(value, dict) or all(
                extra_check(item) for key, item in value.items() if key not in known))

    if not checks:
        return lambda value: True
    if len(checks) == 1:
        return checks[0]
    ordered = tuple(checks)
    return lambda value: all(check(value) for check in ordered)
