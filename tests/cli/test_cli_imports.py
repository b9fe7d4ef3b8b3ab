"""`mcp-lens --cli` imports only what its run uses: no OAuth stack for a server that never asks for it.

Each run is a real `python -m inspector --cli … --method tools/list` against a real server, in a fresh
interpreter that writes the names in `sys.modules` at exit (after the answer was printed).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from lens_support import REPO, free_port, lens_env, serve

# Loaded only when a server needs OAuth (a 401, stored credentials, an OAuth setting in the profile).
# (`mcp.shared.auth` is not among them: `import mcp` loads it through the SDK's server package.)
AUTH_ONLY = (
    "mcp.client.auth",
    "inspector.auth.signin",
    "inspector.auth.provider",
    "inspector.auth.storage",
    "webbrowser",
)

# What the lean paths (stdio, and Streamable HTTP without a proxy or OAuth) never import.
SDK_AND_HTTPX = {"mcp", "mcp_types", "pydantic", "pydantic_core", "httpx", "httpx2", "httpcore", "httpcore2", "anyio"}

RUN = """
import atexit, json, runpy, sys
out = sys.argv[1]
atexit.register(lambda: open(out, "w").write(json.dumps(sorted(sys.modules))))
sys.argv = ["mcp-lens", *sys.argv[2:]]
runpy.run_module("inspector", run_name="__main__")
"""


def _modules_of(tmp_path: Path, *cli: str, env: dict[str, str] | None = None) -> set[str]:
    out = tmp_path / "modules.json"
    done = subprocess.run(
        [sys.executable, "-c", RUN, str(out), "--cli", *cli, "--method", "tools/list"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env=lens_env(XDG_CONFIG_HOME=str(tmp_path / "config"), MCP_LENS_NO_KEYRING="1", **(env or {})),
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout)["tools"]
    return set(json.loads(out.read_text()))


@pytest.fixture(scope="module")
def demo_url() -> Iterator[str]:
    port = free_port()
    for _ in serve([sys.executable, "-m", "inspector", "--demo-server", "--http", str(port)], port):
        yield f"http://127.0.0.1:{port}/mcp"


def test_http_without_auth_loads_no_oauth_stack(tmp_path: Path, demo_url: str) -> None:
    loaded = _modules_of(tmp_path, demo_url)
    assert "inspector.transports.http_pipes" in loaded  # the run did go through the HTTP path
    early = sorted(name for name in loaded if name.startswith(AUTH_ONLY))
    assert not early, f"imported for a server without OAuth: {early}"


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_http_without_auth_loads_neither_httpx_nor_the_sdk(tmp_path: Path, demo_url: str, era: str) -> None:
    """Issue 23: the lean client over Streamable HTTP, as over stdio (0.62 s went to importing `mcp`)."""
    loaded = _modules_of(tmp_path, demo_url, "--protocol-era", era)
    assert "inspector.transports.http_pipes" in loaded
    heavy = sorted(name for name in loaded if name.split(".")[0] in SDK_AND_HTTPX)
    assert not heavy, f"imported on a Streamable HTTP run without auth: {heavy}"


def test_a_proxy_keeps_the_sdk_path(tmp_path: Path, demo_url: str) -> None:
    """httpx honours the proxy variables, the lean client does not: a proxied run keeps httpx."""
    loaded = _modules_of(tmp_path, demo_url, env={"http_proxy": "http://127.0.0.1:9", "NO_PROXY": "127.0.0.1"})
    assert "httpx2" in loaded and "inspector.transports.http" in loaded


def test_stdio_loads_neither_the_sdk_nor_the_oauth_stack(tmp_path: Path) -> None:
    loaded = _modules_of(tmp_path, sys.executable, str(REPO / "tests/servers/tools_server.py"))
    early = sorted(name for name in loaded if name.startswith((*AUTH_ONLY, "mcp.", "pydantic", "httpx2", "anyio")))
    assert not early, f"imported on a stdio run: {early}"
