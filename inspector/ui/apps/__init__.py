"""MCP Apps: a tool's ui:// interface in a sandboxed Qt WebEngine view, beside its result."""
