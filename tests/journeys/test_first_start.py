"""First start: the app opens on the demo server, a tool is picked, filled and called with Ctrl+Return."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("key", ["Ctrl+Return", "Ctrl+Enter"])
def test_first_start_to_a_result_with_the_call_key(lens, key: str) -> None:
    lens.start()
    assert lens.shows("Demo server")
    lens.click_item("Tool list", "Echo (echo)")
    lens.type("message", "hello from a journey")
    lens.key(key)
    lens.wait(lambda: lens.sent("tools/call"), what="a tools/call on the wire")
    assert [c["params"]["arguments"] for c in lens.sent("tools/call")] == [{"message": "hello from a journey"}]
    # The result view shows the echoed text (the field holds it too: twice on screen).
    lens.wait(lambda: lens.texts().count("hello from a journey") >= 2, what="the echoed text shown")
    assert lens.quit() == 0
