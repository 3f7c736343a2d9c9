"""The generic property command (Tiled's ChangeValue): one or more fields of one or more
objects; consecutive edits of the same fields of the same objects merge into one step."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from fireground.engine.board.model import Scenario

from .. import ops
from .base import ScenarioCommand

if TYPE_CHECKING:
    from ..document import Document

#: A target: ("area", id) | ("building", id) | ("feature", index) | ("unit", id) |
#: ("scenario", "") for the scenario's own settings.
Target = tuple[str, Any]


def apply_properties(s: Scenario, target: Target, changes: Mapping[str, Any]) -> Scenario:
    kind, key = target
    if kind == "area":
        return ops.set_area_fields(s, key, **changes)
    if kind == "building":
        return ops.set_building_fields(s, key, **changes)
    if kind == "feature":
        return ops.replace_feature(s, key, replace(s.features[key], **changes))
    if kind == "unit":
        return ops.set_unit_fields(s, key, **changes)
    if kind == "scenario":
        return ops.set_settings(s, **changes)
    raise ValueError(f"unknown property target {kind!r}")


class ChangePropertiesCommand(ScenarioCommand):
    MERGE_ID = 201

    def __init__(
        self,
        doc: Document,
        targets: Sequence[Target],
        changes: Mapping[str, Any],
        *,
        merge: bool = True,
    ) -> None:
        s = doc.scenario
        for t in targets:
            s = apply_properties(s, t, changes)
        names = ", ".join(sorted(changes))
        super().__init__(doc, s, f"Change {names}")
        self._key = (tuple(targets), tuple(sorted(changes))) if merge else None

    def merge_key(self) -> Hashable | None:
        return self._key
