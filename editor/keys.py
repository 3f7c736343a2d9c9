"""Keep typing where it is typed: single-key tool shortcuts yield to text fields and
tables (as Tiled's editors keep their keystrokes)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QLineEdit,
    QPlainTextEdit,
    QTextEdit,
    QWidget,
)

#: Widgets that take plain keys as input: a table cell starts editing on a letter, a combo
#: box searches its items, the others are text.
TYPING = (QLineEdit, QTextEdit, QPlainTextEdit, QAbstractSpinBox, QAbstractItemView, QComboBox)
_COMMAND = Qt.ControlModifier | Qt.AltModifier | Qt.MetaModifier


def takes_plain_keys(w: QWidget | None) -> bool:
    return isinstance(w, TYPING)


class TypingGuard(QObject):
    """An application event filter: a key without Ctrl, Alt or Meta pressed while a typing
    widget of ``window`` has the focus goes to that widget, not to a shortcut (tool keys,
    + and -, Del, PgUp/PgDn). Keys with Ctrl (Ctrl+S, Ctrl+Z…) stay shortcuts."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self.window = window
        app = QApplication.instance()
        if app is not None:
            app.installEventFilter(self)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.ShortcutOverride and isinstance(event, QKeyEvent):
            focus = obj if isinstance(obj, QWidget) else None  # the widget keys go to
            if (
                focus is not None
                and takes_plain_keys(focus)
                and not (event.modifiers() & _COMMAND)
                and self.window.isAncestorOf(focus)
            ):
                event.accept()  # the key goes to the focus widget as a key press
        return False
