"""The embedded demo MCP server a first run connects to (``python -m inspector.demo``).

Import ``inspector.demo.server`` for ``build_server()`` and ``main()``; this package itself imports
nothing so that importing it stays cheap.
"""
