"""Commands that add, remove, reshape, split and merge areas."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

from fireground.engine.board.model import Area

from .. import ops
from ..geometry import Coord
from .base import ScenarioCommand

if TYPE_CHECKING:
    from ..document import Document


class AddAreasCommand(ScenarioCommand):
    def __init__(self, doc: Document, areas: Sequence[Area]) -> None:
        text = f"Add area {areas[0].id}" if len(areas) == 1 else f"Add {len(areas)} areas"
        super().__init__(doc, ops.add_areas(doc.scenario, areas), text)
        self.ids = tuple(a.id for a in areas)


class RemoveAreasCommand(ScenarioCommand):
    def __init__(self, doc: Document, ids: Sequence[str]) -> None:
        text = f"Delete area {ids[0]}" if len(ids) == 1 else f"Delete {len(ids)} areas"
        super().__init__(doc, ops.remove_areas(doc.scenario, ids), text)


class ChangePolygonCommand(ScenarioCommand):
    """New outline for one area; steps of one vertex drag (same ``drag``) merge."""

    MERGE_ID = 101

    def __init__(
        self, doc: Document, area_id: str, polygon: Sequence[Coord], drag: int | None = None
    ) -> None:
        super().__init__(
            doc, ops.set_polygon(doc.scenario, area_id, polygon), f"Change shape of {area_id}"
        )
        self._key = (area_id, drag) if drag is not None else None

    def merge_key(self) -> Hashable | None:
        return self._key


class MoveAreasCommand(ScenarioCommand):
    MERGE_ID = 102

    def __init__(
        self, doc: Document, ids: Sequence[str], dx: float, dy: float, drag: int | None = None
    ) -> None:
        text = f"Move {ids[0]}" if len(ids) == 1 else f"Move {len(ids)} areas"
        super().__init__(doc, ops.move_areas(doc.scenario, ids, dx, dy), text)
        self._key = (tuple(ids), drag) if drag is not None else None

    def merge_key(self) -> Hashable | None:
        return self._key


class SplitAreaCommand(ScenarioCommand):
    """Divide an area into ~area_cm cells, or cut it along a drawn line."""

    def __init__(
        self,
        doc: Document,
        area_id: str,
        *,
        line: Sequence[Coord] | None = None,
        cell_cm: float | None = None,
    ) -> None:
        s = doc.scenario
        after = (
            ops.split_area_line(s, area_id, line)
            if line is not None
            else ops.split_area_cells(s, area_id, cell_cm)
        )
        super().__init__(doc, after, f"Split {area_id}")
        self.new_ids = tuple(a.id for a in after.areas if a.id not in s.area_by_id)


class MergeAreasCommand(ScenarioCommand):
    def __init__(self, doc: Document, ids: Sequence[str]) -> None:
        super().__init__(doc, ops.merge_areas(doc.scenario, ids), f"Merge {len(ids)} areas")
