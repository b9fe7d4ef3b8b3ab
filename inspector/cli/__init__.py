"""Headless mode, one package: ``mcp-lens --cli`` (one method, its result printed) and ``mcp-lens tokens``.

`main` dispatches a ``--cli`` run, `args` parses it (its words are in `inspector.traffic.cli_vocabulary`,
shared with "copy as command"), `connect` reaches the server, `methods` runs the method, `render` prints
it, `exit_codes` says how it ended; `tokens` and `tokens_args` are ``mcp-lens tokens``. Never imports Qt;
heavy imports wait until the server has been started (see `connect.spawn_early`).
"""
