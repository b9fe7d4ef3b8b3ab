"""``python -m inspector.demo [--http PORT]``: run the demo MCP server."""

from inspector.demo.server import main

raise SystemExit(main())
