"""JSON Schema → `FieldSpec` tree. Never raises: a part it cannot render becomes a raw-JSON node."""

from __future__ import annotations

import re
from typing import Any

from inspector.schema.constraints import CONDITIONAL, checked_only, object_rules_fit
from inspector.schema.keywords import KINDS, UNSUPPORTED, infer_type, nonneg_int, number, read_annotations, type_list
from inspector.schema.nodes import MISSING, FieldSpec, FormModel, Kind
from inspector.schema.refs import Resolver, SchemaProblem
from inspector.schema.unions import UnionsMixin

MAX_DEPTH = 64


class Builder(UnionsMixin):
    """Builds nodes against one root schema; children are built on demand by `FieldSpec`."""

    def __init__(self, root: Any) -> None:
        self.resolver = Resolver(root)

    def node(
        self,
        schema: Any,
        *,
        name: str | None = None,
        required: bool = False,
        depth: int = 0,
        parent_refs: frozenset[str] = frozenset(),
    ) -> FieldSpec:
        """Build one node; any problem turns this subtree into a raw-JSON fallback node."""
        try:
            return self._node(schema, name, required, depth, parent_refs, nullable=False, more_refs=())
        except SchemaProblem as exc:
            return self.fallback(schema, str(exc), name=name, required=required, depth=depth)
        except (RecursionError, MemoryError, Exception) as exc:  # never let a schema crash the form
            return self.fallback(schema, f"cannot build this part ({type(exc).__name__})", name, required, depth)

    def fallback(
        self, schema: Any, reason: str, name: str | None = None, required: bool = False, depth: int = 0
    ) -> FieldSpec:
        """A raw-JSON node that explains why the form could not render it."""
        notes = read_annotations(schema) if isinstance(schema, dict) else {}
        return FieldSpec(
            Kind.ANY,
            schema={},
            name=name,
            required=required,
            depth=depth,
            fallback_reason=reason,
            title=notes.get("title", ""),
            description=notes.get("description", ""),
        )

    def _node(
        self,
        schema: Any,
        name: str | None,
        required: bool,
        depth: int,
        parent_refs: frozenset[str],
        nullable: bool,
        more_refs: tuple[str, ...],
    ) -> FieldSpec:
        if depth > MAX_DEPTH:
            raise SchemaProblem(f"nested more than {MAX_DEPTH} levels deep")
        eff = self.resolver.effective(schema)
        own = (*more_refs, *eff.refs)
        s = eff.schema
        common: dict[str, Any] = {
            "name": name,
            "required": required,
            "depth": depth,
            "builder": self,
            "nullable": nullable,
            "ref": own[-1] if own else None,
            "recursive": any(r in parent_refs for r in own),
            "refs": parent_refs.union(own),
        }
        if s is True:
            return FieldSpec(Kind.ANY, {}, **common)
        if s is False:
            raise SchemaProblem("schema `false`: no value is allowed here")
        if not isinstance(s, dict):
            raise SchemaProblem(f"schema is a {type(s).__name__}, not an object")
        rules_fit = object_rules_fit(s)  # conditional rules that only restrict the declared properties
        for key, what in UNSUPPORTED.items():
            if key in s and not (rules_fit and key in CONDITIONAL):
                raise SchemaProblem(f"the form cannot express {what}")
        if isinstance(s.get("dependencies"), dict) and any(isinstance(v, dict) for v in s["dependencies"].values()):
            raise SchemaProblem("the form cannot express `dependencies` with schemas")
        common.update(read_annotations(s))
        rules = checked_only(s)
        common["constraints"] = rules if rules_fit else tuple(r for r in rules if r not in ("anyOf", "oneOf"))
        if "const" in s:
            return FieldSpec(Kind.CONST, s, const=s["const"], **common)
        if "enum" in s:
            if not isinstance(s["enum"], list) or not s["enum"]:
                raise SchemaProblem("`enum` is not a non-empty list")
            names = s.get("enumNames")
            labels = tuple(names) if _labels_fit(names, s["enum"]) else ()
            return FieldSpec(Kind.ENUM, s, enum=tuple(s["enum"]), enum_labels=labels, **common)
        if (titled := titled_consts(s)) is not None:
            values, labels = titled
            return FieldSpec(Kind.ENUM, s, enum=values, enum_labels=labels, **common)
        if ("oneOf" in s or "anyOf" in s) and not rules_fit:
            return self._union(s, common, parent_refs, own)
        types = type_list(s)
        if types is not None:
            common["nullable"] = nullable or ("null" in types and len(types) > 1)
            types = [t for t in types if t != "null"]
            if not types:
                return FieldSpec(Kind.NULL, s, **common)
            if len(types) > 1:
                return self._union_of_types(s, types, common)
            kind_name = types[0]
        else:
            kind_name = infer_type(s)
        return self._typed(kind_name, s, common)

    def _typed(self, kind_name: str, s: dict[str, Any], common: dict[str, Any]) -> FieldSpec:
        if kind_name == "any":
            return FieldSpec(Kind.ANY, s, **common)
        if kind_name == "object":
            return self._object(s, common)
        if kind_name == "array":
            return FieldSpec(
                Kind.ARRAY,
                s,
                min_items=nonneg_int(s.get("minItems")),
                max_items=nonneg_int(s.get("maxItems")),
                **common,
            )
        if kind_name not in KINDS:
            raise SchemaProblem(f"unknown type {kind_name!r}")
        kind = KINDS[kind_name]
        if kind is Kind.STRING:
            fmt, pattern = s.get("format"), s.get("pattern")
            return FieldSpec(
                kind,
                s,
                format=fmt if isinstance(fmt, str) else None,
                pattern=pattern if isinstance(pattern, str) else None,
                min_length=nonneg_int(s.get("minLength")),
                max_length=nonneg_int(s.get("maxLength")),
                **common,
            )
        if kind in (Kind.NUMBER, Kind.INTEGER):
            lo, hi = number(s.get("minimum")), number(s.get("maximum"))
            xlo, xhi = s.get("exclusiveMinimum"), s.get("exclusiveMaximum")
            if xlo is True:  # draft-04 booleans
                lo, xlo = None, lo
            if xhi is True:
                hi, xhi = None, hi
            mult = number(s.get("multipleOf"))
            return FieldSpec(
                kind,
                s,
                minimum=lo,
                maximum=hi,
                exclusive_minimum=number(xlo),
                exclusive_maximum=number(xhi),
                multiple_of=mult if mult and mult > 0 else None,
                **common,
            )
        return FieldSpec(kind, s, **common)

    def _object(self, s: dict[str, Any], common: dict[str, Any]) -> FieldSpec:
        props = s.get("properties", MISSING)
        if props is not MISSING and not isinstance(props, dict):
            raise SchemaProblem("`properties` is not an object")
        for key in ("additionalProperties", "patternProperties"):
            if key in s and not isinstance(s[key], dict | bool if key == "additionalProperties" else dict):
                raise SchemaProblem(f"`{key}` is not a schema")
        required = s.get("required")
        names = tuple(n for n in required if isinstance(n, str)) if isinstance(required, list) else ()
        addl = s.get("additionalProperties", MISSING)
        free = props is MISSING and addl is not False
        if free or (not props and (isinstance(addl, dict) or s.get("patternProperties"))):
            return FieldSpec(Kind.MAP, s, required_names=names, **common)
        return FieldSpec(Kind.OBJECT, s, required_names=names, **common)

    # -- children (called lazily by FieldSpec) ----------------------------------------------------

    def _child(self, parent: FieldSpec, schema: Any, name: str | None = None, required: bool = False) -> FieldSpec:
        return self.node(schema, name=name, required=required, depth=parent.depth + 1, parent_refs=parent.refs)

    def properties(self, spec: FieldSpec) -> list[FieldSpec]:
        props = spec.schema.get("properties")
        if not isinstance(props, dict):
            return []
        required = set(spec.required_names)
        return [self._child(spec, sub, str(name), str(name) in required) for name, sub in props.items()]

    def extra_spec(self, spec: FieldSpec, key: str | None) -> FieldSpec | None:
        s = spec.schema
        patterns = s.get("patternProperties") if isinstance(s.get("patternProperties"), dict) else {}
        for pattern, sub in patterns.items():
            try:
                hit = key is None or re.search(pattern, key) is not None
            except (re.error, TypeError):
                hit = False
            if hit:
                return spec._lazy(f"pattern:{pattern}", lambda sub=sub: self._child(spec, sub))
        addl = s.get("additionalProperties", MISSING)
        if addl is MISSING and s.get("unevaluatedProperties") is False:
            addl = False
        if addl is False:
            return None
        return spec._lazy("additional", lambda: self._child(spec, True if addl is MISSING else addl))

    def has_extra_schema(self, spec: FieldSpec) -> bool:
        s = spec.schema
        return (
            spec.kind is Kind.MAP or isinstance(s.get("additionalProperties"), dict) or bool(s.get("patternProperties"))
        )

    def prefix(self, spec: FieldSpec) -> list[FieldSpec]:
        s = spec.schema
        slots = s.get("prefixItems") if isinstance(s.get("prefixItems"), list) else s.get("items")
        if not isinstance(slots, list):
            return []
        return [self._child(spec, sub, None, True) for sub in slots]

    def items(self, spec: FieldSpec) -> FieldSpec | None:
        s = spec.schema
        if isinstance(s.get("prefixItems"), list):
            extra = s.get("items", True)
        elif isinstance(s.get("items"), list):
            extra = s.get("additionalItems", True)
        else:
            extra = s.get("items", True)
        return None if extra is False else self._child(spec, extra, None, True)

    def variants(self, spec: FieldSpec) -> list[FieldSpec]:
        siblings = spec._cache.get("siblings") or {}
        out = []
        for i, branch in enumerate(spec._cache.get("branches") or []):
            schema = {"allOf": [siblings, branch]} if siblings else branch
            child = self._child(spec, schema, None, spec.required)
            if not child.title and i < len(spec.variant_labels):
                child.title = spec.variant_labels[i]
            out.append(child)
        return out


def build(schema: Any, *, check: bool = True) -> FormModel:
    """Build the form model of a tool's `inputSchema`. Never raises; see `FormModel.fallback_reason`.

    `check=False` skips `check_schema` (≈0.3 ms per subschema, cold): a UI can show the form first and
    call `checked(model)` right after, switching to the fallback if the schema turns out invalid.
    """
    from inspector.schema.validate import schema_findings

    try:
        if schema is None:
            return _whole_fallback(schema, "the tool has no inputSchema")
        if not isinstance(schema, dict | bool):
            return _whole_fallback(schema, f"the inputSchema is a {type(schema).__name__}, not a JSON Schema object")
        findings = schema_findings(schema) if check else []
        if findings:
            return _whole_fallback(schema, "the inputSchema is not a valid JSON Schema", findings)
        root = Builder(schema).node(schema)
        if root.is_fallback:
            return _whole_fallback(schema, root.fallback_reason or "", [])
        if root.kind not in (Kind.OBJECT, Kind.MAP, Kind.UNION, Kind.ANY):
            return _whole_fallback(schema, f"the inputSchema describes a {root.kind.value}; arguments are an object")
        root.required = True
        return FormModel(schema, root, checked=check)
    except (RecursionError, MemoryError, Exception) as exc:
        return _whole_fallback(schema, f"the inputSchema could not be read ({type(exc).__name__})")


def checked(model: FormModel) -> FormModel:
    """`model` if its schema passes `check_schema`, else the whole-form fallback with the findings."""
    from inspector.schema.validate import schema_findings

    if model.checked:
        return model
    findings = schema_findings(model.schema)
    if findings:
        return _whole_fallback(model.schema, "the inputSchema is not a valid JSON Schema", findings)
    model.checked = True
    return model


def _whole_fallback(schema: Any, reason: str, findings: list[str] | None = None) -> FormModel:
    root = FieldSpec(Kind.ANY, {}, title="arguments", required=True, fallback_reason=reason)
    return FormModel(schema, root, fallback_reason=reason, findings=list(findings or []), checked=True)


CONST_BRANCH_KEYS = frozenset({"const", "title", "description", "type"})


def titled_consts(schema: dict[str, Any]) -> tuple[tuple[Any, ...], tuple[str, ...]] | None:
    """`oneOf`/`anyOf` of `{"const": v, "title": t}` branches (a titled enum, as elicitation uses):
    the values and their titles, or None when the union is anything else."""
    branches = schema.get("oneOf", schema.get("anyOf"))
    if not isinstance(branches, list) or not branches or ("oneOf" in schema and "anyOf" in schema):
        return None
    if not all(isinstance(b, dict) and "const" in b and CONST_BRANCH_KEYS.issuperset(b) for b in branches):
        return None
    values = tuple(b["const"] for b in branches)
    labels = tuple(b["title"] if isinstance(b.get("title"), str) else str(b["const"]) for b in branches)
    return values, labels


def _labels_fit(names: Any, values: list[Any]) -> bool:
    return isinstance(names, list) and len(names) == len(values) and all(isinstance(n, str) for n in names)
