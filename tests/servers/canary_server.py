"""The demo server as a careless server runs it: it takes any arguments (a `--http PORT` among them
is used) and says on stderr every argument and every environment value it was given whose value
starts with ``CANARY`` (the secret canary tests' values), as servers that log their settings do.
With ``CANARY_EXIT=1`` in its environment it exits (code 3) right after saying so: a server that dies
at start, whose last stderr lines go into the error MCP Lens reports. Besides the demo's tools it has
``sign_in(user, password)``, which says the password back: a secret typed into a secret-looking field."""

from __future__ import annotations

import os
import sys

from inspector.demo import server as demo


def sign_in(user: str, password: str) -> str:
    """Sign in (a careless tool: it says the password back)."""
    return f"signed in {user} with {password}"


def build_server(**kwargs):  # the demo's tools and sign_in, whose `password` argument is a secret the user types
    server = _demo_build(**kwargs)
    server.add_tool(sign_in, title="Sign in", structured_output=False)
    return server


_demo_build, demo.build_server = demo.build_server, build_server
main = demo.main

if __name__ == "__main__":
    given = sys.argv[1:]
    echoed = [v for v in os.environ.values() if v.startswith("CANARY") or v.startswith("canary")]
    print("canary server started with", given, "and", echoed, file=sys.stderr, flush=True)
    if os.environ.get("CANARY_EXIT") == "1":
        raise SystemExit(3)
    port = given[given.index("--http") + 1 : given.index("--http") + 2] if "--http" in given else []
    raise SystemExit(main(["--http", *port] if port else []))
