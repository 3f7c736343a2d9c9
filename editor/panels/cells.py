"""Table helpers shared by the panels: fill a table in place, check cells as typed."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import (
    QCompleter,
    QLineEdit,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)


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


class CheckedDelegate(QStyledItemDelegate):
    """Edit a cell in a line that says, as the text is typed, whether the value will do:
    ``check(row, text)`` returns why not (shown in red at once) or None. A value that will
    not do is not stored; the cell keeps the last good one. ``choices`` completes."""

    def __init__(
        self,
        check: Callable[[int, str], str | None],
        report: Callable[[str], None],
        choices: Callable[[], list[str]] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.check = check
        self.report = report
        self.choices = choices

    def createEditor(
        self,
        parent: QWidget,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> QWidget:
        line = QLineEdit(parent)
        if self.choices is not None:
            done = QCompleter(self.choices(), line)
            done.setCaseSensitivity(Qt.CaseInsensitive)
            line.setCompleter(done)
        row = index.row()
        line.textChanged.connect(lambda text, ln=line: self._show(ln, row, text))
        return line

    def _show(self, line: QLineEdit, row: int, text: str) -> str | None:
        why = self.check(row, text.strip())
        line.setStyleSheet("QLineEdit { background: #ffd8d8; }" if why else "")
        line.setToolTip(why or "")
        self.report(why or "")
        return why

    def setModelData(
        self,
        editor: QWidget,
        model: QAbstractItemModel,
        index: QModelIndex | QPersistentModelIndex,
    ) -> None:
        assert isinstance(editor, QLineEdit)
        if self._show(editor, index.row(), editor.text()) is None:
            model.setData(index, editor.text().strip())


def whole_number(text: str, lo: int, hi: int, what: str) -> str | None:
    """Why ``text`` is not a whole number in lo..hi (None when it is)."""
    try:
        n = int(text)
    except ValueError:
        return f"{what}: type a whole number ({lo}..{hi}), not {text!r}"
    return None if lo <= n <= hi else f"{what} must be {lo}..{hi}"
