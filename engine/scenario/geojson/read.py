"""Reading a GeoJSON FeatureCollection into a scenario (see :mod:`.geojson`): the
collection, its CRS and polygons here; the properties in :mod:`.geojson_props`."""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import shapely
from pydantic import ValidationError
from shapely.geometry import Polygon

from ...board.model import Geo, Scenario
from ...core.errors import Diagnostic, ScenarioError
from ...core.ruleset import known_rulesets, unit_types
from ...core.yamlsafe import decode
from ..io import MAX_BYTES
from ..refs import semantic_errors
from ..schema import ScenarioModel
from ..validate import to_scenario
from .common import DEFAULT_METRES_PER_CM, from_local, is_lonlat, lower, num, show, tidy, to_local
from .props import FoundArea, FoundPoint, PropertyReader

#: A repair by make_valid is accepted when what it drops or adds is at most this share.
REPAIR_TOLERANCE = 0.01


@dataclass(frozen=True)
class Imported:
    """The scenario made from a GeoJSON file, and what was repaired or dropped on the way."""

    scenario: Scenario
    warnings: tuple[Diagnostic, ...]


def load_geojson(
    path: str | os.PathLike[str], metres_per_cm: float = DEFAULT_METRES_PER_CM
) -> Imported:
    """Read a GeoJSON file into a scenario (see :func:`from_geojson`)."""
    filename = os.fspath(path)
    with open(filename, "rb") as f:
        data = f.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise ScenarioError.at(filename, 1, 1, f"file too large (limit {MAX_BYTES // 2**20} MB)")
    name = os.path.basename(filename).split(".")[0]
    return from_geojson(decode(data, filename), filename, metres_per_cm, name)


def from_geojson(
    text: str,
    filename: str = "<string>",
    metres_per_cm: float = DEFAULT_METRES_PER_CM,
    name: str = "",
) -> Imported:
    """A scenario from GeoJSON text; ScenarioError lists every feature that cannot be used.

    ``name`` is the scenario's name when the FeatureCollection has none.
    """
    if not (metres_per_cm > 0 and math.isfinite(metres_per_cm)):
        raise ValueError("metres_per_cm must be a positive number")
    text = text.removeprefix("\ufeff")
    r = _Reader(_parse_json(text, filename), text, filename, metres_per_cm)
    raw = r.read(name)
    if r.errors:
        raise ScenarioError(_sorted(r.errors))
    # The same validation as a scenario file, as a safety net for what the reader missed.
    try:
        model = ScenarioModel.model_validate(raw)
    except ValidationError as exc:
        raise ScenarioError(
            _sorted(
                r.diag(r.origin(e["loc"]), f"{_last_key(e['loc'])}: {e['msg']}")
                for e in exc.errors(include_url=False)
            )
        ) from None
    problems = list(semantic_errors(model, known_rulesets(), unit_types(model.ruleset)))
    if problems:
        raise ScenarioError(_sorted(r.diag(r.origin(p[0]), p[1]) for p in problems))
    return Imported(to_scenario(model), r.sorted_warnings())


def _parse_json(text: str, filename: str) -> Any:
    """The JSON data of ``text``; NaN and infinities are read (coordinates refuse them)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise ScenarioError.at(filename, e.lineno, e.colno, f"not valid JSON: {e.msg}") from None
    except RecursionError:
        raise ScenarioError.at(filename, 1, 1, "not GeoJSON: nested too deeply") from None


def _sorted(diags: Any) -> list[Diagnostic]:
    return sorted(diags, key=lambda d: (d.line, d.col))


def _last_key(loc: Any) -> str:
    keys = [str(p) for p in loc if isinstance(p, str)]
    return keys[-1] if keys else "value"


class _Reader(PropertyReader):
    """Reads the collection: its CRS, then each feature's geometry, moved and scaled to the
    table (the properties are read by :class:`.PropertyReader`)."""

    def __init__(self, root: Any, text: str, filename: str, metres_per_cm: float) -> None:
        super().__init__(text, filename)
        self.root = root
        #: Metres of the projection back to the file's coordinates (degrees for lon/lat).
        self.unproject: Callable[[float, float], tuple[float, float]] = lambda x, y: (x, y)
        self.k = metres_per_cm

    def read(self, name: str) -> dict[str, Any]:
        root = self.root
        if not isinstance(root, dict) or root.get("type") != "FeatureCollection":
            self.error(None, "not a GeoJSON FeatureCollection")
            return {}
        feats = root.get("features")
        if not isinstance(feats, list):
            self.error(None, "a FeatureCollection needs a 'features' list")
            return {}
        if isinstance(root.get("name"), str) and root["name"]:
            name = root["name"]
        to_m, crs = self._projection(root, feats)
        areas: list[FoundArea] = []
        points: list[FoundPoint] = []
        for i, f in enumerate(feats):
            n = i + 1
            if not isinstance(f, dict) or f.get("type") != "Feature":
                self.error(n, "not a GeoJSON Feature")
                continue
            raw_props = f.get("properties")
            props = (
                {k: lower(k, v) for k, v in raw_props.items() if v is not None and v != ""}
                if isinstance(raw_props, dict)
                else {}
            )
            geom = f.get("geometry")
            gtype = geom.get("type") if isinstance(geom, dict) else None
            coords = geom.get("coordinates") if isinstance(geom, dict) else None
            try:
                if gtype in ("Polygon", "MultiPolygon"):
                    poly = self._polygon(n, gtype, coords, to_m)
                    if poly is not None:
                        areas.append(FoundArea(n, props, poly))
                elif gtype in ("Point", "MultiPoint"):
                    if gtype == "MultiPoint":
                        if not isinstance(coords, list) or len(coords) != 1:
                            self.error(n, "a MultiPoint of several points: use one per feature")
                            continue
                        coords = coords[0]
                    points.append(FoundPoint(n, props, to_m(_pair(coords))))
                else:
                    self.warn(n, f"{gtype or 'no'} geometry: skipped")
            except (TypeError, ValueError) as e:
                self.error(n, f"unreadable coordinates ({e})")
        if not areas:
            if not self.errors:
                self.error(None, "no Polygon features: nothing to import")
            return {}
        # Move the map so its south-west corner is at the origin, then scale to table cm.
        minx = min(a.poly.bounds[0] for a in areas)
        miny = min(a.poly.bounds[1] for a in areas)
        maxx = max(a.poly.bounds[2] for a in areas)
        maxy = max(a.poly.bounds[3] for a in areas)
        size = max(maxx - minx, maxy - miny) / self.k
        if not math.isfinite(size):
            self.error(None, "coordinates too large to place on a table")
            return {}
        if size < 1.0:
            self.error(
                None,
                f"the whole map is {size:.3g} cm across at {num(self.k)} m per cm: are the "
                "coordinates in degrees? Reproject the layer to a CRS in metres "
                "(e.g. EPSG:27700) or set --metres-per-cm",
            )
            return {}
        ref = Geo(self.unproject(minx, miny), self.k, crs)

        def cm(x: float, y: float) -> tuple[float, float]:
            return (tidy((x - minx) / self.k, 4), tidy((y - miny) / self.k, 4))

        return self._scenario(name, areas, points, cm, ref)

    def _projection(
        self, root: dict[str, Any], feats: list[Any]
    ) -> tuple[Callable[[tuple[float, float]], tuple[float, float]], str | None]:
        crs = root.get("crs")
        crs_name = None
        if isinstance(crs, dict) and isinstance(crs.get("properties"), dict):
            value = crs["properties"].get("name")
            if isinstance(value, str) and re.fullmatch(r"[^\s\]]+", value):
                crs_name = value
            else:
                self.warn(None, f"crs name {show(value)} not understood: ignored")
        if not is_lonlat(crs_name):
            return (lambda p: p), crs_name
        self.warn(None, "coordinates are longitude/latitude: projected locally to metres")
        lon0, lat0 = _min_lonlat(feats)
        self.unproject = lambda x, y: from_local(x, y, lon0, lat0)
        return (lambda p: to_local(p[0], p[1], lon0, lat0)), crs_name

    def _polygon(
        self,
        n: int,
        gtype: str,
        coords: Any,
        to_m: Callable[[tuple[float, float]], tuple[float, float]],
    ) -> Polygon | None:
        rings = coords
        if gtype == "MultiPolygon":
            if not isinstance(coords, list) or len(coords) != 1:
                parts = len(coords) if isinstance(coords, list) else 0
                self.error(n, f"MultiPolygon of {parts} parts: split it into one area per part")
                return None
            rings = coords[0]
        if not isinstance(rings, list) or not rings or not isinstance(rings[0], list):
            raise ValueError("a polygon needs a ring")
        if len(rings) > 1:
            holes = len(rings) - 1
            self.warn(
                n,
                f"{holes} hole{'s' * (holes > 1)} filled in: areas have no holes "
                "(draw a courtyard as an area of its own)",
            )
        pts = [to_m(_pair(p)) for p in rings[0]]
        if pts:
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            box = (min(xs), min(ys), max(xs), max(ys))
        if len(pts) > 1 and pts[0] == pts[-1]:
            pts.pop()  # GeoJSON rings repeat the first position at the end
        if len(set(pts)) < 3:
            self.error(n, f"a polygon needs at least 3 different corners, got {len(set(pts))}")
            if pts:
                self.refused.append(box)
            return None
        poly = Polygon(pts)
        if poly.is_valid and poly.area > 0:
            return poly
        fixed = _repair(poly)
        if fixed is None:
            self.refused.append(box)
            why = shapely.is_valid_reason(poly) if not poly.is_valid else "it has no area"
            self.error(
                n,
                f"invalid polygon that cannot be repaired safely ({why}); "
                "fix it in QGIS (Vector > Geometry Tools > Check Validity)",
            )
            return None
        self.warn(
            n,
            f"invalid polygon repaired (make_valid: {shapely.is_valid_reason(poly)}); "
            "check its shape",
        )
        return fixed


def _repair(poly: Polygon) -> Polygon | None:
    """``make_valid`` of ``poly`` when it is one polygon of nearly the same area, else None.

    A bow-tie becomes two triangles (refused: which one is meant?); a spike doubling back
    along an edge or a repeated corner gives back the same shape (accepted).
    """
    fixed = shapely.make_valid(poly)
    parts = sorted(
        (g for g in getattr(fixed, "geoms", [fixed]) if isinstance(g, Polygon) and g.area > 0),
        key=lambda g: -g.area,
    )
    if not parts:
        return None
    main, rest = parts[0], sum(g.area for g in parts[1:])
    drawn = abs(_signed_area(poly))  # what the ring encloses when traced, lobes cancelling
    if rest > REPAIR_TOLERANCE * main.area or main.interiors:
        return None
    if abs(main.area - drawn) > REPAIR_TOLERANCE * main.area:
        return None
    return Polygon(main.exterior.coords)


def _signed_area(poly: Polygon) -> float:
    xs, ys = poly.exterior.coords.xy
    return 0.5 * float(sum(xs[i] * ys[i + 1] - xs[i + 1] * ys[i] for i in range(len(xs) - 1)))


def _pair(p: Any) -> tuple[float, float]:
    if not isinstance(p, list) or len(p) < 2:
        raise ValueError("a position is [x, y]")
    x, y = p[0], p[1]
    if (
        isinstance(x, bool)
        or isinstance(y, bool)
        or not isinstance(x, int | float)
        or not isinstance(y, int | float)
    ):
        raise TypeError("coordinates must be numbers")
    if not (math.isfinite(x) and math.isfinite(y)):
        raise ValueError("coordinates must be finite")
    return float(x), float(y)


def _min_lonlat(feats: list[Any]) -> tuple[float, float]:
    """The smallest longitude and latitude of the polygons' positions ((0, 0) if none)."""
    lons: list[float] = []
    lats: list[float] = []

    def walk(c: Any) -> None:
        if isinstance(c, list) and len(c) >= 2 and all(_is_num(v) for v in c[:2]):
            lons.append(float(c[0]))
            lats.append(float(c[1]))
        elif isinstance(c, list):
            for item in c:
                walk(item)

    for f in feats:
        geom = f.get("geometry") if isinstance(f, dict) else None
        if isinstance(geom, dict) and geom.get("type") in ("Polygon", "MultiPolygon"):
            walk(geom.get("coordinates"))
    finite = [(x, y) for x, y in zip(lons, lats, strict=True) if math.isfinite(x + y)]
    if not finite:
        return (0.0, 0.0)
    return (min(x for x, _ in finite), min(y for _, y in finite))


def _is_num(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)
