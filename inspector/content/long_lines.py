"""Long lines cut into pieces Qt lays out quickly (no Qt).

Qt wraps a paragraph as a whole: one with no break opportunity (a server's 1 MB of one letter) took a
text view about two minutes to lay out, with the window frozen. A view of untrusted text shows a line
longer than `PIECE_CHARS` as pieces, each but the last ending in `MARK`; Copy gives the text as sent.
"""

from __future__ import annotations

PIECE_CHARS = 2_000  # the longest paragraph handed to a text view (a few ms to lay out at any width)
MARK = " ↩"  # ends a piece of a longer line: the line goes on below
BACK = 200  # a piece ends at the last space within this many characters of its limit, if there is one


def longest_line(text: str, window: int = 1 << 16) -> int:
    """The length of `text`'s longest line (without its newline), read `window` characters at a time (the
    lines of the whole were a copy of it: a 1 MB description's, twice per Show full description)."""
    longest = run = 0  # run: the line still open at the window's end, so far
    for start in range(0, len(text), window):
        lines = text[start : start + window].split("\n")
        if len(lines) == 1:
            run += len(lines[0])
            continue
        longest = max(longest, run + len(lines[0]), *map(len, lines[1:-1]))
        run = len(lines[-1])
    return max(longest, run)


def in_pieces(text: str, limit: int = PIECE_CHARS) -> str:
    """`text` with every line longer than `limit` broken into marked pieces of at most `limit` characters."""
    if len(text) <= limit or longest_line(text) <= limit:
        return text
    lines: list[str] = []
    for line in text.split("\n"):
        start = 0
        while len(line) - start > limit:  # by position: slicing off the rest each time is quadratic
            end = start + limit
            cut = line.rfind(" ", max(start + 1, end - BACK), end) + 1 or end
            lines.append(line[start:cut] + MARK)
            start = cut
        lines.append(line[start:])
    return "\n".join(lines)
