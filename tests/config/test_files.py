"""The one way MCP Lens writes its files: atomic, user-only, folders it creates user-only."""

from __future__ import annotations

import os
import stat

from inspector.config.files import open_private_append, private_folder, write_atomic


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_write_atomic_creates_user_only_file_and_folder(tmp_path):
    target = tmp_path / "new" / "deeper" / "file.json"
    write_atomic(target, "café")
    assert target.read_bytes() == "café".encode()
    assert _mode(target) == 0o600
    assert _mode(target.parent) == 0o700


def test_write_atomic_replaces_a_world_readable_file_with_a_user_only_one(tmp_path):
    target = tmp_path / "old.json"
    target.write_text("old")
    os.chmod(target, 0o644)
    write_atomic(target, b"new")
    assert target.read_bytes() == b"new"
    assert _mode(target) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["old.json"]  # no temp file left


def test_write_atomic_leaves_an_existing_chosen_folder_alone(tmp_path):
    os.chmod(tmp_path, 0o755)
    write_atomic(tmp_path / "export.jsonl", b"x")
    assert _mode(tmp_path) == 0o755


def test_private_folder_tightens_an_existing_folder(tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir(mode=0o755)
    os.chmod(folder, 0o755)
    private_folder(folder)
    assert _mode(folder) == 0o700


def test_open_private_append_appends_user_only(tmp_path):
    target = tmp_path / "rec.jsonl"
    for line in (b"a\n", b"b\n"):
        fd = open_private_append(target)
        os.write(fd, line)
        os.close(fd)
    assert target.read_bytes() == b"a\nb\n"
    assert _mode(target) == 0o600


def test_write_atomic_through_a_symlink_replaces_the_file_it_points_to(tmp_path):
    real = tmp_path / "dotfiles" / "servers.json"
    real.parent.mkdir()
    real.write_text("old")
    link = tmp_path / "servers.json"
    link.symlink_to(real)
    write_atomic(link, "new")
    assert link.is_symlink() and real.read_text() == "new"


def test_write_atomic_to_a_pipe_writes_into_it(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        write_atomic(fifo, b"through the pipe")
        assert os.read(reader, 100) == b"through the pipe"
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_missing_parents_are_created_user_only_too(tmp_path):
    os.chmod(tmp_path, 0o755)
    old = os.umask(0o022)
    try:
        private_folder(tmp_path / "share" / "mcp-lens" / "taps")
        write_atomic(tmp_path / "new" / "deeper" / "file.json", "x")
        os.close(open_private_append(tmp_path / "append" / "inner" / "log"))
    finally:
        os.umask(old)
    for folder in ("share", "share/mcp-lens", "share/mcp-lens/taps", "new", "new/deeper", "append", "append/inner"):
        assert _mode(tmp_path / folder) == 0o700, folder
    assert _mode(tmp_path) == 0o755  # an existing folder is left as it is


def test_stamped_sibling_never_names_a_taken_file(tmp_path) -> None:
    from inspector.config.files import stamped_sibling

    path = tmp_path / "servers.json"
    first = stamped_sibling(path, "corrupt")
    assert first.parent == tmp_path and first.name.startswith("servers.json.corrupt-")
    first.write_text("taken")
    second = stamped_sibling(path, "corrupt")
    assert second != first and second.name.startswith(first.name) and not second.exists()
