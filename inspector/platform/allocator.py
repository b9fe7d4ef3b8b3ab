"""How the C allocator is asked to behave: one malloc arena for every thread (glibc only; elsewhere nothing).

glibc gives threads their own arenas, and memory freed in one is not reused by another: the 50 MB
result, parsed on a worker thread, left ~20 MB free in that arena that the tokenizer, loaded on another
worker, could not use (the app's peak: 133 MB over a small server's, 106 MB with one arena). Python's
own small objects never reach malloc, so threads seldom contend for it.
"""

from __future__ import annotations

import ctypes
import os
import sys

M_ARENA_MAX = -8  # glibc's mallopt parameter number


def one_malloc_arena() -> bool:
    """Ask glibc for one malloc arena (before the app starts its threads); True when it took. A
    ``MALLOC_ARENA_MAX`` the user set is left alone."""
    if not sys.platform.startswith("linux") or "MALLOC_ARENA_MAX" in os.environ:
        return False
    try:
        libc = ctypes.CDLL(None)
        libc.gnu_get_libc_version  # noqa: B018 - glibc only (musl has mallopt but not this parameter)
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    return bool(mallopt(M_ARENA_MAX, 1))
