"""The bundled app: packaging/build.sh builds it (+ tarball + .deb), packaging/test_deb.sh installs the .deb
with apt, runs the installed `mcp-lens --self-test` and removes the package again. Both self-tests must find
Qt WebEngine (MCP Apps) in the bundle and run a page in it: the built one as root with Chromium's sandbox off
(this test's environment), the installed one as user nobody with the sandbox on, as users run it.

Slow (about 1.5–4 minutes on 2 cores) and it changes the system (apt-get install / purge): it runs
only as root on a Debian/Ubuntu machine with PyInstaller installed (`pip install -e '.[packaging]'`),
and is skipped anywhere else with the reason.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tarfile

import pytest
from lens_support import REPO

import inspector

pytestmark = pytest.mark.slow

VERSION = inspector.__version__
WEBENGINE_OK = "check WebEngine (MCP Apps) ok"
WEBENGINE_FILES = (  # what Chromium needs beside libQt6WebEngineCore; PyInstaller's hook collects them
    "libexec/QtWebEngineProcess",
    "resources/icudtl.dat",
    "resources/v8_context_snapshot.bin",
    "resources/qtwebengine_resources.pak",
    "resources/qtwebengine_devtools_resources.pak",
    "translations/qtwebengine_locales/en-US.pak",
)


def _bundle_env() -> dict[str, str]:
    """The tests run as root, where Chromium refuses its sandbox: the test (never the app or the scripts)
    turns it off for the bundle it starts."""
    env = dict(os.environ)
    if os.geteuid() == 0:
        env["QTWEBENGINE_DISABLE_SANDBOX"] = "1"
    return env


def _webengine_line(output: str) -> str:
    return next((line for line in output.splitlines() if WEBENGINE_OK in line), "no WebEngine line")


def _why_not() -> str | None:
    if os.geteuid() != 0:
        return "installs a .deb: needs root"
    for tool in ("apt-get", "dpkg-deb", "dpkg-query"):
        if shutil.which(tool) is None:
            return f"needs {tool} (Debian/Ubuntu)"
    try:
        import PyInstaller  # noqa: F401
    except ImportError:
        return "PyInstaller missing: pip install -e '.[packaging]'"
    try:
        import PySide6.QtWebEngineCore  # noqa: F401
    except ImportError:
        return "PySide6-WebEngine missing (the bundle carries it): pip install -e '.[apps,packaging]'"
    installed = subprocess.run(["dpkg-query", "-W", "mcp-lens"], capture_output=True, check=False)
    if installed.returncode == 0:
        return "mcp-lens is already installed on this machine: not touching it"
    return None


@pytest.mark.skipif(_why_not() is not None, reason=str(_why_not()))
@pytest.mark.timeout(900)
def test_build_bundle_tarball_and_deb_then_install_run_and_remove() -> None:
    built = subprocess.run(
        [str(REPO / "packaging" / "build.sh")], capture_output=True, text=True, timeout=840, env=_bundle_env()
    )
    assert built.returncode == 0, built.stdout[-4000:] + built.stderr[-4000:]
    assert "self-test: all steps passed" in built.stdout  # the bundle, run with no Python on PATH
    assert "available: Chromium" in _webengine_line(built.stdout), built.stdout[-2000:]
    assert "count tokens (o200k, Claude) ok" in built.stdout  # tiktoken's rank file and ctok's pieces ship

    dist = REPO / "dist"
    arch = subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True).stdout.strip()
    deb = dist / f"mcp-lens_{VERSION}_{arch}.deb"
    tarball = dist / f"mcp-lens-{VERSION}-linux-{os.uname().machine}.tar.gz"
    assert deb.is_file() and tarball.is_file()
    with tarfile.open(tarball) as tf:
        names = set(tf.getnames())
    assert "mcp-lens/mcp-lens" in names
    assert "mcp-lens/_internal/inspector/resources/icons/mcp-lens.svg" in names
    qt = "mcp-lens/_internal/PySide6/Qt"
    for path in WEBENGINE_FILES:
        assert f"{qt}/{path}" in names, path
    assert not [n for n in names if "/qtwebengine_locales/" in n and not n.endswith(("/en-US.pak", "_locales"))]

    fields = subprocess.run(
        ["dpkg-deb", "--field", str(deb), "Package", "Version", "Architecture", "Depends", "Installed-Size"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert f"Version: {VERSION}" in fields and "libpulse0" in fields and "libegl1" in fields
    assert "libnss3" in fields and "libxkbfile1" in fields  # WebEngine's own (scripts/lib.sh)
    contents = subprocess.run(["dpkg-deb", "--contents", str(deb)], capture_output=True, text=True, check=True).stdout
    for path in (
        "./opt/mcp-lens/mcp-lens",
        "./usr/bin/mcp-lens",
        "./usr/share/applications/mcp-lens.desktop",
        "./usr/share/icons/hicolor/scalable/apps/mcp-lens.svg",
        "./usr/share/icons/hicolor/256x256/apps/mcp-lens.png",
        "./opt/mcp-lens/_internal/PySide6/Qt/libexec/QtWebEngineProcess",
    ):
        assert path in contents, path

    tested = subprocess.run(
        [str(REPO / "packaging" / "test_deb.sh"), str(deb)],
        capture_output=True,
        text=True,
        timeout=300,
        env=_bundle_env(),
    )
    assert tested.returncode == 0, tested.stdout[-4000:] + tested.stderr[-4000:]
    assert "self-test: all steps passed" in tested.stdout
    assert "available: Chromium" in _webengine_line(tested.stdout), tested.stdout[-2000:]
    if shutil.which("setpriv"):
        assert "as user nobody: Chromium's sandbox on" in tested.stdout
    assert "removed: /opt/mcp-lens" in tested.stdout
