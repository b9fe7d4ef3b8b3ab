"""RFC 6570 URI templates (levels 1–4) for resource templates, on the `uri-template` package.

A template's variables become a form; `expand` fills them in. An empty value leaves the variable
undefined (RFC 6570 then drops it, with its operator's prefix), so optional query parts vanish.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import uri_template


class TemplateError(ValueError):
    """The template is not a valid RFC 6570 template, or cannot be expanded with these values."""


@dataclass(frozen=True, slots=True)
class TemplateVariable:
    name: str
    explode: bool = False  # `{name*}`: a list value expands to several parts
    max_length: int = 0  # `{name:3}`: the value is cut to this many characters (0 = no limit)


def parse(template: str) -> list[TemplateVariable]:
    """The template's variables, in order, each once. Raises `TemplateError` for a malformed template."""
    if not isinstance(template, str):
        raise TemplateError(f"the template is {type(template).__name__}, not a string")
    try:
        parsed = uri_template.URITemplate(template)
    except Exception as exc:  # the package raises its own error types for each kind of mistake
        raise TemplateError(f"not a valid RFC 6570 URI template: {exc}") from None
    seen: dict[str, TemplateVariable] = {}
    for variable in parsed.variables:
        seen.setdefault(variable.name, TemplateVariable(variable.name, variable.explode, variable.max_length or 0))
    return list(seen.values())


def variable_names(template: str) -> list[str]:
    return [variable.name for variable in parse(template)]


def is_valid(template: Any) -> bool:
    try:
        parse(template)
    except TemplateError:
        return False
    return True


def expand(template: str, values: dict[str, Any]) -> str:
    """The URI for these values. Empty strings and None are left undefined; lists and dicts are
    expanded as RFC 6570 composite values (`{id*}` explodes them)."""
    parse(template)  # a clear message for a malformed template
    defined = {name: value for name, value in values.items() if value not in (None, "", [], {})}
    try:
        return uri_template.URITemplate(template).expand(**defined)
    except Exception as exc:
        raise TemplateError(f"cannot expand {template!r}: {exc}") from None


def variables_schema(template: str, descriptions: dict[str, str] | None = None) -> dict[str, Any]:
    """A JSON Schema object with one string property per variable, for the form engine."""
    properties: dict[str, Any] = {}
    for variable in parse(template):
        prop: dict[str, Any] = {"type": "string"}
        hints = []
        if variable.explode:
            hints.append("exploded: a comma-separated list is sent as several values")
        if variable.max_length:
            hints.append(f"only the first {variable.max_length} characters are used")
        text = "; ".join(filter(None, [(descriptions or {}).get(variable.name), *hints]))
        if text:
            prop["description"] = text
        properties[variable.name] = prop
    return {"type": "object", "properties": properties}


def form_values(template: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """Form arguments → expansion values: an exploded variable's "a, b" becomes ["a", "b"]."""
    exploded = {variable.name for variable in parse(template) if variable.explode}
    values: dict[str, Any] = {}
    for name, value in arguments.items():
        if name in exploded and isinstance(value, str) and "," in value:
            values[name] = [part.strip() for part in value.split(",") if part.strip()]
        else:
            values[name] = value
    return values
