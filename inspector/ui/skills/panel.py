"""The Skills tab (one per server, shown only when the server declares `io.modelcontextprotocol/skills`).

The list (every page of `skills/list`: name, description, size, SKILL.md's digest) is asked for the first
time the tab is shown and by "List skills"; nothing else is read until the user asks. "Load skill" reads
the chosen skill's SKILL.md and verifies it (size, SHA-256 digest, frontmatter against the entry); its
frontmatter is shown as fields, its Markdown as plain text. A file of the skill is read when the user opens
it in Files (double-click or "Read file"). A mismatch is a red finding with what was expected and what
came; the content stays viewable as untrusted raw bytes, headed as not verified. Everything the server
sent goes through `widgets/plain_text`.
"""

from __future__ import annotations

import json
import re
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from inspector.core import skills
from inspector.core.errors import exit_title
from inspector.core.findings import Finding, with_expected
from inspector.ui.session import SessionController
from inspector.ui.widgets.async_tasks import TaskSet, error_text
from inspector.ui.widgets.elided_label import ElidedLabel
from inspector.ui.widgets.layout_parts import scrolled
from inspector.ui.widgets.mime_highlight import MimeHighlighter, lexer_for
from inspector.ui.widgets.plain_text import item_text, safe_tooltip, set_plain, shown
from inspector.ui.widgets.row_table import one_row_at_a_time
from inspector.words import counted

RED = QColor("#c62828")
CONTENTS = QHeaderView.ResizeMode.ResizeToContents
CONTENT_CHARS = 400_000  # a file's text shown at most; the rest is said to be cut


def _table(name: str, headers: list[str]) -> QTableWidget:
    table = QTableWidget(0, len(headers))
    table.setHorizontalHeaderLabels(headers)
    table.setAccessibleName(name)
    one_row_at_a_time(table)
    return table


DIGEST = re.compile(r"sha256:([0-9a-f]{6})[0-9a-f]{54}([0-9a-f]{4})")


def _short_digest(match: re.Match[str]) -> str:
    """A digest cut to its two ends (a 71-character word cannot wrap in the findings list)."""
    return f"sha256:{match[1]}…{match[2]}"


def _titled(title: str, widget: QWidget) -> QWidget:
    """`widget` under a one-line title, as one splitter pane."""
    pane = QWidget()
    column = QVBoxLayout(pane)
    column.setContentsMargins(0, 0, 0, 0)
    column.addWidget(QLabel(title))
    column.addWidget(widget, 1)
    widget.setMinimumHeight(48)
    return pane


def _cell(text: Any, tooltip: Any = None) -> QTableWidgetItem:
    item = QTableWidgetItem(item_text(text))
    item.setToolTip(safe_tooltip(text if tooltip is None else tooltip))
    return item


def _size(value: int | None) -> str:
    return "—" if value is None else f"{value:,} bytes"


class SkillsPanel(QWidget):
    statusMessage = Signal(str)
    listed = Signal(object)  # the skills/list entries (list of dicts), for the Budget tab's skills cost

    def __init__(self, session: SessionController) -> None:
        super().__init__()
        self.session = session
        self.tasks = TaskSet(self)
        self.listing: skills.SkillsListing | None = None
        self.loaded: skills.LoadedSkill | None = None
        self.reads: dict[str, skills.FileRead] = {}  # the chosen skill's files read so far, by URI
        self.found: list[dict[str, Any]] = []  # a dynamic skill's files, as resources/directory/read found them
        self._listed_once = False
        self._build()
        session.stateChanged.connect(self._on_state)

    # -- layout --------------------------------------------------------------------------------
    def _build(self) -> None:
        self.list_button = QPushButton("List skills")
        self.list_button.clicked.connect(self.list_skills)
        self.list_status = ElidedLabel()  # one line; the whole text in its tooltip
        self.list_status.setAccessibleName("Skills status")
        top = QHBoxLayout()  # the list's buttons and the chosen skill's, then the status: one row
        top.addWidget(self.list_button)

        self.skills_table = _table("Skills", ["Name", "Description", "Size", "Digest"])
        self.skills_table.itemSelectionChanged.connect(self._chosen)
        self.skills_table.setToolTip("Digest: the SHA-256 digest the entry gives for the skill's SKILL.md")
        header = self.skills_table.horizontalHeader()  # name, size and digest whole; the description the rest
        for column, mode in enumerate((CONTENTS, QHeaderView.ResizeMode.Stretch, CONTENTS, CONTENTS)):
            header.setSectionResizeMode(column, mode)

        self.load_button = QPushButton("Load skill")
        self.load_button.setEnabled(False)
        self.load_button.clicked.connect(self.load_skill)
        self.read_button = QPushButton("Read file")
        self.read_button.setEnabled(False)
        self.read_button.clicked.connect(self.read_file)
        self.dir_button = QPushButton("List files")
        self.dir_button.setToolTip("A dynamic skill lists no files: find them with resources/directory/read")
        self.dir_button.setEnabled(False)
        self.dir_button.clicked.connect(self.list_files)
        self.verification = ElidedLabel("Choose a skill, then Load skill: nothing is read before.")  # whole: tooltip
        self.verification.setAccessibleName("Skill verification")
        for button in (self.load_button, self.read_button, self.dir_button):
            top.addWidget(button)
        top.addWidget(self.list_status, 1)

        self.frontmatter = _table("Frontmatter", ["Field", "Value"])
        self.files = _table("Skill files", ["File", "Size", "Status"])  # a file's URI and digest in its tooltip
        self.files.itemSelectionChanged.connect(lambda: self.read_button.setEnabled(self._file_uri() is not None))
        self.files.itemDoubleClicked.connect(lambda _item: self.read_file())
        self.findings = QListWidget()
        self.findings.setAccessibleName("Skill findings")
        self.findings.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.findings.setWordWrap(True)  # a digest mismatch reads whole: expected and got
        self.findings.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.findings.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.cache = ElidedLabel(lines=2)  # the whole hint in its tooltip
        self.cache.setAccessibleName("Skill cache hint")
        self.content_title = ElidedLabel(lines=2)
        self.content_title.setAccessibleName("Skill content status")
        self.content = QPlainTextEdit()
        self.content.setReadOnly(True)
        self.content.setAccessibleName("Skill content")
        self.content.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self._highlighter: MimeHighlighter | None = None

        # The buttons in one row; the skills across the top (every column readable, as many rows as there are
        # skills up to four), then two columns: the chosen entry (its verification always in sight, then a
        # splitter of findings, frontmatter and files) and the content shown.
        self.files.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        self.files.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.files.horizontalHeader().setStretchLastSection(True)
        panes = QSplitter(Qt.Orientation.Vertical)
        panes.setObjectName("skillDetailSplitter")
        panes.setChildrenCollapsible(False)
        facts = QSplitter(Qt.Orientation.Horizontal)  # findings beside the frontmatter: the files keep their rows
        facts.setObjectName("skillFactsSplitter")
        facts.addWidget(_titled("Findings", self.findings))
        facts.addWidget(_titled("Frontmatter", self.frontmatter))
        facts.setStretchFactor(0, 3)
        facts.setStretchFactor(1, 2)
        facts.setSizes([300, 200])
        panes.addWidget(facts)
        panes.addWidget(_titled("Files", self.files))
        panes.setStretchFactor(1, 2)
        panes.setSizes([80, 220])  # the files get the most
        entry = QWidget()
        column = QVBoxLayout(entry)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.verification)
        column.addWidget(panes, 1)
        entry.setMinimumWidth(280)  # the Files table's three columns whole at 1024 px
        shown_file = QWidget()
        below = QVBoxLayout(shown_file)
        below.setContentsMargins(0, 0, 0, 0)
        below.addWidget(self.content_title)
        below.addWidget(self.cache)
        below.addWidget(self.content, 1)

        split = QSplitter(Qt.Orientation.Horizontal)
        split.setObjectName("skillsSplitter")
        split.addWidget(entry)
        split.addWidget(shown_file)
        for index, stretch in enumerate((1, 1)):
            split.setStretchFactor(index, stretch)
        split.setSizes([340, 340])
        for table in (self.skills_table, self.files, self.frontmatter):  # compact rows: more of them in sight
            table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        self.skills_table.setMinimumHeight(self.skills_table.horizontalHeader().sizeHint().height() + 2 * 24)
        self.list_split = listed = QSplitter(Qt.Orientation.Vertical)
        listed.setObjectName("skillsListSplitter")
        listed.setChildrenCollapsible(False)
        listed.addWidget(self.skills_table)
        listed.addWidget(split)
        listed.setStretchFactor(1, 1)
        listed.setSizes([100, 300])
        inner = QWidget()
        layout = QVBoxLayout(inner)
        layout.addLayout(top)
        layout.addWidget(listed, 1)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scrolled(inner))  # the two columns need ~580 px: a narrow window scrolls, never widens

    # -- listing -------------------------------------------------------------------------------
    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        if not self._listed_once and self.session.live and skills.refusal(self.session.capabilities) is None:
            self.list_skills()

    def _on_state(self, state: str, _detail: str) -> None:
        if state == "connected":
            self.listed.emit(None)  # the Budget tab forgets the last connection's skills
            self._listed_once = False
            self._clear_detail()
            self.skills_table.setRowCount(0)
            self.listing = None
            if self.isVisible() and skills.refusal(self.session.capabilities) is None:
                self.list_skills()

    def list_skills(self) -> None:
        if not self.session.live:
            set_plain(self.list_status, f"not sent: {self._stopped()}")
            return
        if why := skills.refusal(self.session.capabilities):
            set_plain(self.list_status, why)
            return
        self._listed_once = True
        self.list_button.setEnabled(False)
        set_plain(self.list_status, "Listing skills…")
        self.tasks.start(skills.list_skills(self.session), self._listed)

    def _stopped(self) -> str:
        """Why there is no connection, in the status bar's words ("disconnected: the server process exited …")."""
        if exited := re.search(r"exited with code (-?\d+)", self.session.detail):
            return f"disconnected: the server process {exit_title(int(exited[1])).removeprefix('Server process ')}"
        return f"{self.session.state}: no connection to the server (the Server panel says why)"

    def _listed(self, outcome: Any) -> None:
        self.list_button.setEnabled(True)
        if isinstance(outcome, BaseException):
            set_plain(self.list_status, f"skills/list failed: {error_text(outcome)}")
            return
        self.listing = outcome
        self.listed.emit(outcome.entries_as_sent())  # the Budget counts each once and says the drop
        table = self.skills_table
        table.setRowCount(len(outcome.skills))
        for row, skill in enumerate(outcome.skills):
            listed = skill.listed(skill.uri) or {}
            size = "dynamic" if skill.dynamic else _size(skill.total_size)
            table.setItem(row, 0, _cell(skill.name or skill.uri, skill.uri))
            table.setItem(row, 1, _cell(skill.description))
            table.setItem(row, 2, _cell(size))
            digest = listed.get("digest", "—")
            short = DIGEST.sub(_short_digest, digest) if isinstance(digest, str) else digest
            table.setItem(row, 3, _cell(short, digest))  # cut to its two ends; whole in the tooltip
            if skill.findings:
                for column in range(4):
                    item = table.item(row, column)
                    item.setForeground(QBrush(RED))
                    item.setToolTip(safe_tooltip("\n".join(str(f) for f in skill.findings)))
        said = f"{counted(len(outcome.skills), 'skill')} listed."
        if outcome.findings:
            messages = "; ".join(f.message.rstrip(".") for f in outcome.findings)
            said += f" {counted(len(outcome.findings), 'finding')}: {messages}."
        if outcome.cache:
            said += f" Cache hint: {outcome.cache}."
        set_plain(self.list_status, said)
        self._fit_list()

    def _fit_list(self) -> None:
        """The list as tall as its rows (two to four): the entry and the content keep the rest."""
        table = self.skills_table
        rows = min(max(table.rowCount(), 2), 4)
        height = table.horizontalHeader().sizeHint().height() + rows * table.verticalHeader().defaultSectionSize()
        height += 2 * table.frameWidth()
        total = sum(self.list_split.sizes())
        if total > height:
            self.list_split.setSizes([height, total - height])

    # -- one skill -----------------------------------------------------------------------------
    def _skill(self) -> skills.Skill | None:
        row = self.skills_table.currentRow()
        if self.listing is None or not 0 <= row < len(self.listing.skills):
            return None
        return self.listing.skills[row]

    def _clear_detail(self) -> None:
        self.loaded = None
        self.reads = {}
        self.found = []
        self.frontmatter.setRowCount(0)
        self.files.setRowCount(0)
        self.findings.clear()
        self.content.clear()
        set_plain(self.content_title, "")
        set_plain(self.cache, "")
        self.read_button.setEnabled(False)

    def _chosen(self) -> None:
        """A skill chosen: its entry's fields, files and findings (from the listing; nothing is read)."""
        self._clear_detail()
        skill = self._skill()
        self.load_button.setEnabled(skill is not None and bool(skill.uri))
        self.dir_button.setEnabled(
            skill is not None and skill.dynamic and skills.directory_refusal(self.session.capabilities) is None
        )
        if skill is None:
            return
        self._show_fields(skill.frontmatter)
        self._show_files(skill, {})
        self._show_findings(skill.findings)
        set_plain(self.verification, "Not loaded: Load skill reads its SKILL.md and verifies it.")
        self._set_colour(self.verification, bool(skill.findings))

    def _show_fields(self, fields: dict[str, Any]) -> None:
        self.frontmatter.setRowCount(len(fields))
        for row, (key, value) in enumerate(fields.items()):
            text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=repr)
            self.frontmatter.setItem(row, 0, _cell(key))
            self.frontmatter.setItem(row, 1, _cell(text))

    def _files(self, skill: skills.Skill) -> list[dict[str, Any]]:
        """The files the entry lists, or for a dynamic skill those a directory read found."""
        return skill.files or self.found

    def _show_files(self, skill: skills.Skill, reads: dict[str, skills.FileRead]) -> None:
        files = self._files(skill)
        self.files.setRowCount(len(files))
        root = skills.skill_root(skill) + "/"
        for row, item in enumerate(files):
            uri = item["uri"]
            read = reads.get(uri)
            status = read.status() if read is not None else "not read"
            size = item.get("size") if isinstance(item.get("size"), int) else None
            digest = item.get("digest", "—")
            self.files.setItem(row, 0, _cell(uri.removeprefix(root), f"{uri}\ndigest: {digest}"))
            self.files.setItem(row, 1, _cell(_size(size)))
            self.files.setItem(row, 2, _cell(status))
            if read is not None and not read.verified:
                self.files.item(row, 2).setForeground(QBrush(RED))

    def _show_findings(self, findings: list[Finding]) -> None:
        for finding in findings:
            said = DIGEST.sub(_short_digest, with_expected(finding.message, finding.expected))  # whole in the tooltip
            item = QListWidgetItem(shown(said, one_line=True))
            item.setToolTip(safe_tooltip(f"{finding.path}: {finding.message}\nexpected: {finding.expected}"))
            if finding.severity == "error":
                item.setForeground(QBrush(RED))
            self.findings.addItem(item)

    def _set_colour(self, label: QLabel, failed: bool) -> None:
        label.setStyleSheet(f"QLabel {{ color: {RED.name()}; }}" if failed else "")

    def load_skill(self) -> None:
        skill = self._skill()
        if skill is None:
            return
        self.load_button.setEnabled(False)
        set_plain(self.verification, "Reading SKILL.md…")
        self.tasks.start(skills.load_skill(self.session, skill), lambda outcome: self._loaded(skill, outcome))

    def _loaded(self, skill: skills.Skill, outcome: Any) -> None:
        self.load_button.setEnabled(True)
        if skill is not self._skill():
            return  # another skill was chosen meanwhile
        if isinstance(outcome, BaseException):
            set_plain(self.verification, f"resources/read failed: {error_text(outcome)}")
            self._set_colour(self.verification, True)
            return
        self.loaded = outcome
        self.reads = {skill.uri: outcome.skill_md}
        self.findings.clear()
        self._show_findings([*skill.findings, *outcome.skill_md.findings])
        if outcome.fields is not None:
            self._show_fields(outcome.fields)
        self._show_files(skill, self.reads)
        set_plain(self.verification, outcome.status())
        self._set_colour(self.verification, not outcome.verified)
        self._show_content(outcome.skill_md)

    def _file_uri(self) -> str | None:
        skill, row = self._skill(), self.files.currentRow()
        files = self._files(skill) if skill is not None else []
        if skill is None or not 0 <= row < len(files):
            return None
        return files[row]["uri"]

    def list_files(self) -> None:
        """A dynamic skill's files: its root directory read (`resources/directory/read`), folders descended."""
        skill = self._skill()
        if skill is None:
            return
        self.dir_button.setEnabled(False)
        set_plain(self.content_title, "Reading the skill's directory…")
        self.tasks.start(self._walk(skill), lambda outcome: self._files_found(skill, outcome))

    async def _walk(self, skill: skills.Skill, limit: int = 512) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = []
        folders, seen = [skills.skill_root(skill)], set()
        while folders and len(found) < limit and len(seen) < 64:
            folder = folders.pop(0)
            seen.add(folder)
            for child in (await skills.read_directory(self.session, folder)).children:
                if child.get("mimeType") == skills.DIRECTORY_MIME:
                    if child["uri"] not in seen and child["uri"].startswith(skills.skill_root(skill) + "/"):
                        folders.append(child["uri"])
                else:
                    found.append({"uri": child["uri"]})
        return found[:limit]

    def _files_found(self, skill: skills.Skill, outcome: Any) -> None:
        if skill is not self._skill():
            return
        self.dir_button.setEnabled(True)
        if isinstance(outcome, BaseException):
            set_plain(self.content_title, f"resources/directory/read failed: {error_text(outcome)}")
            self._set_colour(self.content_title, True)
            return
        self.found = outcome
        self._show_files(skill, self.reads)
        set_plain(self.content_title, f"{counted(len(outcome), 'file')} found; none can be verified (no digests)")
        self._set_colour(self.content_title, False)

    def read_file(self) -> None:
        skill, uri = self._skill(), self._file_uri()
        if skill is None or uri is None:
            return
        set_plain(self.content_title, f"Reading {uri}…")
        self.tasks.start(skills.read_file(self.session, skill, uri), lambda outcome: self._file_read(skill, outcome))

    def _file_read(self, skill: skills.Skill, outcome: Any) -> None:
        if skill is not self._skill():
            return
        if isinstance(outcome, BaseException):
            set_plain(self.content_title, f"resources/read failed: {error_text(outcome)}")
            self._set_colour(self.content_title, True)
            return
        self.reads[outcome.uri] = outcome
        self._show_files(skill, self.reads)
        if outcome.findings:
            self._show_findings(outcome.findings)
        self._show_content(outcome)

    def _show_content(self, read: skills.FileRead) -> None:
        """The file as plain text (Markdown and code highlighted, never rendered), headed by its verification."""
        head = f"{read.uri}: {read.status()}"
        if read.cache:
            head += f". Cache: {read.cache}"
        set_plain(self.content_title, head)
        self._set_colour(self.content_title, not read.verified)
        set_plain(self.cache, "")
        if read.raw is None:
            self.content.clear()
            return
        text = read.text
        body = text if text is not None else f"(not UTF-8: {len(read.raw):,} bytes)\n" + read.raw[:4096].hex(" ", 16)
        if not read.verified:
            body = "UNVERIFIED CONTENT, shown as it came and not used:\n\n" + body
        if self._highlighter is not None:
            self._highlighter.setDocument(None)
            self._highlighter = None
        self.content.setPlainText(shown(body, limit=CONTENT_CHARS))
        lexer = lexer_for(read.mime or None, read.uri) if text is not None else None
        if lexer is not None and read.verified:
            self._highlighter = MimeHighlighter(self.content.document(), lexer)
