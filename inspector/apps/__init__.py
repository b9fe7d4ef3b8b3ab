"""MCP Apps (the `io.modelcontextprotocol/ui` extension), host side, no Qt: which tool declares an
interface and what its `ui://` resource holds (`ui_resource`), the content-security policy the app
runs under (`csp`), and the JSON-RPC bridge between the app and the session (`bridge`)."""
