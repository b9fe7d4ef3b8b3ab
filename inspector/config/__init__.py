"""Server profiles, the user's profile store, and import/export of `mcp.json`-style files.

Import from the submodules (`profile`, `formats`, `store`): this package imports nothing itself,
so the CLI pays only for what it uses before it starts the server.
"""
