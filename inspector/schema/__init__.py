"""JSON Schema → form model (a lazily built `FieldSpec` tree), form values, validation. No Qt here.

model = build(tool["inputSchema"])      # never raises; model.fallback_reason says if it fell back
state = model.new_state()               # defaults policy: see inspector.schema.values
state.load_arguments({...}); state.to_arguments()
validate(schema, arguments)             # -> list[Issue], each with the instance path of its field
check_value(spec, value)                # live check of one field as the user types
"""

from inspector.schema.build import build, checked
from inspector.schema.jsontools import json_equal, json_text
from inspector.schema.nodes import MISSING, FieldSpec, FormModel, Issue, Kind
from inspector.schema.validate import check_value, schema_findings, validate
from inspector.schema.values import ArrayState, Entry, FormState, ObjectState, State, UnionState, ValueState

__all__ = [
    "MISSING",
    "ArrayState",
    "Entry",
    "FieldSpec",
    "FormModel",
    "FormState",
    "Issue",
    "Kind",
    "ObjectState",
    "State",
    "UnionState",
    "ValueState",
    "build",
    "check_value",
    "checked",
    "json_equal",
    "json_text",
    "schema_findings",
    "validate",
]
