"""The settings file (Qt's INI) checked before Qt reads it (outside tester's finding 6): one that is not
UTF-8 is kept as it was beside it, UTF-16/UTF-32 re-encoded with every setting, a bad line dropped alone."""

from __future__ import annotations

from pathlib import Path

import pytest
from damage_support import apply_damage, damages
from hypothesis import HealthCheck, given, settings

from inspector.config.settings_check import repair_settings
from inspector.config.text_files import wide_encoding

CONF = "[General]\nfolder=/home/zoë/sessions\n\n[session]\nlastServer=canary\nreopen=true\n"


def damaged_copies(path: Path) -> list[Path]:
    return sorted(path.parent.glob("mcp-lens.conf.damaged-*"))


@pytest.mark.parametrize(("codec", "name"), [("utf-16", "UTF-16 LE"), ("utf-32", "UTF-32 LE")])
def test_a_wide_settings_file_becomes_utf8_with_every_setting_and_a_copy(tmp_path: Path, codec, name) -> None:
    path = tmp_path / "mcp-lens.conf"
    wide = CONF.encode(codec)
    path.write_bytes(wide)
    said = repair_settings(path)
    assert said is not None and str(path) in said and name in said
    assert path.read_bytes() == CONF.encode()
    [copy] = damaged_copies(path)
    assert copy.read_bytes() == wide and copy.name in said
    assert oct(path.stat().st_mode & 0o777) == oct(copy.stat().st_mode & 0o777) == "0o600"


def test_a_line_that_is_not_utf8_is_dropped_alone_and_named(tmp_path: Path) -> None:
    path = tmp_path / "mcp-lens.conf"
    raw = CONF.encode().replace(b"reopen", b"re\xffopen")
    path.write_bytes(raw)
    said = repair_settings(path)
    assert said is not None and "1 line not UTF-8 text (6) left out" in said
    assert path.read_text(encoding="utf-8") == CONF.replace("reopen=true\n", "")
    [copy] = damaged_copies(path)
    assert copy.read_bytes() == raw and copy.name in said


def test_a_utf8_or_missing_or_plist_settings_file_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "mcp-lens.conf"
    assert repair_settings(path) is None
    path.write_text(CONF, encoding="utf-8")
    assert repair_settings(path) is None and damaged_copies(path) == []
    plist = tmp_path / "com.mcp-lens.plist"
    plist.write_bytes(b"bplist00\xff\xfe")
    assert repair_settings(plist) is None and plist.read_bytes() == b"bplist00\xff\xfe"


@settings(max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=damages())
def test_a_damaged_settings_file_keeps_every_intact_line_and_its_bytes(tmp_path: Path, ops) -> None:
    folder = tmp_path / str(len(list(tmp_path.iterdir())))  # hypothesis runs every example in one tmp_path
    folder.mkdir()
    path = folder / "mcp-lens.conf"
    damaged = apply_damage(CONF.encode(), ops)
    path.write_bytes(damaged)
    said = repair_settings(path)
    text = path.read_bytes().decode("utf-8")  # UTF-8 afterwards, whatever it was
    copies = damaged_copies(path)
    try:
        damaged.decode("utf-8")
    except UnicodeDecodeError:
        assert said is not None and str(path) in said
        assert [c.read_bytes() for c in copies] == [damaged]
    else:
        assert said is None and copies == [] and path.read_bytes() == damaged
        return
    if encoding := wide_encoding(damaged[:256]):  # UTF-16: every line, re-encoded
        assert encoding in said
        assert text == damaged.decode(encoding.replace(" ", "-").lower(), "replace").removeprefix("\ufeff")
        return
    intact = [line.decode() for line in damaged.split(b"\n") if _utf8(line)]
    assert text == "\n".join(intact)


def _utf8(line: bytes) -> bool:
    try:
        line.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
