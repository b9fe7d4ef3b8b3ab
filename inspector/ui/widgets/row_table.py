"""The settings every read-only table of records shares: one whole row selected at a time, no editing,
one line per row, no row numbers, columns that fit the table's width."""

from __future__ import annotations

from PySide6.QtWidgets import QAbstractItemView, QTableView

from inspector.ui.widgets.fit_columns import fit_columns


def one_row_at_a_time(table: QTableView) -> None:
    """Make `table` a read-only list of rows: select a whole row, one at a time; no editing, no word
    wrap, no vertical header; its columns give way so that every one stays in sight (`fit_columns`)."""
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setWordWrap(False)
    table.verticalHeader().hide()
    fit_columns(table)
