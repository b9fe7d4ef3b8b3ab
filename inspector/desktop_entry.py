"""Install or remove MCP Lens's desktop entry and icon for the current user (no Qt).

A wheel installed by pip or pipx puts its data out of the desktop's sight, so
``mcp-lens --install-desktop-entry`` copies the ``.desktop`` file (with ``Exec`` pointing at the
running ``mcp-lens``) and the icon under ``$XDG_DATA_HOME`` (default ``~/.local/share``):

    applications/mcp-lens.desktop
    icons/hicolor/scalable/apps/mcp-lens.svg
    icons/hicolor/<N>x<N>/apps/mcp-lens.png     (only when PNGs were generated at build time)

``--uninstall-desktop-entry`` removes exactly those files again.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

from inspector.config.files import write_atomic
from inspector.resource_files import resource_dir

APP_ID = "mcp-lens"
MARKER_KEY = "X-MCP-Lens-Installed-By"
# Characters that force an Exec argument into double quotes (Desktop Entry spec, "The Exec key").
_RESERVED = set(" \t\n\"'\\><~|&;$*?#()`")


class DesktopEntryError(Exception):
    """The entry cannot be installed or removed; the message says why and what to do."""


def data_home(environ: Mapping[str, str] | None = None, home: Path | None = None) -> Path:
    """``$XDG_DATA_HOME`` when it is an absolute path, else ``~/.local/share``."""
    environ = os.environ if environ is None else environ
    value = environ.get("XDG_DATA_HOME", "")
    if value and Path(value).is_absolute():
        return Path(value)
    return (Path.home() if home is None else home) / ".local" / "share"


def launcher_command() -> list[str]:
    """The absolute command that starts this installation of MCP Lens.

    A bundle runs its own executable; a venv or pipx install runs the ``mcp-lens`` script beside its
    interpreter; otherwise ``python -m inspector`` with the running interpreter.
    """
    if getattr(sys, "frozen", False):
        return [str(Path(sys.executable).absolute())]
    bin_dir = Path(sys.executable).absolute().parent  # not resolved: a venv's python is a symlink
    for name in (APP_ID, f"{APP_ID}.exe"):
        script = bin_dir / name
        if script.is_file() and os.access(script, os.X_OK):
            return [str(script)]
    return [str(Path(sys.executable).absolute()), "-m", "inspector"]


def quote_exec_arg(arg: str) -> str:
    """Quote one argument for an ``Exec`` value (spec quoting, then the string-value escaping)."""
    if "\n" in arg or "\r" in arg:
        raise DesktopEntryError(f"cannot put a line break in a desktop entry: {arg!r}")
    arg = arg.replace("%", "%%")
    if arg and not (set(arg) & _RESERVED):
        quoted = arg
    else:
        inner = "".join("\\" + c if c in '"`$\\' else c for c in arg)
        quoted = f'"{inner}"'
    return quoted.replace("\\", "\\\\")


def render_entry(template: str, command: list[str]) -> str:
    """The template with ``Exec``/``TryExec`` set to `command` and our marker key added."""
    exec_value = " ".join(quote_exec_arg(a) for a in command)
    lines: list[str] = []
    for line in template.splitlines():
        key = line.split("=", 1)[0].strip()
        if key == "Exec":
            line = f"Exec={exec_value}"
        elif key == "TryExec":
            line = "TryExec=" + command[0].replace("\\", "\\\\")
        elif key == MARKER_KEY:
            continue
        lines.append(line)
    end = next((i for i, s in enumerate(lines[1:], 1) if s.startswith("[")), len(lines))
    lines.insert(end, f"{MARKER_KEY}=mcp-lens --install-desktop-entry")
    return "\n".join(lines).rstrip("\n") + "\n"


def planned_files(root: Path, res: Path | None = None) -> dict[Path, Path | None]:
    """Target path → source path (None for the generated ``.desktop`` file)."""
    res = resource_dir() if res is None else res
    icons = root / "icons" / "hicolor"
    files: dict[Path, Path | None] = {root / "applications" / f"{APP_ID}.desktop": None}
    files[icons / "scalable" / "apps" / f"{APP_ID}.svg"] = res / "icons" / f"{APP_ID}.svg"
    png_dir = res / "icons" / "png"
    if png_dir.is_dir():
        for png in sorted(png_dir.glob(f"{APP_ID}-*.png")):
            size = png.stem.rsplit("-", 1)[1]
            files[icons / f"{size}x{size}" / "apps" / f"{APP_ID}.png"] = png
    return files


def install(root: Path | None = None, command: list[str] | None = None) -> list[Path]:
    """Write the entry and icons under `root` (default: the XDG data dir); return the written paths."""
    root = data_home() if root is None else root
    command = launcher_command() if command is None else command
    res = resource_dir()
    template_path = res / f"{APP_ID}.desktop"
    try:
        template = template_path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DesktopEntryError(f"this installation has no desktop file ({template_path}): {exc}") from exc
    written: list[Path] = []
    for target, source in planned_files(root, res).items():
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            if source is None:
                write_atomic(target, render_entry(template, command))
            else:
                shutil.copyfile(source, target)
        except OSError as exc:
            raise DesktopEntryError(f"cannot write {target}: {exc.strerror or exc}") from exc
        written.append(target)
    _refresh_caches(root)
    return written


def uninstall(root: Path | None = None) -> list[Path]:
    """Remove what `install` wrote under `root`; return the removed paths (missing ones are skipped).

    An entry without our marker key was not written by us (a .deb, a hand-made file): it is kept.
    """
    root = data_home() if root is None else root
    entry = root / "applications" / f"{APP_ID}.desktop"
    if entry.is_file() and MARKER_KEY not in entry.read_text(encoding="utf-8", errors="replace"):
        raise DesktopEntryError(f"{entry} was not written by mcp-lens --install-desktop-entry; remove it by hand")
    removed: list[Path] = []
    for target in planned_files(root):
        try:
            target.unlink()
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise DesktopEntryError(f"cannot remove {target}: {exc.strerror or exc}") from exc
        removed.append(target)
    _refresh_caches(root)
    return removed


def _refresh_caches(root: Path) -> None:
    """Best effort: let menus and icon themes notice the change now rather than at next login."""
    jobs = (
        ("update-desktop-database", "-q", str(root / "applications")),
        ("gtk-update-icon-cache", "-q", "-t", str(root / "icons" / "hicolor")),
    )
    for tool, *args in jobs:
        if shutil.which(tool) and Path(args[-1]).is_dir():
            subprocess.run([tool, *args], capture_output=True, timeout=30, check=False)


def main(argv: list[str]) -> int:
    """``mcp-lens --install-desktop-entry`` / ``--uninstall-desktop-entry``."""
    if sys.platform in ("win32", "darwin"):
        print("desktop entries are a Linux (freedesktop.org) feature; nothing to do here", file=sys.stderr)
        return 2
    try:
        if "--uninstall-desktop-entry" in argv:
            removed = uninstall()
            for path in removed:
                print(f"removed {path}")
            if not removed:
                print(f"no MCP Lens desktop entry under {data_home()}")
        else:
            for path in install():
                print(f"wrote {path}")
            print(f"MCP Lens is now in your application menu (runs: {' '.join(launcher_command())})")
    except DesktopEntryError as exc:
        print(f"mcp-lens: {exc}", file=sys.stderr)
        return 1
    return 0
