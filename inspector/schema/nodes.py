"""The field-spec tree: one `FieldSpec` per form field, children built lazily on first access.

Children (object properties, array items, union variants, map values) are built only when asked
for, so a recursive schema never loops: the form expands one level at a time as the user opens it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from inspector.schema.build import Builder


class _Missing:
    """Marker for "no value" (distinct from JSON null)."""

    _instance: _Missing | None = None

    def __new__(cls) -> _Missing:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False


MISSING: Any = _Missing()


class Kind(StrEnum):
    STRING = "string"
    NUMBER = "number"
    INTEGER = "integer"
    BOOLEAN = "boolean"
    NULL = "null"
    ENUM = "enum"
    CONST = "const"
    OBJECT = "object"  # named properties (plus optional extra keys)
    ARRAY = "array"  # rows of `items`, and/or fixed `prefixItems` slots
    UNION = "union"  # oneOf / anyOf / several types: a variant picker
    MAP = "map"  # free keys: additionalProperties / patternProperties
    ANY = "any"  # raw JSON editor; also every fallback node


SCALARS = frozenset({Kind.STRING, Kind.NUMBER, Kind.INTEGER, Kind.BOOLEAN, Kind.NULL, Kind.ENUM, Kind.CONST})
CONTAINERS = frozenset({Kind.OBJECT, Kind.ARRAY, Kind.UNION, Kind.MAP})


@dataclass(frozen=True, slots=True)
class Issue:
    """A problem at an instance path (keys and indexes from the arguments' root)."""

    path: tuple[str | int, ...]
    message: str
    keyword: str = ""

    def where(self) -> str:
        return "/".join(str(p) for p in self.path) or "(root)"

    def __str__(self) -> str:
        return f"{self.where()}: {self.message}"


@dataclass(eq=False)
class FieldSpec:
    """One node of the form. `schema` is the effective schema ($ref followed, allOf merged)."""

    kind: Kind
    schema: dict[str, Any] = field(default_factory=dict, repr=False)
    name: str | None = None
    title: str = ""
    description: str = ""
    default: Any = MISSING
    required: bool = False
    read_only: bool = False
    deprecated: bool = False
    examples: tuple[Any, ...] = ()
    nullable: bool = False
    fallback_reason: str | None = None
    depth: int = 0
    ref: str | None = None  # the $ref that led here, if any
    recursive: bool = False  # reached through a $ref already used by an ancestor
    refs: frozenset[str] = frozenset()  # $refs followed from the root to here
    constraints: tuple[str, ...] = ()  # rules the widgets leave to the validator (shown as a note)
    # string
    format: str | None = None
    pattern: str | None = None
    min_length: int | None = None
    max_length: int | None = None
    # number / integer
    minimum: float | None = None
    maximum: float | None = None
    exclusive_minimum: float | None = None
    exclusive_maximum: float | None = None
    multiple_of: float | None = None
    # enum / const
    enum: tuple[Any, ...] = ()
    enum_labels: tuple[str, ...] = ()  # display names: `oneOf` of titled consts, or `enumNames`
    const: Any = MISSING
    # object / map
    required_names: tuple[str, ...] = ()
    # array
    min_items: int | None = None
    max_items: int | None = None
    # union
    discriminator: str | None = None
    variant_labels: tuple[str, ...] = ()
    variant_consts: tuple[Any, ...] = ()  # discriminator value per variant (MISSING if unknown)
    builder: Builder | None = field(default=None, repr=False)
    _cache: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def label(self) -> str:
        """Name shown to the user: the property name, else the title, else the kind."""
        return self.name if self.name is not None else (self.title or self.kind.value)

    @property
    def is_fallback(self) -> bool:
        return self.fallback_reason is not None

    def _lazy(self, key: str, make: Any) -> Any:
        if key not in self._cache:
            self._cache[key] = make() if self.builder is not None else None
        return self._cache[key]

    # Children, each built on first access and cached.
    def properties(self) -> list[FieldSpec]:
        """Named properties of an object, in schema order."""
        return self._lazy("properties", lambda: self.builder.properties(self)) or []

    def property(self, name: str) -> FieldSpec | None:
        index = self._lazy("property_index", lambda: {p.name: p for p in self.properties()})
        return (index or {}).get(name)

    def extra_spec(self, key: str | None = None) -> FieldSpec | None:
        """Spec for an extra key (map entry / additional property); None when extra keys are forbidden."""
        if self.builder is None:
            return None
        return self.builder.extra_spec(self, key)

    def has_extra_schema(self) -> bool:
        """True when extra keys have a schema of their own (so the form offers key/value rows)."""
        return self.builder is not None and self.builder.has_extra_schema(self)

    def prefix(self) -> list[FieldSpec]:
        """Fixed tuple slots (`prefixItems`, or draft-07 `items: [...]`)."""
        return self._lazy("prefix", lambda: self.builder.prefix(self)) or []

    def items(self) -> FieldSpec | None:
        """Spec of array rows after the prefix; None when no further items are allowed."""
        return self._lazy("items", lambda: self.builder.items(self))

    def variants(self) -> list[FieldSpec]:
        return self._lazy("variants", lambda: self.builder.variants(self)) or []


@dataclass(eq=False)
class FormModel:
    """A built form: the root spec, plus why the whole form fell back to JSON (if it did)."""

    schema: Any
    root: FieldSpec
    fallback_reason: str | None = None
    findings: list[str] = field(default_factory=list)  # schema problems found by check_schema
    checked: bool = True  # False when built with check=False and not checked since (see build.checked)

    def new_state(self) -> Any:
        """A fresh `FormState` for this model (defaults pre-filled per the rules in `values`)."""
        from inspector.schema.values import FormState

        return FormState(self)
