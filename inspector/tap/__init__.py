"""Tap mode: the stdio shim a host runs in place of a server (its command, `mcp-lens tap`, is `inspector/cli/tap.py`), and its install into hosts' configs.

Import from the submodules; this package imports nothing itself.
"""
