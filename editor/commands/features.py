"""Commands for map features (stairwells, hydrants, water, stores, occupants, ...)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from fireground.engine.board.model import Feature

from .. import ops
from .base import ScenarioCommand

if TYPE_CHECKING:
    from ..document import Document


class AddFeatureCommand(ScenarioCommand):
    def __init__(self, doc: Document, feature: Feature) -> None:
        super().__init__(
            doc,
            ops.add_feature(doc.scenario, feature),
            f"Add {feature.type.value} in {feature.area}",
        )


class RemoveFeaturesCommand(ScenarioCommand):
    def __init__(self, doc: Document, indices: Sequence[int]) -> None:
        super().__init__(
            doc,
            ops.remove_features(doc.scenario, indices),
            "Delete feature" if len(indices) == 1 else "Delete features",
        )


class ChangeFeatureCommand(ScenarioCommand):
    def __init__(self, doc: Document, index: int, feature: Feature) -> None:
        super().__init__(
            doc, ops.replace_feature(doc.scenario, index, feature), f"Change {feature.type.value}"
        )
