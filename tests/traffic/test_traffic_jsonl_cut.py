"""Re-opening records a writer left cut off."""

from __future__ import annotations

from factories import exchange

from inspector.traffic import jsonl


def test_a_record_cut_mid_line_opens_with_its_whole_lines(tmp_path) -> None:
    """A writer killed in the middle of a line (a tap under SIGKILL) leaves a record that still opens."""
    store = exchange("ping")
    path = tmp_path / "cut.jsonl"
    jsonl.save(path, store)
    whole = path.read_bytes()
    path.write_bytes(whole[: whole.rindex(b"\n", 0, len(whole) - 1) + 1] + whole.splitlines(keepends=True)[-1][:20])
    reopened, _meta, bad = jsonl.read(path)
    assert [e.raw for e in reopened if e.transport != jsonl.BAD_LINE_TRANSPORT] == [store[0].raw]
    assert [(line.number, line.cut) for line in bad] == [(3, True)]  # said, and its bytes kept
