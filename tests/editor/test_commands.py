"""Every undo command undoes and redoes exactly (document only, no window)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from editor_helpers import sq

from fireground.editor import commands as c
from fireground.editor.document import Document
from fireground.editor.games.blitz.bombs import DropBombsCommand
from fireground.engine.board.model import (
    Area,
    AreaKind,
    Building,
    Feature,
    FeatureType,
    ForceUnit,
    Scenario,
    Wind,
)

CASES: dict[str, Callable[[Document], object]] = {
    "add area": lambda d: c.AddAreasCommand(d, [Area("O1", AreaKind.OPEN, sq(0, -20))]),
    "remove area": lambda d: c.RemoveAreasCommand(d, ["H1"]),
    "change polygon": lambda d: c.ChangePolygonCommand(d, "R1", sq(0, 0, 20, 8)),
    "move": lambda d: c.MoveAreasCommand(d, ["H1", "H2"], 0, 5),
    "split cells": lambda d: c.SplitAreaCommand(d, "R1", cell_cm=5),
    "split line": lambda d: c.SplitAreaCommand(d, "R1", line=[(10, -1), (10, 11)]),
    "merge": lambda d: c.MergeAreasCommand(d, ["H1", "H2"]),
    "properties": lambda d: c.ChangePropertiesCommand(d, [("area", "H1")], {"name": "Shop"}),
    "rename": lambda d: c.ChangePropertiesCommand(d, [("area", "R1")], {"id": "ROAD"}),
    "building": lambda d: c.ChangePropertiesCommand(d, [("building", "house")], {"levels": 3}),
    "add feature": lambda d: c.AddFeatureCommand(
        d, Feature(FeatureType.OCCUPANTS, "H2", level=1, count=3)
    ),
    "remove feature": lambda d: c.RemoveFeaturesCommand(d, [0]),
    "change feature": lambda d: c.ChangeFeatureCommand(
        d, 1, Feature(FeatureType.HYDRANT, "R1", pressure=7)
    ),
    "paint": lambda d: c.PaintStartCommand(d, "fire", [("H1", 1), ("H2", 0)], 3),
    "bombs": lambda d: DropBombsCommand(d, 4, 11),
    "forces": lambda d: c.ChangeForcesCommand(
        d, [ForceUnit("E1", "escape_carrying_unit", area="R1")], "Add unit"
    ),
    "settings": lambda d: c.ChangeSettingsCommand(d, wind=Wind("SW", True), turns=12),
    "add building": lambda d: c.AddBuildingCommand(d, Building("shop", levels=3)),
    "use state": lambda d: c.UseStateAsStartCommand(
        d, {"fires": [{"area": "H2", "level": 1, "fire": 2}], "rubble": ["R1"]}, 3
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_command_undoes_and_redoes_exactly(name: str, small: Scenario) -> None:
    doc = Document(small)
    seen: list[tuple[Scenario, Scenario]] = []
    doc.scenarioChanged.connect(lambda old, new: seen.append((old, new)))
    doc.push(CASES[name](doc))
    after = doc.scenario
    assert after != small, "the command must change something"
    assert doc.modified
    doc.undo_stack.undo()
    assert doc.scenario == small
    assert not doc.modified
    doc.undo_stack.redo()
    assert doc.scenario == after
    assert len(seen) == 3 and seen[1] == (after, small)


def test_drag_steps_merge_into_one_undo(small: Scenario) -> None:
    doc = Document(small)
    for dy in (1, 1, 1):
        doc.push(c.MoveAreasCommand(doc, ["H1"], 0, dy, drag=42))
    assert doc.undo_stack.count() == 1
    assert doc.scenario.area("H1").polygon[0] == (0, 13)
    doc.undo_stack.undo()
    assert doc.scenario == small


def test_typing_in_one_field_merges_but_another_field_does_not(small: Scenario) -> None:
    doc = Document(small)
    for text in ("S", "Sh", "Shop"):
        doc.push(c.ChangePropertiesCommand(doc, [("area", "H1")], {"name": text}))
    doc.push(c.ChangePropertiesCommand(doc, [("area", "H2")], {"name": "Pub"}))
    assert doc.undo_stack.count() == 2
    doc.undo_stack.undo()
    assert doc.scenario.area("H1").name == "Shop"
    doc.undo_stack.undo()
    assert doc.scenario == small


def test_multi_edit_changes_every_selected_area(small: Scenario) -> None:
    doc = Document(small)
    doc.push(c.ChangePropertiesCommand(doc, [("area", "H1"), ("area", "H2")], {"name": "Row"}))
    assert {doc.scenario.area(i).name for i in ("H1", "H2")} == {"Row"}


def test_selection_drops_deleted_areas(small: Scenario) -> None:
    doc = Document(small)
    doc.select_areas(["H1", "H2"])
    doc.push(c.RemoveAreasCommand(doc, ["H1"]))
    assert doc.selection.areas == ("H2",)
