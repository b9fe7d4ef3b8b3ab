"""Secret canaries: unique values planted in every field of a server profile a user can fill, and a
search of every file MCP Lens wrote for them (shared by tests/test_secret_canaries*.py)."""

from __future__ import annotations

import json
import os
import secrets
import stat
import sys
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, quote_plus

from lens_support import REPO

CANARY_SERVER = [sys.executable, str(REPO / "tests/servers/canary_server.py")]


def _passphrase(label: str) -> str:
    """A secret shaped like a password (spaces, no token shape): only its field or name gives it away."""
    return f"canary {label} words {secrets.token_hex(8)}"


def _token(label: str) -> str:
    """A secret shaped like an API key (one long run of letters and digits)."""
    return f"CANARY-{label}-k{secrets.token_hex(8)}7"  # a letter and a digit in the random piece, always


@dataclass
class Canaries:
    """label → value. Each value ends in 16+ random characters found nowhere else."""

    values: dict[str, str] = field(default_factory=dict)

    @classmethod
    def make(cls) -> Canaries:
        c = cls()
        for label in ("env-token", "env-dbpass", "env-ghpat", "input-env", "arg-apikey", "arg-token"):
            c.values[label] = _passphrase(label)
        for label in ("x-session", "input-header", "query-token", "query-sig", "query-region", "tool-password"):
            c.values[label] = _passphrase(label)
        for label in ("env-unknown", "bearer", "header-unknown"):
            c.values[label] = _token(label.upper())
        c.values["dsn"] = f"canarydsn{secrets.token_hex(8)}"
        return c

    def __getitem__(self, label: str) -> str:
        return self.values[label]

    def forms(self, label: str) -> set[bytes]:
        """The spellings the value could be written in: as is, URL-encoded, JSON-escaped, and its hex tail
        alone (which no encoding of ours changes)."""
        value = self.values[label]
        texts = {value, quote(value, safe=""), quote_plus(value), json.dumps(value)[1:-1], value[-16:]}
        return {t.encode() for t in texts}

    def found_in(self, data: bytes) -> list[str]:
        return [label for label in self.values if any(form in data for form in self.forms(label))]

    # -- the profiles -------------------------------------------------------------------------------
    def stdio_entry(self, command: list[str] | None = None) -> dict:
        argv = command or CANARY_SERVER
        return {
            "command": argv[0],
            "args": [*argv[1:], f"--api-key={self['arg-apikey']}", "--token", self["arg-token"]],
            "env": {
                "API_TOKEN": self["env-token"],
                "DB_PASS": self["env-dbpass"],
                "GH_PAT": self["env-ghpat"],
                "SERVICE_OPTION": self["env-unknown"],
                "DATABASE_URL": f"postgres://lens:{self['dsn']}@db.invalid/app",
                "FOO_SETTING": "${input:setting}",
            },
        }

    def http_entry(self, url: str) -> dict:
        query = f"token={quote_plus(self['query-token'])}&sig={quote_plus(self['query-sig'])}"
        query += f"&region={quote_plus(self['query-region'])}"
        return {
            "type": "http",
            "url": f"{url}?{query}",
            "headers": {
                "Authorization": f"Bearer {self['bearer']}",
                "X-Session": self["x-session"],
                "X-Tenant": self["header-unknown"],
                "X-Custom": "${input:custom}",
            },
        }

    def inputs(self) -> dict[str, str]:
        """The `--input ID=VALUE` values (what the app asks for)."""
        return {"setting": self["input-env"], "custom": self["input-header"]}

    def tool_arguments(self) -> dict[str, object]:
        """A tool call's arguments with a secret typed under a secret-looking name (nested too): known to
        no profile, hidden by its name and then by value wherever it is written."""
        return {"message": "hello", "password": self["tool-password"], "auth": {"apiToken": self["tool-password"]}}

    def input_args(self) -> list[str]:
        return [word for key, value in self.inputs().items() for word in ("--input", f"{key}={value}")]


def fresh_home(tmp_path: Path) -> dict[str, str]:
    """HOME and the XDG folders, fresh under `tmp_path` (created here, so not MCP Lens's to check)."""
    env = {}
    for name, sub in (
        ("HOME", "home"),
        ("XDG_CONFIG_HOME", "home/.config"),
        ("XDG_DATA_HOME", "home/.local/share"),
        ("XDG_CACHE_HOME", "home/.cache"),
        ("XDG_STATE_HOME", "home/.local/state"),
    ):
        (tmp_path / sub).mkdir(parents=True, exist_ok=True)
        env[name] = str(tmp_path / sub)
    env["MCP_LENS_NO_KEYRING"] = "1"
    return env


def leaks(canaries: Canaries, roots: list[Path], *, allowed: dict[Path, str] | None = None) -> list[str]:
    """Every file under `roots` holding a canary, as "path: labels" lines; `allowed` files are skipped
    (each with the reason it may hold them)."""
    found = []
    for root in roots:
        paths = [root] if root.is_file() else sorted(p for p in root.rglob("*") if p.is_file())
        for path in paths:
            if allowed and path in allowed:
                continue
            labels = canaries.found_in(path.read_bytes())
            if labels:
                found.append(f"{path}: {', '.join(labels)}")
    return found


def loose_permissions(paths: list[Path]) -> list[str]:
    """Files not 0600 and folders not 0700 among `paths` and everything under them."""
    bad = []
    for top in paths:
        for path in [top, *(top.rglob("*") if top.is_dir() else ())]:
            mode = stat.S_IMODE(os.stat(path).st_mode)
            want = 0o700 if path.is_dir() else 0o600
            if mode & ~want:
                bad.append(f"{path}: {oct(mode)}")
    return bad


def leaked_text(canaries: Canaries, text: str) -> list[str]:
    return canaries.found_in(text.encode())
