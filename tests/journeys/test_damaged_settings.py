"""The settings file damaged (issue 21 point 3): every value in it garbled — a word where a number was, a
stray 0xFF, a Latin-1 line, the file cut — and the app still starts, opens its tabs and quits, without an
exception (tests/conftest.py fails a journey on any in a Qt slot or on stderr)."""

from __future__ import annotations

from PySide6.QtWidgets import QTabBar


def garbled(conf: bytes) -> bytes:
    out = []
    for line in conf.splitlines():
        key, equals, _value = line.partition(b"=")
        if equals and not line.startswith(b"["):
            out.append(key + b"=caf\xe9 \xff\xfe not a value")
        else:
            out.append(line)
    text = b"\n".join(out) + b"\n"
    return text + b"[budget]\ncustomWindow=many\nwindow=lots\nshape=\xff\n[collections]\nrecent=\xff\n[cut"


def test_an_app_with_every_setting_garbled_starts_and_shows_its_tabs(lens) -> None:
    lens.start()
    lens.tab("Budget")
    assert lens.quit() == 0
    [conf] = (lens.home / ".config").rglob("mcp-lens.conf")
    conf.write_bytes(garbled(conf.read_bytes()))
    lens.start()
    names = [bar.tabText(i) for bar in lens.widgets(QTabBar) for i in range(bar.count())]
    assert {"Budget", "Collections"} <= set(names), names
    for name in ("Budget", "Collections"):
        lens.tab(name)
    assert lens.quit() == 0
