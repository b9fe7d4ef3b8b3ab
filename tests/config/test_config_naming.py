"""Names for servers given on the command line: the script or package, not the interpreter."""

from __future__ import annotations

import pytest

from inspector.config.naming import command_name, url_name


@pytest.mark.parametrize(
    ("argv", "name"),
    [
        (["node", "/x/node_modules/@modelcontextprotocol/server-everything/dist/index.js"], "server-everything"),
        (["npx", "-y", "@modelcontextprotocol/server-everything@2.0", "stdio"], "server-everything"),
        (["uvx", "mcp-server-fetch"], "mcp-server-fetch"),
        (["uvx", "--from", "git+https://x/y", "mcp-fetch"], "mcp-fetch"),
        (["python", "-m", "inspector.demo"], "inspector.demo"),
        (["python3", "/home/a/weather/server.py"], "weather"),
        (["/usr/local/bin/my-mcp", "--flag"], "my-mcp"),
        (["docker", "run", "-i", "--rm", "-e", "TOKEN", "ghcr.io/github/github-mcp-server"], "github-mcp-server"),
        (["node"], "node"),
    ],
)
def test_command_name(argv: list[str], name: str) -> None:
    assert command_name(argv[0], argv[1:]) == name


def test_url_name() -> None:
    assert url_name("http://user:pw@127.0.0.1:3001/mcp") == "127.0.0.1:3001"
