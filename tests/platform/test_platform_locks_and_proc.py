"""The folder lock, `/proc` reads and user-only permissions through the platform seam."""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path

import pytest

from inspector.config.files import folder_lock, private_folder, write_atomic
from inspector.platform import permissions, procfs


def test_the_folder_lock_keeps_a_second_holder_waiting(tmp_path: Path) -> None:
    order: list[str] = []
    held = threading.Event()

    def second() -> None:
        held.wait(30)
        with folder_lock(tmp_path):
            order.append("second in")

    thread = threading.Thread(target=second)
    thread.start()
    with folder_lock(tmp_path):
        held.set()
        time.sleep(0.3)  # the second holder is waiting now (or the lock failed and it is in)
        order.append("first out")
    thread.join(30)
    assert order == ["first out", "second in"]


def test_proc_reads_say_none_where_there_is_no_proc(tmp_path: Path) -> None:
    assert procfs.own_start_time(tmp_path) is None
    assert procfs.command_line(os.getpid(), tmp_path) is None


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="requires Linux's /proc")
def test_proc_reads_where_there_is_proc() -> None:
    started = procfs.own_start_time()
    assert started is not None and started <= time.time()
    argv = procfs.command_line(os.getpid())
    # this process's own command line: pytest, or an xdist worker (`python -u -c …`): the interpreter first
    assert argv is not None and os.path.basename(os.fsdecode(argv[0])).startswith("python"), argv


def test_the_user_only_acl_command_grants_the_user_alone_with_spaces_kept_in_one_argument() -> None:
    folder = r"C:\Users\Jane Doe\AppData\Local\mcp-lens"
    argv = permissions.user_only_acl_command(folder, r"DESKTOP-1\Jane Doe")
    assert argv == ["icacls", folder, "/inheritance:r", "/grant:r", r"DESKTOP-1\Jane Doe:(OI)(CI)F", "/Q"]
    assert permissions.windows_user({"USERNAME": "Jane Doe", "USERDOMAIN": "DESKTOP-1"}) == r"DESKTOP-1\Jane Doe"
    assert permissions.windows_user({}) is None


@pytest.mark.skipif(os.name != "posix", reason="requires POSIX file modes")
def test_posix_files_and_folders_stay_user_only(tmp_path: Path) -> None:
    folder = private_folder(tmp_path / "a" / "b")
    written = write_atomic(folder / "f.json", "{}")
    assert folder.stat().st_mode & 0o777 == 0o700
    assert written.stat().st_mode & 0o777 == 0o600


def _under_wine() -> bool:
    import ctypes

    return hasattr(ctypes.WinDLL("ntdll"), "wine_get_version")  # type: ignore[attr-defined]


@pytest.mark.skipif(sys.platform != "win32", reason="requires Windows (ACLs)")
@pytest.mark.skipif(sys.platform == "win32" and _under_wine(), reason="Wine's icacls is a stub: it shows no ACL")
def test_a_new_folder_on_windows_is_left_to_the_user_alone(tmp_path: Path) -> None:
    import subprocess

    folder = private_folder(tmp_path / "private")
    shown = subprocess.run(["icacls", str(folder)], capture_output=True, text=True, check=False).stdout
    user = permissions.windows_user()
    assert user is not None and user.split("\\")[-1] in shown
