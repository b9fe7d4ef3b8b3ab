"""Helpers for the UI tests."""

from __future__ import annotations

from pathlib import Path

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"


def screenshot(widget, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / name
    assert widget.grab().save(str(path)), f"could not save {path}"
    return path
