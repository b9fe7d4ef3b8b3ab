"""Writing the files MCP Lens keeps: one way, so none is left half-written or readable by others.

Every file is written atomically (a new user-only file in the same folder, flushed, then `os.replace`)
or appended to an append-only user-only file; every folder MCP Lens creates for its own files is
user-only. On Windows, where POSIX modes mean little, the files live under the user's profile, whose
ACL already keeps other users out; the modes are still passed (Python maps them to the read-only bit).
"""

from __future__ import annotations

import os
import re
import secrets
import stat
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

FILE_MODE = 0o600
FOLDER_MODE = 0o700


def data_dir(env: Mapping[str, str] | None = None) -> Path:
    """MCP Lens's data folder, ``$XDG_DATA_HOME/mcp-lens`` (when absolute) else ``~/.local/share/mcp-lens``
    (not created here): tap records and call histories live under it."""
    env = os.environ if env is None else env
    data = env.get("XDG_DATA_HOME", "")
    base = Path(data) if data and os.path.isabs(data) else Path(env.get("HOME") or Path.home()) / ".local/share"
    return base / "mcp-lens"


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
    _make_folders(path)
    if os.name == "posix":
        os.chmod(path, FOLDER_MODE)
    return path


def _make_folders(path: Path) -> None:
    """Create `path` and each missing parent user-only (`mkdir(parents=True)` gives parents the umask's
    mode); folders that exist are left as they are."""
    missing = []
    while not path.exists() and path != path.parent:
        missing.append(path)
        path = path.parent
    for folder in reversed(missing):
        try:
            folder.mkdir(mode=FOLDER_MODE)
        except FileExistsError:
            continue
        if os.name == "posix":
            os.chmod(folder, FOLDER_MODE)  # the umask may have taken bits away; never adds any


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
            if os.name == "posix":
                os.fchmod(out.fileno(), mode)  # the umask may have taken bits away; never adds any
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
    if os.name == "posix":
        os.fchmod(fd, FILE_MODE)
    return fd


@contextmanager
def folder_lock(folder: str | os.PathLike[str]) -> Iterator[None]:
    """An exclusive lock on `folder` itself (no lock file to leave behind), for read-merge-write saves.

    POSIX `flock`; where there is none (Windows) the saves stay atomic, but two writers at the same
    instant may drop one change.
    """
    try:
        import fcntl
    except ImportError:
        yield
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def _sync_folder(folder: Path) -> None:
    if os.name != "posix":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
