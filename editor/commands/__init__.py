"""Undo commands: one class per kind of edit (see base.ScenarioCommand)."""

from .areas import (
    AddAreasCommand,
    ChangePolygonCommand,
    MergeAreasCommand,
    MoveAreasCommand,
    RemoveAreasCommand,
    SplitAreaCommand,
)
from .background import ChangeBackgroundCommand
from .base import ReplaceScenarioCommand, ScenarioCommand
from .features import AddFeatureCommand, ChangeFeatureCommand, RemoveFeaturesCommand
from .properties import ChangePropertiesCommand
from .settings import AddBuildingCommand, ChangeForcesCommand, ChangeSettingsCommand
from .start import DropBombsCommand, PaintStartCommand, UseStateAsStartCommand

__all__ = [
    "AddAreasCommand",
    "AddBuildingCommand",
    "AddFeatureCommand",
    "ChangeBackgroundCommand",
    "ChangeFeatureCommand",
    "ChangeForcesCommand",
    "ChangePolygonCommand",
    "ChangePropertiesCommand",
    "ChangeSettingsCommand",
    "DropBombsCommand",
    "MergeAreasCommand",
    "MoveAreasCommand",
    "PaintStartCommand",
    "RemoveAreasCommand",
    "RemoveFeaturesCommand",
    "ReplaceScenarioCommand",
    "ScenarioCommand",
    "SplitAreaCommand",
    "UseStateAsStartCommand",
]
