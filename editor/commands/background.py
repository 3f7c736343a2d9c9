"""The tracing background: import, remove, and change its scale, place or opacity."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace
from typing import TYPE_CHECKING

from fireground.engine.board.model import Background

from .base import ScenarioCommand

if TYPE_CHECKING:
    from ..document import Document


class ChangeBackgroundCommand(ScenarioCommand):
    """Set (or, with None, remove) the background. Commands with the same ``merge`` key in a
    row merge into one step: dragging the opacity slider or the image is one undo."""

    MERGE_ID = 501

    def __init__(
        self,
        doc: Document,
        background: Background | None,
        text: str = "Change background",
        merge: Hashable | None = None,
    ) -> None:
        if background is not None:
            _check(background)
        super().__init__(doc, replace(doc.scenario, background=background), text)
        self._key = merge

    def merge_key(self) -> Hashable | None:
        return self._key


def _check(bg: Background) -> None:
    if not bg.image:
        raise ValueError("the background needs an image file")
    if not bg.cm_per_px > 0:
        raise ValueError("cm per pixel must be more than 0")
    if not 0.0 <= bg.opacity <= 1.0:
        raise ValueError("opacity must be 0..1")
