"""The `mcp` SDK's client modules without its package ``__init__``s, which import its server too.

``import mcp.client.session`` runs ``mcp/__init__.py`` and ``mcp/client/__init__.py`` first, and
they import the SDK's whole server side (starlette, uvicorn, sse-starlette, its HTTP client): about
0.2 s of CPU a client never uses, paid before the app's first connection. `skip_package_inits` adds
an import finder that loads those two packages without running their ``__init__``, so a submodule
comes with only what it imports itself; the first time anything asks such a package for a name of
its own (``from mcp import Client``), its ``__init__`` runs then and the name is there as before.
Nothing changes until something imports the SDK.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Sequence
from importlib.machinery import ModuleSpec  # not importlib.abc: it imports importlib.resources (~40 ms)
from types import ModuleType
from typing import Any

PACKAGES = frozenset({"mcp", "mcp.client"})
_lock = threading.RLock()


class _InitLater:
    """Creates the package as its own loader would and runs its ``__init__`` on the first name asked."""

    def __init__(self, loader: Any) -> None:
        self.loader = loader

    def __getattr__(self, name: str) -> Any:  # the rest of a loader (its files, its resources): the real one's
        return getattr(self.loader, name)

    def create_module(self, spec: ModuleSpec) -> ModuleType | None:
        return self.loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        loader = self.loader
        started: list[bool] = []

        def __getattr__(attr: str) -> Any:
            if attr.startswith("__"):
                raise AttributeError(attr)
            with _lock:  # another thread asking meanwhile waits here until the names are there
                if not started:
                    started.append(True)  # first: the __init__'s own imports ask the package for names
                    try:
                        loader.exec_module(module)
                    finally:
                        module.__dict__.pop("__getattr__", None)
            try:
                return module.__dict__[attr]
            except KeyError:
                raise AttributeError(f"module {module.__name__!r} has no attribute {attr!r}") from None

        module.__getattr__ = __getattr__  # type: ignore[method-assign]


class _Finder:
    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname not in PACKAGES:
            return None
        spec = _next_spec(self, fullname, path, target)
        if spec is None or spec.loader is None or spec.submodule_search_locations is None:
            return spec
        spec.loader = _InitLater(spec.loader)
        return spec


def _next_spec(
    skip: _Finder, fullname: str, path: Sequence[str] | None, target: ModuleType | None
) -> ModuleSpec | None:
    """The spec the finders after ours give (the path's, or a frozen bundle's own importer)."""
    for finder in sys.meta_path:
        find = getattr(finder, "find_spec", None)
        if finder is not skip and find is not None and (spec := find(fullname, path, target)) is not None:
            return spec
    return None


def skip_package_inits() -> None:
    """Install the finder (once)."""
    with _lock:
        if not any(isinstance(finder, _Finder) for finder in sys.meta_path):
            sys.meta_path.insert(0, _Finder())
