"""Layout rules from DESIGN.md: only inspector/ui and inspector/app.py import Qt."""

from __future__ import annotations

import ast
import pkgutil
import subprocess
import sys
from pathlib import Path

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


def _ui_packages(path: Path, repo: Path) -> set[str]:
    """The packages of inspector/ui a test module imports from ('' for a module at ui's top level)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        names = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
        names += [a.name for a in node.names] if isinstance(node, ast.Import) else []
        for parts in (name.split(".") for name in names):
            if parts[:2] == ["inspector", "ui"] and len(parts) > 2:
                found.add(parts[2] if (repo / "inspector/ui" / parts[2]).is_dir() else "")
    return found


def misplaced_ui_tests(repo: Path) -> dict[str, str]:
    """UI test modules outside the folder that mirrors what they test: {module: why}. A folder under
    tests/ui mirrors a package of inspector/ui; a `ui` test folder elsewhere (tests/auth/ui) is not one;
    a module whose inspector/ui imports all come from one package sits in that package's folder."""
    found = {}
    for path in sorted((repo / "tests").rglob("test_*.py")):
        rel = path.relative_to(repo)
        folder = rel.parent.as_posix()
        if rel.parts[1] in ("journeys", "bench", "servers") or "node_modules" in rel.parts:
            continue
        if rel.parts[1] != "ui" and "ui" in rel.parts[2:-1]:
            found[rel.as_posix()] = "a ui test folder outside tests/ui"
        elif rel.parts[1] == "ui" and not (repo / "inspector" / Path(*rel.parts[1:-1])).is_dir():
            found[rel.as_posix()] = f"no package inspector/{folder.removeprefix('tests/')}"
        elif rel.parts[1] != "ui":
            continue
        packages = _ui_packages(path, repo)
        if len(packages) == 1 and "" not in packages and folder != f"tests/ui/{next(iter(packages))}":
            found.setdefault(rel.as_posix(), f"tests inspector/ui/{next(iter(packages))} only")
    return found


def test_ui_tests_mirror_the_ui_package() -> None:
    assert misplaced_ui_tests(REPO) == {}


def _inspector_packages(path: Path, repo: Path) -> set[str]:
    """The packages of inspector a test module imports from, as paths ('ui/tools'; '' for inspector's top level)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names += [f"{node.module}.{a.name}" for a in node.names]
        for parts in (name.split(".") for name in names):
            if parts[0] != "inspector":
                continue
            depth = 1
            while depth < len(parts) and (repo / "inspector" / Path(*parts[1 : depth + 1])).is_dir():
                depth += 1
            found.add("/".join(parts[1:depth]))
    return found


ACROSS_PACKAGES = {  # test modules that import one package but deliberately test more than it: {module: why}
    # The headless commands run as a user runs them (a real `mcp-lens` process); the one import reads or
    # checks what the command wrote, so the module tests the command, not that package.
    "tests/cli/test_cli.py": "`mcp-lens --cli` as a process; traffic.jsonl reads its --record",
    "tests/cli/test_cli_big_result.py": "`mcp-lens --cli` as a process; content.visible is the expected print",
    "tests/cli/test_cli_capabilities.py": "`mcp-lens --cli` as a process; core.client_handlers is what it declares",
    "tests/cli/test_tokens_cli.py": "`mcp-lens tokens` as a process; budget counts the expected figures",
    "tests/doctor/test_doctor.py": "inspector/doctor's checks, run through `mcp-lens doctor` (cli.doctor)",
    "tests/doctor/test_doctor_host_names.py": "`mcp-lens doctor --host` as a process; budget builds the expected names",
    "tests/tap/test_install_cli.py": "`mcp-lens tap --install` as a process; config.jsonc reads the host file",
    "tests/tap/test_tap_secret_arguments.py": "`mcp-lens tap` as a process; traffic's entry names what it noted",
    "tests/core/test_slow_start.py": "the core's connection through core_support; traffic's Kind is what it checks",
    # The demo server run as a process (inspector/demo); `inspector.__version__` is what it must report.
    "tests/demo/test_demo_http.py": "inspector/demo over HTTP as a process; only __version__ imported",
    "tests/demo/test_demo_stdio.py": "inspector/demo over stdio as a process; only __version__ imported",
    # The app as shipped: built, installed and launched whole.
    "tests/packaging/test_bundle.py": "the bundled app; only __version__ imported",
    "tests/packaging/test_desktop_entry.py": "the shipped desktop entry and `mcp-lens --install-desktop-entry`",
    "tests/packaging/test_wheel.py": "the wheel installed in a fresh venv",
}


def misplaced_tests(repo: Path) -> dict[str, str]:
    """Test modules whose inspector imports all come from one package but that sit outside its folder
    (tests/<package path>; tests/ for inspector's top level), unless ACROSS_PACKAGES says why."""
    found = {}
    for path in sorted((repo / "tests").rglob("test_*.py")):
        rel = path.relative_to(repo)
        if rel.parts[1] in ("journeys", "bench", "servers") or "node_modules" in rel.parts:
            continue
        packages = _inspector_packages(path, repo)
        if len(packages) != 1 or rel.as_posix() in ACROSS_PACKAGES:
            continue
        (package,) = packages
        if package == "ui" and rel.parts[1] == "ui":
            continue  # the main window alone drives every panel: such a test sits with the panel it tests
        if rel.parent.as_posix() != f"tests/{package}".rstrip("/"):
            found[rel.as_posix()] = f"tests inspector/{package} only".replace("inspector/ only", "inspector only")
    return found


def test_tests_mirror_the_package() -> None:
    """Issue 24, point 5: a test of one package sits in that package's folder, as the UI tests do."""
    assert misplaced_tests(REPO) == {}
    stale = [
        rel for rel in ACROSS_PACKAGES if not (REPO / rel).is_file() or len(_inspector_packages(REPO / rel, REPO)) != 1
    ]
    assert stale == [], "ACROSS_PACKAGES names modules that are gone or import more than one package"


SHARED_HELPERS = {  # written once, where every caller can reach it (issue 24, point 4)
    "plain_label": "inspector/ui/widgets/plain_text.py",
    "human_size": "inspector/content/binary.py",
}


def test_each_shared_helper_is_written_once() -> None:
    found: dict[str, list[str]] = {name: [] for name in SHARED_HELPERS}
    for path in sorted((REPO / "inspector").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name in found:
                found[node.name].append(path.relative_to(REPO).as_posix())
    assert found == {name: [where] for name, where in SHARED_HELPERS.items()}
