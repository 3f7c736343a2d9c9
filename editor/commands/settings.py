"""Commands for forces, buildings and the scenario's own settings."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

from fireground.engine.board.model import Building, ForceUnit

from .. import ops
from .base import ScenarioCommand

if TYPE_CHECKING:
    from ..document import Document


class ChangeForcesCommand(ScenarioCommand):
    def __init__(self, doc: Document, forces: Sequence[ForceUnit], text: str) -> None:
        super().__init__(doc, ops.set_forces(doc.scenario, forces), text)


class ChangeSettingsCommand(ScenarioCommand):
    """Name, description, wind, bombing, mains, turns, seed, objectives, house rules;
    typing into the same field merges."""

    MERGE_ID = 401

    def __init__(self, doc: Document, merge: bool = True, **fields: Any) -> None:
        super().__init__(
            doc, ops.set_settings(doc.scenario, **fields), "Change " + ", ".join(sorted(fields))
        )
        self._key = tuple(sorted(fields)) if merge else None

    def merge_key(self) -> Hashable | None:
        return self._key


class AddBuildingCommand(ScenarioCommand):
    def __init__(self, doc: Document, building: Building) -> None:
        super().__init__(
            doc, ops.add_building(doc.scenario, building), f"Add building {building.id}"
        )
