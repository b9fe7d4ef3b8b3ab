"""What the plain-text journey cannot see until a path is visited, the source can show: message boxes
that get their text before their format, static message boxes with text from a variable (both read it
as rich text when it looks like HTML), and rich text turned on at all (issue 21, point 1)."""

from __future__ import annotations

import ast
from pathlib import Path

from lens_support import REPO

UI = REPO / "inspector/ui"
STATIC_BOXES = {"warning", "critical", "information", "question", "about"}
RICH_ALLOWED = {"self_test.py"}  # a fixed WebEngine probe page of our own


def sources() -> list[tuple[Path, ast.Module]]:
    return [(path, ast.parse(path.read_text(), str(path))) for path in sorted(UI.rglob("*.py"))]


def literal(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def calls(tree: ast.Module) -> list[ast.Call]:
    return [node for node in ast.walk(tree) if isinstance(node, ast.Call)]


def name(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Attribute):
        inner = func.value.id if isinstance(func.value, ast.Name) else ""
        return f"{inner}.{func.attr}"
    return func.id if isinstance(func, ast.Name) else ""


def test_no_message_box_reads_text_before_its_format() -> None:
    found = []
    for path, tree in sources():
        for call in calls(tree):
            where = f"{path.relative_to(REPO)}:{call.lineno}"
            if name(call) == "QMessageBox" and len(call.args) >= 3 and not literal(call.args[2]):
                found.append(f"{where}: QMessageBox(icon, title, text…) with text from a variable")
            if name(call) in {f"QMessageBox.{static}" for static in STATIC_BOXES}:
                texts = call.args[2:3]
                if texts and not literal(texts[0]):
                    found.append(f"{where}: {name(call)} with text from a variable")
    assert not found, "use ui/widgets/plain_text.plain_message_box:\n" + "\n".join(found)


def test_nothing_turns_rich_text_on() -> None:
    found = [
        f"{path.relative_to(REPO)}:{node.lineno}"
        for path, tree in sources()
        if path.name not in RICH_ALLOWED
        for node in ast.walk(tree)
        if (isinstance(node, ast.Attribute) and node.attr in {"RichText", "MarkdownText", "setHtml", "setMarkdown"})
    ]
    assert not found, "server text is plain text: " + ", ".join(found)


def test_the_checks_can_fail() -> None:
    bad = ast.parse("box = QMessageBox(icon, 'T', text)\nQMessageBox.warning(self, 'T', text)\nl.setHtml(x)")
    assert [name(call) for call in calls(bad) if not all(literal(a) for a in call.args[2:3])] == [
        "QMessageBox",
        "QMessageBox.warning",
    ]
