"""Tooltips that carry server text. Qt renders a tooltip as rich text when its first line looks like
markup (`Qt.mightBeRichText`), so the first line is always our own fixed title and the untrusted
text starts on the next line: it is then shown literally."""

from __future__ import annotations


def plain_tooltip(title: str, body: str) -> str:
    return f"{title}:\n{body}"
