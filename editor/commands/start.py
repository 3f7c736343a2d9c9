"""Commands for the starting situation: brushes, an umpire's state (BLITZ!'s dropped
bombs are in editor/games/blitz/bombs.py)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

from fireground.engine.board.model import Location

from .. import ops_start
from .base import ScenarioCommand

if TYPE_CHECKING:
    from ..document import Document


class PaintStartCommand(ScenarioCommand):
    """Paint one layer (fire, embers, damp, damage, rubble, craters) at some locations;
    one brush stroke (same ``stroke``) is one undo step."""

    MERGE_ID = 301

    def __init__(
        self,
        doc: Document,
        layer: str,
        locations: Sequence[Location],
        value: int | None,
        stroke: int | None = None,
    ) -> None:
        s = doc.scenario
        for area, level in locations:
            s = ops_start.paint_start(s, layer, area, level, value)
        what = f"{layer} {value}" if value and ops_start.BRUSHES.get(layer) else layer
        verb = "Paint" if value else "Clear"
        super().__init__(doc, s, f"{verb} {what}")
        self._key = (layer, value, stroke) if stroke is not None else None

    def merge_key(self) -> Hashable | None:
        return self._key


class UseStateAsStartCommand(ScenarioCommand):
    def __init__(self, doc: Document, state: dict[str, Any], turn: int) -> None:
        super().__init__(
            doc,
            ops_start.start_from_state(doc.scenario, state),
            f"Use the state after turn {turn} as the start",
        )
