"""Build, self-test and pack the macOS and Windows apps from the one spec (run on that OS; build time only).

    python packaging/build_desktop.py            # icons → PyInstaller → self-test → pack
    python packaging/build_desktop.py --pack     # only pack what dist/ holds

macOS: ``dist/MCP Lens.app`` packed into ``dist/mcp-lens-VERSION-macos-ARCH.dmg`` (``hdiutil``, which
every Mac has). Windows: the folder ``dist/mcp-lens/`` (``mcp-lens.exe`` inside) packed into
``dist/mcp-lens-VERSION-windows-ARCH.zip``; no installer (no tool from the registries this project
reaches makes one). Linux keeps ``packaging/build.sh`` (the tarball and the ``.deb``).
The self-test runs the bundle as a user would: ``--self-test`` (offscreen), then ``--cli`` to the
demo server the bundle itself serves (``mcp-lens --demo-server``), with no Python on PATH.
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DIST = ROOT / "dist"


def version() -> str:
    sys.path.insert(0, str(ROOT))
    from inspector import __version__

    return __version__


def arch() -> str:
    machine = platform.machine().lower()
    return {"amd64": "x86_64", "x86_64": "x86_64", "arm64": "arm64", "aarch64": "arm64"}.get(machine, machine)


def executable() -> Path:
    """The bundle's own command-line executable."""
    if sys.platform == "darwin":
        return DIST / "MCP Lens.app" / "Contents" / "MacOS" / "mcp-lens"
    return DIST / "mcp-lens" / ("mcp-lens.exe" if sys.platform == "win32" else "mcp-lens")


def build() -> None:
    subprocess.run([sys.executable, str(ROOT / "packaging" / "make_icons.py")], check=True, cwd=ROOT)
    spec = ROOT / "packaging" / "mcp-lens.spec"
    subprocess.run([sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean", str(spec)], check=True, cwd=ROOT)


def self_test() -> None:
    """The bundle with a fresh home and no Python on PATH: --self-test, then --cli to its own demo server."""
    exe = str(executable())
    home = tempfile.mkdtemp(prefix="mcp-lens-home-")
    root = os.environ.get("SYSTEMROOT", "")  # Windows reads environment names without case
    system_path = os.path.join(root, "System32") if sys.platform == "win32" else "/usr/bin:/bin"
    env = {
        "HOME": home,
        "USERPROFILE": home,
        "APPDATA": os.path.join(home, "AppData", "Roaming"),
        "LOCALAPPDATA": os.path.join(home, "AppData", "Local"),
        "PATH": system_path,
        "QT_QPA_PLATFORM": "offscreen",
        "SystemRoot": root,
    }
    subprocess.run([exe, "--self-test"], check=True, env=env, timeout=600)
    listed = subprocess.run(
        [exe, "--cli", exe, "--demo-server", "--method", "tools/list"],
        check=True,
        env=env,
        timeout=300,
        capture_output=True,
        text=True,
    )
    if '"get_weather"' not in listed.stdout:
        raise SystemExit(f"the bundle's --cli did not list the demo's tools:\n{listed.stdout}\n{listed.stderr}")
    print("self-test passed: --self-test, and --cli to the bundle's own demo server")


def pack() -> Path:
    name = f"mcp-lens-{version()}"
    if sys.platform == "darwin":
        out = DIST / f"{name}-macos-{arch()}.dmg"
        out.unlink(missing_ok=True)
        app = DIST / "MCP Lens.app"
        subprocess.run(
            ["hdiutil", "create", "-volname", "MCP Lens", "-srcfolder", str(app), "-ov", "-format", "UDZO", str(out)],
            check=True,
        )
        return out
    if sys.platform == "win32":
        base = DIST / f"{name}-windows-{arch()}"
        return Path(shutil.make_archive(str(base), "zip", root_dir=DIST, base_dir="mcp-lens"))
    raise SystemExit("Linux: packaging/build.sh makes the tarball and the .deb")


def main(argv: list[str]) -> int:
    if "--pack" not in argv:
        build()
        self_test()
    print(f"packed: {pack()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
