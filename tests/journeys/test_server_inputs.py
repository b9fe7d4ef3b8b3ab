"""An unset ${VAR} in a server's config (issue 22): typed on the spot, masked, for this connection only;
before, the connection could only be refused ("set the variable and connect again")."""

from __future__ import annotations

from PySide6.QtWidgets import QLineEdit
from test_command_line import environment_seen_by_server
from test_servers import dialog
from test_workspace import SERVERS_FILE, announced, open_server, save_servers

UNSET = "LENS_TEST_UNSET_TOKEN"


def test_an_unset_variable_is_typed_masked_for_this_connection_only(lens, everything, monkeypatch) -> None:
    monkeypatch.delenv(UNSET, raising=False)
    save_servers(lens, {"everything": {"command": "node", "args": [everything], "env": {"API_KEY": f"${{{UNSET}}}"}}})
    lens.start()
    open_server(lens, "everything")
    box = dialog(lens, "Server Inputs")
    field = lens.find(UNSET, QLineEdit, top=box)
    assert field.echoMode() == QLineEdit.EchoMode.Password
    lens.type(field, "typed-here-4711")
    lens.click(lens.find("Connect", top=box))
    lens.wait(lambda: announced(lens, "everything").startswith("everything, connected"), 30_000, "connected")
    env = environment_seen_by_server(lens)
    assert env["API_KEY"] == "<redacted>"  # the server got the value; the record hides it (a secret value)
    lens.wait_text("typed-here-4711")  # in the result the server sent back
    assert "typed-here-4711" not in (lens.home / SERVERS_FILE).read_text()

    lens.click("Disconnect")
    lens.wait(lambda: not announced(lens, "everything").startswith("everything, connected"), what="disconnected")
    lens.click("Connect to the selected server")  # the next connection asks again: nothing was kept
    dialog(lens, "Server Inputs")
