"""First start: the app opens on the demo server, a tool is picked, filled and called with Ctrl+Return."""

from __future__ import annotations


def test_first_start_to_a_result_with_ctrl_return(lens) -> None:
    lens.start()
    assert lens.shows("Demo server")
    lens.click_item("Tool list", "echo")
    lens.type("message", "hello from a journey")
    lens.key("Ctrl+Return")
    lens.wait_text("hello from a journey", timeout=10_000)
    calls = lens.sent("tools/call")
    assert [c["params"]["arguments"] for c in calls] == [{"message": "hello from a journey"}]
    assert lens.quit() == 0
