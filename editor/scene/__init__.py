"""The map canvas: a QGraphicsScene of areas and features, and the view that shows it."""

from .coords import from_scene, to_scene
from .map_scene import MapScene

__all__ = ["MapScene", "from_scene", "to_scene"]
