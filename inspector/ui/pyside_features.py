"""PySide6's `__feature__` scan, skipped: MCP Lens never uses ``from __feature__ import …``.

Once PySide6 is loaded, it reads the source of every module imported after it (its `__feature__`
switches, snake_case and true_property, apply per module, and it looks for the text "PySide6" to
know which modules to follow): about 560 files at the app's start, ~0.08 s of CPU before the first
connection. `skip_feature_scan` answers "not a PySide6 user" for each module without reading it; a
module that does import `__feature__` still gets its switches (PySide sets them on that import).
"""

from __future__ import annotations

import sys
from types import ModuleType

FEATURE_MODULE = "PySide6.support.feature"  # where PySide6 6.x keeps the scan (`_mod_uses_pyside`)


def skip_feature_scan() -> bool:
    """Replace the scan (after loading PySide6); False when this PySide6 has none to replace."""
    import PySide6.QtCore  # noqa: F401  # loads the feature support

    feature = sys.modules.get(FEATURE_MODULE)
    if feature is None or not callable(getattr(feature, "_mod_uses_pyside", None)):
        return False
    feature._mod_uses_pyside = _never  # type: ignore[attr-defined]
    return True


def _never(module: ModuleType) -> bool:
    return False
