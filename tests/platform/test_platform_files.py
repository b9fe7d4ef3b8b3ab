"""Reading at an offset: `os.pread` where it exists, a locked seek and read where not (Windows)."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from inspector.platform import files


def test_both_ways_read_the_same_bytes_from_many_threads(tmp_path: Path) -> None:
    path = tmp_path / "record.jsonl"
    data = bytes(range(256)) * 64
    path.write_bytes(data)
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    try:
        spots = [(n * 37 % len(data), 1 + n % 300) for n in range(400)]
        for read in (files.pread, files._seek_and_read):
            with ThreadPoolExecutor(4) as pool:
                got = list(pool.map(lambda spot, read=read: read(fd, spot[1], spot[0]), spots))
            assert got == [data[offset : offset + length] for offset, length in spots]
    finally:
        os.close(fd)
