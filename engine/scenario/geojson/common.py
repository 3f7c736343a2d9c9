"""What the GeoJSON reader and writer share: property keys, the local lon/lat projection,
number tidying, message wording, and :class:`Report`, the import's diagnostics with their
file positions."""

from __future__ import annotations

import difflib
import json
import math
from typing import Any

from ...core.errors import Diagnostic, ScenarioError
from ...core.yamlsafe import parse, position

DEFAULT_METRES_PER_CM = 0.5
POINT_KEYS = ("level", "material", "pressure", "points", "count", "name", "text")
_LONLAT = ("EPSG::4326", "EPSG:4326", "CRS84", "OGC:1.3:CRS84", "EPSG::4258", "EPSG:4258")

# Longitude/latitude: a local equirectangular projection about the map's south-west
# corner, good to centimetres across a few blocks, and exactly invertible for export.
_M_PER_DEG_LON = 111_320.0  # at the equator; times cos(latitude)
_M_PER_DEG_LAT = 110_574.0


def is_lonlat(crs: str | None) -> bool:
    """Whether a CRS name is in longitude/latitude (WGS 84, ETRS89)."""
    return crs is not None and crs.endswith(_LONLAT)


def to_local(lon: float, lat: float, lon0: float, lat0: float) -> tuple[float, float]:
    kx = _M_PER_DEG_LON * math.cos(math.radians(lat0))
    return ((lon - lon0) * kx, (lat - lat0) * _M_PER_DEG_LAT)


def from_local(x: float, y: float, lon0: float, lat0: float) -> tuple[float, float]:
    kx = _M_PER_DEG_LON * math.cos(math.radians(lat0))
    return (lon0 + x / kx, lat0 + y / _M_PER_DEG_LAT)


def tidy(v: float, digits: int) -> float:
    """Round away the float noise of scaling (4 digits of cm is a micrometre of table)."""
    r = round(v, digits)
    return 0.0 if r == 0 else r


def num(v: float) -> str:
    """A number as short text: 532100 rather than 532100.0."""
    return str(int(v)) if float(v).is_integer() and abs(v) < 1e15 else repr(float(v))


def as_text(v: Any) -> str:
    """A property as text; a whole float (a QGIS real field) without its '.0'."""
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def lower(key: str, v: Any) -> Any:
    """Names from a fixed list are read in any case: 'Building' is 'building'."""
    return v.strip().lower() if key in ("kind", "type", "material") and isinstance(v, str) else v


def with_article(word: str) -> str:
    """'a store', 'an entry'."""
    return f"an {word}" if word[0] in "aeiou" else f"a {word}"


def show(v: Any) -> str:
    """A value as it would be written in the file."""
    return repr(v) if isinstance(v, str) else json.dumps(v)


def suggest(word: Any, among: list[str]) -> str:
    """' (did you mean ...?)' for a near miss, else the list of choices."""
    if not isinstance(word, str):
        return f" (one of {', '.join(among)})"
    close = difflib.get_close_matches(word.lower(), among, n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else f" (one of {', '.join(among)})"


class Report:
    """Errors and warnings of one import, each at ``FILE:LINE:COL: feature N: message``."""

    def __init__(self, text: str, filename: str) -> None:
        self.text = text
        self._marked: Any = None
        self._warned_at: list[int] = []
        #: Bounds (metres) of polygons refused: a point there is not reported twice.
        self.refused: list[tuple[float, float, float, float]] = []
        self.filename = filename
        self.errors: list[Diagnostic] = []
        self.warnings: list[Diagnostic] = []
        #: (list name, index in the scenario) -> number of the GeoJSON feature it came from
        self.source: dict[tuple[str, int], int] = {}

    def diag(self, feature: int | None, message: str) -> Diagnostic:
        path: tuple[str | int, ...] = ("features", feature - 1) if feature is not None else ()
        line, col = position(self._marks(), path) if self._marks() is not None else (0, 0)
        where = f"feature {feature}: " if feature is not None else ""
        return Diagnostic(self.filename, line, col, where + message)

    def _marks(self) -> Any:
        """The file read again by the position-keeping reader, on the first message only.

        The standard JSON reader is ten times faster, so it reads the file; this one only
        finds lines. None when it refuses what JSON allows (e.g. a duplicate key).
        """
        if self._marked is None:
            try:
                self._marked = parse(self.text, self.filename)
            except ScenarioError:
                self._marked = False
        return self._marked or None

    def error(self, feature: int | None, message: str) -> None:
        self.errors.append(self.diag(feature, message))

    def warn(self, feature: int | None, message: str) -> None:
        self.warnings.append(self.diag(feature, message))
        self._warned_at.append(feature or 0)

    def sorted_warnings(self) -> tuple[Diagnostic, ...]:
        """Warnings in file order (the collection first, then feature by feature)."""
        order = sorted(range(len(self.warnings)), key=lambda i: self._warned_at[i])
        return tuple(self.warnings[i] for i in order)

    def origin(self, loc: Any) -> int | None:
        if len(loc) >= 2 and isinstance(loc[0], str) and isinstance(loc[1], int):
            return self.source.get((loc[0], loc[1]))
        return None
