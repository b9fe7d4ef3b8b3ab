"""``mcp-lens tokens`` on a tool list with a huge ``data:`` icon (issue 21: 32 s and 1.2 GB): the icon is
flagged (never decoded), it is counted exactly, and the process's memory stays near the payload."""

from __future__ import annotations

import json
import subprocess
import sys

from lens_support import REPO, posix_only

BIG = str(REPO / "tests/servers/big.py")
ICON_CHARS = 6_000_000
# Run the CLI in-process under a wrapper that prints its own peak RSS (the server is another process).
WRAPPER = """
import resource, sys
from inspector.__main__ import main
try:
    code = main(sys.argv[1:])
finally:
    sys.stderr.write("peak-kb %d\\n" % resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
sys.exit(code)
"""


def tokens(*server: str) -> tuple[subprocess.CompletedProcess[str], float]:
    argv = [sys.executable, "-c", WRAPPER, "tokens", "--format", "json", "--", sys.executable, BIG, *server]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=600, cwd=REPO, check=False)
    peak = [line for line in proc.stderr.splitlines() if line.startswith("peak-kb ")]
    assert proc.returncode == 0 and peak, proc.stderr[-3000:]
    return proc, int(peak[-1].split()[1]) / 1024.0


@posix_only("resource (the child's peak memory)")
def test_a_huge_icon_is_flagged_and_counted_without_a_copy_per_token() -> None:
    _, small_mb = tokens("small")
    big, big_mb = tokens("icon", str(ICON_CHARS))
    findings = [json.loads(line)["finding"] for line in big.stderr.splitlines() if line.startswith('{"finding"')]
    assert [(f["path"], f["severity"]) for f in findings] == [("$.tools[3].icons[0].src", "warning")]
    assert "not shown" in findings[0]["message"]
    report = json.loads(big.stdout)
    (counted,) = report["reports"]
    assert {t["name"] for t in counted["tools"]} == {"alpha", "beta", "gamma", "big_icon"}
    payload_mb = ICON_CHARS / 2**20
    # Before: the 6 MB icon's token list alone (4M Python ints) was ~150 MB, and the process grew by ~25x
    # the payload; generous bounds: the message, its parsed copy, the store's raw bytes, the counter.
    assert big_mb - small_mb < 12 * payload_mb, f"{big_mb:.0f} MB peak vs {small_mb:.0f} MB for a small list"
