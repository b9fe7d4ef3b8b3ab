"""The desktop entry: the shipped file validates, and --install/--uninstall-desktop-entry round-trip."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from lens_support import REPO

from inspector import desktop_entry
from inspector.desktop_entry import DesktopEntryError, quote_exec_arg, render_entry
from inspector.resource_files import resource_dir

VALIDATE = shutil.which("desktop-file-validate")
needs_validator = pytest.mark.skipif(VALIDATE is None, reason="desktop-file-validate missing (apt: desktop-file-utils)")


def validate(path: Path) -> None:
    done = subprocess.run([VALIDATE, str(path)], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and not done.stdout.strip(), done.stdout + done.stderr


def run_lens(*args: str, data_home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_DATA_HOME": str(data_home), "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-m", "inspector", *args], env=env, capture_output=True, text=True, timeout=60, check=False
    )


def parse_exec(value: str) -> list[str]:
    """Split an Exec value as a launcher does: string unescaping, then the spec's quoting rules."""
    text = value.replace("\\\\", "\\")
    words, word, quoted, i = [], "", False, 0
    while i < len(text):
        c = text[i]
        if quoted and c == "\\" and text[i + 1] in '"`$\\':
            word, i = word + text[i + 1], i + 2
            continue
        if c == '"':
            quoted = not quoted
        elif c == " " and not quoted:
            words.append(word)
            word = ""
        else:
            word += c
        i += 1
    return [*words, word]


@needs_validator
def test_shipped_entry_is_valid() -> None:
    validate(resource_dir() / "mcp-lens.desktop")


def test_resources_come_from_the_top_level_folder() -> None:
    res = resource_dir()
    assert res == REPO / "resources"  # an editable install reads the checkout's resources/ itself
    svg = (res / "icons" / "mcp-lens.svg").read_text()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg


@pytest.mark.parametrize(
    ("arg", "quoted"),
    [
        ("/usr/bin/mcp-lens", "/usr/bin/mcp-lens"),
        ("/home/a b/bin/mcp-lens", '"/home/a b/bin/mcp-lens"'),
        ('/x/$HOME"`q', '"/x/\\\\$HOME\\\\"\\\\`q"'),  # spec escapes, then the string escaping doubles "\"
        ("/100%/lens", "/100%%/lens"),
    ],
)
def test_exec_quoting(arg: str, quoted: str) -> None:
    assert quote_exec_arg(arg) == quoted


def test_exec_rejects_a_line_break() -> None:
    with pytest.raises(DesktopEntryError, match="line break"):
        quote_exec_arg("/a\nb")


@needs_validator
def test_rendered_entry_with_an_awkward_path_is_valid(tmp_path: Path) -> None:
    template = (resource_dir() / "mcp-lens.desktop").read_text()
    text = render_entry(template, ["/opt/my apps/$weird/mcp-lens", "-m", "inspector"])
    path = tmp_path / "mcp-lens.desktop"
    path.write_text(text)
    validate(path)
    exec_line = next(line for line in text.splitlines() if line.startswith("Exec="))
    words = parse_exec(exec_line.removeprefix("Exec="))
    assert words == ["/opt/my apps/$weird/mcp-lens", "-m", "inspector"]


@needs_validator
def test_install_and_uninstall_into_the_xdg_data_dir(tmp_path: Path) -> None:
    data = tmp_path / "share"
    installed = run_lens("--install-desktop-entry", data_home=data)
    assert installed.returncode == 0, installed.stderr
    entry = data / "applications" / "mcp-lens.desktop"
    icon = data / "icons" / "hicolor" / "scalable" / "apps" / "mcp-lens.svg"
    assert entry.is_file() and icon.is_file()
    validate(entry)
    text = entry.read_text()
    launcher = Path(sys.executable).parent / "mcp-lens"  # the venv's console script, not a bare name
    expected = str(launcher) if launcher.is_file() else f"{sys.executable} -m inspector"
    assert f"Exec={expected}\n" in text
    assert icon.read_bytes() == (REPO / "resources/icons/mcp-lens.svg").read_bytes()
    assert str(entry) in installed.stdout

    removed = run_lens("--uninstall-desktop-entry", data_home=data)
    assert removed.returncode == 0, removed.stderr
    assert not entry.exists() and not icon.exists()
    again = run_lens("--uninstall-desktop-entry", data_home=data)
    assert again.returncode == 0 and "no MCP Lens desktop entry" in again.stdout


def test_uninstall_keeps_an_entry_it_did_not_write(tmp_path: Path) -> None:
    data = tmp_path / "share"
    foreign = data / "applications" / "mcp-lens.desktop"
    foreign.parent.mkdir(parents=True)
    foreign.write_text("[Desktop Entry]\nType=Application\nName=Mine\nExec=/usr/bin/mcp-lens\n")
    done = run_lens("--uninstall-desktop-entry", data_home=data)
    assert done.returncode == 1
    assert "was not written by mcp-lens" in done.stderr
    assert foreign.is_file()


def test_data_home_falls_back_for_a_relative_xdg_value(tmp_path: Path) -> None:
    assert desktop_entry.data_home({"XDG_DATA_HOME": "rel/path"}, home=tmp_path) == tmp_path / ".local/share"
    assert desktop_entry.data_home({"XDG_DATA_HOME": str(tmp_path)}, home=Path("/x")) == tmp_path
