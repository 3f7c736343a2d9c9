"""The base undo command: it holds the scenario before and after the edit.

Scenarios are immutable and share unchanged parts, so keeping both is cheap, and undo
restores exactly what was there.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING

from PySide6.QtGui import QUndoCommand

from fireground.engine.board.model import Scenario

if TYPE_CHECKING:
    from ..document import Document


class ScenarioCommand(QUndoCommand):
    """Replace the document's scenario with ``after``; undo puts ``before`` back.

    Subclasses compute ``after`` from the current scenario in their constructor. A command
    with a :meth:`merge_key` merges with the next one of the same class and key (drags,
    typing in a field) so one gesture is one undo step.
    """

    #: Qt merge id; each merging subclass sets its own (any distinct positive int).
    MERGE_ID = -1

    def __init__(self, doc: Document, after: Scenario, text: str) -> None:
        super().__init__(text)
        self.doc = doc
        self.before: Scenario = doc.scenario
        self.after: Scenario = after

    def redo(self) -> None:
        self.doc.apply(self.after)

    def undo(self) -> None:
        self.doc.apply(self.before)

    def merge_key(self) -> Hashable | None:
        return None

    def id(self) -> int:
        return self.MERGE_ID if self.merge_key() is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, type(self)) or type(other) is not type(self):
            return False
        key = self.merge_key()
        if key is None or other.merge_key() != key:
            return False
        self.after = other.after
        if self.after == self.before:
            self.setObsolete(True)
        return True


class ReplaceScenarioCommand(ScenarioCommand):
    """Swap in a whole scenario (restoring a recovery file)."""

    def __init__(self, doc: Document, scenario: Scenario, text: str) -> None:
        super().__init__(doc, scenario, text)
