"""Where secrets (OAuth tokens, `${input:…}` values) may be kept: the OS keyring when a real one works
(`keyring`'s fail and null backends count as none, as does Linux without Secret Service); else a
user-only file only when the user ticked "Keep secrets in a file" (the app's Auth tab, `--secrets-file`,
or `MCP_LENS_SECRETS_FILE=1`); else nowhere but this session's memory.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from inspector.config.files import private_folder, write_atomic

NO_KEYRING_ENV = "MCP_LENS_NO_KEYRING"  # "1": act as if no keyring were installed (tests, CI)
FILE_ENV = "MCP_LENS_SECRETS_FILE"  # "1": the box is ticked for this process
TICK_LABEL = "Keep secrets in a file (user-only, not encrypted)"
NO_KEYRING_SESSION = (
    f"No keyring on this machine: the token is kept for this session only. Tick “{TICK_LABEL}” "
    "(or pass --secrets-file) to keep it in a user-only file."
)
PLAIN_FILE_NOTE = (
    "The stored token was read from a plain user-only file (0600, not encrypted) written by an earlier "
    f"MCP Lens; new tokens stay in this session unless you tick “{TICK_LABEL}”."
)

_ticked_this_run = False


def real_keyring() -> Any | None:
    """The `keyring` module when its backend is a real one (priority above 0, not fail/null), else None."""
    if os.environ.get(NO_KEYRING_ENV) == "1":
        return None
    try:
        import keyring
        from keyring.backends import fail

        backend = keyring.get_keyring()
        if isinstance(backend, fail.Keyring):
            return None
        return keyring if getattr(backend, "priority", 0) > 0 else None  # null's priority is -1
    except Exception:
        return None


def settings_path(environ: Mapping[str, str] | None = None) -> Path:
    """`secrets.json` beside the profiles file: the persisted "Keep secrets in a file" tick."""
    from inspector.config.store import default_path

    return default_path(environ=environ).parent / "secrets.json"


def tick_for_this_run() -> None:
    """`--secrets-file`: the box is ticked for this process only (nothing is persisted)."""
    global _ticked_this_run
    _ticked_this_run = True


def files_ticked(environ: Mapping[str, str] | None = None) -> bool:
    """Whether the user allowed secrets in a user-only file (this run, the environment, or the saved setting)."""
    env = os.environ if environ is None else environ
    if _ticked_this_run or env.get(FILE_ENV) == "1":
        return True
    try:
        data = json.loads(settings_path(env).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and data.get("keep_in_file") is True


def save_files_ticked(ticked: bool, environ: Mapping[str, str] | None = None) -> None:
    """Persist the app's tick (0600 file in the 0700 config folder)."""
    path = settings_path(environ)
    private_folder(path.parent)
    write_atomic(path, json.dumps({"keep_in_file": ticked}))
