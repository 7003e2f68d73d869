"""The compiled payload checks (games.adapters.schema_check) accept exactly what jsonschema's
Draft 2020-12 validator accepts, for every schema an append or a set-up is checked against."""

from __future__ import annotations

from functools import cache
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.adapters.base import validate_against
from games.adapters.schema_check import compile_schema
from games.registry import PayloadError, engine_slugs, get_engine
from records.services import RESULT_SCHEMA


@cache
def schemas() -> list[tuple[str, dict[str, Any]]]:
    found = [("result", RESULT_SCHEMA)]
    for slug in engine_slugs():
        engine = get_engine(slug)
        found += [(f"{slug}:{kind}", schema) for kind, schema in engine.event_schemas.items()]
        found.append((f"{slug}:setup", engine.setup_schema))
    return found


@cache
def real_payloads() -> list[Any]:
    payloads: list[Any] = [{"scores": [{"seat": 0, "score": 3}, {"seat": 1, "score": 1, "rank": 2}]}]
    for slug in engine_slugs():
        engine = get_engine(slug)
        payloads += [dict(payload) for _kind, payload in engine.random_game(2, 1)[:40]]
    return payloads


@cache
def keys() -> st.SearchStrategy[str]:
    names = sorted({name for _n, schema in schemas() for name in _property_names(schema)})
    return st.one_of(st.sampled_from(names), st.text(max_size=4))


def _property_names(schema: Any) -> set[str]:
    if not isinstance(schema, dict):
        return set()
    names = set(schema.get("properties", {}))
    for sub in list(schema.get("properties", {}).values()) + [schema.get("items"), schema.get("additionalProperties")]:
        names |= _property_names(sub)
    return names


scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-2000, 2000), st.integers(), st.sampled_from([0.0, 1.0, 90.0, 2.5, -1e3, 1e300]),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=6),
    st.sampled_from(["L17", "a", "", "X-1", "hunter", "wood", "ÉÀ", "violet"]),
)


def json_values() -> st.SearchStrategy[Any]:
    return st.recursive(
        scalars, lambda children: st.one_of(st.lists(children, max_size=4), st.dictionaries(keys(), children, max_size=5)),
        max_leaves=12)


@st.composite
def mutated(draw: st.DrawFn) -> Any:
    payload = dict(draw(st.sampled_from(real_payloads())))
    for _ in range(draw(st.integers(0, 3))):
        action = draw(st.sampled_from(["set", "drop", "add"]))
        if action == "drop" and payload:
            payload.pop(draw(st.sampled_from(sorted(payload))))
        elif action == "set" and payload:
            payload[draw(st.sampled_from(sorted(payload)))] = draw(json_values())
        else:
            payload[draw(keys())] = draw(json_values())
    return payload


def test_every_schema_of_the_engines_compiles():
    assert [name for name, schema in schemas() if compile_schema(schema) is None] == []


@cache
def checks() -> list[tuple[str, Any, Any]]:
    """Each schema's name, jsonschema's validator and the compiled check, made once for every
    example rather than again for each."""
    return [(name, jsonschema.Draft202012Validator(schema), compile_schema(schema)) for name, schema in schemas()]


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=st.one_of(mutated(), json_values()), index=st.integers(0, 10_000))
def test_a_compiled_check_agrees_with_jsonschema(value: Any, index: int):
    name, validator, check = checks()[index % len(checks())]
    assert check(value) is validator.is_valid(value), (name, value)


def test_the_real_payloads_pass_and_errors_still_name_their_field():
    for payload in real_payloads():
        assert any(compile_schema(schema)(payload) for _name, schema in schemas())
    schema = dict(get_engine("hunters-gatherers").event_schemas["place_tile"])
    with pytest.raises(PayloadError) as error:
        validate_against(schema, {"x": "far", "y": 0, "rotation": 0}, "payload")
    assert error.value.field == "payload.x"
    with pytest.raises(PayloadError) as error:
        validate_against(schema, {"x": 0, "y": 0}, "payload")
    assert error.value.field == "payload.rotation"


@pytest.mark.parametrize("value, valid", [
    ({"x": 1.0, "y": 0, "rotation": 90.0}, True),  # integral floats are integers, 90.0 == 90
    ({"x": True, "y": 0, "rotation": 0}, False),  # a boolean is not an integer
    ({"x": 0, "y": 0, "rotation": False}, False),  # nor the enum's 0
    ({"x": 0, "y": 0, "rotation": 0, "figure": "hunter"}, False),  # a figure needs its feature
    ({"x": 0, "y": 0, "rotation": 0, "tile": "l1"}, False),
    ({"x": 1001, "y": 0, "rotation": 0}, False),
])
def test_edge_cases_as_jsonschema_decides_them(value: Any, valid: bool):
    schema = get_engine("hunters-gatherers").event_schemas["place_tile"]
    assert jsonschema.Draft202012Validator(schema).is_valid(value) is valid
    assert compile_schema(schema)(value) is valid
