"""The app's settings file (Qt's INI, `mcp-lens.conf`) checked before Qt reads it. Qt reads a file that is
not UTF-8 without a word (a bad byte becomes part of a key, UTF-16 turns every key to garbage) and then
writes over it at quit; so a file that is not UTF-8 is kept as it was (``.damaged-<time>`` beside it),
UTF-16 or UTF-32 with a byte-order mark is re-encoded as UTF-8 with every setting, and a line that is not
UTF-8 is dropped alone. What was done is said once, in a sentence naming the file and the copy."""

from __future__ import annotations

import os
from pathlib import Path

from inspector.config.files import stamped_sibling, write_atomic
from inspector.config.text_files import wide_text
from inspector.words import counted


def repair_settings(path: str | os.PathLike[str]) -> str | None:
    """Make the INI settings file at `path` UTF-8 (see the module); what was done, or None when it already was
    (or is missing, unreadable, or no INI file: Qt goes on as before)."""
    target = Path(path)
    if target.suffix not in (".conf", ".ini"):  # macOS's plist and Windows's registry are not Qt's INI text
        return None
    try:
        raw = target.read_bytes()
    except OSError:
        return None
    if _is_utf8(raw):
        return None
    text, encoding = wide_text(raw)
    dropped: list[int] = []
    if text is None:
        kept = []
        for number, line in enumerate(raw.split(b"\n"), 1):
            try:
                kept.append(line.decode("utf-8"))
            except UnicodeDecodeError:
                dropped.append(number)
        text = "\n".join(kept)
    backup = write_atomic(stamped_sibling(target, "damaged"), raw)
    write_atomic(target, text)
    if encoding:
        kept = "every setting kept" if "\ufffd" not in text else "characters that did not decode shown as \ufffd"
        done = f"it was {encoding} and is now UTF-8, {kept}"
    else:
        lines = ", ".join(str(n) for n in dropped[:10]) + (", …" if len(dropped) > 10 else "")
        done = f"{counted(len(dropped), 'line')} not UTF-8 text ({lines}) left out, the other settings kept"
    return f"Settings file {target} was damaged: {done}; the file as it was is kept as {backup.name}"


def _is_utf8(raw: bytes) -> bool:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
