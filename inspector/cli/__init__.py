"""Every headless command, one package: `commands` is the table of them (``mcp-lens --help`` and the
dispatch in `inspector/__main__.py` read it), each with its module: ``--cli`` (`main`: one method, its
result printed), ``tokens``, ``tap``, ``run``, ``doctor``.

`args` parses a target and ``--cli``'s options (its words are in `inspector.traffic.cli_vocabulary`,
shared with "copy as command"), `connect` reaches the server, `methods` runs the method, `render` prints
it, `exit_codes` says how it ended; `tokens`, `tokens_args` and `tokens_host` are ``mcp-lens tokens``;
`run` and `run_servers` are ``mcp-lens run``; `doctor` is ``mcp-lens doctor`` (the engine is
`inspector/doctor/`); `tap` is ``mcp-lens tap`` (the relay is `inspector/tap/`). Never imports Qt; heavy
imports wait until the server has been started (see `connect.spawn_early`), and this package's
``__init__`` imports nothing, so the tap starts lean.
"""
