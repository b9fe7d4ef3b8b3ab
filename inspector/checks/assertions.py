"""Assertions a collection step can carry: one table of kinds, each with its fields and an evaluator
that says in words why it passed or failed.

In the file an assertion is an object with a ``kind`` and that kind's fields, e.g.
``{"kind": "equals", "path": "$.result.structuredContent.city", "value": "Paris"}``. Paths point into
the response envelope: ``$.result…`` or ``$.error…``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from inspector.checks.jsonpath import PathError, get_path, parse_path
from inspector.words import counted, noun


class BadAssertion(ValueError):
    """A malformed assertion in a collection file."""


@dataclass
class Observed:
    """What a step's request got back, as the evaluators see it."""

    response: dict[str, Any]  # {"result": …} or {"error": {"code", "message", "data"}}
    elapsed_ms: float
    tool: dict[str, Any] | None = None  # tools/call: the tool's tools/list entry, when listed
    count_tokens: Callable[[list[Any]], int] | None = None  # a tools list → its token total

    @property
    def result(self) -> dict[str, Any] | None:
        result = self.response.get("result")
        return result if isinstance(result, dict) else None

    @property
    def error(self) -> dict[str, Any] | None:
        error = self.response.get("error")
        return error if isinstance(error, dict) else None


Outcome = tuple[bool, str]


@dataclass(frozen=True)
class Kind:
    fields: dict[str, tuple[type, ...]]  # required field → accepted types
    evaluate: Callable[[dict[str, Any], Observed], Outcome]
    optional: dict[str, tuple[type, ...]] | None = None


def _short(value: Any, limit: int = 120) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _got(observed: Observed) -> str:
    if observed.error is not None:
        return f"JSON-RPC error {observed.error.get('code')}: {observed.error.get('message')}"
    if observed.result is not None and observed.result.get("isError") is True:
        content = observed.result.get("content")
        head = content[0] if isinstance(content, list) and content else None
        first = head.get("text") if isinstance(head, dict) else None
        return "isError: true" + (f" ({_short(first, 100)})" if first else "")
    return "a successful result"


def _success(spec: dict[str, Any], observed: Observed) -> Outcome:
    ok = observed.error is None and (observed.result is None or observed.result.get("isError") is not True)
    return ok, "succeeded" if ok else f"expected success, got {_got(observed)}"


def _is_error(spec: dict[str, Any], observed: Observed) -> Outcome:
    want = spec.get("value", True)
    got = observed.result is not None and observed.result.get("isError") is True
    if got == want:
        return True, f"isError is {str(got).lower()}"
    return False, f"expected isError: {str(want).lower()}, got {_got(observed)}"


def _error_code(spec: dict[str, Any], observed: Observed) -> Outcome:
    code = observed.error.get("code") if observed.error is not None else None
    if code == spec["code"]:
        return True, f"JSON-RPC error {code}"
    return False, f"expected JSON-RPC error {spec['code']}, got {_got(observed)}"


def _on_path(check: Callable[[dict[str, Any], Any], Outcome]) -> Callable[[dict[str, Any], Observed], Outcome]:
    """An assertion on the value at ``spec["path"]`` in the response; a path that finds nothing fails
    with its reason."""

    def run(spec: dict[str, Any], observed: Observed) -> Outcome:
        try:
            value = get_path(observed.response, spec["path"])
        except PathError as exc:
            return False, str(exc)
        return check(spec, value)

    return run


@_on_path
def _equals(spec: dict[str, Any], value: Any) -> Outcome:
    wanted = spec["value"]
    ok = type(value) is type(wanted) if isinstance(value, bool) or isinstance(wanted, bool) else True
    if ok and value == wanted:
        return True, f"{spec['path']} equals {_short(wanted)}"
    return False, f"{spec['path']} is {_short(value)}, expected {_short(spec['value'])}"


@_on_path
def _contains(spec: dict[str, Any], value: Any) -> Outcome:
    wanted = spec["value"]
    if isinstance(value, str):
        ok = isinstance(wanted, str) and wanted in value
    elif isinstance(value, list):
        ok = wanted in value
    elif isinstance(value, dict):
        ok = isinstance(wanted, dict) and all(k in value and value[k] == v for k, v in wanted.items())
    else:
        ok = False
    if ok:
        return True, f"{spec['path']} contains {_short(wanted)}"
    return False, f"{spec['path']} is {_short(value)}, which does not contain {_short(wanted)}"


@_on_path
def _matches(spec: dict[str, Any], value: Any) -> Outcome:
    if not isinstance(value, str):
        return False, f"{spec['path']} is {_short(value)}, not a string to match /{spec['pattern']}/"
    if re.search(spec["pattern"], value):
        return True, f"{spec['path']} matches /{spec['pattern']}/"
    return False, f"{spec['path']} is {_short(value)}, which does not match /{spec['pattern']}/"


def _output_schema(spec: dict[str, Any], observed: Observed) -> Outcome:
    from inspector.core.findings import validate_instance

    schema = observed.tool.get("outputSchema") if observed.tool else None
    if not isinstance(schema, dict):
        return False, "the tool declares no outputSchema (or was not found in tools/list)"
    if observed.result is None or "structuredContent" not in observed.result:
        return False, f"expected structuredContent valid against the outputSchema, got {_got(observed)} without it"
    problems = validate_instance(observed.result["structuredContent"], schema, "$.result.structuredContent")
    if not problems:
        return True, "structuredContent is valid against the tool's outputSchema"
    more = f" (+{len(problems) - 1} more)" if len(problems) > 1 else ""
    return False, f"structuredContent does not match outputSchema: {problems[0].path}: {problems[0].message}{more}"


def _content(spec: dict[str, Any], observed: Observed) -> Outcome:
    blocks = observed.result.get("content") if observed.result else None
    if not isinstance(blocks, list):
        return False, f"expected content blocks, got {_got(observed)} without a content list"
    kind = spec.get("type")
    chosen = [b for b in blocks if kind is None or (isinstance(b, dict) and b.get("type") == kind)]
    what = f"{kind} block" if kind else "content block"
    if "count" in spec:
        if len(chosen) != spec["count"]:
            return False, f"expected {counted(spec['count'], what)}, got {len(chosen)}"
        return True, counted(len(chosen), what)
    if not chosen:
        types = sorted({str(b.get("type")) for b in blocks if isinstance(b, dict)}) or ["none"]
        return False, f"expected {what}s, got {', '.join(types)}"
    return True, counted(len(chosen), what)


def _latency_under(spec: dict[str, Any], observed: Observed) -> Outcome:
    if observed.elapsed_ms < spec["ms"]:
        return True, f"{observed.elapsed_ms:.0f} ms < {spec['ms']:g} ms"
    return False, f"took {observed.elapsed_ms:.0f} ms, expected under {spec['ms']:g} ms"


def _tokens_under(spec: dict[str, Any], observed: Observed) -> Outcome:
    tools = observed.result.get("tools") if observed.result else None
    if not isinstance(tools, list):
        return False, f"expected a tools/list result, got {_got(observed)} without tools"
    if observed.count_tokens is None:
        return False, "no tokenizer available"
    total = observed.count_tokens(tools)
    if total < spec["tokens"]:
        return True, f"the list costs {total:,} tokens < {spec['tokens']:,}"
    return False, f"the list costs {total:,} tokens, expected under {spec['tokens']:,}"


_NUMBER = (int, float)
_ANY = (str, int, float, bool, list, dict, type(None))

KINDS: dict[str, Kind] = {
    "success": Kind({}, _success),
    "is_error": Kind({}, _is_error, {"value": (bool,)}),
    "error_code": Kind({"code": (int,)}, _error_code),
    "equals": Kind({"path": (str,), "value": _ANY}, _equals),
    "contains": Kind({"path": (str,), "value": _ANY}, _contains),
    "matches": Kind({"path": (str,), "pattern": (str,)}, _matches),
    "output_schema": Kind({}, _output_schema),
    "content": Kind({}, _content, {"type": (str,), "count": (int,)}),
    "latency_under": Kind({"ms": _NUMBER}, _latency_under),
    "tokens_under": Kind({"tokens": (int,)}, _tokens_under),
}


def parse_assertion(spec: Any) -> tuple[str, Kind]:
    """Check one assertion object; returns its kind's name and entry. Raises `BadAssertion`."""
    if not isinstance(spec, dict) or spec.get("kind") not in KINDS:
        got = spec.get("kind") if isinstance(spec, dict) else spec
        raise BadAssertion(f"unknown assertion {got!r}; kinds: {', '.join(KINDS)}")
    name = spec["kind"]
    kind = KINDS[name]
    allowed = {"kind", *kind.fields, *(kind.optional or {})}
    if extra := set(spec) - allowed:
        raise BadAssertion(f"{name}: unknown {noun(len(extra), 'field')} {', '.join(sorted(extra))}")
    for key, types in {**kind.fields, **(kind.optional or {})}.items():
        if key not in spec:
            if key in kind.fields:
                raise BadAssertion(f"{name} needs {key!r}")
            continue
        if not isinstance(spec[key], types) or (isinstance(spec[key], bool) and bool not in types):
            raise BadAssertion(f"{name}: {key!r} has the wrong type")
    try:
        if "path" in spec:
            parse_path(spec["path"])
        if "pattern" in spec:
            re.compile(spec["pattern"])
    except (PathError, re.error) as exc:
        raise BadAssertion(f"{name}: {exc}") from None
    return name, kind


def evaluate(spec: dict[str, Any], observed: Observed) -> Outcome:
    """(passed, reason in words) for one assertion; an evaluator that breaks fails with the reason."""
    name, kind = parse_assertion(spec)
    try:
        return kind.evaluate(spec, observed)
    except Exception as exc:  # a server's odd answer must not break the run
        return False, f"{name}: could not check ({type(exc).__name__}: {exc})"


def needs_tool(specs: list[dict[str, Any]]) -> bool:
    return any(spec.get("kind") == "output_schema" for spec in specs)
