"""Long records: a 1 GB / 1,000,000-message traffic record opened in the real viewer, beside today's load.

A generator writes a realistic record once into a temp folder (requests, tool results with a few KB of
content, notifications, stderr; spliced lines as the recorder and the tap write them) and reuses it.
Every figure is measured in a fresh process (peak resident memory is that process's VmHWM):

- today: `jsonl.load` of the 656 MB / 300,000-message record (the whole file into a `TrafficStore`;
  its first rows show only after it), and a filter over the loaded store. Loading the 1 GB record that
  way took 18.2 s and 1.4 GB here (2026-11-24), so it is measured only with ``--load-big``.
- ours: File › Open session's `ViewerWindow.open` (offscreen Qt, real `TrafficView`): time until the
  first rows are in the table, until the record is fully indexed, a filter on the method (kind
  request + text ``tools/call``) and a rare free-text word, and the event loop's longest stall.
- live: the same viewer follows the record while another process appends 100,000 messages to it
  (one write per message, as the tap does): how far behind the viewer is when the writer stops.

``python tests/bench/bench_records.py [--messages N] [--quick] [--load-big]`` prints the table on its own
(``--messages`` sets the big record's size; the "today" record has 30 % as many, twice as big, messages).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT, Row, quick

TARGET_FIRST_S, TARGET_INDEX_S, TARGET_FILTER_S, TARGET_RSS_MB = 1.0, 10.0, 2.0, 400.0
RARE_WORD = "quokka"
BODY_1GB, BODY_656MB = 3000, 8950
FOLDER = Path(os.environ.get("MCP_LENS_BENCH_RECORDS") or Path(tempfile.gettempdir()) / "mcp-lens-bench-records")

_PHRASE = (
    "the server returned a list of results for the query and every item carries a title a score and a "
    "snippet of text long enough to look like a real search result with punctuation, numbers 12345 and "
    'unicode — naïve café résumé 東京 and some JSON-looking text like {"a": [1, 2, 3]} inside a string'
)
_WORDS = _PHRASE.split()


def _text(n: int, size: int) -> str:
    words = [_WORDS[(n * 7 + i * 13) % len(_WORDS)] for i in range(size // 6)]
    return " ".join(words)[:size]


def _spliced(raw: bytes, meta: str) -> bytes:
    return b'{"msg":' + raw + b"," + meta.encode() + f',"len":{len(raw)}}}\n'.encode()


def generate(path: Path, messages: int, body: int = BODY_1GB) -> None:
    """Write a record of `messages` entries, as `jsonl.encode_entry` lays them out. Two tool results in ten
    carry about `body` bytes of text: 3,000 makes about 1 KB a message, 8,950 about 2.2 KB (the issue's
    656 MB / 300,000 record)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    wall, mono, seq, rpc = 1_790_000_000.0, 1000.0, 0, 0
    bodies = [_text(n, body + (n % 7) * 150) for n in range(64)]
    with open(tmp, "wb") as out:
        out.write(json.dumps({"format": "mcp-lens-traffic", "version": 1, "meta": {"server": "bench"}}).encode())
        out.write(b"\n")
        lines: list[bytes] = []
        while seq < messages:
            step = seq // 10
            # Three exchanges, three notifications and one stderr line per ten messages.
            for method in ("tools/call", "tools/call" if step % 3 else "resources/read", "tools/list"):
                rpc += 1
                seq += 1
                wall += 0.004
                mono += 0.004
                params = {"name": f"search_{rpc % 17}", "arguments": {"query": _text(rpc, 120)}}
                request = json.dumps({"jsonrpc": "2.0", "id": rpc, "method": method, "params": params})
                meta = (
                    f'"seq":{seq},"wall":{wall!r},"mono":{mono!r},"dir":"out","transport":"stdio",'
                    f'"kind":"request","id":{rpc},"method":"{method}"'
                )
                lines.append(_spliced(request.encode(), meta))
                request_seq = seq
                seq += 1
                wall += 0.02
                mono += 0.02
                if method == "tools/list":
                    result = {"tools": [{"name": f"search_{n}", "inputSchema": {"type": "object"}} for n in range(5)]}
                else:
                    text = bodies[rpc % len(bodies)]
                    if rpc % 997 == 0:
                        text = f"{text} a {RARE_WORD} appears"
                    result = {"content": [{"type": "text", "text": text}], "isError": rpc % 101 == 0}
                response = json.dumps({"jsonrpc": "2.0", "id": rpc, "result": result}, ensure_ascii=False)
                meta = (
                    f'"seq":{seq},"wall":{wall!r},"mono":{mono!r},"dir":"in","transport":"stdio",'
                    f'"kind":"response","id":{rpc},"method":"{method}","peer":{request_seq},"latency_ms":20.0'
                    + (',"tool_error":true' if rpc % 101 == 0 and method != "tools/list" else "")
                )
                lines.append(_spliced(response.encode(), meta))
            for n in range(3):
                seq += 1
                note = {"progressToken": rpc, "progress": n, "message": _text(seq, 80)}
                notification = json.dumps({"jsonrpc": "2.0", "method": "notifications/progress", "params": note})
                meta = (
                    f'"seq":{seq},"wall":{wall!r},"mono":{mono!r},"dir":"in","transport":"stdio",'
                    f'"kind":"notification","method":"notifications/progress"'
                )
                lines.append(_spliced(notification.encode(), meta))
            seq += 1
            stderr = {
                "seq": seq,
                "wall": wall,
                "mono": mono,
                "dir": "in",
                "transport": "stdio",
                "kind": "stderr",
                "raw": f'INFO worker {seq % 4}: handled "{_text(seq, 60)}"',
            }
            lines.append(json.dumps(stderr, ensure_ascii=False, separators=(",", ":")).encode() + b"\n")
            if len(lines) >= 10_000:
                out.writelines(lines)
                lines.clear()
        out.writelines(lines)
    os.replace(tmp, path)


def record(messages: int, body: int = BODY_1GB) -> Path:
    path = FOLDER / f"record-{messages}-{body}.jsonl"
    if not path.exists():
        started = time.perf_counter()
        generate(path, messages, body)
        print(
            f"[generated {path} ({path.stat().st_size / 1e6:,.0f} MB) in {time.perf_counter() - started:.1f} s]",
            file=sys.stderr,
        )
    return path


def append_messages(path: Path, first_seq: int, count: int) -> None:
    """Append `count` messages, one `os.write` each (as the tap records)."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND)
    try:
        for n in range(count):
            seq = first_seq + n
            raw = json.dumps({"jsonrpc": "2.0", "method": "notifications/message", "params": {"data": _text(n, 200)}})
            meta = (
                f'"seq":{seq},"wall":{time.time()!r},"mono":{time.monotonic()!r},"dir":"in","transport":"stdio",'
                f'"kind":"notification","method":"notifications/message"'
            )
            os.write(fd, _spliced(raw.encode(), meta))
    finally:
        os.close(fd)


# -- measured in child processes ---------------------------------------------------------------------
def peak_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024.0
    return float("nan")


def child_load(path: Path) -> dict[str, float]:
    from inspector.traffic import jsonl
    from inspector.traffic.entry import Kind
    from inspector.traffic.filter import TrafficFilter
    from inspector.traffic.visible import VisibleRows

    started = time.perf_counter()
    store, _ = jsonl.load(path)
    loaded = time.perf_counter() - started
    rows = VisibleRows(store)
    started = time.perf_counter()
    rows.set_filter(TrafficFilter(text="tools/call", kinds=frozenset({Kind.REQUEST})))
    method_s = time.perf_counter() - started
    started = time.perf_counter()
    rows.set_filter(TrafficFilter(text=RARE_WORD))
    text_s = time.perf_counter() - started
    return {"load_s": loaded, "method_s": method_s, "text_s": text_s, "rss_mb": peak_mb(), "entries": len(store)}


class _Stalls:
    """The longest lateness of a 10 ms timer: how long the event loop was busy at a stretch."""

    def __init__(self) -> None:
        from PySide6.QtCore import Qt, QTimer

        self.worst = 0.0
        self._last = time.perf_counter()
        self._timer = QTimer()
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.timeout.connect(self._tick)
        self._timer.start(10)

    def _tick(self) -> None:
        now = time.perf_counter()
        self.worst = max(self.worst, (now - self._last) * 1000.0 - 10.0)
        self._last = now


def _wait(app, check, timeout: float) -> bool:  # app: the QApplication
    deadline = time.perf_counter() + timeout
    while not check():
        if time.perf_counter() > deadline:
            return False
        app.processEvents()
        time.sleep(0.001)
    return True


def child_viewer(path: Path, live: int) -> dict[str, float]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from inspector.traffic.entry import Kind
    from inspector.traffic.filter import TrafficFilter
    from inspector.ui.traffic.viewer_window import ViewerWindow

    app = QApplication.instance() or QApplication([])
    result: dict[str, float] = {}
    started = time.perf_counter()
    window = ViewerWindow.open(path)
    assert window is not None
    model = window.view.model
    _wait(app, lambda: model.rowCount() > 0, 30)
    app.processEvents()
    result["first_s"] = time.perf_counter() - started
    stalls = _Stalls()
    _wait(app, lambda: window.caught_up, 600)
    model.flush()
    result["index_s"] = time.perf_counter() - started
    result["stall_ms"] = stalls.worst
    result["entries"] = len(window.store)
    started = time.perf_counter()
    model.set_filter(TrafficFilter(text="tools/call", kinds=frozenset({Kind.REQUEST})))
    result["method_s"] = time.perf_counter() - started
    result["method_rows"] = model.rowCount()
    started = time.perf_counter()
    model.set_filter(TrafficFilter(text=RARE_WORD))
    result["text_s"] = time.perf_counter() - started
    result["text_rows"] = model.rowCount()
    model.set_filter(TrafficFilter())
    app.processEvents()
    result["rss_mb"] = peak_mb()
    if live:
        size = path.stat().st_size
        first = len(window.store) + 10_000_000
        writer = subprocess.Popen([sys.executable, __file__, "--child", "append", str(path), str(first), str(live)])
        stalls.worst = 0.0
        try:
            started = time.perf_counter()
            _wait(app, lambda: writer.poll() is not None, 600)
            result["write_s"] = time.perf_counter() - started
            stopped = time.perf_counter()
            total = result["entries"] + live
            _wait(app, lambda: len(window.store) >= total and model.rowCount() >= total, 120)
            result["lag_s"] = time.perf_counter() - stopped
            result["live_stall_ms"] = stalls.worst
            result["live_entries"] = model.rowCount()
            started = time.perf_counter()
            model.set_filter(TrafficFilter(text=RARE_WORD))
            result["live_text_s"] = time.perf_counter() - started
            result["live_rss_mb"] = peak_mb()
        finally:
            writer.wait()
            window.close()
            os.truncate(path, size)  # the cached record stays as generated
    return result


def _child(*args: str) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, __file__, "--child", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )
    if out.returncode != 0:
        raise RuntimeError(f"bench child {args[0]} failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def _messages(default: int) -> int:
    argv = sys.argv[1:]
    if "--messages" in argv:
        return int(argv[argv.index("--messages") + 1].replace("_", ""))
    return 50_000 if quick() else default


def run() -> list[Row]:
    big_n = _messages(1_000_000)
    small_n = max(1000, big_n * 3 // 10)
    live_n = max(1000, big_n // 10)
    big, small = record(big_n), record(small_n, BODY_656MB)
    big_mb, small_mb = big.stat().st_size / 1e6, small.stat().st_size / 1e6
    today = _child("load", str(small))
    today_big = _child("load", str(big)) if "--load-big" in sys.argv else None
    ours_small = _child("viewer", str(small), "0")
    ours = _child("viewer", str(big), str(live_n))
    b, s = f"{big_mb:,.0f} MB/{big_n:,}", f"{small_mb:,.0f} MB/{small_n:,}"
    rows = [
        Row(f"today: jsonl.load {s} (first rows after it)", today["load_s"], "s"),
        Row(f"today: peak RSS, load {s}", today["rss_mb"], "MB"),
        Row(f"today: filter method {s}", today["method_s"], "s"),
        Row(f"today: filter free text {s}", today["text_s"], "s"),
    ]
    if today_big is not None:
        rows += [
            Row(f"today: jsonl.load {b}", today_big["load_s"], "s"),
            Row(f"today: peak RSS, load {b}", today_big["rss_mb"], "MB"),
        ]
    rows += [
        Row(
            f"indexed: first rows {s}",
            ours_small["first_s"],
            "s",
            today["load_s"],
            None,
            "< 1 s",
            ours_small["first_s"] < TARGET_FIRST_S,
        ),
        Row(
            f"indexed: fully indexed {s}",
            ours_small["index_s"],
            "s",
            today["load_s"],
            None,
            "< 10 s",
            ours_small["index_s"] < TARGET_INDEX_S,
        ),
        Row(
            f"indexed: filter method {s}",
            ours_small["method_s"],
            "s",
            today["method_s"],
            None,
            "< 2 s",
            ours_small["method_s"] < TARGET_FILTER_S,
        ),
        Row(
            f"indexed: filter free text {s}",
            ours_small["text_s"],
            "s",
            today["text_s"],
            None,
            "< 2 s",
            ours_small["text_s"] < TARGET_FILTER_S,
        ),
        Row(
            f"indexed: peak RSS {s}",
            ours_small["rss_mb"],
            "MB",
            today["rss_mb"],
            None,
            "< 400 MB",
            ours_small["rss_mb"] < TARGET_RSS_MB,
        ),
        Row(f"indexed: first rows {b}", ours["first_s"], "s", None, None, "< 1 s", ours["first_s"] < TARGET_FIRST_S),
        Row(
            f"indexed: fully indexed {b}", ours["index_s"], "s", None, None, "< 10 s", ours["index_s"] < TARGET_INDEX_S
        ),
        Row(f"indexed: UI stall while indexing {b}", ours["stall_ms"], "ms"),
        Row(
            f"indexed: filter method {b} ({ours['method_rows']:,.0f} rows)",
            ours["method_s"],
            "s",
            None,
            None,
            "< 2 s",
            ours["method_s"] < TARGET_FILTER_S,
        ),
        Row(
            f"indexed: filter free text {b} ({ours['text_rows']:,.0f} rows)",
            ours["text_s"],
            "s",
            None,
            None,
            "< 2 s",
            ours["text_s"] < TARGET_FILTER_S,
        ),
        Row(f"indexed: peak RSS {b}", ours["rss_mb"], "MB", None, None, "< 400 MB", ours["rss_mb"] < TARGET_RSS_MB),
        Row(f"live: writer appends {live_n:,} msgs", ours["write_s"], "s"),
        Row(
            "live: viewer behind when the writer stops",
            ours["lag_s"],
            "s",
            None,
            None,
            "< 1 s",
            ours["lag_s"] < TARGET_FIRST_S,
        ),
        Row("live: UI stall while following", ours["live_stall_ms"], "ms"),
        Row(
            f"live: filter free text ({ours['live_entries']:,.0f} entries)",
            ours["live_text_s"],
            "s",
            None,
            None,
            "< 2 s",
            ours["live_text_s"] < TARGET_FILTER_S,
        ),
        Row("live: peak RSS", ours["live_rss_mb"], "MB", None, None, "< 400 MB", ours["live_rss_mb"] < TARGET_RSS_MB),
    ]
    return rows


def _child_main(argv: list[str]) -> None:
    mode, path = argv[0], Path(argv[1])
    sys.path.insert(0, str(ROOT))
    if mode == "load":
        print(json.dumps(child_load(path)))
    elif mode == "viewer":
        print(json.dumps(child_viewer(path, int(argv[2]))))
    elif mode == "append":
        append_messages(path, int(argv[2]), int(argv[3]))


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    if sys.argv[1:2] == ["--child"]:
        _child_main(sys.argv[2:])
    else:
        from run import print_table

        print_table(run())
