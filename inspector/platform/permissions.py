"""User-only files and folders: 0600/0700 on POSIX; on Windows the user-only ACL on the folders
MCP Lens creates (its files inherit it), set with ``icacls`` where it is found.

Windows has no mode bits (Python maps a mode to the read-only flag alone). Files there already sit
under the user's profile, whose inherited ACL admits the user, SYSTEM and the Administrators; a folder
MCP Lens creates drops that inheritance and grants the user alone. Where ``icacls`` is missing or
refuses, the inherited ACL stays: `folder_private` says False.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

FILE_MODE = 0o600
FOLDER_MODE = 0o700
POSIX = os.name == "posix"


def file_private(fd: int, mode: int = FILE_MODE) -> None:
    """Give an open file `mode` (the umask may have taken bits away; never adds any). POSIX only:
    on Windows the file inherits its folder's ACL."""
    if POSIX:
        os.fchmod(fd, mode)


def path_private(path: str | os.PathLike[str], mode: int = FILE_MODE) -> None:
    """Give an existing file `mode` (POSIX; nothing on Windows, as `file_private`)."""
    if POSIX:
        os.chmod(path, mode)


def folder_private(path: str | os.PathLike[str], *, created: bool = True) -> bool:
    """Make a folder user-only: 0700 on POSIX (every time: cheap), the user-only ACL on Windows (only
    for a folder just `created`: one ``icacls`` run). Whether it is now user-only, as far as we know."""
    if POSIX:
        os.chmod(path, FOLDER_MODE)
        return True
    if not created:
        return False
    return _windows_user_only(str(path))


def user_only_acl_command(folder: str, user: str, icacls: str = "icacls") -> list[str]:
    """The ``icacls`` argv that leaves `folder` to `user` alone: inheritance removed, full control
    granted to the user for the folder, its subfolders and its files."""
    return [icacls, folder, "/inheritance:r", "/grant:r", f"{user}:(OI)(CI)F", "/Q"]


def windows_user(environ: dict[str, str] | os._Environ[str] | None = None) -> str | None:
    """``DOMAIN\\user`` of the running user from the environment Windows sets, or None."""
    env = os.environ if environ is None else environ
    user = env.get("USERNAME")
    if not user:
        return None
    domain = env.get("USERDOMAIN")
    return f"{domain}\\{user}" if domain else user


def _windows_user_only(folder: str) -> bool:
    icacls, user = shutil.which("icacls"), windows_user()
    if icacls is None or user is None:
        return False
    flags = getattr(subprocess, "CREATE_NO_WINDOW", 0) if sys.platform == "win32" else 0
    try:
        done = subprocess.run(
            user_only_acl_command(folder, user, icacls),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=10,
            creationflags=flags,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0
