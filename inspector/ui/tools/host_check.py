"""The Tools tab's host check: pick a host (Claude Code, OpenAI strict, Gemini, …) and each tool in the list
says whether that host accepts it as is, changes it or refuses it (`inspector.budget.acceptance`)."""

from __future__ import annotations

from PySide6.QtCore import QSettings, Signal
from PySide6.QtWidgets import QComboBox, QWidget

from inspector.budget.host_rules import HOSTS

NO_HOST = ""
NONE_LABEL = "No host check"
SETTING = "budget/host"  # shared with the Budget's host picker: one host chosen, in both tabs


class HostCheck(QComboBox):
    """`hostChanged(name)`: the chosen host's name, "" for none; the choice persists under ``budget/host``, the
    Budget's host picker's setting (the workspace keeps the two pickers in step while both are open)."""

    hostChanged = Signal(str)

    def __init__(self, settings: QSettings | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.setObjectName("toolsHostCheck")
        self.setAccessibleName("Host check")
        self.setToolTip(
            "Will this host accept each tool? Every tool then says: accepted as is, changed by the host (how), "
            "or refused (why), with the host's rule and its source in the tool's tooltip"
        )
        self.addItem(NONE_LABEL, NO_HOST)
        for host in HOSTS.values():
            self.addItem(host.label, host.name)
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        # The tool list stays narrow (the README's 800×700 window): a host's name is cut when the list is.
        self.setMinimumContentsLength(4)
        if settings is not None:
            self.setCurrentIndex(max(0, self.findData(str(settings.value(SETTING, NO_HOST)))))
        self.currentIndexChanged.connect(self._changed)

    def host_name(self) -> str:
        return str(self.currentData() or NO_HOST)

    def set_host(self, name: str) -> None:
        """Choose ``name`` (a host of the table, or "" for none); nothing happens when it is already chosen."""
        index = self.findData(name if name in HOSTS else NO_HOST)
        if index != self.currentIndex():
            self.setCurrentIndex(index)

    def _changed(self) -> None:
        if self.settings is not None:
            self.settings.setValue(SETTING, self.host_name())
        self.hostChanged.emit(self.host_name())
