"""A migration operation for words only: the verbose names, help texts and options of an app's
models changed at once, as the apps' "languages and verbose names" migrations do.

Django writes such a change as one ``AlterField`` a field and one ``AlterModelOptions`` a model
(134 operations in scoring 0016). None of them touches a table, yet each clones the migration's
project state and renders its model and every model related to it again: scoring 0016 alone was five
seconds of a full ``migrate`` (0.24 s as one ``Relabel``), paid by every test database made from
nothing and every migration test that migrates forwards. ``Relabel`` changes the same state in one
operation, whose models and the models related to them are rendered once; its database step is
``alter_field`` for each field, which does nothing for a change of words (and would do what
``AlterField`` does for any other change)."""

from __future__ import annotations

from typing import Any

from django.db import models
from django.db.migrations.operations import AlterModelOptions
from django.db.migrations.operations.base import Operation
from django.db.migrations.state import ProjectState


class Relabel(Operation):
    """``options``: model name → its options, as ``AlterModelOptions`` takes them; ``fields``:
    model name → {field name: the field as ``AlterField`` takes it}. Model names in lower case."""

    reversible = True

    def __init__(self, options: dict[str, dict[str, Any]] | None = None,
                 fields: dict[str, dict[str, models.Field]] | None = None) -> None:
        self.options = options or {}
        self.fields = fields or {}

    def deconstruct(self) -> tuple[str, list[Any], dict[str, Any]]:
        return self.__class__.__qualname__, [], {"options": self.options, "fields": self.fields}

    def state_forwards(self, app_label: str, state: ProjectState) -> None:
        # The state's rendered apps set aside while its models change (``reload_model`` renders
        # only when they are there), then the changed models and their relations rendered once.
        rendered = state.__dict__.pop("apps", None)
        for model_name, options in self.options.items():
            state.alter_model_options(app_label, model_name, options, AlterModelOptions.ALTER_OPTION_KEYS)
        for model_name, fields in self.fields.items():
            for name, field in fields.items():
                state.alter_field(app_label, model_name, name, field, True)
        if rendered is not None:
            state.__dict__["apps"] = rendered
            relational = any(field.is_relation for fields in self.fields.values() for field in fields.values())
            state.reload_models([(app_label, name) for name in {*self.options, *self.fields}], delay=not relational)

    def database_forwards(self, app_label: str, schema_editor: Any, from_state: ProjectState,
                          to_state: ProjectState) -> None:
        for model_name, fields in self.fields.items():
            to_model = to_state.apps.get_model(app_label, model_name)
            if not self.allow_migrate_model(schema_editor.connection.alias, to_model):
                continue
            from_model = from_state.apps.get_model(app_label, model_name)
            for name in fields:
                schema_editor.alter_field(from_model, from_model._meta.get_field(name), to_model._meta.get_field(name))

    def database_backwards(self, app_label: str, schema_editor: Any, from_state: ProjectState,
                           to_state: ProjectState) -> None:
        self.database_forwards(app_label, schema_editor, from_state, to_state)

    def describe(self) -> str:
        count = sum(len(fields) for fields in self.fields.values())
        return f"Relabel {len({*self.options, *self.fields})} models ({count} fields)"

    @property
    def migration_name_fragment(self) -> str:
        return "relabel"
