"""Form state: the base class and the state of a single value (scalars, enums, consts, raw JSON).

Rules for defaults (see `values.py` for the whole story): a state is *filled* when its field is
required (or a row the user added); a filled state starts from the schema's `default`. An optional
field starts unset — its default is only shown (as a placeholder) and is not sent.
"""

from __future__ import annotations

from typing import Any

from inspector.schema.jsontools import index_of, is_number, json_equal, json_text, json_type
from inspector.schema.nodes import MISSING, FieldSpec, Issue, Kind


def fits(spec: FieldSpec, value: Any, depth: int = 0) -> bool:
    """Whether a value has the right JSON type for a value node (constraints are not checked)."""
    kind = spec.kind
    if kind is Kind.STRING:
        return isinstance(value, str)
    if kind is Kind.INTEGER:
        return json_type(value) == "integer"
    if kind is Kind.NUMBER:
        return is_number(value)
    if kind is Kind.BOOLEAN:
        return isinstance(value, bool)
    if kind is Kind.NULL:
        return value is None
    if kind is Kind.ENUM:
        return index_of(spec.enum, value) >= 0
    if kind is Kind.CONST:
        return json_equal(spec.const, value)
    if kind is Kind.ARRAY:
        return isinstance(value, list)
    if kind in (Kind.OBJECT, Kind.MAP):
        return isinstance(value, dict)
    if kind is Kind.UNION and value is None:  # depth-bounded: a recursive union has endless variants
        return depth < 4 and any(fits(variant, None, depth + 1) for variant in spec.variants())
    return True


def expected(spec: FieldSpec) -> str:
    if spec.kind is Kind.ENUM:
        return "one of " + ", ".join(json_text(v, 30) for v in spec.enum[:8]) + (", …" if len(spec.enum) > 8 else "")
    if spec.kind is Kind.CONST:
        return json_text(spec.const, 60)
    return {"integer": "a whole number", "object": "an object", "array": "an array"}.get(spec.kind.value, spec.kind)


class State:
    """A node's current value. `is_set()` decides whether it goes into the arguments."""

    def __init__(self, spec: FieldSpec, parent: State | None) -> None:
        self.spec = spec
        self.parent = parent
        self.key: str | None = None  # property name under an object parent
        self.null = False
        self.blank = False  # an array row / map entry: starts from a blank value; unset means JSON null

    def is_set(self) -> bool:
        raise NotImplementedError

    def value(self) -> Any:
        """The JSON value (meaningful when `is_set()`)."""
        raise NotImplementedError

    def reset(self, fill: bool) -> None:
        """Back to the initial state: filled (required / added row) or unset (optional)."""
        raise NotImplementedError

    def clear(self) -> None:
        """Unset: leave this field out of the arguments."""
        self.reset(False)

    def load(self, value: Any, path: tuple[str | int, ...], problems: list[Issue]) -> None:
        """Take a JSON value; what does not fit is reported in `problems` and left unset."""
        raise NotImplementedError

    def touch(self) -> None:
        """The user edited this node: it and its ancestors now count as set."""
        self._mark()
        if self.parent is not None:
            self.parent.touch()

    def _mark(self) -> None:
        """Mark this node present after an edit (containers override)."""

    def set_null(self, flag: bool) -> None:
        """Toggle an explicit JSON null (nullable fields)."""
        self.null = flag
        if not flag:
            self._unnull()
            self.touch()
        elif self.parent is not None:
            self.parent.touch()

    def _unnull(self) -> None:
        """Leaving null: give the field a starting value where there is an obvious one."""

    def path(self) -> tuple[str | int, ...]:
        return () if self.parent is None else self.parent.child_path(self)

    def child_path(self, child: State) -> tuple[str | int, ...]:
        return self.path()

    def _load_null(self, value: Any) -> bool:
        """Handle a JSON null for a nullable field; True when it was one."""
        if value is None and not fits(self.spec, None):
            self.reset(False)
            if self.spec.nullable:
                self.null = True
                return True
            return self.blank  # an unset row is sent as null: nothing is lost, validation reports it
        return False

    def _problem(self, problems: list[Issue], path: tuple[str | int, ...], value: Any) -> None:
        problems.append(Issue(path, f"expected {expected(self.spec)}, got {json_text(value, 60)}", "type"))


class ValueState(State):
    """A single value: string, number, integer, boolean, null, enum, const, or raw JSON ("any")."""

    def __init__(self, spec: FieldSpec, parent: State | None, fill: bool, blank: bool = False) -> None:
        super().__init__(spec, parent)
        self.blank = blank
        self._value: Any = MISSING
        self.reset(fill)

    def reset(self, fill: bool) -> None:
        spec = self.spec
        self._value, self.null = MISSING, False
        if not fill:
            return
        default = spec.default
        if spec.kind is Kind.CONST:
            self._value = spec.const
        elif spec.kind is Kind.NULL:
            self._value = None
        elif default is None and spec.nullable and not fits(spec, None):
            self.null = True
        elif default is not MISSING and fits(spec, default):
            self._value = default
        elif self.blank:
            self._value = _blank(spec)

    def is_set(self) -> bool:
        return self.null or self._value is not MISSING

    def value(self) -> Any:
        return None if self.null or self._value is MISSING else self._value

    def _unnull(self) -> None:
        if self._value is MISSING:
            self._value = _blank(self.spec)

    @property
    def raw(self) -> Any:
        """The stored value, MISSING when unset (None when null)."""
        return None if self.null else self._value

    def set(self, value: Any) -> None:
        """The user entered a value (MISSING unsets the field)."""
        self.null = False
        self._value = value
        if value is not MISSING:
            self.touch()

    def load(self, value: Any, path: tuple[str | int, ...], problems: list[Issue]) -> None:
        if self._load_null(value):
            return
        if fits(self.spec, value):
            self._value, self.null = value, False
        else:
            self._problem(problems, path, value)
            self.reset(False)


def _blank(spec: FieldSpec) -> Any:
    """Starting value of a new array row / map entry with no default."""
    if spec.kind is Kind.STRING:
        return ""
    if spec.kind is Kind.BOOLEAN:
        return False
    if spec.kind is Kind.ENUM:
        return spec.enum[0]
    if spec.kind is Kind.ANY:
        return None
    return MISSING
