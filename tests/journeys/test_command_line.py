"""Servers opened from the command line (a command, a URL, --config/--server) and config placeholders."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QLabel, QLineEdit, QListWidget
from test_servers import SERVERS_FILE, current_server, dialog, server_rows

TOKEN_VAR = "LENS_JOURNEY_TOKEN"


def current_announced(lens) -> str:
    """What a screen reader says for the highlighted server (its name, state, and whether it is saved)."""
    item = lens.find("Servers", QListWidget).currentItem()
    return str(item.data(Qt.ItemDataRole.AccessibleTextRole)) if item is not None else ""


def budget_names(lens, name: str) -> list[str]:
    """Open the Budget tab and wait until a label (its header) names `name`; the labels shown."""
    lens.tab("Budget")
    lens.wait(lambda: name in labels(lens), what=f"the Budget tab names {name!r}")
    return labels(lens)


def labels(lens) -> list[str]:
    return [w.text() for w in lens.widgets(QLabel)]


def add_root(lens, folder: Path) -> str:
    """Add a root in the Roots tab; the status line that answers."""
    lens.tab(next(t for t in ("Roots (0)", "Roots") if _has_tab(lens, t)))
    lens.type("Root folder or URI", str(folder))
    lens.key("Return", lens.find("Root folder or URI"))
    status = lens.find("Roots status", QLabel)
    lens.wait(lambda: " root" in status.text(), what="the Roots tab answers")
    lens.wait(lambda: "list_changed" in status.text() or "not told" in status.text(), what="the server is told")
    return status.text()


def _has_tab(lens, name: str) -> bool:
    from PySide6.QtWidgets import QTabBar

    return any(bar.tabText(i) == name for bar in lens.widgets(QTabBar) for i in range(bar.count()))


def save_current(lens) -> None:
    lens.click("Save server")
    box = dialog(lens, "Save Server")
    lens.click(lens.find("OK", top=box))
    lens.wait(lambda: not box.isVisible(), what="the Save Server dialog closes")


def saved_entries(lens) -> dict:
    return json.loads((lens.home / SERVERS_FILE).read_text())["mcpServers"]


def test_a_command_opens_as_an_unsaved_entry_that_can_be_saved(lens, everything, tmp_path: Path) -> None:
    lens.start("--", "node", everything)
    assert current_server(lens) == "server-everything"
    assert "not saved" in current_announced(lens)
    assert "node" not in budget_names(lens, "server-everything")
    status = add_root(lens, tmp_path)
    assert "gone" not in status and "save the server" in status, status

    save_current(lens)
    assert current_server(lens) == "server-everything" and "not saved" not in current_announced(lens)
    entry = saved_entries(lens)["server-everything"]
    assert entry == {"command": "node", "args": [everything]}
    assert lens.quit() == 0

    lens.start()
    assert server_rows(lens) == ["Demo server", "server-everything"]
    assert current_server(lens) == "server-everything"  # the last server used (it was saved)
    assert lens.quit() == 0


def test_config_and_server_open_as_an_unsaved_entry(lens, everything, tmp_path: Path) -> None:
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"everything": {"command": "node", "args": [everything]}}}))
    lens.start("--config", str(config), "--server", "everything")
    assert current_server(lens) == "everything" and "not saved" in current_announced(lens)
    budget_names(lens, "everything")
    assert "gone" not in add_root(lens, tmp_path)
    assert lens.quit() == 0


def test_a_url_opens_over_http(lens, everything_http: str) -> None:
    lens.start(everything_http)
    assert "everything" in lens.status()
    assert lens.sent("initialize")
    assert current_server(lens) == everything_http.split("//")[1].split("/")[0]
    assert "not saved" in current_announced(lens)
    assert lens.quit() == 0


def write_vscode_config(path: Path, everything: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {
        "inputs": [{"type": "promptString", "id": "api-key", "description": "Everything API key", "password": True}],
        "servers": {
            "everything": {
                "type": "stdio",
                "command": "node",
                "args": [everything],
                "env": {"API_KEY": "${input:api-key}", "TOKEN": "${env:" + TOKEN_VAR + "}"},
            }
        },
    }
    path.write_text(json.dumps(data))
    return path


def answer_inputs(lens, value: str) -> None:
    """The inputs dialog: a masked field named by the input's description; no keyring here, so nothing kept."""
    box = dialog(lens, "Server Inputs")
    field = lens.find("Everything API key", QLineEdit, top=box)
    assert field.echoMode() == QLineEdit.EchoMode.Password
    remember = lens.find("Remember in the keyring", QCheckBox, top=box)
    assert not remember.isChecked() and not remember.isEnabled()  # no keyring in the journeys
    lens.type(field, value)
    lens.click(lens.find("Connect", top=box))


def environment_seen_by_server(lens) -> dict:
    lens.tab("Tools")
    lens.click_item("Tool list", "get-env")
    before = len(lens.sent("tools/call"))
    lens.key("Ctrl+Return", lens.find("Tool list"))
    lens.wait(lambda: len(lens.sent("tools/call")) > before, what="get-env is called")
    lens.wait(lambda: any(e.direction == "in" and b"API_KEY" in e.raw for e in lens.wire()), what="the answer")
    answer = [e for e in lens.wire() if e.direction == "in" and b"API_KEY" in e.raw][-1]
    return json.loads(answer.parsed()["result"]["content"][0]["text"])


def test_vscode_inputs_are_asked_for_and_never_sent_as_placeholders(
    lens, everything, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setenv(TOKEN_VAR, "from-the-environment")
    config = write_vscode_config(tmp_path / "project" / ".vscode" / "mcp.json", everything)
    lens.start("--config", str(config), "--server", "everything", connected=False)
    answer_inputs(lens, "s3cret-value")
    lens.wait_connected()
    env = environment_seen_by_server(lens)
    # The server got both values (its answer shows them in the result); the record hides them: what
    # references resolve to are the profile's secret values.
    assert env["API_KEY"] == "<redacted>" and env["TOKEN"] == "<redacted>"
    lens.wait_text("s3cret-value")
    assert lens.shows("from-the-environment")
    assert not any(b"${input:" in e.raw for e in lens.wire())
    save_current(lens)
    text = (lens.home / SERVERS_FILE).read_text()
    assert "s3cret-value" not in text and "from-the-environment" not in text
    assert saved_entries(lens)["everything"]["env"] == {
        "API_KEY": "${input:api-key}",
        "TOKEN": "${env:" + TOKEN_VAR + "}",
    }
    assert lens.quit() == 0


def test_import_keeps_references_and_resolves_them_at_connect(lens, everything, monkeypatch) -> None:
    monkeypatch.setenv(TOKEN_VAR, "from-the-environment")
    config = write_vscode_config(lens.home / ".config" / "Code" / "User" / "mcp.json", everything)
    lens.start()
    lens.click("Import servers")
    lens.click(lens.find("Other file…", top=dialog(lens, "Import Servers From")))  # the file dialog, as for any file
    picker = dialog(lens, "Import Servers")
    lens.type(lens.find("File name:", QLineEdit, top=picker), config.name)
    lens.click(lens.find("Open", top=picker))
    lens.wait_text("Found 1 server")
    lens.click(lens.find("Import", top=dialog(lens, "Import Servers")))
    lens.wait(lambda: "everything" in server_rows(lens), what="the server is imported")
    text = (lens.home / SERVERS_FILE).read_text()
    assert "${input:api-key}" in text and "${env:" + TOKEN_VAR + "}" in text and "from-the-environment" not in text

    lens.click_item("Servers", "everything", double=True)
    answer_inputs(lens, "typed-at-connect")
    lens.wait(lambda: "connected to" in lens.status() and "everything" in lens.status(), what="connected")
    env = environment_seen_by_server(lens)
    assert env["API_KEY"] == "<redacted>" and env["TOKEN"] == "<redacted>"  # in the record
    lens.wait_text("typed-at-connect")  # the server's answer, as the result shows it
    assert lens.shows("from-the-environment")
    assert "typed-at-connect" not in (lens.home / SERVERS_FILE).read_text()
    assert lens.quit() == 0
