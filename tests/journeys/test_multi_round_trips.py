"""Multi round-trip requests as a user meets them: order_coffee from the Tools tab asks through the same
dialogs in both eras; modern rounds are grouped in the traffic log, and History re-runs the exchange."""

from __future__ import annotations

import sys

from journey_support import shown_text
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QCheckBox, QDialog, QPlainTextEdit
from test_servers import choose, current_server, dialog, type_here

from inspector.ui.traffic.model import COLUMNS

TITLE = "round {} of tools/call order_coffee"


def request_dialog(lens, title: str) -> QDialog:
    """The visible server-request dialog with this window title."""
    found: list[QDialog] = []

    def present() -> bool:
        found[:] = [w for w in lens.widgets(QDialog) if w.windowTitle().startswith(title)]
        return bool(found)

    lens.wait(present, what=f"the {title} dialog opens (status: {lens.status()})")
    return found[0]


def order(lens, *, pastry: bool) -> None:
    lens.click_item("Tool list", "order_coffee")
    lens.type("drink", "latte")
    if pastry:
        box = lens.find("suggest_pastry", QCheckBox)
        box.setFocus()
        for _ in range(3):  # not set → false → true, with the space bar as a keyboard user would
            if box.text() == "true":
                break
            lens.key("Space", box)
        assert box.text() == "true"
    lens.click("Call  (Ctrl+Enter)")


def answer_form(lens, name: str) -> None:
    box = request_dialog(lens, "Elicitation request")
    assert "How would you like your latte?" in lens.texts()
    lens.type(lens.find("name", top=box), name)
    lens.click(lens.find("Accept and send  (Ctrl+Enter)", top=box))
    lens.wait(lambda: not box.isVisible(), what="the form closes")


def answer_sampling(lens, text: str) -> None:
    box = request_dialog(lens, "Sampling request")
    reply = next(w for w in lens.widgets(QPlainTextEdit, top=box) if not w.isReadOnly())
    lens.type(reply, text)
    lens.click(lens.find("Approve and send  (Ctrl+Enter)", top=box))
    lens.wait(lambda: not box.isVisible(), what="the sampling dialog closes")


def test_order_coffee_in_the_modern_era_goes_round_trip_through_the_dialogs(lens) -> None:
    lens.start()
    lens.wait(lambda: "modern 2026-07-28" in lens.status(), what="modern era")
    order(lens, pastry=True)
    lens.wait_text("waiting for your answer (round 2)")
    answer_form(lens, "Ada")
    answer_sampling(lens, "Almond croissant")
    lens.wait_text("Almond croissant")
    assert lens.shows("Ada")

    calls = lens.sent("tools/call")
    assert len(calls) == 2 and calls[0]["id"] != calls[1]["id"]
    retry = calls[1]["params"]
    assert retry["inputResponses"] and retry["requestState"]
    assert [v["action"] for v in retry["inputResponses"].values() if "action" in v] == ["accept"]
    grouped = [e for e in lens.wire() if e.group is not None]
    assert [e.round_title for e in grouped] == [TITLE.format(1)] * 2 + [TITLE.format(2)] * 2

    lens.tab("Traffic")
    log = lens.find("Traffic log", QAbstractItemView)
    lens.wait(lambda: TITLE.format(2) in lens.texts(), what="the traffic log names the rounds")
    lens.click_item(log, TITLE.format(2))
    method = COLUMNS.index("Method")
    row = next(r for r in range(log.model().rowCount()) if TITLE.format(2) in str(log.model().index(r, method).data()))
    tip = str(log.model().index(row, method).data(Qt.ItemDataRole.ToolTipRole))
    assert "requestState: opaque server state" in tip and "echoed back exactly" in tip, tip
    notes = lens.find("Entry notes")
    lens.wait(lambda: "Round 2 of tools/call order_coffee" in shown_text(notes), what="the detail names the round")
    assert "requestState: opaque server state" in shown_text(notes), shown_text(notes)

    # History re-runs the whole exchange: the server asks again, the same dialogs answer it.
    lens.tab("History")
    lens.click_item("Call history", "order_coffee")
    lens.tab("History")  # selecting a call shows its result: come back for the buttons
    lens.click("Re-run")
    answer_form(lens, "Grace")
    answer_sampling(lens, "Scone")
    lens.wait_text("Scone")
    assert len(lens.sent("tools/call")) == 4
    lens.tab("History")
    history = lens.find("Call history", QAbstractItemView).model()
    outcomes = [history.index(row, 4).data() for row in range(history.rowCount())]
    assert outcomes == ["ok (2 rounds)", "ok (2 rounds)"], outcomes

    # ... or with the answers given last time: no dialog opens, the server gets them again.
    lens.click_item("Call history", "order_coffee")
    lens.tab("History")
    lens.click("Re-run with the same answers")
    lens.wait(lambda: len(lens.sent("tools/call")) == 6, what="the replayed exchange's two rounds")
    lens.wait_text("Scone")
    assert not [w for w in lens.widgets(QDialog) if w.windowTitle().startswith(("Elicitation", "Sampling"))]
    assert (
        lens.sent("tools/call")[-1]["params"]["inputResponses"]
        == lens.sent("tools/call")[3]["params"]["inputResponses"]
    )
    assert lens.quit() == 0


def test_order_coffee_in_the_legacy_era_asks_during_the_call(lens) -> None:
    lens.start()
    lens.click("Add server")
    box = dialog(lens, "Add Server")
    lens.type(lens.find("Name", top=box), "demo legacy")
    lens.type(lens.find("Command", top=box), sys.executable)
    for arg in ("-m", "inspector.demo"):
        lens.click(lens.find("Add argument", top=box))
        type_here(box, arg)
    choose(lens, "Protocol era", "Legacy (initialize, up to 2025-11-25)", top=box)
    lens.click(lens.find("OK", top=box))
    lens.wait(lambda: not box.isVisible(), what="the Add Server dialog closes")
    lens.click_item("Servers", "demo legacy", double=True)
    lens.wait(lambda: current_server(lens) == "demo legacy" and lens.sent("initialize"), what="legacy connection")
    lens.wait(lambda: "legacy 2025-11-25" in lens.status(), what="legacy era")
    order(lens, pastry=False)
    answer_form(lens, "Ada")
    lens.wait_text('"name": "Ada"')
    calls = [c for c in lens.sent("tools/call") if c["params"]["name"] == "order_coffee"]
    assert len(calls) == 1 and "inputResponses" not in calls[0]["params"]
    assert [e for e in lens.wire() if e.method == "elicitation/create"]
    assert not [e for e in lens.wire() if e.group is not None]
    assert lens.quit() == 0


def test_cancelling_the_call_while_the_form_is_open_withdraws_it(lens) -> None:
    lens.start()
    lens.wait(lambda: "modern 2026-07-28" in lens.status(), what="modern era")
    order(lens, pastry=False)
    box = request_dialog(lens, "Elicitation request")
    lens.click(lens.find("Cancel", top=lens.window))  # the call's Cancel, in the Tools tab
    lens.wait(lambda: "The server withdrew this request" in lens.texts(), what="the form says it was withdrawn")
    lens.wait_text("cancelled")
    assert len(lens.sent("tools/call")) == 1, "no second round after a cancel"
    box.close()
    assert lens.quit() == 0
