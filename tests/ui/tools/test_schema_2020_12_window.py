"""A 2020-12 tool in the real window (issue 13 point 7): the form shows the suite's focal schema with its
`$defs` reference resolved and its rules named; a remote `$ref` is shown unresolved and never fetched; the
traffic log's JSON tab shows the schema with the server's keys in its order; a schema pasted into the echo
tool's JSON tab, and the re-send of that call from the traffic log, reach the server unchanged."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QDialogButtonBox, QLabel
from ui_support import connect

from inspector.config.profile import ServerProfile
from inspector.traffic.entry import Direction
from inspector.ui.main_window import MainWindow
from tests.schema.schema_server import FOCAL
from tests.schema.schema_support import SCHEMA_SERVER, canary, key_order

FOCAL_SCHEMA = json.loads(FOCAL)


def _profile(**env: str) -> ServerProfile:
    return ServerProfile(
        name="Schema 2020-12", transport="stdio", command=SCHEMA_SERVER[0], args=SCHEMA_SERVER[1:], env=env
    )


def _labels(widget: Any, name: str) -> list[str]:
    return [label.text() for label in widget.findChildren(QLabel) if label.objectName() == name]


def _calls(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def test_focal_schema_form_json_tab_and_resend(qtbot, window: MainWindow, tmp_path: Path) -> None:
    calls = tmp_path / "calls.jsonl"
    with canary() as trap:
        connect(qtbot, window, _profile(CANARY_URL=trap.url, SCHEMA_CALLS=str(calls)))
        bench = window.workbench

        # The form: properties shown, address from $defs, the rules the validator checks named.
        assert bench.tools.select("json_schema_2020_12_tool")
        form = bench.form
        qtbot.waitUntil(lambda: form.model.checked, timeout=5000)
        assert form.fallback_note() is None
        rules = _labels(form, "formConstraintsNote")
        assert rules and "if/then/else" in rules[0] and "anyOf" in rules[0]
        address = form.model.root.property("address")
        assert address is not None and [p.name for p in address.properties()] == ["street", "city"]
        issues = form.validate()  # nothing filled: anyOf wants phone or email, else wants email
        assert {i.keyword for i in issues} == {"required"} and ("email",) in {i.path for i in issues}

        # A remote $ref: edited as JSON with the reason; validation says it was not checked; no fetch.
        assert bench.tools.select("lookup_user")
        notes = _labels(bench.form, "fallbackNote")
        assert notes == [f"Edited as JSON: remote $ref {trap.url!r} is not fetched"]
        bench.form.set_arguments({"id": "ada", "profile": {"displayName": "Ada"}})
        issues = bench.form.validate()
        assert [(i.path, i.keyword) for i in issues] == [(("profile",), "$ref")]
        assert trap.hits == []

        # The traffic log's JSON tab: the listed schema with the server's keys in its order.
        response = next(e for e in window.store if e.direction is Direction.IN and b"json_schema_echo" in e.raw)
        assert window.traffic.select_seq(response.seq)
        window.traffic.detail.tabs.setCurrentIndex(0)
        shown = json.loads(window.traffic.detail.json_view.edit.toPlainText())
        assert key_order(shown) == key_order(json.loads(response.raw))
        assert key_order(shown["result"]["tools"][0]["inputSchema"]) == key_order(FOCAL_SCHEMA)

        # Paste the focal schema into the echo tool's JSON tab and call: the server gets it unchanged.
        assert bench.tools.select("json_schema_echo")
        bench.form.tabs.setCurrentIndex(1)
        bench.form.json_edit.setFocus()
        bench.form.json_edit.setPlainText(json.dumps({"schema": FOCAL_SCHEMA}, indent=2))
        bench.form.tabs.setCurrentIndex(0)
        bench.call_button.click()
        qtbot.waitUntil(lambda: len(_calls(calls)) == 1, timeout=10000)
        assert key_order(_calls(calls)[0]["params"]["arguments"]["schema"]) == key_order(FOCAL_SCHEMA)

        # Re-send that call from the traffic log: the same arguments, byte for byte.
        sent = next(e for e in window.store if e.direction is Direction.OUT and e.method == "tools/call")
        assert window.traffic.select_seq(sent.seq)
        dialog = window.traffic.resend_selected()
        assert dialog is not None
        dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
        qtbot.waitUntil(lambda: len(_calls(calls)) == 2, timeout=10000)
        first, again = (json.dumps(c["params"]["arguments"]) for c in _calls(calls))
        assert again == first
        assert trap.hits == []
