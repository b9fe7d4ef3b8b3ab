"""`--config FILE --server NAME` on a damaged config (outside tester's finding 5): a byte that is not UTF-8 in
another entry, the file in UTF-16, or cut after the entry asked for, still reaches that server (the demo
server, a real process), and stderr says what was left out, by line."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from lens_support import run_lens

DEMO = {"command": sys.executable, "args": ["-m", "inspector", "--demo-server"]}


def config(folder: Path) -> tuple[Path, bytes]:
    entries = {"demo": DEMO, "memory": {"command": "node", "args": ["memory.js"]}, "last": DEMO}
    text = json.dumps({"mcpServers": entries}, indent=2) + "\n"
    return folder / "mcp.json", text.encode()


def bad_byte(raw: bytes) -> bytes:
    return raw.replace(b'"memory"', b'"me\xffmory"', 1)


def utf16(raw: bytes) -> bytes:
    return raw.decode().encode("utf-16")


def cut(raw: bytes) -> bytes:
    return raw[: raw.index(b'"last"') + 12]


@pytest.mark.parametrize(
    ("damage", "said"),
    [
        (bad_byte, "line 11: server 'me\ufffdmory' holds bytes that are not UTF-8 (0xFF at column 8)"),
        (utf16, "the file is UTF-16 LE; it was read as such"),
        (cut, "line 17 to the end could not be read: what followed server 'memory' is lost"),
    ],
)
def test_the_intact_server_of_a_damaged_config_is_reached_and_the_damage_said(tmp_path: Path, damage, said) -> None:
    path, raw = config(tmp_path)
    path.write_bytes(damage(raw))
    done = run_lens("--cli", "--config", str(path), "--server", "demo", "--method", "tools/list", timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["tools"]  # the demo server answered
    assert f"{path}: {said}" in done.stderr
    assert "Traceback" not in done.stderr
