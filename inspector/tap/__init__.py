"""Tap mode: `mcp-lens tap`, the stdio shim a host runs in place of a server, and its install into hosts' configs.

Import from the submodules; this package imports nothing itself.
"""
