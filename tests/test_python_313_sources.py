"""Every module compiles on CPython 3.13 too (the Windows and macOS builds may run on it): 3.13 cleans a
docstring's indentation at compile time through UTF-8, and a lone surrogate in one ("\\ud800" written
without its backslash doubled) stops the import with UnicodeEncodeError. Found under Wine."""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _docstrings(tree: ast.AST) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            value = first.value.value if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) else None
            if isinstance(value, str):
                found.append((first.lineno, value))  # type: ignore[union-attr]
    return found


def test_no_docstring_holds_a_lone_surrogate() -> None:
    bad = []
    for path in sorted([*REPO.glob("inspector/**/*.py"), *REPO.glob("tests/**/*.py")]):
        if "node_modules" in path.parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for line, text in _docstrings(tree):
            try:
                text.encode("utf-8")
            except UnicodeEncodeError:
                bad.append(f"{path.relative_to(REPO)}:{line}")
    assert not bad, f"docstrings CPython 3.13 cannot compile: {bad}"
