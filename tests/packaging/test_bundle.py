"""The bundled app: packaging/build.sh builds it (+ tarball + .deb), packaging/test_deb.sh installs the .deb
with apt, runs the installed `mcp-lens --self-test` and removes the package again.

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
    installed = subprocess.run(["dpkg-query", "-W", "mcp-lens"], capture_output=True, check=False)
    if installed.returncode == 0:
        return "mcp-lens is already installed on this machine: not touching it"
    return None


@pytest.mark.skipif(_why_not() is not None, reason=str(_why_not()))
@pytest.mark.timeout(900)
def test_build_bundle_tarball_and_deb_then_install_run_and_remove() -> None:
    built = subprocess.run([str(REPO / "packaging" / "build.sh")], capture_output=True, text=True, timeout=840)
    assert built.returncode == 0, built.stdout[-4000:] + built.stderr[-4000:]
    assert "self-test: all steps passed" in built.stdout  # the bundle, run with no Python on PATH

    dist = REPO / "dist"
    arch = subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True).stdout.strip()
    deb = dist / f"mcp-lens_{VERSION}_{arch}.deb"
    tarball = dist / f"mcp-lens-{VERSION}-linux-{os.uname().machine}.tar.gz"
    assert deb.is_file() and tarball.is_file()
    with tarfile.open(tarball) as tf:
        names = set(tf.getnames())
    assert "mcp-lens/mcp-lens" in names
    assert "mcp-lens/_internal/inspector/resources/icons/mcp-lens.svg" in names

    fields = subprocess.run(
        ["dpkg-deb", "--field", str(deb), "Package", "Version", "Architecture", "Depends", "Installed-Size"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert f"Version: {VERSION}" in fields and "libpulse0" in fields and "libegl1" in fields
    contents = subprocess.run(["dpkg-deb", "--contents", str(deb)], capture_output=True, text=True, check=True).stdout
    for path in (
        "./opt/mcp-lens/mcp-lens",
        "./usr/bin/mcp-lens",
        "./usr/share/applications/mcp-lens.desktop",
        "./usr/share/icons/hicolor/scalable/apps/mcp-lens.svg",
        "./usr/share/icons/hicolor/256x256/apps/mcp-lens.png",
    ):
        assert path in contents, path

    tested = subprocess.run(
        [str(REPO / "packaging" / "test_deb.sh"), str(deb)], capture_output=True, text=True, timeout=300
    )
    assert tested.returncode == 0, tested.stdout[-4000:] + tested.stderr[-4000:]
    assert "self-test: all steps passed" in tested.stdout
    assert "removed: /opt/mcp-lens" in tested.stdout
