"""Unions: `oneOf` / `anyOf` / type lists → a variant picker (or a nullable node), discriminators, labels."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from inspector.schema.jsontools import json_equal, json_text
from inspector.schema.nodes import MISSING, FieldSpec, Kind
from inspector.schema.refs import ANNOTATIONS, Effective, SchemaProblem, _as_dict

if TYPE_CHECKING:
    from inspector.schema.refs import Resolver


def is_null_schema(schema: Any) -> bool:
    if not isinstance(schema, dict):
        return False
    return (
        schema.get("type") == "null" or ("const" in schema and schema["const"] is None) or schema.get("enum") == [None]
    )


class UnionsMixin:
    """The union part of `Builder`."""

    resolver: Resolver

    def _node(self, *args: Any) -> FieldSpec:
        raise NotImplementedError

    def _union(
        self, s: dict[str, Any], common: dict[str, Any], parent_refs: frozenset[str], own: tuple[str, ...]
    ) -> FieldSpec:
        if "oneOf" in s and "anyOf" in s:
            raise SchemaProblem("the form cannot express both oneOf and anyOf on one value")
        key = "oneOf" if "oneOf" in s else "anyOf"
        branches = s[key]
        if not isinstance(branches, list) or not branches:
            raise SchemaProblem(f"`{key}` is not a non-empty list")
        effs = [self.resolver.effective(b) for b in branches]
        siblings = {k: v for k, v in s.items() if k not in ("oneOf", "anyOf")}
        keep = [i for i, e in enumerate(effs) if not is_null_schema(e.schema)]
        nullable = bool(common["nullable"]) or len(keep) < len(effs)
        if not keep:
            return FieldSpec(Kind.NULL, s, **{**common, "nullable": False})
        if len(keep) == 1 and nullable:  # Optional[X]: the X node with a null toggle
            inner = effs[keep[0]]
            merged = self.resolver.merge(_as_dict(inner.schema), siblings) if siblings else inner.schema
            name, required, depth = common["name"], common["required"], common["depth"]
            return self._node(merged, name, required, depth, parent_refs, True, (*own, *inner.refs))
        common["nullable"] = nullable
        spec = FieldSpec(Kind.UNION, s, **common)
        spec._cache["branches"] = [branches[i] for i in keep]
        spec._cache["siblings"] = {k: v for k, v in siblings.items() if k not in ANNOTATIONS}
        self._label_variants(spec, [effs[i] for i in keep], [branches[i] for i in keep], s.get("discriminator"))
        return spec

    def _union_of_types(self, s: dict[str, Any], types: list[str], common: dict[str, Any]) -> FieldSpec:
        spec = FieldSpec(Kind.UNION, s, variant_labels=tuple(types), variant_consts=(MISSING,) * len(types), **common)
        base = {k: v for k, v in s.items() if k not in ANNOTATIONS}
        spec._cache["branches"] = [{**base, "type": t} for t in types]
        spec._cache["siblings"] = {}
        return spec

    def _label_variants(self, spec: FieldSpec, effs: list[Effective], raw: list[Any], keyword: Any) -> None:
        prop = None
        if isinstance(keyword, dict) and isinstance(keyword.get("propertyName"), str):
            prop = keyword["propertyName"]
        elif isinstance(keyword, str):
            prop = keyword
        consts = self._consts(effs, prop) if prop else None
        if consts is not None and isinstance(keyword, dict) and isinstance(keyword.get("mapping"), dict):
            for value, ref in keyword["mapping"].items():
                for i, branch in enumerate(raw):
                    if consts[i] is MISSING and isinstance(branch, dict) and branch.get("$ref") == ref:
                        consts[i] = value
        if prop is None:
            candidates = [set(self._const_props(e)) for e in effs]
            for name in sorted(set.intersection(*candidates)) if candidates else ():
                values = self._consts(effs, name)
                if values and all(not json_equal(a, b) for i, a in enumerate(values) for b in values[i + 1 :]):
                    prop, consts = name, values
                    break
        if prop is not None and consts is not None:
            spec.discriminator, spec.variant_consts = prop, tuple(consts)
        else:
            spec.variant_consts = (MISSING,) * len(effs)
        labels = [self._label(e, i, spec.variant_consts[i]) for i, e in enumerate(effs)]
        if len(set(labels)) < len(labels):
            labels = [f"{label} ({i + 1})" for i, label in enumerate(labels)]
        spec.variant_labels = tuple(labels)

    def _const_props(self, eff: Effective) -> dict[str, Any]:
        s = eff.schema
        props = s.get("properties") if isinstance(s, dict) else None
        found: dict[str, Any] = {}
        for name, sub in props.items() if isinstance(props, dict) else ():
            try:
                sub = self.resolver.effective(sub).schema
            except SchemaProblem:
                continue
            if isinstance(sub, dict) and "const" in sub:
                found[name] = sub["const"]
            elif isinstance(sub, dict) and isinstance(sub.get("enum"), list) and len(sub["enum"]) == 1:
                found[name] = sub["enum"][0]
        return found

    def _consts(self, effs: list[Effective], prop: str) -> list[Any]:
        return [self._const_props(e).get(prop, MISSING) for e in effs]

    @staticmethod
    def _label(eff: Effective, index: int, const: Any) -> str:
        s = eff.schema
        if isinstance(s, dict) and isinstance(s.get("title"), str) and s["title"].strip():
            return s["title"].strip()
        if const is not MISSING:
            return const if isinstance(const, str) else json_text(const, 40)
        if eff.refs and isinstance(eff.refs[-1], str):
            return eff.refs[-1].rsplit("/", 1)[-1] or f"option {index + 1}"
        if isinstance(s, dict):
            if "const" in s:
                return json_text(s["const"], 40)
            t = s.get("type")
            if isinstance(t, str | list):
                name = t if isinstance(t, str) else " | ".join(map(str, t))
                items = s.get("items")
                if name == "array" and isinstance(items, dict) and isinstance(items.get("type"), str):
                    return f"array of {items['type']}"
                return name
        return f"option {index + 1}"
