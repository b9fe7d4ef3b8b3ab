"""Per-user folders and the data folder on each platform, the platform forced."""

from __future__ import annotations

from pathlib import Path

from inspector.config.files import data_dir
from inspector.platform.folders import user_data_base


def test_the_data_folder_is_the_platforms_own(tmp_path: Path) -> None:
    home = tmp_path / "Jane Doe"
    env = {"HOME": str(home)}
    assert data_dir(env, platform="linux") == home / ".local/share/mcp-lens"
    assert data_dir(env, platform="darwin") == home / "Library/Application Support/mcp-lens"
    local = r"C:\Users\Jane Doe\AppData\Local"
    assert data_dir({**env, "LOCALAPPDATA": local}, platform="win32") == Path(local) / "mcp-lens"
    assert data_dir(env, platform="win32") == home / "AppData/Local/mcp-lens"


def test_an_absolute_xdg_data_home_wins_everywhere_and_a_relative_one_nowhere(tmp_path: Path) -> None:
    for platform in ("linux", "darwin", "win32"):
        assert user_data_base({"XDG_DATA_HOME": str(tmp_path)}, platform=platform) == tmp_path
        relative = user_data_base({"XDG_DATA_HOME": "rel", "HOME": str(tmp_path)}, platform=platform)
        assert relative != Path("rel") and relative.is_relative_to(tmp_path)
