"""Local `$ref` resolution (JSON pointers, `$anchor`, embedded `$id`) and `allOf` merging."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from inspector.schema.jsontools import index_of, is_number, json_equal

MAX_REF_HOPS = 32
MAX_MERGE_DEPTH = 16
ANNOTATIONS = frozenset(
    {"title", "description", "default", "examples", "readOnly", "writeOnly", "deprecated", "$comment"}
    | {"discriminator", "$schema", "$id", "$anchor", "$defs", "definitions", "x-order"}
)
LOWER_BOUNDS = frozenset({"minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"})
UPPER_BOUNDS = frozenset({"maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"})


class SchemaProblem(Exception):
    """This part of the schema cannot be turned into a form; the message is the fallback reason."""


@dataclass(frozen=True, slots=True)
class Effective:
    """A schema with its `$ref` chain followed and `allOf` merged, plus the refs that were followed."""

    schema: dict[str, Any] | bool
    refs: tuple[str, ...] = ()


def _pointer(root: Any, pointer: str) -> Any:
    node = root
    if pointer == "":
        return root
    if not pointer.startswith("/"):
        raise SchemaProblem(f"$ref fragment {pointer!r} is not a JSON pointer")
    for raw in pointer[1:].split("/"):
        node = _step(node, raw.replace("~1", "/").replace("~0", "~"))
    return node


def _step(node: Any, token: str) -> Any:
    if isinstance(node, dict) and token in node:
        return node[token]
    if isinstance(node, list) and token.isdigit() and int(token) < len(node):
        return node[int(token)]
    raise SchemaProblem(f"$ref target not found (no {token!r})")


class Resolver:
    """Resolves local references against one root schema."""

    def __init__(self, root: Any) -> None:
        self.root = root
        self.base = root.get("$id", "") if isinstance(root, dict) and isinstance(root.get("$id"), str) else ""
        self.base = self.base.split("#", 1)[0]
        self._anchors: dict[str, Any] | None = None

    def anchors(self) -> dict[str, Any]:
        """`$anchor` names and embedded `$id`s, indexed once (bounded walk)."""
        if self._anchors is None:
            found: dict[str, Any] = {}
            stack, seen = [self.root], 0
            while stack and seen < 100_000:
                node = stack.pop()
                seen += 1
                if isinstance(node, dict):
                    for key in ("$anchor", "$id"):
                        if isinstance(node.get(key), str) and node is not self.root:
                            found.setdefault(node[key].lstrip("#"), node)
                    stack.extend(v for v in node.values() if isinstance(v, dict | list))
                elif isinstance(node, list):
                    stack.extend(v for v in node if isinstance(v, dict | list))
            self._anchors = found
        return self._anchors

    def lookup(self, ref: str) -> Any:
        """The schema a `$ref` string points to; raises `SchemaProblem` if it is not local or missing."""
        if not isinstance(ref, str):
            raise SchemaProblem("$ref is not a string")
        if self.base and ref.startswith(self.base):
            ref = ref[len(self.base) :]
        if ref.startswith("#"):
            fragment = unquote(ref[1:])
            if fragment == "" or fragment.startswith("/"):
                return _pointer(self.root, fragment)
            if fragment in self.anchors():
                return self.anchors()[fragment]
            raise SchemaProblem(f"$ref anchor {ref!r} not found")
        if ref in self.anchors():
            return self.anchors()[ref]
        raise SchemaProblem(f"remote $ref {ref!r} is not fetched")

    def effective(self, schema: Any, depth: int = 0) -> Effective:
        """Follow `$ref` (merging sibling keywords over the target) and merge `allOf` members."""
        if depth > MAX_MERGE_DEPTH:
            raise SchemaProblem("$ref/allOf nested too deeply")
        refs: list[str] = []
        hops = 0
        while isinstance(schema, dict) and "$ref" in schema:
            ref = schema["$ref"]
            target = self.lookup(ref)
            if ref in refs or hops >= MAX_REF_HOPS:
                raise SchemaProblem(f"circular $ref {ref!r}")
            refs.append(ref)
            hops += 1
            siblings = {k: v for k, v in schema.items() if k != "$ref"}
            if not siblings:
                schema = target
            elif target is True or target == {}:
                schema = siblings
            elif target is False:
                schema = False
            elif not isinstance(target, dict):
                raise SchemaProblem(f"$ref {ref!r} points to a {type(target).__name__}, not a schema")
            else:
                schema = self.merge(target, siblings, depth + 1)
        if isinstance(schema, dict) and "allOf" in schema:
            members = schema["allOf"]
            if not isinstance(members, list):
                raise SchemaProblem("allOf is not a list")
            merged: dict[str, Any] | bool = {k: v for k, v in schema.items() if k != "allOf"}
            for member in members:
                inner = self.effective(member, depth + 1)
                refs.extend(inner.refs)
                if inner.schema is False or merged is False:
                    merged = False
                elif inner.schema is not True:
                    merged = self.merge(merged, inner.schema, depth + 1)  # type: ignore[arg-type]
            schema = merged
        return Effective(schema, tuple(refs))

    def merge(self, a: dict[str, Any], b: dict[str, Any], depth: int = 0) -> dict[str, Any]:
        """Merge two schemas that must both hold (allOf); raises `SchemaProblem` on a conflict."""
        if not isinstance(a, dict) or not isinstance(b, dict):
            raise SchemaProblem("allOf member is not a schema object")
        if "$ref" in a or "allOf" in a:
            a = _as_dict(self.effective(a, depth + 1).schema)
        if "$ref" in b or "allOf" in b:
            b = _as_dict(self.effective(b, depth + 1).schema)
        out = dict(a)
        for key, value in b.items():
            if key not in out or key in ANNOTATIONS:
                out[key] = value
            else:
                out[key] = _merge_keyword(key, out[key], value)
        return out


def _as_dict(schema: Any) -> dict[str, Any]:
    if schema is True:
        return {}
    if isinstance(schema, dict):
        return schema
    raise SchemaProblem("allOf includes a schema that accepts nothing")


def _types(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return set(value)
    raise SchemaProblem("type is not a string or a list of strings")


def _merge_keyword(key: str, old: Any, new: Any) -> Any:
    if json_equal(old, new):
        return old
    if key == "properties" and isinstance(old, dict) and isinstance(new, dict):
        out = dict(old)
        for name, sub in new.items():
            out[name] = sub if name not in out or json_equal(out[name], sub) else {"allOf": [out[name], sub]}
        return out
    if key == "required" and isinstance(old, list) and isinstance(new, list):
        return old + [n for n in new if n not in old]
    if key == "type":
        a, b = _types(old), _types(new)
        common = (a & b) | (
            {"integer"} if ("integer" in a and "number" in b) or ("number" in a and "integer" in b) else set()
        )
        if not common:
            raise SchemaProblem(f"allOf: no common type ({sorted(a)} and {sorted(b)})")
        return sorted(common)[0] if len(common) == 1 else sorted(common)
    if key in LOWER_BOUNDS | UPPER_BOUNDS and is_number(old) and is_number(new):
        return max(old, new) if key in LOWER_BOUNDS else min(old, new)
    if key == "enum" and isinstance(old, list) and isinstance(new, list):
        common = [v for v in old if index_of(new, v) >= 0]
        if not common:
            raise SchemaProblem("allOf: the enums have no value in common")
        return common
    if key in ("items", "additionalProperties", "additionalItems") and isinstance(old, dict | bool):
        if old is False or new is False:
            return False
        if old is True:
            return new
        return old if new is True else {"allOf": [old, new]}
    raise SchemaProblem(f"allOf: conflicting {key!r}")
