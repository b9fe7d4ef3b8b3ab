"""`mcp-lens diff` on a record an editor re-saved as UTF-16 (outside
tester of issue 21, finding 7: exit 2 "re-save it as UTF-8"): the record is read as UTF-16, compared whole with
its UTF-8 original, and its encoding is said once on stderr."""

from __future__ import annotations

from pathlib import Path

from factories import request, response
from lens_support import run_lens

from inspector.cli import exit_codes
from inspector.traffic import jsonl
from inspector.traffic.store import TrafficStore


def test_diff_reads_a_utf16_record_as_its_utf8_original_and_says_so_once(tmp_path: Path) -> None:
    store = TrafficStore()
    request(store, 0, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {}})
    response(store, 0, {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}, "serverInfo": {"name": "s"}})
    for n in range(1, 6):
        request(store, n, "tools/call", {"name": "echo", "arguments": {"message": f"café {n} ✓"}})
        response(store, n, {"content": [{"type": "text", "text": f"café {n} ✓"}]})
    utf8 = tmp_path / "utf8.jsonl"
    jsonl.save(utf8, store)
    wide = tmp_path / "wide.jsonl"
    wide.write_bytes(utf8.read_text(encoding="utf-8").encode("utf-16"))
    result = run_lens("diff", str(utf8), str(wide))
    assert result.returncode == exit_codes.OK, result.stdout + result.stderr
    assert result.stdout.count(": identical") == 6 and "the same" in result.stdout, result.stdout
    assert result.stderr.count("this record is UTF-16 LE") == 1, result.stderr
