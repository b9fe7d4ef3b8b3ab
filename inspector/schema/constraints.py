"""Rules the form's widgets do not enforce but the validator does, so the form can name them.

A field shows them as "also checked when you call: …" instead of dropping them silently. An object's
`if`/`then`/`else`, `not`, `dependentSchemas` and an `anyOf`/`oneOf` of `required` lists only restrict the
properties it declares: the form can still show those properties (`restricts_only`) and leave the rule
to validation. Anything else the form cannot express still falls back to raw JSON for that part.
"""

from __future__ import annotations

from typing import Any

# keyword → how the note names it (in this order)
CHECKED_ONLY = {
    "if": "if/then/else",
    "not": "not",
    "anyOf": "anyOf",
    "oneOf": "oneOf",
    "dependentRequired": "dependentRequired",
    "dependentSchemas": "dependentSchemas",
    "dependencies": "dependencies",
    "unevaluatedProperties": "unevaluatedProperties",
    "propertyNames": "propertyNames",
    "minProperties": "minProperties",
    "maxProperties": "maxProperties",
    "uniqueItems": "uniqueItems",
    "contains": "contains",
    "unevaluatedItems": "unevaluatedItems",
}
# An object's keywords that the form may leave to the validator when they only restrict its properties.
CONDITIONAL = ("if", "then", "else", "not", "dependentSchemas", "anyOf", "oneOf")
_RESTRICTING = frozenset(
    {"required", "properties", "not", "anyOf", "oneOf", "allOf", "if", "then", "else", "dependentRequired"}
    | {"minProperties", "maxProperties", "title", "description", "$comment", "type"}
)
_MAX_WALK = 200


def restricts_only(sub: Any, declared: frozenset[str], budget: list[int] | None = None) -> bool:
    """True when `sub` only restricts an object whose properties are `declared` (no new fields, no type
    change): it can be left to the validator while the form shows the declared properties."""
    budget = budget if budget is not None else [_MAX_WALK]
    budget[0] -= 1
    if budget[0] < 0:
        return False
    if isinstance(sub, bool):
        return True
    if not isinstance(sub, dict) or not _RESTRICTING.issuperset(sub):
        return False
    if "type" in sub and sub["type"] != "object":
        return False
    props = sub.get("properties", {})
    required = sub.get("required", [])
    if not isinstance(props, dict) or not declared.issuperset(props):
        return False
    if not isinstance(required, list) or not all(isinstance(n, str) and n in declared for n in required):
        return False
    for key in ("anyOf", "oneOf", "allOf"):
        members = sub.get(key, [])
        if not isinstance(members, list) or not all(restricts_only(m, declared, budget) for m in members):
            return False
    return all(restricts_only(sub[key], declared, budget) for key in ("not", "if", "then", "else") if key in sub)


def object_rules_fit(s: dict[str, Any]) -> bool:
    """True when this object's conditional keywords (`CONDITIONAL`) all restrict only its own properties."""
    props = s.get("properties")
    if not isinstance(props, dict) or not any(key in s for key in CONDITIONAL):
        return False
    declared = frozenset(props)
    budget = [_MAX_WALK]
    for key in ("if", "then", "else", "not"):
        if key in s and not restricts_only(s[key], declared, budget):
            return False
    for key in ("anyOf", "oneOf"):
        members = s.get(key, [])
        if not isinstance(members, list) or not all(restricts_only(m, declared, budget) for m in members):
            return False
    dependent = s.get("dependentSchemas", {})
    return isinstance(dependent, dict) and all(restricts_only(v, declared, budget) for v in dependent.values())


def checked_only(s: dict[str, Any]) -> tuple[str, ...]:
    """The names of this schema's rules that the widgets leave to the validator (for the field's note)."""
    return tuple(name for key, name in CHECKED_ONLY.items() if key in s and s[key] is not False)


def checked_note(rules: tuple[str, ...]) -> str:
    """The line a field shows for the rules its widgets leave to the validator."""
    return f"Also checked when you call (not shown by the form): {', '.join(rules)}"
