"""The Anthropic counter in the pane: listed only with a key, sent only on the user's request.

A local HTTP server stands in for api.anthropic.com (ANTHROPIC_BASE_URL), answering count_tokens.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import pytest
from budget_ui_support import show_budget, wait_report
from ui_support import connect

from inspector.ui.budget.engine import ANTHROPIC, tokenizer_choices
from inspector.ui.main_window import MainWindow


class CountTokens(BaseHTTPRequestHandler):
    requests: ClassVar[list[dict]] = []
    key = "test-key"

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))))
        CountTokens.requests.append(body)
        if self.headers.get("x-api-key") != self.key:
            self._answer(401, {"type": "error", "error": {"type": "authentication_error", "message": "bad key"}})
            return
        self._answer(200, {"input_tokens": 8 + len(json.dumps(body)) // 4})

    def _answer(self, status: int, payload: dict) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def anthropic_api(monkeypatch: pytest.MonkeyPatch, tmp_path) -> Iterator[list[dict]]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), CountTokens)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    CountTokens.requests = []
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", f"http://127.0.0.1:{server.server_address[1]}")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    yield CountTokens.requests
    server.shutdown()
    server.server_close()


def test_not_offered_without_a_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    assert ANTHROPIC not in [name for name, _ in tokenizer_choices()]
    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    assert ANTHROPIC in [name for name, _ in tokenizer_choices()]


def test_counts_only_when_asked(qtbot, anthropic_api: list[dict], window: MainWindow) -> None:
    connect(qtbot, window)
    pane = window.budget
    show_budget(window)
    pane.pickers.set_shape("anthropic")
    wait_report(qtbot, pane)
    assert pane.pickers.set_tokenizer(ANTHROPIC)
    qtbot.wait(300)
    assert anthropic_api == []  # picking it sends nothing
    assert pane.count_button.isVisible()
    assert "press “Count with Anthropic”" in pane.totals.text()
    assert pane.report.tokenizer == "o200k_base"  # the last figures stay until the user asks

    pane.count_button.click()
    qtbot.waitUntil(lambda: pane.report.tokenizer == ANTHROPIC and not pane.runner.busy, timeout=60000)
    assert anthropic_api, "the count went to the local stand-in for the API"
    assert all(body["model"] for body in anthropic_api)
    assert "count_tokens API" in pane.totals.text() and "estimate" not in pane.totals.text()
    assert pane.report.overhead == 346
    sent = len(anthropic_api)

    # A list_changed does not send again by itself.
    pane.set_tools(pane.tools[:-1], pane.server)
    qtbot.wait(300)
    assert len(anthropic_api) == sent
    assert "press “Count with Anthropic”" in pane.totals.text()

    # The views that count as you type stay offline.
    pane.views.setCurrentWidget(pane.lab)
    assert "o200k_base" in pane.lab.timing.text()
    assert len(anthropic_api) == sent


def test_rejected_key_is_explained(qtbot, anthropic_api: list[dict], window: MainWindow, monkeypatch) -> None:
    monkeypatch.setattr(CountTokens, "key", "another-key")
    connect(qtbot, window)
    pane = window.budget
    show_budget(window)
    wait_report(qtbot, pane)
    pane.pickers.set_tokenizer(ANTHROPIC)
    pane.count_button.click()
    qtbot.waitUntil(lambda: pane.totals.text().startswith("Could not count"), timeout=60000)
    assert "401" in pane.totals.text() and "ANTHROPIC_API_KEY" in pane.totals.text()
