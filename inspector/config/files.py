"""Writing the files MCP Lens keeps: one way, so none is left half-written or readable by others.

Every file is written atomically (a new user-only file in the same folder, flushed, then `os.replace`)
or appended to an append-only user-only file; every folder MCP Lens creates for its own files is
user-only. How "user-only" is made on each platform (modes, or the user-only ACL on Windows) and how a
folder is locked is `inspector.platform`'s to know.
"""

from __future__ import annotations

import os
import re
import secrets
import stat
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from inspector.platform import locks, permissions
from inspector.platform.folders import user_data_base
from inspector.platform.permissions import FILE_MODE, FOLDER_MODE


def data_dir(env: Mapping[str, str] | None = None, *, platform: str | None = None) -> Path:
    """MCP Lens's data folder, ``$XDG_DATA_HOME/mcp-lens`` (when absolute) else ``~/.local/share/mcp-lens``
    (macOS: ``~/Library/Application Support/mcp-lens``, Windows: ``%LOCALAPPDATA%\\mcp-lens``; not created
    here): tap records and call histories live under it."""
    return user_data_base(env, platform=platform) / "mcp-lens"


def stamped_sibling(path: str | os.PathLike[str], label: str) -> Path:
    """A free name beside `path` for a copy or backup of it: ``<name>.<label>-<time>``, then ``-2``, ``-3``…
    when that is taken (two in the same second never overwrite each other)."""
    target = Path(path)
    stamp = time.strftime("%Y%m%dT%H%M%S")
    candidate, n = target.with_name(f"{target.name}.{label}-{stamp}"), 1
    while candidate.exists():
        n += 1
        candidate = target.with_name(f"{target.name}.{label}-{stamp}-{n}")
    return candidate


def private_folder(folder: str | os.PathLike[str]) -> Path:
    """Create `folder` (and its parents) and make it user-only (0700). Returns it as a Path."""
    path = Path(folder)
    if not _make_folders(path):
        permissions.folder_private(path, created=False)
    return path


def _make_folders(path: Path) -> bool:
    """Create `path` and each missing parent user-only (`mkdir(parents=True)` gives parents the umask's
    mode); folders that exist are left as they are. Whether `path` itself was created."""
    missing = []
    while not path.exists() and path != path.parent:
        missing.append(path)
        path = path.parent
    for folder in reversed(missing):
        try:
            folder.mkdir(mode=FOLDER_MODE)
        except FileExistsError:
            continue
        permissions.folder_private(folder)  # the umask may have taken bits away; never adds any
    return bool(missing)


def write_atomic(path: str | os.PathLike[str], payload: bytes | str, *, mode: int = FILE_MODE) -> Path:
    """Replace `path` with `payload` (str is written as UTF-8) in one step.

    A missing folder is created user-only; an existing one (a folder the user chose for an export) is
    left as it is: only MCP Lens's own folders are made user-only, with `private_folder`.

    The new file is created with `mode` next to the target, flushed and fsynced, then renamed over it:
    a kill at any moment leaves either the old file or the new one, never a cut one. A symlink's target
    is the file replaced; a device or pipe the user named (`--output /dev/stdout`) is simply written to.
    """
    target = Path(path)
    data = utf8(payload) if isinstance(payload, str) else payload
    if target.is_symlink():  # the file it points to is replaced; the link stays a link
        target = target.resolve()
    if target.exists() and not stat.S_ISREG(target.stat().st_mode):  # a device or pipe (/dev/stdout): written to
        with open(target, "wb") as out:
            out.write(data)
        return target
    _make_folders(target.parent)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0) | getattr(os, "O_NOFOLLOW", 0)
    while True:
        tmp = target.with_name(f".{target.name}.{secrets.token_hex(6)}.tmp")
        try:
            fd = os.open(tmp, flags, mode)
            break
        except FileExistsError:
            continue
    try:
        with os.fdopen(fd, "wb") as out:
            permissions.file_private(out.fileno(), mode)  # the umask may have taken bits away; never adds any
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _sync_folder(target.parent)
    return target


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def utf8(text: str) -> bytes:
    """`text` in UTF-8. A lone surrogate (a server's "\\ud800" parses to one; UTF-8 cannot carry it) is
    written as its JSON escape, so JSON text from `json.dumps(..., ensure_ascii=False)` stays valid and
    reads back the same, instead of the save failing."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text).encode("utf-8")


def open_private_append(path: str | os.PathLike[str], *, exclusive: bool = False) -> int:
    """An append-only, user-only file descriptor on `path` (created 0600; `exclusive`: never an existing one)."""
    target = Path(path)
    _make_folders(target.parent)
    flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    if exclusive:
        flags |= os.O_EXCL
    fd = os.open(target, flags, FILE_MODE)
    permissions.file_private(fd)
    return fd


def private_temporary() -> IO[bytes]:
    """A user-only temporary file (read and write, binary), removed when it is closed (on POSIX at once)."""
    return tempfile.TemporaryFile(prefix="mcp-lens-")  # mkstemp: 0600; Windows: O_TEMPORARY


@contextmanager
def folder_lock(folder: str | os.PathLike[str]) -> Iterator[None]:
    """An exclusive lock on `folder` for read-merge-write saves (`platform.locks`: `flock` on the folder
    itself on POSIX, a lock file's first byte on Windows)."""
    with locks.folder_lock(folder):
        yield


def _sync_folder(folder: Path) -> None:
    if os.name != "posix":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
