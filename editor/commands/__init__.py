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
from .start import PaintStartCommand, UseStateAsStartCommand

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
