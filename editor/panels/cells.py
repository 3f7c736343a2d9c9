"""Table helpers shared by the panels: fill a table in place."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTableWidget, QTableWidgetItem


def fill_table(
    table: QTableWidget, rows: Sequence[Sequence[str]], read_only: Collection[int] = ()
) -> None:
    """Show ``rows`` in ``table``, changing only the cells whose text differs.

    Items are kept, not replaced: this runs after an edit, often inside the table's own
    itemChanged signal, where replacing the edited item would delete it under Qt's feet
    (and an open cell editor would lose its index)."""
    table.blockSignals(True)
    try:
        if table.rowCount() != len(rows):
            table.setRowCount(len(rows))
        for r, vals in enumerate(rows):
            for c, text in enumerate(vals):
                it = table.item(r, c)
                if it is None:
                    it = QTableWidgetItem(text)
                    if c in read_only:
                        it.setFlags(it.flags() & ~Qt.ItemIsEditable)
                    table.setItem(r, c, it)
                elif it.text() != text:
                    it.setText(text)
    finally:
        table.blockSignals(False)
    table.viewport().update()
