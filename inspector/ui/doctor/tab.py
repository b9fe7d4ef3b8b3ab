"""The Doctor tab of one server: run the server doctor on its profile (its own short connections, the
live session undisturbed), watch it run and cancel it, read the score and the findings, export them as
JSON or JUnit XML. The last report is kept while the app runs (one tab per server)."""

from __future__ import annotations

import asyncio
import dataclasses
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)
from shiboken6 import isValid

from inspector.budget.host_rules import HOSTS
from inspector.config.files import write_atomic
from inspector.config.profile import ServerProfile
from inspector.config.references import Unresolved, resolve_profile
from inspector.core.operations import ToolListing
from inspector.doctor.engine import run_doctor
from inspector.doctor.host_acceptance import NO_HOST
from inspector.doctor.host_render import host_summary
from inspector.doctor.render import RENDERERS
from inspector.doctor.report import SCORE_RULE, DoctorOptions, DoctorReport
from inspector.doctor.table import CHECKS
from inspector.ui.doctor.checks_view import ChecksView
from inspector.ui.doctor.connections import DoctorConnections
from inspector.ui.doctor.findings_view import FindingsView
from inspector.ui.doctor.tools_dialog import DoctorToolsDialog, read_only
from inspector.ui.session import CONNECTED, SessionController
from inspector.ui.traffic.viewer_window import ViewerWindow
from inspector.ui.widgets.elided_label import ElidedLabel
from inspector.ui.widgets.plain_text import PlainLabel, item_text
from inspector.ui.widgets.session_files import show_error
from inspector.words import counted

PROBE_TIMEOUT = 5.0  # seconds for each probe, as `mcp-lens doctor --timeout` defaults
FOLDER_KEY = "doctor/folder"  # where the last report was exported to
HOST_SETTING = "budget/host"  # the host chosen in the Tools tab's Host check and the Budget's Host picker
EXPORTS = {"json": ("JSON reports (*.json)", "json"), "junit": ("JUnit XML (*.xml)", "xml")}
INTRO = (
    "The doctor checks this server against the spec and hosts' limits: what its users' clients will meet. "
    "It opens its own short connections; the live session is not disturbed."
)
RULE = f"How the score is computed: {SCORE_RULE}."
PROBE_TRAFFIC = (
    "Every exchange the doctor sent in its last run: its own connections and its probes (Kind: doctor probe), "
    "read-only; the live session's traffic is in the Traffic log"
)
# The doctor's words that name the command line, in the app's (where the app's user chooses), for the
# reasons a check did not run and what a check does; a phrase the doctor no longer says is left alone
APP_WORDS = {
    NO_HOST: "no host chosen: pick one in the Tools tab's Host check or the Budget's Host picker",
    "chosen with --host": "chosen in the Tools tab's Host check",
    "named with --call": "ticked in Run doctor's list",
}


def summary(report: DoctorReport) -> str:
    counts = report.counts()
    era = f"{report.era} {report.version or ''}".strip() if report.era else "not connected"
    name = item_text(report.server.get("name") or report.target)
    return (
        f"Score {report.score}/100 · {report.coverage_line()} — {counted(counts['error'], 'error')}, "
        f"{counted(counts['warning'], 'warning')}, {counted(counts['info'], 'note')} — {name} ({era}) "
        f"in {report.seconds:.2f} s"
    )


def coverage(report: DoctorReport | None) -> str:
    """How many checks did not run and which, in the table's order (why: the Checks page)."""
    if report is None:
        return ""
    not_run = report.not_run()
    if not not_run:
        return f"Every check ran ({len(report.coverage)})."
    return (
        f"Not run: {len(not_run)} of {counted(len(report.coverage), 'check')}: "
        + ", ".join(o.check for o in not_run)
        + "."
    )


def in_app_words(report: DoctorReport) -> DoctorReport:
    """`report` with the words that name a command-line option said as the app's user acts (`APP_WORDS`), in
    its coverage (why not, what each check does) and its checks' reasons (the tab, the Checks page, exports)."""

    def said(text: str) -> str:
        for cli, app in APP_WORDS.items():
            text = text.replace(cli, app)
        return text

    report.coverage = [dataclasses.replace(o, reason=said(o.reason), what=said(o.what)) for o in report.coverage]
    report.reasons = {
        check: [(status, said(why), item) for status, why, item in said_of] for check, said_of in report.reasons.items()
    }
    return report


class DoctorTab(QWidget):
    """`profile()` is the server to examine: the live session's (its ${…} filled in) or the saved one."""

    def __init__(self, session: SessionController, settings: QSettings, profile: Callable[[], ServerProfile]) -> None:
        super().__init__()
        self.setObjectName("doctorTab")
        self.session = session
        self.settings = settings
        self.profile = profile
        self.report: DoctorReport | None = None  # the last one, kept while the app runs
        self.listing: ToolListing | None = None  # the live session's tools
        self.running: asyncio.Task[DoctorReport] | None = None
        self.connections: DoctorConnections | None = None  # the running doctor's (each records its traffic)
        session.toolsChanged.connect(self._tools_changed)
        self._build()

    def _build(self) -> None:
        self.intro = intro = QLabel(f"{INTRO} {RULE}")  # until the first report: then the findings get the room
        intro.setWordWrap(True)
        intro.setTextFormat(Qt.TextFormat.PlainText)
        self.run_button = QPushButton("Run doctor")
        self.run_button.setAccessibleName("Run doctor")
        self.run_button.clicked.connect(self.ask)
        self.cancel_button = QPushButton("Cancel doctor")
        self.cancel_button.setAccessibleName("Cancel doctor")
        self.cancel_button.clicked.connect(self.cancel)
        self.cancel_button.hide()
        self.progress = QProgressBar()
        self.progress.setAccessibleName("Doctor progress")
        self.progress.setRange(0, 0)  # busy until the first check starts; then its place in the table
        self.progress.setMaximumWidth(160)
        self.progress.hide()
        self.export_json = QPushButton("Export JSON…")
        self.export_json.setAccessibleName("Export JSON…")
        self.export_json.clicked.connect(lambda: self.export("json"))
        self.export_junit = QPushButton("Export JUnit…")
        self.export_junit.setAccessibleName("Export JUnit…")
        self.export_junit.clicked.connect(lambda: self.export("junit"))
        self.probe_traffic = QPushButton("Probe traffic…")
        self.probe_traffic.setAccessibleName("Probe traffic…")
        self.probe_traffic.setToolTip(PROBE_TRAFFIC)
        self.probe_traffic.clicked.connect(self.show_probe_traffic)
        bar = QHBoxLayout()
        for widget in (self.run_button, self.cancel_button, self.progress):
            bar.addWidget(widget)
        bar.addStretch(1)
        bar.addWidget(self.probe_traffic)
        bar.addWidget(self.export_json)
        bar.addWidget(self.export_junit)
        self.score = PlainLabel("No report yet: press Run doctor.")
        self.score.setAccessibleName("Doctor score")
        self.score.setTextFormat(Qt.TextFormat.PlainText)
        self.score.setWordWrap(True)
        self.score.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.score.setToolTip(RULE)
        self.coverage = ElidedLabel(lines=2)  # check ids only: whole in two lines; the whole text in its tooltip
        self.coverage.setAccessibleName("Doctor coverage")
        self.host_line = ElidedLabel(lines=2)  # the chosen host's verdicts: apart from the score; whole in its tooltip
        self.host_line.setAccessibleName("Doctor host verdicts")
        self.why_not = QPushButton("Why not…")  # the Checks page: every check, and why one did not run
        self.why_not.setAccessibleName("Why not…")
        self.why_not.setToolTip("The Checks page: every check of the table, whether it ran, and why not")
        self.why_not.clicked.connect(lambda: self.pages.setCurrentWidget(self.checks))
        self.findings = FindingsView()
        self.checks = ChecksView()
        self.pages = QTabWidget()  # the findings, and every check with whether it ran
        self.pages.setObjectName("doctorPages")
        self.pages.setDocumentMode(True)
        self.pages.addTab(self.findings, "Findings")
        self.pages.addTab(self.checks, "Checks")
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(bar)
        layout.addWidget(self.score)
        line = QHBoxLayout()
        line.addWidget(self.coverage, 1)
        line.addWidget(self.why_not, 0, Qt.AlignmentFlag.AlignTop)
        layout.addLayout(line)
        layout.addWidget(self.host_line)
        layout.addWidget(self.pages, 1)
        self._show()

    def _tools_changed(self, listing: ToolListing) -> None:
        self.listing = listing

    # -- running -------------------------------------------------------------------------------
    def ask(self) -> DoctorToolsDialog:
        """Run doctor: first the dialog of the tools it may call (opened without blocking)."""
        live = self.session.state == CONNECTED and self.listing is not None
        tools = [t for t in self.listing.tools if isinstance(t, dict)] if live and self.listing else None
        dialog = DoctorToolsDialog(self, self.profile().name, tools, self.start)
        dialog.open()
        return dialog

    def start(self, ticked: frozenset[str] | None) -> None:
        """Run the doctor; `ticked` the only tools it may call (None: those marked readOnlyHint)."""
        if self.running is not None and not self.running.done():
            return
        profile = self.session.profile if self.session.state == CONNECTED else None
        if profile is None:
            try:
                profile = resolve_profile(self.profile(), os.environ)  # its ${env:…} references filled in
            except Unresolved as exc:  # never run with a reference in place of its value
                show_error(self, "Doctor", f"{exc}\nConnect the server first: the values it asks for are used then.")
                return
        connections = DoctorConnections(profile, request_timeout=PROBE_TIMEOUT, auth_for=self.session.auth_for)
        options = DoctorOptions(timeout=PROBE_TIMEOUT, on_check=self._checking)
        self.progress.setRange(0, 0)
        host = str(self.settings.value(HOST_SETTING, "") or "")
        if host in HOSTS:  # the host chosen in the Tools tab's Host check (or the Budget's): its verdicts too
            options.hosts = (host,)
        if ticked is not None:
            tools = self.listing.tools if self.listing else []
            marked = {str(t.get("name")) for t in tools if isinstance(t, dict) and read_only(t)}
            options.allowed = ticked
            options.call = tuple(sorted(ticked - marked))  # the others the user chose (the CLI's --call)
        self.connections = connections
        self.running = asyncio.ensure_future(self._run(connections, profile, options))
        self.running.add_done_callback(self._finished)
        self._show()

    async def _run(
        self, connections: DoctorConnections, profile: ServerProfile, options: DoctorOptions
    ) -> DoctorReport:
        tokenizer = await asyncio.to_thread(_tokenizer)
        return await run_doctor(
            connections.open,
            target=_describe(profile),
            era=profile.protocol_era,
            store_of=connections.store_of,
            options=options,
            tokenizer=tokenizer,
        )

    def _finished(self, task: asyncio.Task[DoctorReport]) -> None:
        if task is not self.running or not isValid(self):  # a later run, or the server (and its tab) deleted
            return
        self.running = None
        if task.cancelled():
            self.score.setText("The doctor was cancelled." + (" The last report:" if self.report else ""))
            self._show(keep_score=True)
            return
        error = task.exception()
        if error is not None:
            self._show()
            show_error(self, "Doctor", f"The doctor stopped: {type(error).__name__}: {error}")
            return
        self.report = in_app_words(task.result())
        self._show()

    def _checking(self, check: str) -> None:
        """A check starts: the progress bar and the line above the findings say which, of how many."""
        if not isValid(self):
            return
        ids = [c.id for c in CHECKS]
        place = ids.index(check) + 1 if check in ids else self.progress.value()
        self.progress.setRange(0, len(ids))
        self.progress.setValue(place)
        self.score.setText(
            f"Running the doctor on {item_text(self.profile().name)}… check {place} of {len(ids)}: {check}"
        )

    def cancel(self) -> None:
        if self.running is not None:
            self.running.cancel()

    async def shutdown(self) -> None:
        """The server's space closes: a running doctor stops and its connections close before it ends."""
        task = self.running
        if task is not None and not task.done():
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    def _show(self, keep_score: bool = False) -> None:
        busy = self.running is not None and not self.running.done()
        self.run_button.setEnabled(not busy)
        self.cancel_button.setVisible(busy)
        self.progress.setVisible(busy)
        self.export_json.setEnabled(self.report is not None and not busy)
        self.export_junit.setEnabled(self.report is not None and not busy)
        self.probe_traffic.setEnabled(self.connections is not None and not busy)
        if busy:
            self.score.setText(f"Running the doctor on {item_text(self.profile().name)}…")
        elif not keep_score:
            self.score.setText(summary(self.report) if self.report else "No report yet: press Run doctor.")
        self.intro.setVisible(self.report is None)
        if not busy:
            self.coverage.setText(coverage(self.report))
            self.coverage.setVisible(self.report is not None)
            self.why_not.setVisible(self.report is not None and bool(self.report.not_run()))
            self.host_line.setText(
                " ".join(host_summary(judged) for judged in self.report.hosts) if self.report else ""
            )
            self.host_line.setVisible(self.report is not None and bool(self.report.hosts))
            self.findings.show_report(self.report)
            self.checks.show_report(self.report)

    def show_probe_traffic(self) -> ViewerWindow | None:
        """Probe traffic…: the last run's own traffic in a read-only traffic window."""
        if self.connections is None:
            return None
        traffic = self.connections.traffic
        name = "the doctor's last run"  # its status line: "N entries from the doctor's last run"
        title = f"The doctor's own traffic: {traffic.server}, its connections and probes"
        window = ViewerWindow(traffic.mirror, name, traffic.meta(), self, title=title)
        window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        window.show()
        return window

    # -- exporting -----------------------------------------------------------------------------
    def export(self, fmt: str) -> QFileDialog:
        """Export JSON… / Export JUnit…: a file dialog (not blocking); the report is written once a file is chosen."""
        filters, suffix = EXPORTS[fmt]
        folder = self.settings.value(FOLDER_KEY)
        start = str(folder) if isinstance(folder, str) and Path(folder).is_dir() else str(Path.home())
        dialog = QFileDialog(self, "Export the doctor's report", start, f"{filters};;All files (*)")
        dialog.setObjectName("exportDoctorDialog")
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setDefaultSuffix(suffix)
        dialog.selectFile(f"doctor-{_file_safe(self.profile().name)}.{suffix}")
        dialog.fileSelected.connect(lambda name: self._write(Path(name), fmt))
        dialog.open()
        return dialog

    def _write(self, path: Path, fmt: str) -> None:
        if self.report is None:
            return
        self.settings.setValue(FOLDER_KEY, str(path.parent))
        try:
            write_atomic(path, RENDERERS[fmt](self.report))
        except OSError as exc:
            show_error(self, "Export failed", f"Could not write {path}: {exc.strerror or exc}")


def _tokenizer() -> Any:
    """The Budget tab's default tokenizer, for the budget lints (none if it cannot load: the lints are skipped)."""
    from inspector.budget.tokenizers import get_tokenizer

    try:
        return get_tokenizer("o200k_base")
    except Exception:
        return None


def _describe(profile: ServerProfile) -> str:
    import shlex

    safe = profile.redacted()
    return shlex.join([safe.command, *safe.args]) if safe.transport == "stdio" else str(safe.url)


def _file_safe(name: str) -> str:
    import re

    return re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.")[:60] or "server"
