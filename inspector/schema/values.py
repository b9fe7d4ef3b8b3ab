"""Form values: a `FormState` tree ↔ tool-call arguments.

Defaults policy (what is sent):

* A field is sent only when it is *set*. Each state tracks that itself.
* **Required** fields start filled: with the schema `default` when there is one (so a required
  field with a default is sent as shown), else empty and unset (validation then reports
  "required" at the field instead of inventing a value).
* **Optional** fields start unset even when they have a `default`: the UI shows the default as a
  placeholder / hint, and the field is left out so the *server* applies its own default. It becomes
  set when the user edits it (even to the default value) and unset again with "clear".
  (The MCP Inspector pre-fills and sends defaults; users complain that this overrides server-side
  defaults and hides which values they actually chose.)
* Containers: a required object is present (its required children pre-filled by the same rules);
  an optional object, array, map or union becomes present as soon as anything inside it is edited.
* Rows the user adds (array items, map entries) start filled: the item default, else a blank value
  ("" for strings, false for booleans, the first enum value, null for raw JSON; numbers stay empty).
* Nullable fields have an explicit null toggle; null counts as set.
* `load_arguments` is exact: keys present in the JSON are set, absent keys are unset (no defaults
  are re-added), so `load_arguments(x)` then `to_arguments()` gives `x` back when `x` fits the form.
"""

from __future__ import annotations

from typing import Any

from inspector.schema.nodes import FormModel, Issue, Kind
from inspector.schema.state_base import State, ValueState
from inspector.schema.state_containers import ArrayState, Entry, ObjectState, make_state
from inspector.schema.variants import UnionState

__all__ = ["ArrayState", "Entry", "FormState", "ObjectState", "State", "UnionState", "ValueState", "make_state"]


class FormState:
    """The current values of a whole form."""

    def __init__(self, model: FormModel) -> None:
        self.model = model
        self.root: State = make_state(model.root, None, True)
        if isinstance(self.root, ValueState) and not self.root.is_set():
            self.root.set({})  # whole-form fallback / "any" root: start from an empty object

    def to_arguments(self) -> Any:
        """The arguments to send (a dict for any object-shaped schema)."""
        try:
            if not self.root.is_set():
                return {}
            return self.root.value()
        except RecursionError:
            return {}

    def load_arguments(self, arguments: Any) -> list[Issue]:
        """Set the form from JSON; returns what could not be mapped (those parts are left unset)."""
        problems: list[Issue] = []
        try:
            self.root.load(arguments, (), problems)
        except RecursionError:
            problems.append(Issue((), "nested too deeply to show in the form", "depth"))
        if self.root.spec.kind in (Kind.OBJECT, Kind.MAP) and not self.root.is_set():
            self.root.reset(True)
        return problems

    def find(self, path: tuple[str | int, ...]) -> State | None:
        """The state at an instance path, following the current variants (None if not built)."""
        state: State | None = self.root
        for step in path:
            while isinstance(state, UnionState):
                state = state.current()
            if isinstance(state, ObjectState) and isinstance(step, str):
                found = state.child(step)
                if found is None:
                    found = next((e.state for e in state.entries if e.key == step), None)
                state = found
            elif isinstance(state, ArrayState) and isinstance(step, int) and 0 <= step < len(state.items):
                state = state.items[step]
            else:
                return None
        return state
