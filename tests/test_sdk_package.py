"""The SDK's client session imports without the SDK's server (`inspector/sdk_package.py`), and the
package's own names still come when asked for."""

from __future__ import annotations

import subprocess
import sys

SERVER_SIDE = ("mcp.server", "starlette", "uvicorn", "sse_starlette")


def _run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_core_connection_imports_none_of_the_sdks_server() -> None:
    out = _run(
        "import sys, inspector.core.connection, inspector.transports.stdio\n"
        f"print(sorted({{m.split('.')[0] + '.' + m.split('.')[1] if m.startswith('mcp.') else m.split('.')[0] "
        f"for m in sys.modules if m.startswith({SERVER_SIDE!r})}}))"
    )
    assert out.strip() == "[]", f"the SDK's server came with its client: {out}"


def test_the_packages_own_names_still_come_when_asked() -> None:
    out = _run(
        "import inspector, mcp.client.session\n"
        "from mcp import Client, ClientSession\n"
        "import mcp.client\n"
        "print(Client.__name__, ClientSession is mcp.client.session.ClientSession, mcp.client.Client is Client)"
    )
    assert out.split() == ["Client", "True", "True"]


def test_installing_it_costs_the_lean_commands_no_import() -> None:
    """`import inspector` runs it for every command: importlib.abc brought importlib.resources (~40 ms)."""
    out = _run(
        "import sys, inspector\n"
        "print(sorted(m for m in ('importlib.abc', 'importlib.resources', 'mcp') if m in sys.modules))"
    )
    assert out.strip() == "[]"
