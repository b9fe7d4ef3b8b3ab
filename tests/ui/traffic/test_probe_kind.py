"""The traffic log's Kind filter offers MCP Lens's own probes; "Errors only" leaves a refused probe out and
the Kind column says what each probe was for."""

from __future__ import annotations

import pytest
from factories import request, response
from PySide6.QtCore import Qt

from inspector.traffic.entry import ERA_PROBE
from inspector.traffic.store import TrafficStore
from inspector.ui.traffic.filter_bar import PROBE_ITEM
from inspector.ui.traffic.model import COL_KIND
from inspector.ui.traffic.view import TrafficView


@pytest.fixture
def view(qtbot) -> TrafficView:
    store = TrafficStore()
    view = TrafficView(store)
    with store.probing("server/discover", ERA_PROBE):
        request(store, 1, "server/discover")
    response(store, 1, error={"code": -32601, "message": "no"})
    request(store, 2, "tools/call")
    response(store, 2, error={"code": -32602, "message": "bad"})
    qtbot.addWidget(view)
    view.resize(1200, 500)
    view.show()
    qtbot.waitExposed(view)
    qtbot.waitUntil(lambda: view.model.total() == len(store), timeout=5000)
    return view


def kinds(view: TrafficView) -> list[str]:
    return [view.model.index(row, COL_KIND).data() for row in range(view.model.rowCount())]


def test_kind_filter_shows_probes_and_errors_only_leaves_them_out(qtbot, view: TrafficView) -> None:
    # a probe's Kind cell is its name (the arrow says request or answer); its tooltip says the kind
    assert kinds(view) == ["era probe", "era probe", "request", "error"]
    tips = [view.model.index(row, COL_KIND).data(Qt.ItemDataRole.ToolTipRole) for row in range(2)]
    assert "era probe request" in tips[0] and "era probe error" in tips[1], tips
    view.errors_check.click()  # as the user ticks it
    qtbot.waitUntil(lambda: view.model.rowCount() == 1, timeout=5000)
    assert kinds(view) == ["error"]
    view.errors_check.click()
    combo = view.kind_combo
    combo.setFocus()
    qtbot.keyClick(combo, Qt.Key.Key_End)  # the last item: probes
    assert combo.currentText() == PROBE_ITEM == "probe (MCP Lens's own)"
    qtbot.waitUntil(lambda: view.model.rowCount() == 2, timeout=5000)
    assert kinds(view) == ["era probe", "era probe"]
