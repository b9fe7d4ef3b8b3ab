"""Headless output never passes a server's control sequences to a terminal (issue 21, point 1).

`tests/servers/hostile_text.py` puts terminal escapes (screen clear, an OSC 8 link), NUL, C1 CSI, bidi
overrides and isolates, zero-width characters and markup in every string it sends. Whatever `--cli`
(text and JSON), `doctor` and `tokens` print of it, on stdout or stderr, shows those characters as
escapes; newlines and tabs stay; JSON stays valid JSON with the same values.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from lens_support import REPO

SERVER = [sys.executable, str(REPO / "tests/servers/hostile_text.py"), "/nonexistent/fifo"]
SPOOF = "rtl\u202eloot"
# What a terminal obeys or hides: C0 but tab, newline and CR; DEL and C1; zero-width, directional and
# bidi controls; separators; the byte-order mark.
OBEYED = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]")
WAIT = "60"

CLI = {
    "list-text": ["--method", "tools/list", "--format", "text"],
    "list-json": ["--method", "tools/list", "--format", "json"],
    "call-text": ["--method", "tools/call", "--tool-name", SPOOF, "--format", "text"],
    "call-json": ["--method", "tools/call", "--tool-name", SPOOF, "--format", "json"],
    "call-error": ["--method", "tools/call", "--tool-name", "fails", "--format", "text"],
    "initialize-text": ["--method", "initialize", "--format", "text"],
    "prompts-text": ["--method", "prompts/list", "--format", "text"],
    "read-text": ["--method", "resources/read", "--uri", "hostile://res", "--format", "text"],
}
RUNS = {
    **{key: ["--cli", *argv, "--request-timeout", WAIT, "--", *SERVER] for key, argv in CLI.items()},
    "doctor": ["doctor", "--timeout", WAIT, "--", *SERVER],
    "tokens": ["tokens", "--request-timeout", WAIT, "--", *SERVER],
}


def _run(argv: list[str], home: Path) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONPATH": str(REPO), "HOME": str(home), "XDG_CONFIG_HOME": str(home / "config")}
    env |= {"XDG_DATA_HOME": str(home / "data"), "XDG_CACHE_HOME": str(home / "cache")}
    return subprocess.run(
        [sys.executable, "-m", "inspector", *argv], capture_output=True, timeout=180, cwd=REPO, env=env
    )


@pytest.fixture(scope="module")
def done(tmp_path_factory: pytest.TempPathFactory) -> dict[str, subprocess.CompletedProcess[bytes]]:
    base = tmp_path_factory.mktemp("hostile-text")
    with ThreadPoolExecutor(3) as pool:
        futures = {key: pool.submit(_run, argv, base / key) for key, argv in RUNS.items()}
        return {key: future.result() for key, future in futures.items()}


def test_the_check_can_fail() -> None:
    raw = subprocess.run(SERVER, input=b"", capture_output=True, timeout=30).stderr.decode()
    assert OBEYED.search(raw), "the server's own stderr carries what the check looks for"


@pytest.mark.parametrize("key", list(RUNS))
def test_nothing_a_terminal_obeys_is_printed(key: str, done: dict[str, subprocess.CompletedProcess[bytes]]) -> None:
    result = done[key]
    assert b"Traceback" not in result.stderr, result.stderr[-2000:]
    for stream, data in (("stdout", result.stdout), ("stderr", result.stderr)):
        found = OBEYED.findall(data.decode("utf-8", errors="replace"))
        assert not found, f"{key} {stream} passes {sorted(set(found))!r}: {data[:300]!r}"
    assert result.stdout or result.stderr, key


@pytest.mark.parametrize("key", ["list-text", "call-text", "initialize-text", "prompts-text", "read-text"])
def test_text_shows_the_characters_as_escapes(key: str, done: dict[str, subprocess.CompletedProcess[bytes]]) -> None:
    out = done[key].stdout.decode()
    assert done[key].returncode == 0, done[key].stderr[-2000:]
    assert "\\x1b[2J" in out and "\\x00" in out and "\\u202e" in out, out[:500]
    assert "<b>bold</b>" in out, "markup is printed as it came (a terminal does not read HTML)"


def test_a_spoofed_tool_name_reads_as_sent(done: dict[str, subprocess.CompletedProcess[bytes]]) -> None:
    assert done["list-text"].stdout.decode().startswith("rtl\\u202eloot  "), done["list-text"].stdout[:200]


def strings(value: object) -> list[str]:
    """Every string in a JSON value, keys included."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for key, item in value.items() for text in (key, *strings(item))]
    return [text for item in value for text in strings(item)] if isinstance(value, list) else []


@pytest.mark.parametrize("key", ["list-json", "call-json"])
def test_json_stays_valid_with_the_same_values(key: str, done: dict[str, subprocess.CompletedProcess[bytes]]) -> None:
    text = "\n".join(strings(json.loads(done[key].stdout)))
    assert SPOOF in text and "\x1b[2J" in text and "\x9b" in text, "the values are the server's, whole"


def test_an_error_is_one_json_line_with_the_servers_message(
    done: dict[str, subprocess.CompletedProcess[bytes]],
) -> None:
    lines = [line for line in done["call-error"].stderr.decode().splitlines() if line.startswith("{")]
    error = json.loads(lines[-1])
    assert SPOOF in error["message"] and "\x1b]8;;https://evil.example\x07" in error["message"], error
