"""The API's error answers, written into the OpenAPI schema of every operation.

Every operation may answer with the one error shape (``{"reason", "detail", …}``, see
:mod:`ludolog.api_errors`), and the schema says with which status codes (those of every read or
write, and those a view declares it may give besides), so that clients (and Schemathesis) know
what to expect.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular import openapi

ERROR_COMPONENT = "Error"
ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "An error: a machine-readable reason and a sentence; some carry more (the field at fault, "
                   "the current seq of a conflict, the event of a record file).",
    "properties": {
        "reason": {"type": "string",
                   "description": "e.g. invalid, invalid_query, not_found, seq_conflict, record_tampered"},
        "detail": {"type": "string"},
    },
    "required": ["reason", "detail"],
    "additionalProperties": True,
}

ANSWERS = {
    "400": "The request is malformed: the field or query parameter named is missing or does not fit.",
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


class AutoSchema(openapi.AutoSchema):
    """drf-spectacular's schema of each operation, with the error answers it may give: those every
    read (or write) may give, and those its view declares beside them in ``error_answers`` (a
    status code → when), such as the record views' 409 ``record_tampered`` on a read."""

    def get_operation(self, *args: Any, **kwargs: Any) -> dict[str, Any] | None:
        operation = super().get_operation(*args, **kwargs)
        if operation is None:
            return None
        codes = dict.fromkeys(READS if self.method in ("GET", "HEAD") else WRITES, "")
        codes.update(getattr(self.view, "error_answers", {}))
        reference = {"$ref": f"#/components/schemas/{ERROR_COMPONENT}"}
        for code, when in codes.items():
            description = f"{ANSWERS[code]} {when}".strip()
            operation["responses"].setdefault(code, {
                "description": description, "content": {"application/json": {"schema": reference}}})
        return operation


def document_errors(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: the error shape every error answer refers to."""
    result.setdefault("components", {}).setdefault("schemas", {})[ERROR_COMPONENT] = ERROR_SCHEMA
    return result
