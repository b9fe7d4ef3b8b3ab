"""`mcp-lens --cli … | head -c 10`: the reader stops reading and the pipe breaks. The command ends quietly
(exit 0, nothing on stderr) instead of a Traceback ending in BrokenPipeError."""

from __future__ import annotations

import subprocess
import sys

from lens_support import REPO

BIG = REPO / "tests/servers/big.py"


def test_a_reader_that_stops_early_gets_no_traceback() -> None:
    command = [sys.executable, "-m", "inspector", "--cli", sys.executable, str(BIG), "tools", "3000", "0"]
    command += ["--method", "tools/list"]
    process = subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.read(10)
    process.stdout.close()  # as `head -c 10` does
    err = process.stderr.read().decode(errors="replace")
    code = process.wait(timeout=300)
    assert "Traceback" not in err and "BrokenPipe" not in err, err[-2000:]
    assert code == 0, (code, err[-2000:])
