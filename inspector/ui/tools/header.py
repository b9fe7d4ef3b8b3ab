"""The head of the Tools tab's form: the tool's title with its badges, its description (a few lines,
"More" shows the rest), its findings and, with a host chosen in the Host check, that host's verdict whole.
Empty parts take no room: the form below gets it.

A description longer than `MAX_DESCRIPTION_CHARS` is cut in the label (a word-wrapped QLabel lays out
all of its text on every resize: seconds for 1 MB), with a line of its own saying how much was left out;
"Show full description" opens it whole in a read-only plain-text view, its long lines in pieces
(`content.long_lines`: Qt took minutes to lay out 1 MB with no break point), and Copy gives it as sent."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSize, Qt
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence, QPixmap
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from inspector.budget.acceptance import REFUSED
from inspector.content.long_lines import PIECE_CHARS, in_pieces, longest_line
from inspector.content.visible import visible
from inspector.ui.tools.tool_list import ToolRow
from inspector.ui.widgets.icon_images import IconSource
from inspector.ui.widgets.layout_parts import title_label
from inspector.ui.widgets.plain_text import plain_label, set_dim, window_title

ICON_SIDE = 32  # the tool's icon beside its title (the list's is 18)
DESCRIPTION_LINES = 3  # a longer description is clamped to this many lines until "More" is pressed
MAX_DESCRIPTION_CHARS = 2000  # past this the label shows the beginning; "Show full description" the rest


def short_description(text: str) -> str:
    """What the header's label shows: the description, cut past `MAX_DESCRIPTION_CHARS`."""
    if not text:
        return "(no description)"
    if len(text) <= MAX_DESCRIPTION_CHARS:
        return text
    return f"{text[:MAX_DESCRIPTION_CHARS].rstrip()}…"


def cut_note(text: str) -> str:
    """The line under a cut description: how much the label left out, of how much."""
    if len(text) <= MAX_DESCRIPTION_CHARS:
        return ""
    return f"[{len(text) - MAX_DESCRIPTION_CHARS:,} more characters] of {len(text):,}"


class ToolHeader(QWidget):
    """`show_row(row)` / `show_row(None)`."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.icons: IconSource | None = None
        self.row: ToolRow | None = None
        self.icon = QLabel()
        self.icon.setObjectName("toolIcon")
        self.icon.setAccessibleName("Tool icon")
        self.icon.setFixedSize(ICON_SIDE, ICON_SIDE)
        self.icon.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.title = title_label(1.25)
        self.badges = plain_label(wrap=True, selectable=True)
        self.badges.setEnabled(False)  # dim: a property of the tool, read at a glance
        # its own cut is past the header's (the label's 2,000 would count the "…" note as what was left out)
        self.description = plain_label(wrap=True, selectable=True, limit=MAX_DESCRIPTION_CHARS + 100)
        self.description.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.cut = plain_label(selectable=True)  # one short line, never wrapped: the count always shows whole
        self.cut.setObjectName("descriptionCut")
        set_dim(self.cut)
        # Its width hint is never taken: a run of letters with no break point (a server's, or a long word)
        # would otherwise widen the pane past the window and push More out of sight; what does not fit is
        # cut at the label's edge, the whole text one click away.
        self.description.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Minimum)
        self.description.installEventFilter(self)
        self.more = QToolButton(autoRaise=True, text="More")
        self.more.setCheckable(True)
        self.more.setAccessibleName("Show the whole description")
        self.more.toggled.connect(self._clamp)
        self.full = QToolButton(autoRaise=True, text="Show full description")
        self.full.clicked.connect(self.show_full_description)
        self.findings = plain_label(wrap=True, selectable=True)
        self.findings.setWordWrap(True)
        self.findings.setStyleSheet("color: #c0392b;")
        self.verdict = plain_label(wrap=True, selectable=True)  # the Host check's verdict, whole (the list cuts it)
        self.verdict.setAccessibleName("Host verdict")
        self.verdict.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Minimum)
        self.title.setWordWrap(True)
        self.title.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Minimum)  # a long name, too
        self.badges.setWordWrap(False)
        title_row = QHBoxLayout()
        title_row.addWidget(self.icon, 0, Qt.AlignmentFlag.AlignTop)
        title_row.addWidget(self.title, 1)
        title_row.addSpacing(12)
        title_row.addWidget(self.badges)
        description_row = QHBoxLayout()
        description_row.addWidget(self.description, 1)
        description_row.addWidget(self.more)
        description_row.addWidget(self.full, 0, Qt.AlignmentFlag.AlignTop)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(title_row)
        layout.addLayout(description_row)
        layout.addWidget(self.cut)
        layout.addWidget(self.findings)
        layout.addWidget(self.verdict)
        self.show_row(None)

    def use_icons(self, icons: IconSource) -> None:
        """Show the tool's icon from `icons` (redrawn when one arrives)."""
        self.icons = icons
        icons.changed.connect(self._show_icon)

    def _show_icon(self) -> None:
        found = self.icons.icon(self.row.tool, ICON_SIDE) if self.icons is not None and self.row else None
        self.icon.setPixmap(found.pixmap(ICON_SIDE, ICON_SIDE) if found is not None else QPixmap())
        self.icon.setVisible(found is not None)

    def show_row(self, row: ToolRow | None) -> None:
        self.row = row
        self._show_icon()
        if row is None:
            self.title.setText("Select a tool")
            texts = ("", "", "", "")
        else:
            self.title.setText(f"{row.title} ({row.name})" if row.title and row.title != row.name else row.name)
            findings = "\n".join(f"⚠ {finding}" for finding in row.findings)
            description = row.description
            texts = (" · ".join(row.badges), short_description(description), cut_note(description), findings)
        for label, text in zip((self.badges, self.description, self.cut, self.findings), texts, strict=True):
            label.setText(text)
            label.setVisible(bool(text))
        self.full.setVisible(row is not None and len(row.description) > MAX_DESCRIPTION_CHARS)
        self.more.setChecked(False)
        self.show_verdict()
        self._clamp()

    def show_verdict(self) -> None:
        """The shown tool's verdict from the Host check (again when the host changes or the list is judged)."""
        text = self.row.verdict_line() if self.row is not None else ""
        self.verdict.setText(text)
        self.verdict.setVisible(bool(text))
        refused = self.row is not None and self.row.verdict is not None and self.row.verdict.outcome == REFUSED
        self.verdict.setStyleSheet("color: #c0392b;" if refused else "")

    def show_full_description(self) -> None:
        """The whole description in a read-only plain-text window: escapes visible, long lines in pieces
        (no paragraph Qt must lay out is longer than `PIECE_CHARS`); Copy gives the text as sent."""
        if self.row is None:
            return
        description = self.row.description
        dialog = QDialog(self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.setWindowTitle(window_title(f"Description of {self.row.name}", limit=140))
        view = QPlainTextEdit(dialog)
        view.setReadOnly(True)
        view.setAccessibleName("Full description")
        view.setPlainText(in_pieces(visible(description)))
        note = plain_label(f"{len(description):,} characters", wrap=True)
        if longest_line(description) > PIECE_CHARS:
            note.setText(
                f"{len(description):,} characters. Lines longer than {PIECE_CHARS:,} characters are shown in "
                "pieces, each ending in ↩; Copy gives the description exactly as the server sent it."
            )
        set_dim(note)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, dialog)
        buttons.rejected.connect(dialog.close)
        copy = QPushButton("Copy", dialog)
        copy.setToolTip("Copy the description exactly as the server sent it")
        copy.clicked.connect(lambda: QGuiApplication.clipboard().setText(description))
        buttons.addButton(copy, QDialogButtonBox.ButtonRole.ActionRole)
        close = QAction("Close", dialog)  # Ctrl+W; Escape is the dialog's own
        close.setShortcuts(QKeySequence.StandardKey.Close)
        close.triggered.connect(dialog.close)
        dialog.addAction(close)
        layout = QVBoxLayout(dialog)
        layout.addWidget(view)
        layout.addWidget(note)
        layout.addWidget(buttons)
        dialog.resize(760, 560)
        dialog.show()
        dialog.activateWindow()  # the keys work at once, without a click into it first
        view.setFocus()

    def _clamp(self) -> None:
        """Show at most `DESCRIPTION_LINES` lines of the description unless "More" is on."""
        label = self.description
        line = label.fontMetrics().lineSpacing()
        full = label.heightForWidth(max(label.width(), 50))
        long = label.isVisibleTo(self) and full > line * DESCRIPTION_LINES + 2
        self.more.setVisible(long)
        self.more.setText("Less" if self.more.isChecked() else "More")
        clamped = long and not self.more.isChecked()
        label.setMaximumHeight(line * DESCRIPTION_LINES if clamped else 16_777_215)

    def minimumSizeHint(self) -> QSize:
        """As tall as the wrapped text is at the width it has (a wrapping label alone would ask for the
        height it needs at its narrowest, which keeps the splitter below from giving the form its room)."""
        hint = super().minimumSizeHint()
        layout = self.layout()
        if self.width() > 0 and layout is not None and layout.hasHeightForWidth():
            return QSize(hint.width(), layout.heightForWidth(self.width()))
        return hint

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.description and event.type() == QEvent.Type.Resize:
            self._clamp()
            self.updateGeometry()  # the minimum height follows the width
        return super().eventFilter(watched, event)
