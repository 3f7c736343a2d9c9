"""Frozen value types for a BLITZ! scenario (format v1, see scenario-format.md).

Everything here is an immutable value: edit with :func:`dataclasses.replace` (or the
``with_*`` helpers on :class:`Scenario`) and compare with ``==``. Geometry is kept as plain
coordinate tuples so values compare exactly; :attr:`Area.shape` gives the shapely polygon.

>>> a = Area(id="S1", kind=AreaKind.BUILDING, building="b",
...          polygon=((0, 0), (10, 0), (10, 10), (0, 10)))
>>> a.shape.area
100.0
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, fields, replace
from functools import cached_property
from operator import attrgetter
from reprlib import recursive_repr
from typing import Any, TypeVar

import shapely
from shapely.geometry import Polygon

FORMAT_VERSION = 1

AreaId = str
BuildingId = str
UnitId = str
Point = tuple[float, float]
#: A location is one (area, level) pair.
Location = tuple[AreaId, int]


def place(loc: Location | dict[str, Any] | list[Any]) -> str:
    """A location as the umpire says it: ``H3`` (level 0), ``H3 level 2``, ``H3 basement``."""
    if isinstance(loc, dict):
        area, level = loc["area"], loc["level"]
    else:
        area, level = loc[0], loc[1]
    if level == 0:
        return str(area)
    if level == -1:
        return f"{area} basement"
    return f"{area} level {level}"


#: Where a value came from in the file: a path such as ("areas", 3, "polygon") -> (line, col),
#: both 1-based. Kept beside the scenario (never compared) so findings can cite lines.
SourceMap = Mapping[tuple[str | int, ...], tuple[int, int]]

_V = TypeVar("_V")


def _values_of(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """A function giving the tuple ``(self.a, self.b, ...)`` of ``names``."""
    if len(names) > 1:
        return attrgetter(*names)  # (a tuple for two names or more)
    if names:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    return lambda obj: ()


def _value_methods(cls: type[_V]) -> type[_V]:
    """Give a ``@dataclass(eq=False, repr=False)`` class the ``__eq__``, ``__hash__`` and
    ``__repr__`` that ``@dataclass(frozen=True)`` would write for it, with no source
    compiled: the same field tuples compared and hashed (so equal values and the same hash,
    hence the same order of a set of them), the same text. A dataclass compiles each of
    its methods with ``exec`` when the module is imported (about a million instructions
    apiece), and every process that loads a scenario imports this module."""
    fs = fields(cls)  # type: ignore[arg-type]
    compared = _values_of(tuple(f.name for f in fs if f.compare))
    hashed = _values_of(tuple(f.name for f in fs if (f.compare if f.hash is None else f.hash)))
    shown = tuple(f.name for f in fs if f.repr)

    def __eq__(self: Any, other: object) -> bool:
        if other.__class__ is self.__class__:
            return compared(self) == compared(other)
        return NotImplemented

    def __hash__(self: Any) -> int:
        return hash(hashed(self))

    @recursive_repr()
    def __repr__(self: Any) -> str:
        inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in shown)
        return f"{self.__class__.__qualname__}({inner})"

    for method in (__eq__, __hash__, __repr__):
        method.__qualname__ = f"{cls.__qualname__}.{method.__name__}"
        setattr(cls, method.__name__, method)
    return cls


class AreaKind(enum.StrEnum):
    BUILDING = "building"
    STREET = "street"
    OPEN = "open"
    WATER = "water"


class FeatureType(enum.StrEnum):
    STAIRWELL = "stairwell"
    STORE = "store"
    HYDRANT = "hydrant"
    WATER = "water"
    OCCUPANTS = "occupants"
    ENTRY = "entry"
    LABEL = "label"


class Material(enum.StrEnum):
    OIL = "oil"
    PETROL = "petrol"
    WOOD = "wood"


COMPASS: tuple[str, ...] = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


@_value_methods
@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Building:
    id: BuildingId
    name: str = ""
    levels: int = 1
    basement: bool = False

    @property
    def level_range(self) -> range:
        """Levels of this building: 0..levels-1, plus -1 with a basement."""
        return range(-1 if self.basement else 0, self.levels)

    @property
    def top_level(self) -> int:
        return self.levels - 1


@_value_methods
@dataclass(frozen=True, eq=False, repr=False)
class Area:
    id: AreaId
    kind: AreaKind
    polygon: tuple[Point, ...]
    building: BuildingId | None = None
    name: str = ""

    @cached_property
    def shape(self) -> Polygon:
        """The shapely polygon (not validated: see checks for invalid geometry)."""
        return Polygon(self.polygon)

    @cached_property
    def centroid(self) -> Point:
        c = self.shape.centroid if self.shape.is_valid and not self.shape.is_empty else None
        if c is None or c.is_empty:
            xs = [p[0] for p in self.polygon] or [0.0]
            ys = [p[1] for p in self.polygon] or [0.0]
            return (sum(xs) / len(xs), sum(ys) / len(ys))
        return (float(c.x), float(c.y))

    @property
    def is_building(self) -> bool:
        return self.kind is AreaKind.BUILDING


@_value_methods
@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Feature:
    """One map feature. Which optional fields apply depends on ``type``:

    stairwell(area) · store(area, level, material) · hydrant(area, pressure) ·
    water(area, points, name) · occupants(area, level, count) · entry(area, name) ·
    label(area, text).
    """

    type: FeatureType
    area: AreaId
    level: int | None = None
    material: Material | None = None
    pressure: int | None = None
    points: int | None = None
    count: int | None = None
    name: str | None = None
    text: str | None = None


@_value_methods
@dataclass(frozen=True, slots=True, eq=False, repr=False)
class LocationValue:
    """A value at a location: fire (1..5), damp (0..5) or damage (1..5) in ``start``."""

    area: AreaId
    level: int
    value: int

    @property
    def location(self) -> Location:
        return (self.area, self.level)


@_value_methods
@dataclass(frozen=True, slots=True, eq=False, repr=False)
class LocationRef:
    area: AreaId
    level: int = 0

    @property
    def location(self) -> Location:
        return (self.area, self.level)


@_value_methods
@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Start:
    fires: tuple[LocationValue, ...] = ()
    embers: tuple[LocationRef, ...] = ()
    damp: tuple[LocationValue, ...] = ()
    damage: tuple[LocationValue, ...] = ()
    rubble: tuple[AreaId, ...] = ()
    craters: tuple[AreaId, ...] = ()
    all_clear: bool = False


@_value_methods
@dataclass(frozen=True, slots=True, eq=False, repr=False)
class ForceUnit:
    """A unit available to the players: starts at ``area``/``level`` or arrives at ``entry``."""

    id: UnitId
    type: str
    area: AreaId | None = None
    level: int = 0
    entry: str | None = None
    arrives: int = 1
    dam_points: int | None = None  # a mobile dam's capacity, 10 or 20 (None: the ruleset's)


@_value_methods
@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Objective:
    """protect(building | area) · rescue(at_least) · contain(max_destroyed)."""

    type: str
    building: BuildingId | None = None
    area: AreaId | None = None
    at_least: int | None = None
    max_destroyed: int | None = None


@_value_methods
@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Wind:
    #: 8-point compass direction the wind blows *from*; None means calm.
    from_: str | None = None
    strong: bool = False

    @property
    def towards_bearing(self) -> float | None:
        """Bearing in degrees (0 = north, clockwise) the wind blows towards."""
        if self.from_ is None:
            return None
        return (COMPASS.index(self.from_) * 45.0 + 180.0) % 360.0


@_value_methods
@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Scale:
    area_cm: float = 10.0
    figure_mm: float = 25.0
    #: Shortest shared boundary that makes two areas adjacent (corner contact never does).
    min_contact_cm: float = 1.0
    #: Overlap between two areas tolerated as a drawing slip.
    overlap_tolerance_cm2: float = 0.5


@_value_methods
@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Background:
    """Extension: a scanned plan shown under the map in the editor, for tracing.

    ``image`` is the path as written in the file, relative to the scenario file's folder
    (the editor keeps it absolute while a file is open). ``origin`` is where the image's
    top-left corner lies on the table (cm, x east, y north); each image pixel is
    ``cm_per_px`` cm wide and high.
    """

    image: str
    origin: Point = (0.0, 0.0)
    cm_per_px: float = 1.0
    opacity: float = 0.5
    locked: bool = True


@_value_methods
@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Geo:
    """Extension: where the map lies in the world, as recorded by a GeoJSON import.

    ``origin`` is the position of table (0, 0) in the map's own coordinates (metres in a
    projected CRS, degrees for longitude/latitude); one table cm is ``metres_per_cm``
    metres; ``crs`` names the coordinate reference system when the source file named one.
    GeoJSON export uses it to put the map back in place.
    """

    origin: Point = (0.0, 0.0)
    metres_per_cm: float = 0.5
    crs: str | None = None


@_value_methods
@dataclass(frozen=True, eq=False, repr=False)
class Scenario:
    name: str = ""
    description: str = ""
    ruleset: str = "blitz"
    house_rules: Mapping[str, Any] = field(default_factory=dict)
    scale: Scale = Scale()
    turns: int = 40
    seed: int | None = None
    wind: Wind = Wind()
    bombing: bool = True
    mains: str = "working"
    buildings: tuple[Building, ...] = ()
    areas: tuple[Area, ...] = ()
    features: tuple[Feature, ...] = ()
    start: Start = Start()
    forces: tuple[ForceUnit, ...] = ()
    objectives: tuple[Objective, ...] = ()
    version: int = FORMAT_VERSION
    #: Extension: a tracing image under the map (editor only; the rules ignore it).
    background: Background | None = None
    #: Extension: the map's place in the world, from a GeoJSON import (export uses it).
    geo: Geo | None = None
    #: Where each value came from in the file (never part of equality).
    source: SourceMap = field(default_factory=dict, compare=False, repr=False)
    source_file: str | None = field(default=None, compare=False, repr=False)

    # -- look-ups ------------------------------------------------------------------------
    @cached_property
    def area_by_id(self) -> dict[AreaId, Area]:
        return {a.id: a for a in self.areas}

    @cached_property
    def building_by_id(self) -> dict[BuildingId, Building]:
        return {b.id: b for b in self.buildings}

    def area(self, area_id: AreaId) -> Area:
        return self.area_by_id[area_id]

    def building_of(self, area_id: AreaId) -> Building | None:
        a = self.area_by_id.get(area_id)
        if a is None or a.building is None:
            return None
        return self.building_by_id.get(a.building)

    def levels_of(self, area_id: AreaId) -> range:
        """Levels that exist in an area: a building's levels, or just 0 outside buildings."""
        b = self.building_of(area_id)
        if b is None:
            return range(0, 1)
        return b.level_range

    def top_level(self, area_id: AreaId) -> int:
        return self.levels_of(area_id)[-1]

    def locations(self) -> Iterator[Location]:
        """Every location, in file order of areas and ascending level."""
        for a in self.areas:
            for lvl in self.levels_of(a.id):
                yield (a.id, lvl)

    def features_of(self, ftype: FeatureType) -> tuple[Feature, ...]:
        return tuple(f for f in self.features if f.type is ftype)

    def has_stairwell(self, area_id: AreaId) -> bool:
        return any(f.type is FeatureType.STAIRWELL and f.area == area_id for f in self.features)

    def line_of(self, *path: str | int) -> int | None:
        """1-based file line of a value, when the scenario was loaded from a file."""
        pos = self.source.get(tuple(path))
        return pos[0] if pos else None

    def bounds(self) -> tuple[float, float, float, float]:
        """(minx, miny, maxx, maxy) of all areas, in table cm."""
        if not self.areas:
            return (0.0, 0.0, 0.0, 0.0)
        coords = shapely.get_coordinates([a.shape for a in self.areas])
        return (
            float(coords[:, 0].min()),
            float(coords[:, 1].min()),
            float(coords[:, 0].max()),
            float(coords[:, 1].max()),
        )

    # -- edits (return new values) -------------------------------------------------------
    def with_areas(self, areas: tuple[Area, ...]) -> Scenario:
        return replace(self, areas=areas)

    def with_features(self, features: tuple[Feature, ...]) -> Scenario:
        return replace(self, features=features)
