"""Form state of containers: objects and maps (one class), arrays (rows and tuple slots); unions are in `variants`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inspector.schema.nodes import MISSING, FieldSpec, Issue, Kind
from inspector.schema.state_base import State, ValueState, fits

AUTO_DEPTH = 12  # required objects deeper than this are not pre-filled (recursive schemas)


def make_state(spec: FieldSpec, parent: State | None, fill: bool, blank: bool = False) -> State:
    """The state class for a node kind."""
    if spec.kind in (Kind.OBJECT, Kind.MAP):
        return ObjectState(spec, parent, fill, blank)
    if spec.kind is Kind.ARRAY:
        return ArrayState(spec, parent, fill, blank)
    if spec.kind is Kind.UNION:
        from inspector.schema.variants import UnionState

        return UnionState(spec, parent, fill, blank)

    return ValueState(spec, parent, fill, blank)


def expandable(spec: FieldSpec) -> bool:
    """Whether a node may be pre-filled without the user asking (not recursive, not too deep)."""
    return not spec.recursive and spec.depth <= AUTO_DEPTH


def auto_fill(spec: FieldSpec) -> bool:
    """Whether a required child is pre-filled when its parent is."""
    return spec.required and expandable(spec)


class Container(State):
    def __init__(self, spec: FieldSpec, parent: State | None, blank: bool = False) -> None:
        super().__init__(spec, parent)
        self.present = False
        self.blank = blank

    def is_set(self) -> bool:
        return self.null or self.present

    def _mark(self) -> None:
        self.present, self.null = True, False

    def _start(self, fill: bool, kind: type) -> None:
        """Common part of reset: presence, null default, structured default."""
        self.present, self.null = fill, False
        default = self.spec.default
        if fill and default is None and self.spec.nullable:
            self.null = True
        elif fill and isinstance(default, kind):
            self.load(default, (), [])


@dataclass(eq=False)
class Entry:
    """One free key of a map / additional property of an object."""

    key: str
    state: State


class ObjectState(Container):
    """Named properties (created lazily) plus free-key entries (maps, additionalProperties)."""

    def __init__(self, spec: FieldSpec, parent: State | None, fill: bool, blank: bool = False) -> None:
        super().__init__(spec, parent, blank)
        self.children: dict[str, State] = {}
        self.entries: list[Entry] = []
        self.reset(fill)

    def reset(self, fill: bool) -> None:
        self.entries = []
        for state in self.children.values():
            state.reset(fill and auto_fill(state.spec))
        self._start(fill, dict)

    def child(self, name: str) -> State | None:
        """State of a named property (None if the schema has no such property)."""
        if name not in self.children:
            spec = self.spec.property(name)
            if spec is None:
                return None
            state = make_state(spec, self, self.present and not self.null and auto_fill(spec))
            state.key = name
            self.children[name] = state
        return self.children[name]

    def child_path(self, child: State) -> tuple[str | int, ...]:
        if child.key is not None:
            return (*self.path(), child.key)
        for entry in self.entries:
            if entry.state is child:
                return (*self.path(), entry.key)
        return self.path()

    def value(self) -> Any:
        if self.null:
            return None
        out: dict[str, Any] = {}
        for spec in self.spec.properties():
            state = self.children.get(spec.name or "")
            if state is None and spec.required:
                state = self.child(spec.name or "")
            if state is not None and state.is_set():
                out[spec.name or ""] = state.value()
        for entry in self.entries:
            out[entry.key] = entry.state.value() if entry.state.is_set() else None
        return out

    def add_entry(self, key: str = "", value: Any = MISSING) -> Entry | None:
        """Add a free key row (None when the schema forbids extra keys)."""
        spec = self.spec.extra_spec(key or None)
        if spec is None:
            return None
        entry = Entry(key, make_state(spec, self, True, blank=True))
        if value is not MISSING:
            entry.state.load(value, (), [])
        self.entries.append(entry)
        self.touch()
        return entry

    def remove_entry(self, index: int) -> None:
        if 0 <= index < len(self.entries):
            del self.entries[index]
            self.touch()

    def rename_entry(self, index: int, key: str) -> None:
        """Change an entry's key; with patternProperties the value's schema may change with it."""
        entry = self.entries[index]
        entry.key = key
        spec = self.spec.extra_spec(key or None)
        if spec is not None and spec is not entry.state.spec:
            old = entry.state.value() if entry.state.is_set() else MISSING
            entry.state = make_state(spec, self, True, blank=True)
            if old is not MISSING and fits(spec, old):
                entry.state.load(old, (), [])
        self.touch()

    def duplicate_keys(self) -> set[str]:
        names = [s.name for s in self.spec.properties()] + [e.key for e in self.entries]
        return {n for n in names if n is not None and names.count(n) > 1}

    def load(self, value: Any, path: tuple[str | int, ...], problems: list[Issue]) -> None:
        if self._load_null(value):
            return
        if not isinstance(value, dict):
            self._problem(problems, path, value)
            self.reset(False)
            return
        self.present, self.null = True, False
        for spec in self.spec.properties():
            name = spec.name or ""
            state = self.child(name)
            if state is None:
                continue
            if name in value:
                state.load(value[name], (*path, name), problems)
            else:
                state.reset(False)
        names = {s.name for s in self.spec.properties()}
        old, self.entries = self.entries, []
        for key, item in value.items():
            if key in names:
                continue
            spec = self.spec.extra_spec(str(key))
            if spec is None:
                problems.append(Issue((*path, key), "extra property not allowed here (additionalProperties)", "extra"))
                continue
            reuse = old[len(self.entries)] if len(self.entries) < len(old) else None
            fresh = reuse is None or reuse.state.spec is not spec
            state = make_state(spec, self, True, blank=True) if fresh else reuse.state  # type: ignore[union-attr]
            state.load(item, (*path, key), problems)
            self.entries.append(Entry(str(key), state))


class ArrayState(Container):
    """Rows of an array; tuple arrays get one slot per `prefixItems` entry first."""

    def __init__(self, spec: FieldSpec, parent: State | None, fill: bool, blank: bool = False) -> None:
        super().__init__(spec, parent, blank)
        self.items: list[State] = []
        self.reset(fill)

    def reset(self, fill: bool) -> None:
        self.items = []
        self._start(fill, list)
        if self.present and not self.items:  # tuple slots (not pre-filled when recursive: they would never end)
            self.items = [make_state(p, self, expandable(p), blank=True) for p in self.spec.prefix()]

    def spec_for(self, index: int) -> FieldSpec | None:
        prefix = self.spec.prefix()
        return prefix[index] if index < len(prefix) else self.spec.items()

    def can_add(self) -> bool:
        limit = self.spec.max_items
        return self.spec_for(len(self.items)) is not None and (limit is None or len(self.items) < limit)

    def add(self, value: Any = MISSING) -> State | None:
        """Append a row (pre-filled from the item default, else blank); None if no more rows are allowed."""
        spec = self.spec_for(len(self.items))
        if spec is None or not self.can_add():
            return None
        state = make_state(spec, self, True, blank=True)
        if value is not MISSING:
            state.load(value, (), [])
        self.items.append(state)
        self.touch()
        return state

    def remove(self, index: int) -> None:
        if 0 <= index < len(self.items):
            del self.items[index]
            self.touch()

    def move(self, index: int, to: int) -> None:
        if 0 <= index < len(self.items) and 0 <= to < len(self.items):
            self.items.insert(to, self.items.pop(index))
            self.touch()

    def child_path(self, child: State) -> tuple[str | int, ...]:
        for i, state in enumerate(self.items):
            if state is child:
                return (*self.path(), i)
        return self.path()

    def value(self) -> Any:
        if self.null:
            return None
        return [state.value() if state.is_set() else None for state in self.items]

    def load(self, value: Any, path: tuple[str | int, ...], problems: list[Issue]) -> None:
        if self._load_null(value):
            return
        if not isinstance(value, list):
            self._problem(problems, path, value)
            self.reset(False)
            return
        self.present, self.null = True, False
        old, self.items = self.items, []
        for i, item in enumerate(value):
            spec = self.spec_for(i)
            if spec is None:
                problems.append(Issue((*path, i), "no more items are allowed here", "items"))
                break
            state = old[i] if i < len(old) and old[i].spec is spec else make_state(spec, self, True, blank=True)
            state.load(item, (*path, i), problems)
            self.items.append(state)
