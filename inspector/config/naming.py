"""A name for a server given only by its command line or its URL (`mcp-lens -- CMD`, `mcp-lens URL`)."""

from __future__ import annotations

from pathlib import PurePath
from urllib.parse import urlsplit

# Programs that run the server named by one of their arguments.
_LAUNCHERS = frozenset(
    {"node", "nodejs", "deno", "bun", "npx", "pnpx", "bunx", "uvx", "uv", "pipx", "python", "python3", "py", "docker"}
)
# Launcher options whose value is not the server (skipped with it).
_TAKES_VALUE = frozenset(
    {"--from", "--package", "-p", "--with", "--python", "-e", "--env", "-v", "--volume", "--name", "-w", "--network"}
)
# Path parts that say nothing about which server it is.
_GENERIC = frozenset(
    {"index", "main", "server", "cli", "app", "__main__", "run", "start", "dist", "build", "lib", "src", "bin", "out"}
)


def _package_name(word: str) -> str:
    """`@scope/pkg@1.2` → `pkg`; `pkg==1.0` → `pkg`."""
    word = word.rstrip("/")
    if word.startswith("@"):
        word = word.split("/", 1)[-1]
    for sep in ("@", "==", ">=", "["):
        word = word.split(sep, 1)[0]
    return word


def _from_path(word: str) -> str:
    """The most specific part of a script path: `…/server-everything/dist/index.js` → `server-everything`."""
    path = PurePath(word)
    parts = [path.stem, *(p.name for p in path.parents if p.name)]
    return next((part for part in parts if part.lower() not in _GENERIC and part != "node_modules"), path.name)


def command_name(command: str, args: list[str]) -> str:
    """A short readable name for a stdio server: its script, package or program, not its interpreter."""
    program = PurePath(command).name or command
    if program.lower().removesuffix(".exe") not in _LAUNCHERS:
        return _from_path(command) if "/" in command or "\\" in command else program
    words = iter(args)
    for word in words:
        if word == "-m":  # python -m pkg.server
            return next(words, "").removesuffix(".__main__") or program
        if word in _TAKES_VALUE:
            next(words, None)
            continue
        if word.startswith("-") or word in ("run", "x", "exec", "tool"):
            continue
        if ("/" in word and not word.startswith("@")) or word.endswith((".js", ".mjs", ".cjs", ".ts", ".py")):
            return _from_path(word)
        return _package_name(word) or program
    return program


def url_name(url: str) -> str:
    """`http://127.0.0.1:3001/mcp` → `127.0.0.1:3001`."""
    parts = urlsplit(url)
    return parts.netloc.rsplit("@", 1)[-1] or url
