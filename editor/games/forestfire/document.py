"""The Forest Fire document: the scenario being edited, its file, undo stack and the edit
commands (every change is an undo command; nothing else assigns to the setup)."""

from __future__ import annotations

import copy
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from fireground.engine.games.forestfire.cli import atomic_write_text
from fireground.engine.games.forestfire.scenario import Setup, dump_setup


class FFDocument(QObject):
    """One Forest Fire scenario open in the editor."""

    changed = Signal()

    def __init__(self, setup: Setup, path: Path | None = None) -> None:
        super().__init__()
        self.setup = setup
        self.path = path
        self.undo = QUndoStack(self)
        self.undo.indexChanged.connect(self.changed)

    @property
    def modified(self) -> bool:
        return not self.undo.isClean()

    def save(self, path: Path | None = None) -> None:
        """Write the scenario atomically (the old file or the new one, never half)."""
        target = path or self.path
        if target is None:
            raise ValueError("no file name to save to")
        self.setup.filename = str(target)
        atomic_write_text(str(target), dump_setup(self.setup))
        self.path = target
        self.undo.setClean()


class SetTokensCommand(QUndoCommand):
    """The fire tokens on one square (any count: there is no 1-5 cap in Forest Fire)."""

    def __init__(self, doc: FFDocument, square: int, count: int) -> None:
        super().__init__(f"Set square {square} to {count} token(s)")
        self.doc, self.square, self.count = doc, square, count
        self.before = doc.setup.tokens.get(square, 0)

    def _set(self, n: int) -> None:
        if n:
            self.doc.setup.tokens[self.square] = n
        else:
            self.doc.setup.tokens.pop(self.square, None)
        self.doc.changed.emit()

    def redo(self) -> None:
        self._set(self.count)

    def undo(self) -> None:
        self._set(self.before)


class SetEngineCommand(QUndoCommand):
    """An engine's square or water (``field`` is ``square`` or ``water``)."""

    def __init__(self, doc: FFDocument, index: int, field: str, value: int) -> None:
        e = doc.setup.engines[index]
        super().__init__(f"{e.id} {field} {value}")
        self.doc, self.index, self.field, self.value = doc, index, field, value
        self.before = getattr(e, field)

    def _set(self, v: int) -> None:
        setattr(self.doc.setup.engines[self.index], self.field, v)
        self.doc.changed.emit()

    def redo(self) -> None:
        self._set(self.value)

    def undo(self) -> None:
        self._set(self.before)

    def id(self) -> int:
        return 1701  # consecutive edits of one engine's field merge into one step

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, SetEngineCommand):
            return False
        if (other.index, other.field) != (self.index, self.field):
            return False
        self.value = other.value
        return True


def snapshot(setup: Setup) -> Setup:
    """A copy of the setup for a test game (the game never touches the document)."""
    return copy.deepcopy(setup)
