"""An MCP server on stdio (stdlib only) whose tools' https icons point at this computer, a private
network and one unresolvable host: ``python private_icons.py``.

Four icons name loopback or private hosts by their literal form (``127.0.0.1``, ``0x7f000001``,
``localhost``, ``10.0.0.1``): never offered, never fetched. ``icons.invalid`` is offered; once allowed,
its fetch is refused after resolution (it resolves to nothing), and the reason is shown.
"""

from __future__ import annotations

from typing import Any

from stdio_rpc import serve

HOSTS = ("127.0.0.1", "0x7f000001", "localhost", "10.0.0.1", "icons.invalid")


def tool(index: int, host: str) -> dict[str, Any]:
    icon = {"src": f"https://{host}/icon{index}.png", "mimeType": "image/png", "sizes": ["16x16"]}
    return {
        "name": f"icon_{index}",
        "description": f"An icon on {host}.",
        "inputSchema": {"type": "object"},
        "icons": [icon],
    }


def answer(method: str, _params: dict[str, Any]) -> dict[str, Any] | None:
    if method == "tools/list":
        return {"tools": [tool(index, host) for index, host in enumerate(HOSTS)]}
    return None


if __name__ == "__main__":
    serve(answer, name="private-icons", capabilities={"tools": {}})
