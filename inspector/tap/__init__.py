"""Tap mode: the stdio shim a host runs in place of a server, and its install into hosts' configs.

The command, ``mcp-lens tap``, is `inspector/cli/tap.py`. Import from the submodules; this package
imports nothing itself.
"""
