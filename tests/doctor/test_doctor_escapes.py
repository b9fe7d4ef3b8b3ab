"""The doctor writes a server's control and bidi characters one way, `content/visible.py`'s, in every
output: ESC is ``\\x1b`` in text and JUnit whether it came in a tool name (quoted by a finding), a JSON
path or the server's name, on stdout or in an ``--output`` file, and a JUnit file stays well-formed XML.
JSON keeps JSON's own escape (``\\u001b``) and stays valid JSON with the server's values."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from lens_support import REPO, run_lens

SERVER = [sys.executable, str(REPO / "tests/servers/hostile_text.py"), "/nonexistent/fifo"]
# What a terminal obeys or hides and XML 1.0 refuses: C0 but tab, newline and CR; DEL and C1; bidi controls.
RAW = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]")


def _doctor(tmp_path: Path, fmt: str, *output: str) -> str:
    home = {"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path)}
    done = run_lens("doctor", "--timeout", "60", "--format", fmt, *output, "--", *SERVER, env=home, timeout=180)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-2000:]
    return Path(output[1]).read_text(encoding="utf-8") if output else done.stdout


@pytest.mark.parametrize("fmt", ["text", "junit"])
def test_esc_is_written_one_way_on_stdout_and_in_a_file(tmp_path: Path, fmt: str) -> None:
    shown = _doctor(tmp_path, fmt)
    written = _doctor(tmp_path, fmt, "--output", str(tmp_path / f"report.{fmt}"))
    for out in (shown, written):
        assert "\\x1b[2J" in out and "\\u202e" in out, out[:500]
        assert "\\u001b" not in out, "ESC escaped two ways: " + out[out.index("\\u001b") - 80 :][:200]
        assert not RAW.findall(out), sorted(set(RAW.findall(out)))


def test_a_junit_file_is_well_formed_xml(tmp_path: Path) -> None:
    out = tmp_path / "doctor.xml"
    _doctor(tmp_path, "junit", "--output", str(out))
    suite = ET.parse(out).getroot().find("testsuite")
    assert suite is not None and "server name" in suite.get("name", "")


def test_json_in_a_file_keeps_the_servers_values_escaped_as_json(tmp_path: Path) -> None:
    out = tmp_path / "doctor.json"
    _doctor(tmp_path, "json", "--output", str(out))
    text = out.read_text(encoding="utf-8")
    assert not RAW.findall(text), sorted(set(RAW.findall(text)))
    report = json.loads(text)
    assert "\x1b[2J" in report["server"]["name"] and "rtl\u202eloot" in report["server"]["name"]
