"""The keyword lists behind hosts' schema rules (`host_rules.HOSTS`), as data: which JSON Schema keywords a
host's tool format takes, or refuses. Each list's source is on the rule that uses it."""

from __future__ import annotations

# The Gemini API's `Schema` (a "select subset of an OpenAPI 3.0 schema object"): the fields of its reference
# page. A function declaration's `parameters` holding any other key is refused ("Unknown name … Cannot find field").
GEMINI_SCHEMA_FIELDS = (
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "maxItems",
    "minItems",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "example",
    "anyOf",
    "propertyOrdering",
    "default",
    "items",
    "minimum",
    "maximum",
)

# OpenAI Structured Outputs (strict function calling): keywords its "Supported schemas" list leaves out, or that
# the API names in its refusal ("In context=(…), 'allOf' is not permitted").
OPENAI_STRICT_REFUSED = (
    "allOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "patternProperties",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
    "contains",
    "minContains",
    "maxContains",
    "uniqueItems",
    "minProperties",
    "maxProperties",
)

# Keywords the same guide's supported list does not name, whose refusal we have not seen quoted.
OPENAI_STRICT_UNLISTED = ("minLength", "maxLength", "default")

# What may not stand at the root of a function's parameters (the API's words: "schema must have type 'object'
# and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level").
OPENAI_ROOT_REFUSED = ("oneOf", "anyOf", "allOf", "enum", "not")

# Anthropic's API: "input_schema does not support oneOf, allOf, or anyOf at the top level".
ANTHROPIC_ROOT_REFUSED = ("oneOf", "allOf", "anyOf")
