"""Union state, and which variant a value belongs to: discriminator first, then validation, then shape."""

from __future__ import annotations

from typing import Any

from inspector.schema.jsontools import json_equal, json_text
from inspector.schema.nodes import MISSING, FieldSpec, Issue, Kind
from inspector.schema.state_base import State, fits
from inspector.schema.state_containers import Container, expandable, make_state

SHAPE_DEPTH = 8
SHAPE_ITEMS = 20


def shape_fits(spec: FieldSpec, value: Any, depth: int = 0) -> bool:
    """A quick structural match: types, consts, required keys, forbidden extra keys."""
    if depth > SHAPE_DEPTH or spec.kind is Kind.ANY:
        return True
    if value is None and spec.nullable:
        return True
    if spec.kind is Kind.UNION:
        return any(shape_fits(v, value, depth + 1) for v in spec.variants())
    if spec.kind is Kind.ARRAY:
        if not isinstance(value, list):
            return False
        for i, item in enumerate(value[:SHAPE_ITEMS]):
            sub = spec.prefix()[i] if i < len(spec.prefix()) else spec.items()
            if sub is None or not shape_fits(sub, item, depth + 1):
                return False
        return True
    if spec.kind in (Kind.OBJECT, Kind.MAP):
        if not isinstance(value, dict):
            return False
        if any(name not in value for name in spec.required_names):
            return False
        for key, item in value.items():
            sub = spec.property(key) if spec.kind is Kind.OBJECT else None
            sub = sub or spec.extra_spec(str(key))
            if sub is None or not shape_fits(sub, item, depth + 1):
                return False
        return True
    return fits(spec, value)


def type_fits(spec: FieldSpec, value: Any, depth: int = 0) -> bool:
    """Only the JSON type matches (for incomplete values)."""
    if depth > SHAPE_DEPTH or spec.kind is Kind.ANY or (value is None and spec.nullable):
        return True
    if spec.kind is Kind.UNION:
        return any(type_fits(v, value, depth + 1) for v in spec.variants())
    if spec.kind is Kind.ARRAY:
        return isinstance(value, list)
    if spec.kind in (Kind.OBJECT, Kind.MAP):
        return isinstance(value, dict)
    return fits(spec, value)


def _valid(spec: FieldSpec, variant: FieldSpec, value: Any) -> bool:
    from inspector.schema.validate import _validator

    if spec.builder is None:
        return True
    validator, _ = _validator(spec.builder.resolver.root)
    if validator is None:
        return True
    try:
        return bool(validator.evolve(schema=variant.schema).is_valid(value))
    except (RecursionError, Exception):
        return False


def pick(spec: FieldSpec, value: Any) -> int:
    """Index of the variant for `value`, or -1 when none fits."""
    variants = spec.variants()
    if not variants:
        return -1
    key = spec.discriminator
    if key and isinstance(value, dict) and key in value:
        for i, const in enumerate(spec.variant_consts):
            if const is not MISSING and json_equal(const, value[key]):
                return i
    shaped = [i for i, variant in enumerate(variants) if shape_fits(variant, value)]
    for i in shaped:
        if _valid(spec, variants[i], value):
            return i
    if shaped:
        return shaped[0]
    # Incomplete values (a required key missing, an empty tuple slot): the first variant of the right type.
    return next((i for i, variant in enumerate(variants) if type_fits(variant, value)), -1)


class UnionState(Container):
    """A variant picker; each variant keeps its own state so switching back restores it."""

    def __init__(self, spec: FieldSpec, parent: State | None, fill: bool, blank: bool = False) -> None:
        super().__init__(spec, parent, blank)
        self.index = 0
        self.states: dict[int, State] = {}
        self.reset(fill)

    def reset(self, fill: bool) -> None:
        for state in self.states.values():
            state.reset(False)
        variants = self.spec.variants()
        plain = [i for i, v in enumerate(variants) if expandable(v)]  # recursive variants would never end
        self.index, self.null, self.present = (plain[0] if plain else 0), False, fill
        default = self.spec.default
        if default is not MISSING and default is not None:
            self.index = max(0, pick(self.spec, default))
        if not fill:
            return
        current = self.current()
        if default is None and self.spec.nullable:
            self.null = True
        elif default is not MISSING:
            self.load(default, (), [])
        elif current is not None and plain:
            current.reset(True)

    def current(self) -> State | None:
        variants = self.spec.variants()
        if not variants:
            return None
        if self.index not in self.states:
            self.states[self.index] = make_state(variants[self.index], self, False, self.blank)
        return self.states[self.index]

    def select(self, index: int) -> None:
        """The user picked a variant: it is filled (discriminator, defaults) unless it already has a value."""
        if 0 <= index < len(self.spec.variants()):
            self.index = index
            state = self.current()
            if state is not None and not state.is_set():
                state.reset(True)
            self.touch()

    def is_set(self) -> bool:
        current = self.current()
        return self.null or (current is not None and current.is_set())

    def value(self) -> Any:
        current = self.current()
        return None if self.null or current is None else current.value()

    def load(self, value: Any, path: tuple[str | int, ...], problems: list[Issue]) -> None:
        if self._load_null(value):
            return
        index = pick(self.spec, value)
        if index < 0:
            problems.append(Issue(path, f"{json_text(value, 60)} matches none of the variants", "oneOf"))
            self.reset(False)
            return
        self.index, self.null, self.present = index, False, True
        current = self.current()
        if current is not None:
            current.load(value, path, problems)
