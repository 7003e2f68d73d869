"""The API's error answers, written into the OpenAPI schema: every operation may answer with the
one error shape (``{"reason", "detail", …}``, see :mod:`ludolog.api_errors`), and the schema says
with which status codes, so that clients (and Schemathesis) know what to expect."""

from __future__ import annotations

from typing import Any

ERROR_COMPONENT = "Error"
ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "An error: a machine-readable reason and a sentence; some carry more (the field at fault, "
                   "the current seq of a conflict, the event of a record file).",
    "properties": {
        "reason": {"type": "string", "description": "e.g. invalid, not_found, seq_conflict, edge_mismatch"},
        "detail": {"type": "string"},
    },
    "required": ["reason", "detail"],
    "additionalProperties": True,
}

ANSWERS = {
    "400": "The request is malformed: the field named is missing or does not fit.",
    "401": "Credentials were given and are wrong.",
    "403": "Not allowed for this user (or not logged in, for a write).",
    "404": "No such resource (or not visible to this user).",
    "405": "This method is not allowed here.",
    "406": "The Accept header asks for a format the API does not give.",
    "409": "Conflicts with the current state (another writer's event, a finished record, a full record).",
    "413": "The body is larger than the server takes.",
    "415": "The body is in a format the API does not read.",
    "422": "Well formed, but the rules refuse it (an illegal action).",
    "429": "Too many requests.",
    "503": "The database does not answer; try again shortly.",
}
READS = ("400", "401", "403", "404", "405", "406", "429", "503")
WRITES = tuple(ANSWERS)


def document_errors(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: add the error answers to every operation."""
    components = result.setdefault("components", {}).setdefault("schemas", {})
    components[ERROR_COMPONENT] = ERROR_SCHEMA
    reference = {"$ref": f"#/components/schemas/{ERROR_COMPONENT}"}
    for path in result.get("paths", {}).values():
        for method, operation in path.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            codes = READS if method in ("get", "head") else WRITES
            for code in codes:
                operation["responses"].setdefault(code, {
                    "description": ANSWERS[code],
                    "content": {"application/json": {"schema": reference}},
                })
    return result
