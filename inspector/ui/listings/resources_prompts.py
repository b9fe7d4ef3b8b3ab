"""Hooks that put the Resources and Prompts tabs and the log-level control into the main window."""

from __future__ import annotations

from typing import Any

from inspector.ui.listings.prompts_tab import install_prompts_tab
from inspector.ui.listings.resources_tab import install_resources_tab
from inspector.ui.traffic.log_level import install_log_level

__all__ = ["install_log_level", "install_resource_prompt_tabs"]


def install_resource_prompt_tabs(window: Any) -> None:
    """Resources at index 1, Prompts at 2; a resource link in a prompt message opens in Resources."""
    resources_tab = install_resources_tab(window)
    prompts_tab = install_prompts_tab(window)

    def read_in_resources(uri: str) -> None:
        window.tabs.setCurrentWidget(resources_tab)
        resources_tab.read(uri)

    prompts_tab.view.readResourceRequested.connect(read_in_resources)
    for tab in (resources_tab, prompts_tab):
        tab.cli_target = lambda: window.workbench.history.cli_target  # set on each connect
