"""A big result is printed without a second copy of its text: `mcp-lens --cli` on a ~20 MB `tools/call`
result peaks under 3.2× the printed size over a small result's run (3.8× before: the whole JSON text, the
text plus its newline, and its encoded bytes beside the value), and prints the same JSON as before."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from lens_support import REPO, lens_env

from inspector.content import visible
from inspector.content.visible import json_visible, json_visible_pieces

BIG = [sys.executable, str(REPO / "tests/servers/big.py"), "result", "20000000"]
# Run the CLI in-process under a wrapper that prints its own peak RSS (the server is another process):
# VmHWM, since ru_maxrss keeps the forking parent's peak across exec.
WRAPPER = """
import atexit, runpy, sys
def peak():
    hwm = [line for line in open("/proc/self/status") if line.startswith("VmHWM:")][0]
    sys.stderr.write("peak-kb %s\\n" % hwm.split()[1])
atexit.register(peak)
sys.argv = ["mcp-lens", *sys.argv[1:]]
runpy.run_module("inspector", run_name="__main__")
"""


def call(tool: str) -> tuple[bytes, float]:
    argv = [sys.executable, "-c", WRAPPER, "--cli", *BIG, "--method", "tools/call", "--tool-name", tool]
    proc = subprocess.run(argv, capture_output=True, timeout=300, env=lens_env(), cwd=REPO)
    peak = [line for line in proc.stderr.decode().splitlines() if line.startswith("peak-kb ")]
    assert proc.returncode == 0 and peak, proc.stderr[-3000:]
    return proc.stdout, int(peak[-1].split()[1]) * 1024.0


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads VmHWM from /proc")
def test_a_20_mb_result_is_printed_whole_within_3x_its_size() -> None:
    out, big = call("big_result")
    _, small = call("small_result")
    result = json.loads(out)
    assert len(result["content"][0]["text"]) > 19_000_000
    assert big - small < 3.2 * len(out), f"{(big - small) / len(out):.2f}x the printed size"


@pytest.mark.parametrize("long", [1, 7, 64])
def test_pieces_join_into_the_whole_text(monkeypatch: pytest.MonkeyPatch, long: int) -> None:
    monkeypatch.setattr(visible, "LONG_STRING", long)  # every string here is "long": sliced mid-way
    value = {
        "text": 'naïve \u202eevil\u202c \r\n 日本 \x1b[31m "quoted" \\ tab\t' * 3,
        "list": ["short", "x" * 100, {"k": "\u200bzero width"}, 1, None, True, 2.5],
        "tuple": ("a", "b"),
    }
    assert "".join(json_visible_pieces(value, indent=2)) == json_visible(value, indent=2)
