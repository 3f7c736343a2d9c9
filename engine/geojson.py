"""Exchanging the map with GIS tools (QGIS) as GeoJSON (cli.md, issue 8).

One Polygon Feature per area (properties ``id``, ``kind``, ``building``, ``levels``,
``name``; also ``basement`` and ``building_name`` so buildings survive a round trip) and one
Point Feature per map feature (``type``, ``area`` and the feature's own keys). Coordinates
are metres: table cm times ``metres_per_cm`` (default 0.5, so a 10 cm area is a 5 m bay).

Importing reads a FeatureCollection as QGIS writes it, in a projected CRS in metres (e.g.
EPSG:27700) or plain coordinates; a file in longitude/latitude (EPSG:4326, CRS84) is
projected locally. The map is moved so that its south-west corner is at (0, 0). The file is
read with the same defensive reader as scenarios (:mod:`.yamlsafe`: JSON is YAML), so every
problem is reported as ``FILE:LINE:COL``.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass
from typing import Any

import shapely
from pydantic import ValidationError
from shapely.geometry import Point, Polygon

from .errors import Diagnostic, ScenarioError
from .io import MAX_BYTES
from .model import ScenarioModel, semantic_errors, to_scenario
from .ruleset import KNOWN_RULESETS, unit_types
from .scenario import Scenario
from .yamlsafe import decode, parse, position

__all__ = ["from_geojson", "load_geojson", "to_geojson"]

_POINT_KEYS = ("level", "material", "pressure", "points", "count", "name", "text")
_ID_BAD = re.compile(r"[^A-Za-z0-9_-]+")
_LONLAT = ("EPSG::4326", "EPSG:4326", "CRS84", "OGC:1.3:CRS84")


@dataclass(frozen=True)
class Imported:
    """The scenario made from a GeoJSON file, and what was repaired or dropped on the way."""

    scenario: Scenario
    warnings: tuple[Diagnostic, ...]


# -- export ------------------------------------------------------------------------------


def to_geojson(s: Scenario, metres_per_cm: float = 0.5) -> dict[str, Any]:
    """The map of ``s`` as a GeoJSON FeatureCollection (coordinates in metres)."""
    k = metres_per_cm
    features: list[dict[str, Any]] = []
    for a in s.areas:
        props: dict[str, Any] = {"id": a.id, "kind": a.kind.value}
        b = s.building_by_id.get(a.building) if a.building is not None else None
        if b is not None:
            props.update(building=b.id, levels=b.levels)
            if b.basement:
                props["basement"] = True
            if b.name:
                props["building_name"] = b.name
        if a.name:
            props["name"] = a.name
        ring = [[x * k, y * k] for x, y in a.polygon]
        if ring and ring[0] != ring[-1]:
            ring.append(list(ring[0]))
        features.append(_feature(props, {"type": "Polygon", "coordinates": [ring]}))
    for f in s.features:
        props = {"type": f.type.value, "area": f.area}
        for key in _POINT_KEYS:
            v = getattr(f, key)
            if v is not None:
                props[key] = getattr(v, "value", v)  # enums as their text
        area = s.area_by_id.get(f.area)
        if area is None:
            continue
        p = area.shape.point_on_surface() if area.shape.is_valid else None
        x, y = (p.x, p.y) if p is not None and not p.is_empty else area.centroid
        features.append(_feature(props, {"type": "Point", "coordinates": [x * k, y * k]}))
    return {"type": "FeatureCollection", "name": s.name, "features": features}


def _feature(props: dict[str, Any], geometry: dict[str, Any]) -> dict[str, Any]:
    return {"type": "Feature", "properties": props, "geometry": geometry}


# -- import ------------------------------------------------------------------------------


def load_geojson(path: str | os.PathLike[str], metres_per_cm: float = 0.5) -> Imported:
    """Read a GeoJSON file into a scenario (see :func:`from_geojson`)."""
    filename = os.fspath(path)
    with open(filename, "rb") as f:
        data = f.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise ScenarioError.at(filename, 1, 1, f"file too large (limit {MAX_BYTES // 2**20} MB)")
    name = os.path.basename(filename).split(".")[0]
    return from_geojson(decode(data, filename), filename, metres_per_cm, name)


def from_geojson(
    text: str, filename: str = "<string>", metres_per_cm: float = 0.5, name: str = ""
) -> Imported:
    """A scenario from GeoJSON text; ScenarioError lists every feature that cannot be used."""
    if not (metres_per_cm > 0 and math.isfinite(metres_per_cm)):
        raise ValueError("metres_per_cm must be a positive number")
    root = parse(text, filename)
    r = _Reader(root, filename, metres_per_cm)
    raw = r.read(name)
    if r.errors:
        raise ScenarioError(sorted(r.errors, key=lambda d: (d.line, d.col)))
    try:
        model = ScenarioModel.model_validate(raw)
    except ValidationError as exc:
        diags = [
            r.diag(r.origin(e["loc"]), f"{_dotted(e['loc'])}: {e['msg']}") for e in exc.errors()
        ]
        raise ScenarioError(diags) from None
    problems = list(semantic_errors(model, KNOWN_RULESETS, unit_types(model.ruleset)))
    if problems:
        raise ScenarioError([r.diag(r.origin(p[0]), p[1]) for p in problems])
    return Imported(to_scenario(model), tuple(r.warnings))


def _dotted(loc: Any) -> str:
    return ".".join(str(p) for p in loc)


class _Reader:
    def __init__(self, root: Any, filename: str, metres_per_cm: float) -> None:
        self.root = root
        self.filename = filename
        self.k = metres_per_cm
        self.errors: list[Diagnostic] = []
        self.warnings: list[Diagnostic] = []
        #: (list name, index in the scenario) -> index of the GeoJSON feature it came from
        self.source: dict[tuple[str, int], int] = {}

    def diag(self, feature: int | None, message: str) -> Diagnostic:
        path: tuple[str | int, ...] = ("features", feature) if feature is not None else ()
        line, col = position(self.root, path)
        where = f"feature {feature + 1}: " if feature is not None else ""
        return Diagnostic(self.filename, line, col, where + message)

    def origin(self, loc: Any) -> int | None:
        if len(loc) >= 2 and isinstance(loc[0], str) and isinstance(loc[1], int):
            return self.source.get((loc[0], loc[1]))
        return None

    def read(self, name: str) -> dict[str, Any]:
        root = self.root
        if not isinstance(root, dict) or root.get("type") != "FeatureCollection":
            self.errors.append(self.diag(None, "not a GeoJSON FeatureCollection"))
            return {}
        feats = root.get("features")
        if not isinstance(feats, list):
            self.errors.append(self.diag(None, "a FeatureCollection needs a 'features' list"))
            return {}
        to_m = self._projection(root, feats)
        polys: list[tuple[int, dict[str, Any], Polygon]] = []
        points: list[tuple[int, dict[str, Any], tuple[float, float]]] = []
        for i, f in enumerate(feats):
            geom = f.get("geometry") if isinstance(f, dict) else None
            props = f.get("properties") if isinstance(f, dict) else None
            props = props if isinstance(props, dict) else {}
            gtype = geom.get("type") if isinstance(geom, dict) else None
            coords = geom.get("coordinates") if isinstance(geom, dict) else None
            try:
                if gtype in ("Polygon", "MultiPolygon"):
                    poly = self._polygon(i, gtype, coords, to_m)
                    if poly is not None:
                        polys.append((i, props, poly))
                elif gtype == "Point":
                    x, y = to_m(_pair(coords))
                    points.append((i, props, (x, y)))
                else:
                    self.warnings.append(self.diag(i, f"{gtype or 'no'} geometry: skipped"))
            except (TypeError, ValueError) as e:
                self.errors.append(self.diag(i, f"unreadable coordinates ({e})"))
        if not polys:
            if not self.errors:
                self.errors.append(self.diag(None, "no Polygon features: nothing to import"))
            return {}
        # Move the map so its south-west corner is at the origin, then scale to table cm.
        minx = min(p.bounds[0] for _, _, p in polys)
        miny = min(p.bounds[1] for _, _, p in polys)

        def cm(x: float, y: float) -> list[float]:
            return [_tidy((x - minx) / self.k), _tidy((y - miny) / self.k)]

        if isinstance(root.get("name"), str) and root["name"]:
            name = root["name"]
        return self._scenario(name, polys, points, cm)

    def _projection(self, root: dict[str, Any], feats: list[Any]) -> Any:
        crs = root.get("crs")
        crs_name = ""
        if isinstance(crs, dict) and isinstance(crs.get("properties"), dict):
            crs_name = str(crs["properties"].get("name", ""))
        if not crs_name.endswith(_LONLAT):
            return lambda p: p
        # Longitude/latitude: a local equirectangular projection, exact enough for a block.
        lat0 = math.radians(_first_latitude(feats))
        self.warnings.append(
            self.diag(None, "coordinates are longitude/latitude: projected locally to metres")
        )
        return lambda p: (p[0] * 111_320.0 * math.cos(lat0), p[1] * 110_574.0)

    def _polygon(self, i: int, gtype: str, coords: Any, to_m: Any) -> Polygon | None:
        rings = coords
        if gtype == "MultiPolygon":
            if not isinstance(coords, list) or len(coords) != 1:
                n = len(coords) if isinstance(coords, list) else 0
                self.errors.append(
                    self.diag(i, f"MultiPolygon of {n} parts: split it into one area per part")
                )
                return None
            rings = coords[0]
        if not isinstance(rings, list) or not rings:
            raise ValueError("a polygon needs a ring")
        if len(rings) > 1:
            self.warnings.append(self.diag(i, "polygon holes are not used: dropped"))
        pts = [to_m(_pair(p)) for p in rings[0]]
        poly = Polygon(pts)
        if poly.is_valid and poly.area > 0:
            return poly
        fixed = shapely.make_valid(poly)
        parts = [
            g for g in getattr(fixed, "geoms", [fixed]) if isinstance(g, Polygon) and g.area > 0
        ]
        if len(parts) == 1:
            self.warnings.append(self.diag(i, "invalid polygon repaired (make_valid)"))
            return parts[0]
        self.errors.append(self.diag(i, "invalid polygon that cannot be repaired safely"))
        return None

    def _scenario(self, name: str, polys: list[Any], points: list[Any], cm: Any) -> dict[str, Any]:
        used: set[str] = set()
        areas: list[dict[str, Any]] = []
        buildings: dict[str, dict[str, Any]] = {}
        shapes: list[Polygon] = []
        for i, props, poly in polys:
            aid = self._id(props.get("id"), used, "A")
            kind = props.get("kind")
            bid = props.get("building")
            if kind is None:
                kind = (
                    "building" if bid is not None or props.get("levels") is not None else "street"
                )
            area: dict[str, Any] = {"id": aid, "kind": kind}
            if kind == "building":
                bid = _ID_BAD.sub("_", str(bid)) if bid is not None else aid
                area["building"] = bid
                if bid not in buildings:
                    buildings[bid] = {"id": bid, "levels": 1}
                    self.source[("buildings", len(buildings) - 1)] = i
                b = buildings[bid]
                levels = props.get("levels")
                if levels is None:
                    pass
                elif "_set" in b and b["levels"] != levels:
                    kept = b["levels"]
                    msg = f"building '{bid}' has {levels} levels here, {kept} before: kept {kept}"
                    self.warnings.append(self.diag(i, msg))
                else:
                    b["levels"], b["_set"] = levels, True
                if props.get("basement") is not None:
                    b["basement"] = props["basement"]
                if props.get("building_name"):
                    b["name"] = props["building_name"]
            if props.get("name"):
                area["name"] = props["name"]
            ring = list(poly.exterior.coords)[:-1]  # GeoJSON rings repeat the first point
            area["polygon"] = [cm(x, y) for x, y in ring]
            self.source[("areas", len(areas))] = i
            areas.append(area)
            shapes.append(Polygon(area["polygon"]))
        tree = shapely.STRtree(shapes)
        features: list[dict[str, Any]] = []
        for i, props, (x, y) in points:
            # QGIS writes every attribute of the layer, empty ones as null: drop those.
            f = {
                k: v
                for k, v in props.items()
                if k in ("type", "area", *_POINT_KEYS) and v is not None
            }
            if "area" not in f:
                pt = Point(cm(x, y))
                hits = [int(j) for j in tree.query(pt, predicate="covered_by")]
                if not hits:
                    self.errors.append(
                        self.diag(
                            i,
                            f"{props.get('type', 'point')} at ({x:g}, {y:g}) lies outside every area",
                        )
                    )
                    continue
                f["area"] = areas[min(hits)]["id"]
            self.source[("features", len(features))] = i
            features.append(f)
        for b in buildings.values():
            b.pop("_set", None)
        return {
            "fireground": 1,
            "name": name,
            "ruleset": "blitz",
            "buildings": list(buildings.values()),
            "areas": areas,
            "features": features,
        }

    def _id(self, raw: Any, used: set[str], prefix: str) -> str:
        base = _ID_BAD.sub("_", str(raw)).strip("_") if raw not in (None, "") else ""
        candidate, n = base, 1
        while not candidate or candidate in used:
            candidate = f"{base or prefix}{'_' if base else ''}{n}"
            n += 1
        used.add(candidate)
        return candidate


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
    return float(x), float(y)


def _first_latitude(feats: list[Any]) -> float:
    for f in feats:
        geom = f.get("geometry") if isinstance(f, dict) else None
        c = geom.get("coordinates") if isinstance(geom, dict) else None
        while isinstance(c, list) and c and isinstance(c[0], list):
            c = c[0]
        if isinstance(c, list) and len(c) >= 2 and isinstance(c[1], int | float):
            return float(c[1])
    return 0.0


def _tidy(v: float) -> float:
    """Round to a micrometre of table, dropping float noise from the scaling."""
    r = round(v, 4)
    return 0.0 if r == 0 else r
