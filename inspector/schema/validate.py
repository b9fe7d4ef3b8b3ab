"""Validation with jsonschema (draft from `$schema`, default 2020-12, formats checked) and live field checks.

Compiled validators are cached by the schema's JSON text (a bounded `lru_cache`: a pure memo, not state).
Schemas with more than `MAX_CHECKED_NODES` objects are compiled without `check_schema` (seconds of work).

A remote `$ref` is never fetched (jsonschema's default registry would retrieve it with urllib): the
validators use a registry whose retrieval answers every URI with a stand-in schema that no value meets,
so a value that reaches such a `$ref` gets an issue saying it was not checked, at its own path.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
import warnings
from collections import defaultdict
from typing import TYPE_CHECKING, Any

from inspector.schema.jsontools import index_of, is_number, json_equal, json_text
from inspector.schema.nodes import MISSING, FieldSpec, Issue, Kind

if TYPE_CHECKING:  # jsonschema itself is imported on first use: ~0.1 s the app's window need not wait for
    from jsonschema.exceptions import ValidationError

MAX_ISSUES = 200
MAX_MESSAGE = 300
PATTERN_LIMIT = 10_000
MAX_CHECKED_NODES = 3000
NOT_FETCHED = "mcp-lens: remote $ref not fetched: "


@functools.cache
def _formats() -> Any:
    from jsonschema import Draft202012Validator

    return Draft202012Validator.FORMAT_CHECKER


def _schema_text(schema: Any) -> str | None:
    try:
        return json.dumps(schema, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return None


def _short(text: str) -> str:
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 1] + "…"


def _too_big(schema: Any) -> bool:
    """More than `MAX_CHECKED_NODES` objects (check_schema costs ≈0.3 ms per subschema)."""
    stack, seen = [schema], 0
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            seen += 1
            if seen > MAX_CHECKED_NODES:
                return True
            stack.extend(v for v in node.values() if isinstance(v, dict | list))
        elif isinstance(node, list):
            stack.extend(v for v in node if isinstance(v, dict | list))
    return False


def _not_fetched(uri: str) -> Any:
    """The stand-in for a remote schema: rejects every value, and says which `$ref` was not fetched."""
    from referencing.jsonschema import DRAFT202012

    return DRAFT202012.create_resource({"$comment": NOT_FETCHED + uri, "not": True})


@functools.cache
def _registry() -> Any:
    """A registry that never retrieves anything over the network (the meta-schemas are built in)."""
    from referencing import Registry

    return Registry(retrieve=_not_fetched)  # type: ignore[call-arg]


@functools.lru_cache(maxsize=256)
def _compiled(text: str) -> tuple[Any, tuple[str, ...]]:
    """(validator or None, findings) for a schema given as JSON text."""
    from jsonschema import Draft202012Validator, validators

    schema = json.loads(text)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cls = validators.validator_for(schema, default=Draft202012Validator)
    offline = {"format_checker": cls.FORMAT_CHECKER, "registry": _registry()}
    if _too_big(schema):  # a hostile size: checking would freeze the UI for seconds; validation still works
        return cls(schema, **offline), ()
    try:
        errors = list(itertools.islice(cls(cls.META_SCHEMA, registry=_registry()).iter_errors(schema), 50))
    except RecursionError:
        return None, ("the schema is nested too deeply to check",)
    if errors:
        findings = tuple(f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {_short(e.message)}" for e in errors)
        return None, findings
    return cls(schema, **offline), ()


def _validator(schema: Any) -> tuple[Any, tuple[str, ...]]:
    if not isinstance(schema, dict | bool):
        return None, (f"a schema must be an object or a boolean, not a {type(schema).__name__}",)
    text = _schema_text(schema)
    if text is None:
        return None, ("the schema is not plain JSON (or is nested too deeply)",)
    try:
        return _compiled(text)
    except (RecursionError, Exception) as exc:  # jsonschema on a hostile schema
        return None, (f"the schema could not be read ({type(exc).__name__})",)


def schema_findings(schema: Any) -> list[str]:
    """Problems `check_schema` finds in a schema (empty when it is a valid schema of its draft)."""
    return list(_validator(schema)[1])


def validate(schema: Any, arguments: Any) -> list[Issue]:
    """Validate arguments; each issue carries the instance path of the field it belongs to.

    An invalid schema gives one issue with keyword "schema" (the call can still be made).
    """
    if schema is None:
        return [Issue((), "cannot validate: the tool has no inputSchema", "schema")]
    validator, findings = _validator(schema)
    if validator is None:
        return [
            Issue((), f"cannot validate: the inputSchema is invalid ({findings[0] if findings else '?'})", "schema")
        ]
    try:
        errors = []
        for error in validator.iter_errors(arguments):
            errors.append(error)
            if len(errors) >= MAX_ISSUES:
                break
        issues = [issue for error in errors for issue in _issues(error)]
    except (RecursionError, Exception) as exc:  # a hostile schema or value must not crash the caller
        return [Issue((), f"could not validate ({type(exc).__name__}: {_short(str(exc))})", "schema")]
    return list(dict.fromkeys(issues))


def _issues(error: ValidationError) -> list[Issue]:
    if error.validator in ("oneOf", "anyOf") and error.context:
        picked = _branch_errors(error)
        if picked:
            return [issue for sub in picked for issue in _issues(sub)]
    path = tuple(error.absolute_path)
    comment = error.schema.get("$comment") if isinstance(error.schema, dict) else None
    if error.validator == "not" and isinstance(comment, str) and comment.startswith(NOT_FETCHED):
        uri = comment[len(NOT_FETCHED) :]
        return [Issue(path, _short(f"not checked: the remote $ref {uri!r} is not fetched"), "$ref")]
    if error.validator == "required" and isinstance(error.instance, dict):
        names = error.validator_value if isinstance(error.validator_value, list) else []
        missing = [n for n in names if isinstance(n, str) and n not in error.instance and repr(n) in error.message]
        if missing:
            return [Issue((*path, name), "required", "required") for name in missing]
    return [Issue(path, _short(error.message), str(error.validator))]


def _branch_errors(error: ValidationError) -> list[ValidationError]:
    """Errors of the union branch the value was most likely meant for (its discriminator matched)."""
    by_branch: dict[Any, list[ValidationError]] = defaultdict(list)
    for sub in error.context or ():
        if sub.relative_schema_path:
            by_branch[sub.relative_schema_path[0]].append(sub)
    plausible = {
        branch: subs
        for branch, subs in by_branch.items()
        if not any(
            (s.validator in ("const", "enum") and len(s.relative_path) == 1)
            or (s.validator == "type" and not s.relative_path)
            for s in subs
        )
    }
    if not plausible:
        return []
    return min(plausible.values(), key=len)


# -- live checks -------------------------------------------------------------------------------------


def _pattern(node: FieldSpec) -> re.Pattern[str] | None:
    if "compiled_pattern" not in node._cache:
        try:
            node._cache["compiled_pattern"] = re.compile(node.pattern or "")
        except (re.error, TypeError, RecursionError, OverflowError):
            node._cache["compiled_pattern"] = None
    return node._cache["compiled_pattern"]


def _check_string(node: FieldSpec, value: str) -> str | None:
    n = len(value)
    if node.min_length is not None and n < node.min_length:
        return f"at least {node.min_length} character{'s' * (node.min_length != 1)}"
    if node.max_length is not None and n > node.max_length:
        return f"at most {node.max_length} characters ({n} now)"
    if node.pattern and n <= PATTERN_LIMIT and (compiled := _pattern(node)) and not compiled.search(value):
        return f"does not match the pattern {node.pattern}"
    if node.format and not _formats().conforms(value, node.format):
        return f"not a valid {node.format}"
    return None


def _check_number(node: FieldSpec, value: Any) -> str | None:
    if not is_number(value):
        return "expected a number"
    if value != value or value in (float("inf"), float("-inf")):
        return "not a finite number"
    if node.kind is Kind.INTEGER and not (isinstance(value, int) or value.is_integer()):
        return "expected a whole number"
    if node.minimum is not None and value < node.minimum:
        return f"must be ≥ {json_text(node.minimum)}"
    if node.maximum is not None and value > node.maximum:
        return f"must be ≤ {json_text(node.maximum)}"
    if node.exclusive_minimum is not None and value <= node.exclusive_minimum:
        return f"must be > {json_text(node.exclusive_minimum)}"
    if node.exclusive_maximum is not None and value >= node.exclusive_maximum:
        return f"must be < {json_text(node.exclusive_maximum)}"
    step = node.multiple_of
    if step:
        if isinstance(value, int) and isinstance(step, int):
            bad = value % step != 0
        else:
            quotient = value / step
            bad = abs(quotient - round(quotient)) > 1e-9 * max(1.0, abs(quotient))
        if bad:
            return f"must be a multiple of {json_text(step)}"
    return None


def check_value(node: FieldSpec, value: Any) -> str | None:
    """A short message if `value` breaks this field's own constraints (for live checks as you type)."""
    try:
        if value is MISSING:
            return None
        if value is None:
            ok = node.nullable or node.kind in (Kind.NULL, Kind.ANY) or None in node.enum
            return None if ok or (node.kind is Kind.CONST and node.const is None) else "null is not allowed here"
        if node.kind is Kind.STRING:
            return _check_string(node, value) if isinstance(value, str) else "expected a string"
        if node.kind in (Kind.NUMBER, Kind.INTEGER):
            return _check_number(node, value)
        if node.kind is Kind.BOOLEAN:
            return None if isinstance(value, bool) else "expected true or false"
        if node.kind is Kind.ENUM:
            return None if index_of(node.enum, value) >= 0 else "not one of the allowed values"
        if node.kind is Kind.CONST:
            return None if json_equal(node.const, value) else f"must be {json_text(node.const, 60)}"
        if node.kind is Kind.ARRAY and isinstance(value, list):
            if node.min_items is not None and len(value) < node.min_items:
                return f"at least {node.min_items} item{'s' * (node.min_items != 1)}"
            if node.max_items is not None and len(value) > node.max_items:
                return f"at most {node.max_items} items"
        return None
    except (RecursionError, Exception) as exc:
        return f"could not check ({type(exc).__name__})"
