"""Reading a file at an offset on every platform: `os.pread` where it exists (POSIX), else a seek and a
read under one lock (Windows has no `os.pread`; every positioned read of MCP Lens goes through here, so
no two of them move the same descriptor's position at once)."""

from __future__ import annotations

import os
import threading

_LOCK = threading.Lock()


def _seek_and_read(fd: int, length: int, offset: int) -> bytes:
    with _LOCK:
        os.lseek(fd, offset, os.SEEK_SET)
        return os.read(fd, length)


pread = getattr(os, "pread", _seek_and_read)
