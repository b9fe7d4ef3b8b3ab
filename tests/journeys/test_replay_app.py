"""Replay in the app (issue 27 points 3, 5, 6): a session a real client had with the demo through
`mcp-lens tap` is opened from File › Tapped sessions, **Open as mock server** adds it to the workspace and
the Tools tab's echo gets the recorded answer from it; **Run against…** a changed demo build lists the one
changed answer and shows the recorded and the new answer side by side; File › Compare sessions… lines two
records up."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from journey_support import really_visible
from lens_support import DEMO, REPO, lens_env, run_lens
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QComboBox,
    QListWidget,
    QMenu,
    QPlainTextEdit,
    QStyle,
    QTableView,
    QWidget,
)
from test_tapped_sessions import rows, sessions_window, sidebar_entries, viewer_for
from test_traffic import choose_file

CHANGED_DEMO = [sys.executable, str(REPO / "tests/servers/changed_demo.py")]

# A client session through the tap: the SDK's client lists the tools and calls echo "hello".
CLIENT = """
import os, sys, anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

async def main():
    params = StdioServerParameters(command=sys.argv[1], args=sys.argv[2:], env=dict(os.environ))
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        await session.list_tools()
        await session.call_tool("echo", {"message": "hello"})

anyio.run(main)
"""


def tap_a_client_session(home: Path, name: str = "demo", server: list[str] = DEMO) -> Path:
    """Run a real client against `server` through `mcp-lens tap`; the tap's record in the app's folder."""
    folder = home / ".local/share"
    tap = [sys.executable, "-m", "inspector", "tap", "--name", name, "--", *server]
    env = lens_env(XDG_DATA_HOME=str(folder))
    done = subprocess.run([sys.executable, "-c", CLIENT, *tap], env=env, cwd=REPO, capture_output=True, timeout=180)
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    (record,) = (folder / "mcp-lens/taps").glob(f"*-{name}-*.jsonl")
    return record


def answers(lens: Any) -> list[Any]:
    """Every JSON-RPC result the servers sent (the wire's parsed messages)."""
    parsed = [entry.parsed() for entry in lens.wire() if entry.direction == "in"]
    return [m["result"] for m in parsed if isinstance(m, dict) and isinstance(m.get("result"), dict)]


def echoed(lens: Any, text: str) -> bool:
    return any(result.get("content") == [{"type": "text", "text": text}] for result in answers(lens))


def test_a_tapped_session_opened_as_mock_server_answers_a_tool_call_as_recorded(lens) -> None:
    record = tap_a_client_session(lens.home)
    lens.start()
    window = sessions_window(lens)
    table = lens.find("Tapped sessions", QAbstractItemView)
    lens.wait(lambda: rows(table) == 1, timeout=30_000, what="the tapped session listed")
    lens.click_item(table, "demo")
    lens.click(lens.find("Open as mock server", top=window))
    servers = lens.find("Servers", QAbstractItemView)
    lens.wait(lambda: "demo (mock), connected" in sidebar_entries(servers), timeout=60_000, what="the mock connected")
    lens.click_item(servers, "demo (mock)")
    assert lens.window.session.profile.args[-2:] == ["replay", str(record)]  # our own command, an argument list
    window.close()
    lens.tab("Tools")
    lens.click_item("Tool list", "Echo", timeout=30_000)
    lens.type("message", "hello")
    lens.click("Call  (Ctrl+Enter)")
    lens.wait_text("Result of echo", timeout=30_000)
    lens.wait(lambda: echoed(lens, "hello"), timeout=30_000, what="the recorded answer on the wire")
    lens.wait_text("plain text · 5 characters", timeout=30_000)
    assert lens.quit() == 0


def test_a_tapped_session_run_against_a_changed_build_shows_the_one_changed_answer(lens, tmp_path: Path) -> None:
    tap_a_client_session(lens.home)
    lens.start()
    window = sessions_window(lens)
    table = lens.find("Tapped sessions", QAbstractItemView)
    lens.wait(lambda: rows(table) == 1, timeout=30_000, what="the tapped session listed")
    lens.click_item(table, "demo")
    lens.click(lens.find("Open record", top=window))
    viewer = viewer_for(lens, "demo")
    lens.click(lens.find("Run against", top=viewer))
    run = lens.find("Requests and verdicts", QAbstractItemView).window()
    combo = lens.find("Run against", QComboBox, top=run)
    lens.click(combo)
    QTest.keyClick(combo, Qt.Key.Key_End)  # the last choice: a command or URL typed here
    QTest.keyClick(combo, Qt.Key.Key_Return)
    lens.wait(lambda: combo.currentText() == "A command or URL…", what="the typed target chosen")
    command = " ".join(["env", "DEMO_CHANGED_ECHO=1", *CHANGED_DEMO])
    lens.type(lens.find("Command or URL", top=run), command)
    lens.click(lens.find("Run the record", top=run))
    summary = lens.find("Run summary", top=run)
    lens.wait(lambda: "requests replayed" in summary.text(), timeout=120_000, what="the run's end")
    assert "1 different" in summary.text(), summary.text()
    verdicts = lens.find("Requests and verdicts", QAbstractItemView, top=run)
    model = verdicts.model()
    shown = [[model.index(r, c).data() for c in range(model.columnCount())] for r in range(model.rowCount())]
    different = [row for row in shown if row[2] == "different"]
    assert len(different) == 1 and different[0][1].startswith("tools/call"), shown
    changed = lens.find("Changed paths", QListWidget, top=run)
    lens.wait(lambda: changed.count() == 1, what="the changed path listed")
    assert changed.item(0).text() == '$.result.content[0].text: "hello" → "hello (changed)"'
    recorded = lens.find("Recorded answer", QPlainTextEdit, top=run)
    new = lens.find("New answer", QPlainTextEdit, top=run)
    assert really_visible(recorded) and really_visible(new)
    assert '"text": "hello"' in recorded.toPlainText() and '"text": "hello (changed)"' in new.toPlainText()
    assert [s.cursor.block().text().strip().rstrip(",") for s in new.extraSelections()] == ['"text": "hello (changed)"']

    # Save as collection: the run's requests as steps expecting the recorded answers, run by mcp-lens run.
    lens.click(lens.find("Save as collection…", top=run))
    saved = tmp_path / "regression.json"
    choose_file(lens, saved)
    lens.wait(lambda: "Saved" in summary.text(), what="the collection saved")
    assert "--protocol-era legacy" in summary.text()  # the record's era: the demo lists other tools in another
    steps = json.loads(saved.read_text())["steps"]
    assert [step["method"] for step in steps] == ["tools/list", "tools/call"], steps
    assert oct(saved.stat().st_mode & 0o777) == "0o600"
    same = run_lens("run", str(saved), "--protocol-era", "legacy", "--", *DEMO, timeout=120)
    assert same.returncode == 0, same.stdout + same.stderr
    changed_build = ["--protocol-era", "legacy", "--", *CHANGED_DEMO]
    changed = run_lens("run", str(saved), *changed_build, env={"DEMO_CHANGED_ECHO": "1"}, timeout=120)
    assert changed.returncode != 0 and "hello (changed)" in changed.stdout, changed.stdout + changed.stderr
    for widget in (run, viewer, window):
        widget.close()
    assert lens.quit() == 0


def test_compare_sessions_lines_two_records_up_by_request(lens, tmp_path: Path) -> None:
    before = tap_a_client_session(lens.home, "before")
    after = tap_a_client_session(lens.home, "after", ["env", "DEMO_CHANGED_ECHO=1", *CHANGED_DEMO])
    lens.start()
    lens.menu("File", "Compare sessions…")
    compare: QWidget = lens.find("Requests of both records", QAbstractItemView).window()
    lens.type(lens.find("Record A", top=compare), str(before))
    lens.type(lens.find("Record B", top=compare), str(after))
    lens.click(lens.find("Compare the records", top=compare))
    summary = lens.find("Comparison summary", top=compare)
    lens.wait(lambda: "requests lined up" in summary.text(), timeout=60_000, what="the comparison")
    assert "1 answered differently" in summary.text(), summary.text()
    changed = lens.find("Changed paths", QListWidget, top=compare)
    assert changed.count() == 1 and "hello (changed)" in changed.item(0).text()
    compare.close()
    assert lens.quit() == 0


def right_click_menu(lens: Any, view: QAbstractItemView, row: int, text: str) -> None:
    """Right-click `view`'s row `row` and click `text` in the context menu that opens (a menu the view runs
    in its own event loop: the click is made from a timer, once the menu shows)."""
    index = view.model().index(row, 0)
    lens.click_item(view, index.data())
    chosen: list[str] = []

    def choose() -> None:
        menu = QApplication.activePopupWidget()
        if not isinstance(menu, QMenu):
            QTimer.singleShot(50, choose)
            return
        chosen.extend(a.text() for a in menu.actions())
        action = next((a for a in menu.actions() if a.text() == text), None)
        if action is None:
            menu.close()
            return
        menu.setActiveAction(action)
        QTest.mouseClick(
            menu, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, menu.actionGeometry(action).center()
        )

    QTimer.singleShot(50, choose)
    pos = view.visualRect(index).center()
    QApplication.sendEvent(
        view.viewport(), QContextMenuEvent(QContextMenuEvent.Reason.Mouse, pos, view.viewport().mapToGlobal(pos))
    )
    assert text in chosen, chosen


def test_history_opened_as_mock_server_answers_a_call_as_recorded(lens) -> None:
    """History → Open as mock server: the server's calls served by `mcp-lens replay` from a record made of
    them; the same call gets the recorded result, one never made gets the mock's own error."""
    lens.start()
    name = lens.window.session.profile.name
    lens.click_item("Tool list", "Echo (echo)", timeout=30_000)
    lens.type("message", "from-history")
    lens.click("Call  (Ctrl+Enter)")
    lens.wait(lambda: lens.shows("✓ OK"), timeout=30_000, what="the call's result")
    lens.tab("History")
    history = lens.find("Call history", QAbstractItemView)
    lens.wait(lambda: history.model().rowCount() == 1, what="the call in History")
    right_click_menu(lens, history, 0, "Open as mock server")
    servers = lens.find("Servers", QAbstractItemView)
    mock = f"{name} History (mock)"
    lens.wait(lambda: f"{mock}, connected" in sidebar_entries(servers), timeout=60_000, what="the mock connected")
    lens.click_item(servers, mock)
    assert lens.window.session.profile.args[-2] == "replay"  # our own command, an argument list
    record = Path(lens.window.session.profile.args[-1])
    assert record.is_file() and oct(record.stat().st_mode & 0o777) == "0o600"
    lens.tab("Tools")
    lens.click_item("Tool list", "Echo (echo)", timeout=30_000)
    lens.type("message", "from-history")
    lens.click("Call  (Ctrl+Enter)")
    lens.wait(lambda: echoed(lens, "from-history") and lens.shows("✓ OK"), timeout=30_000, what="the recorded result")
    mock_answers = [e for e in lens.wire() if e.source == mock and e.direction == "in" and b"from-history" in e.raw]
    assert mock_answers, "the recorded result came from the mock"
    lens.type("message", "never-called")
    lens.click("Call  (Ctrl+Enter)")
    lens.wait(
        lambda: any(e.source == mock and b"no recorded answer to tools/call" in e.raw for e in lens.wire()),
        timeout=30_000,
        what="the mock's answer to a call History never made",
    )
    assert lens.quit() == 0


def test_run_against_offers_every_saved_server_and_shows_each_verdict_whole(lens, tmp_path: Path) -> None:
    """Outside tester of issue 21, finding 10: File › Open session…, Run against…: the Against list offered only
    the servers selected since the app started, not the saved ones (a record's own server among them); at
    1024×700 the Verdict column read "differ…" while Request took the width. Every saved server is offered, then
    "A command or URL…"; a saved server never opened runs, and each verdict reads whole."""
    from journey_support import strip_mnemonic
    from test_window_layout import at_size
    from test_workspace import save_servers

    from inspector.ui.replay.run_window import VERDICT_TEXT

    changed = {"command": sys.executable, "args": CHANGED_DEMO[1:], "env": {"DEMO_CHANGED_ECHO": "1"}}
    save_servers(lens, {"changed demo": changed, "never opened": changed})
    record = tmp_path / "demo.jsonl"
    call = ["--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=hello"]
    done = run_lens("--cli", "--record", str(record), *call, "--", *DEMO, timeout=120)
    assert done.returncode == 0, done.stderr
    lens.start()
    at_size(lens, 1024, 700)
    lens.menu("File", "Open session…")
    choose_file(lens, record)
    viewer = next(w for w in QApplication.topLevelWidgets() if w.isVisible() and record.name in w.windowTitle())
    lens.click(lens.find("Run against", top=viewer))
    run = lens.find("Requests and verdicts", QAbstractItemView).window()
    combo = lens.find("Run against", QComboBox, top=run)
    lens.click(combo)
    offered = [strip_mnemonic(combo.itemText(row)) for row in range(combo.count())]
    assert {"changed demo", "never opened"} <= set(offered), offered
    assert offered[-1] == "A command or URL…", offered
    for _ in range(offered.index("never opened") - combo.currentIndex()):
        QTest.keyClick(combo.view(), Qt.Key.Key_Down)
    QTest.keyClick(combo.view(), Qt.Key.Key_Return)
    lens.wait(lambda: combo.currentText() == "never opened", what="the saved server chosen")
    lens.click(lens.find("Run the record", top=run))
    summary = lens.find("Run summary", top=run)
    lens.wait(lambda: "requests replayed" in summary.text(), timeout=120_000, what="the run's end")
    table = lens.find("Requests and verdicts", QTableView, top=run)
    model, header = table.model(), table.horizontalHeader()
    lens.qtbot.wait(300)
    margin = 2 * (table.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, table) + 1)
    verdicts = [str(model.index(row, 2).data()) for row in range(model.rowCount())]
    assert VERDICT_TEXT["different"] in verdicts, verdicts
    cut = [
        f"{text!r} needs {table.fontMetrics().horizontalAdvance(text) + margin} px, has {header.sectionSize(2)}"
        for text in verdicts
        if header.sectionSize(2) < table.fontMetrics().horizontalAdvance(text) + margin
    ]
    assert not cut, cut
    for widget in (run, viewer):
        widget.close()
    assert lens.quit() == 0
