"""Layout rules from DESIGN.md: only inspector/ui and inspector/app.py import Qt."""

from __future__ import annotations

import ast
import pkgutil
import subprocess
import sys

from lens_support import REPO

import inspector

QT_ALLOWED = ("inspector/ui/", "inspector/app.py")
QT_PACKAGES = ("PySide6", "shiboken6", "qasync")


def _qt_imports(path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[0] in ("PySide6", "shiboken6", "qasync")]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in (
            "PySide6",
            "shiboken6",
            "qasync",
        ):
            found.append(node.module or "")
    return found


def test_only_ui_and_app_import_qt() -> None:
    offenders = {}
    for path in sorted((REPO / "inspector").rglob("*.py")):
        rel = path.relative_to(REPO).as_posix()
        if rel.startswith(QT_ALLOWED[0]) or rel == QT_ALLOWED[1]:
            continue
        if imports := _qt_imports(path):
            offenders[rel] = imports
    assert not offenders, offenders


def test_non_ui_packages_import_without_qt() -> None:
    """Import every non-ui module with PySide6 made unimportable; none may need it."""
    modules = [
        m.name
        for m in pkgutil.walk_packages(inspector.__path__, "inspector.")
        if not m.name.startswith("inspector.ui") and m.name != "inspector.app" and not m.name.endswith("__main__")
    ]
    assert "inspector.core.connection" in modules and "inspector.cli" in modules
    script = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('PySide6', 'shiboken6', 'qasync'):\n"
        "            raise ImportError('Qt is blocked in this test: ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
        f"for name in {modules!r}:\n"
        "    __import__(name)\n"
        "print(sorted(m for m in sys.modules if m.startswith(('PySide6', 'shiboken6'))))\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def test_no_two_test_modules_share_a_name() -> None:
    """The test folders are not packages: two `test_x.py` anywhere stop the whole run ('import file mismatch')."""
    seen: dict[str, list[str]] = {}
    skip = ("node_modules", ".venv")
    for path in sorted((REPO / "tests").rglob("test_*.py")):
        rel = path.relative_to(REPO).as_posix()
        if any(part.startswith(skip) for part in path.parts) or rel.startswith("tests/servers/"):
            continue
        seen.setdefault(path.name, []).append(rel)
    assert {name: paths for name, paths in seen.items() if len(paths) > 1} == {}
