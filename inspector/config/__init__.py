"""Server profiles, the user's profile store, and import/export of `mcp.json`-style files."""

from inspector.config.formats import ImportResult, export_entry, export_file, load_server, load_servers
from inspector.config.profile import ProfileError, ServerProfile
from inspector.config.store import ProfileStore, default_path

__all__ = [
    "ImportResult",
    "ProfileError",
    "ProfileStore",
    "ServerProfile",
    "default_path",
    "export_entry",
    "export_file",
    "load_server",
    "load_servers",
]
