"""An exclusive lock on a folder for read-merge-write saves, held until the block ends.

POSIX: `flock` on the folder itself (nothing left behind). Windows: a folder cannot be opened as a file,
so `msvcrt.locking` holds the first byte of a hidden ``.mcp-lens.lock`` file in it (left there, empty).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

LOCK_FILE = ".mcp-lens.lock"


@contextmanager
def folder_lock(folder: str | os.PathLike[str]) -> Iterator[None]:
    """Wait for, then hold, the exclusive lock on `folder` (which must exist)."""
    try:
        import fcntl
    except ImportError:
        with _windows_lock(Path(folder) / LOCK_FILE):
            yield
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


@contextmanager
def _windows_lock(path: Path) -> Iterator[None]:
    import msvcrt  # type: ignore[import-not-found,unused-ignore]

    fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_BINARY", 0), 0o600)
    try:
        while True:
            try:
                msvcrt.locking(fd, msvcrt.LK_LOCK, 1)  # type: ignore[attr-defined]  # tries for ten seconds
                break
            except OSError:
                continue  # another writer holds it longer: wait on
        try:
            yield
        finally:
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)  # type: ignore[attr-defined]
    finally:
        os.close(fd)
