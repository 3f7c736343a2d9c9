"""Exchanging the map with GIS tools (QGIS) as GeoJSON (cli.md, issue 8; docs/geojson.md).

One Polygon Feature per area (properties ``id``, ``kind``, ``building``, ``levels``,
``name``; also ``basement`` and ``building_name`` so buildings survive a round trip) and one
Point Feature per map feature (``type``, ``area`` and the feature's own keys).

Importing reads a FeatureCollection as QGIS writes it, in a projected CRS in metres (e.g.
EPSG:27700) or plain coordinates (a file in longitude/latitude is projected locally, with a
warning, and exported back to degrees). The map's south-west corner is moved to (0, 0) and
metres become table cm (``metres_per_cm``, default 0.5: a 5 m bay is a 10 cm area). Where the
map came from is kept in the scenario's ``geo`` key (a format extension, :class:`.Geo`)::

    geo: {origin: [532100, 181200], metres_per_cm: 0.5, crs: "urn:ogc:def:crs:EPSG::27700"}

and exporting puts the map back there, so import → export → import gives the same scenario.
Files written by earlier versions kept this as a last ``description`` line
(``[geojson origin=532100,181200 metres_per_cm=0.5 crs=…]``); export still reads that line
when there is no ``geo`` key, but import no longer writes it.
A point feature goes to the area that contains it. Problems are reported as
``FILE:LINE:COL: feature N: message`` with N counting the features from 1 (the line is
found by reading the file again with the position-keeping reader of :mod:`.yamlsafe`, as
JSON is YAML, only when there is something to report).

>>> s = from_geojson('''{"type": "FeatureCollection", "features": [
...   {"type": "Feature", "properties": {"id": "R1", "kind": "street"},
...    "geometry": {"type": "Polygon",
...                 "coordinates": [[[100, 200], [105, 200], [105, 205], [100, 200]]]}}]}''')
>>> s.scenario.areas[0].polygon
((0.0, 0.0), (10.0, 0.0), (10.0, 10.0))
>>> to_geojson(s.scenario)["features"][0]["geometry"]["coordinates"]
[[[100.0, 200.0], [105.0, 200.0], [105.0, 205.0], [100.0, 200.0]]]
"""

from __future__ import annotations

import argparse
import difflib
import json
import math
import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import shapely
from pydantic import ValidationError
from shapely.geometry import Point, Polygon

from .errors import Diagnostic, ScenarioError, UsageError
from .io import MAX_BYTES, atomic_write, load_scenario, save_scenario
from .model import RANGES, ScenarioModel, semantic_errors, to_scenario
from .ruleset import KNOWN_RULESETS, unit_types
from .scenario import AreaKind, FeatureType, Geo, Material, Scenario
from .yamlsafe import decode, parse, position

__all__ = [
    "DEFAULT_METRES_PER_CM",
    "GeoReference",
    "Imported",
    "cli_export_geojson",
    "cli_import_geojson",
    "dumps_geojson",
    "from_geojson",
    "georeference",
    "load_geojson",
    "to_geojson",
]

DEFAULT_METRES_PER_CM = 0.5
#: A repair by make_valid is accepted when what it drops or adds is at most this share.
REPAIR_TOLERANCE = 0.01

_AREA_KEYS = ("id", "kind", "building", "levels", "name", "basement", "building_name")
_POINT_KEYS = ("level", "material", "pressure", "points", "count", "name", "text")
#: Each point feature type: its own keys, and which of them it needs.
_OWN_KEYS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "stairwell": ((), ()),
    "store": (("level", "material"), ("material",)),
    "hydrant": (("pressure",), ("pressure",)),
    "water": (("points", "name"), ("points",)),
    "occupants": (("level", "count"), ("count",)),
    "entry": (("name",), ("name",)),
    "label": (("text",), ("text",)),
}
#: Properties QGIS or the exporter may add that mean nothing here; never warned about.
_QUIET_KEYS = frozenset({"fid", "area", "type"})
_ID_OK = re.compile(r"[A-Za-z0-9_-]+\Z")
_ID_BAD = re.compile(r"[^A-Za-z0-9_-]+")
_LONLAT = ("EPSG::4326", "EPSG:4326", "CRS84", "OGC:1.3:CRS84", "EPSG::4258", "EPSG:4258")
_TAG = re.compile(
    r"^\[geojson origin=(?P<x>[^,\s]+),(?P<y>\S+) metres_per_cm=(?P<k>\S+?)"
    r"(?: crs=(?P<crs>[^\]\s]+))?\]$",
    re.MULTILINE,
)


@dataclass(frozen=True)
class Imported:
    """The scenario made from a GeoJSON file, and what was repaired or dropped on the way."""

    scenario: Scenario
    warnings: tuple[Diagnostic, ...]


#: Where table cm (0, 0) is on the map, how many metres one cm is, and the CRS: the
#: scenario's ``geo`` value (the name is kept from before the key existed).
GeoReference = Geo
assert Geo().metres_per_cm == DEFAULT_METRES_PER_CM


def georeference(s: Scenario) -> Geo | None:
    """Where the map of ``s`` lies: its ``geo`` key, else (files imported before that key
    existed) the last ``[geojson …]`` line of its description; None for a map drawn here."""
    if s.geo is not None:
        return s.geo
    found = None
    for m in _TAG.finditer(s.description):
        try:
            x, y, k = float(m["x"]), float(m["y"]), float(m["k"])
        except ValueError:
            continue
        if all(math.isfinite(v) for v in (x, y, k)) and k > 0:
            found = Geo((x, y), k, m["crs"])
    return found


# -- export ------------------------------------------------------------------------------


def to_geojson(s: Scenario, metres_per_cm: float | None = None) -> dict[str, Any]:
    """The map of ``s`` as a GeoJSON FeatureCollection (coordinates in metres).

    The map goes back where :func:`from_geojson` found it (see :func:`georeference`);
    a scenario drawn in the editor has its origin at (0, 0) and no CRS. ``metres_per_cm``
    overrides the recorded scale (default 0.5).
    """
    ref = georeference(s) or Geo()
    k = metres_per_cm if metres_per_cm is not None else ref.metres_per_cm
    ox, oy = ref.origin
    lonlat = _is_lonlat(ref.crs)

    def metres(x: float, y: float) -> list[float]:
        if lonlat:
            lon, lat = _from_local(x * k, y * k, ox, oy)
            return [_tidy(lon, 12), _tidy(lat, 12)]
        return [_tidy(x * k + ox, 6), _tidy(y * k + oy, 6)]

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
        ring = [metres(x, y) for x, y in a.polygon]
        if ring and ring[0] != ring[-1]:
            ring.append(list(ring[0]))
        features.append(_feature(props, {"type": "Polygon", "coordinates": [ring]}))
    spots = _feature_spots(s)
    for f, spot in zip(s.features, spots, strict=True):
        if spot is None:
            continue
        props = {"type": f.type.value, "area": f.area}
        for key in _POINT_KEYS:
            v = getattr(f, key)
            if v is not None:
                props[key] = getattr(v, "value", v)  # enums as their text
        features.append(_feature(props, {"type": "Point", "coordinates": metres(*spot)}))
    out: dict[str, Any] = {"type": "FeatureCollection", "name": s.name}
    if ref.crs:
        out["crs"] = {"type": "name", "properties": {"name": ref.crs}}
    out["features"] = features
    return out


def dumps_geojson(data: dict[str, Any]) -> str:
    """GeoJSON text laid out as QGIS writes it: one feature per line."""
    head = [f"{json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in data.items()]
    head = [h for h, k in zip(head, data, strict=True) if k != "features"]
    feats = [json.dumps(f, ensure_ascii=False) for f in data.get("features", [])]
    body = ",\n".join(feats)
    return "{\n" + "".join(h + ",\n" for h in head) + '"features": [\n' + body + "\n]\n}\n"


def _feature(props: dict[str, Any], geometry: dict[str, Any]) -> dict[str, Any]:
    return {"type": "Feature", "properties": props, "geometry": geometry}


def _feature_spots(s: Scenario) -> list[tuple[float, float] | None]:
    """Where each map feature is drawn: inside its area, several spread around one spot."""
    by_area: dict[str, list[int]] = {}
    for i, f in enumerate(s.features):
        by_area.setdefault(f.area, []).append(i)
    spots: list[tuple[float, float] | None] = [None] * len(s.features)
    for area_id, idx in by_area.items():
        area = s.area_by_id.get(area_id)
        if area is None:
            continue
        shape = area.shape
        if shape.is_valid and not shape.is_empty:
            p = shape.point_on_surface()
            cx, cy = float(p.x), float(p.y)
        else:
            cx, cy = area.centroid
        minx, miny, maxx, maxy = shape.bounds
        r = min(maxx - minx, maxy - miny) / 5
        for j, i in enumerate(idx):
            spot = (cx, cy)
            if j and r > 0:
                turn = 2 * math.pi * (j - 1) / max(1, len(idx) - 1)
                cand = (cx + r * math.cos(turn), cy + r * math.sin(turn))
                if shape.is_valid and shape.contains(Point(cand)):
                    spot = cand
            spots[i] = spot
    return spots


# -- import ------------------------------------------------------------------------------


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
    problems = list(semantic_errors(model, KNOWN_RULESETS, unit_types(model.ruleset)))
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


@dataclass
class _Area:
    n: int  # feature number, from 1
    props: dict[str, Any]
    poly: Polygon
    id: str = ""


@dataclass
class _Point:
    n: int
    props: dict[str, Any]
    xy: tuple[float, float]


class _Reader:
    def __init__(self, root: Any, text: str, filename: str, metres_per_cm: float) -> None:
        self.root = root
        self.text = text
        self._marked: Any = None
        self._warned_at: list[int] = []
        #: Metres of the projection back to the file's coordinates (degrees for lon/lat).
        self.unproject: Callable[[float, float], tuple[float, float]] = lambda x, y: (x, y)
        #: Bounds (metres) of polygons refused: a point there is not reported twice.
        self.refused: list[tuple[float, float, float, float]] = []
        self.filename = filename
        self.k = metres_per_cm
        self.errors: list[Diagnostic] = []
        self.warnings: list[Diagnostic] = []
        #: (list name, index in the scenario) -> number of the GeoJSON feature it came from
        self.source: dict[tuple[str, int], int] = {}

    # -- reporting ---------------------------------------------------------------------
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

    # -- the collection ----------------------------------------------------------------
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
        areas: list[_Area] = []
        points: list[_Point] = []
        for i, f in enumerate(feats):
            n = i + 1
            if not isinstance(f, dict) or f.get("type") != "Feature":
                self.error(n, "not a GeoJSON Feature")
                continue
            raw_props = f.get("properties")
            props = (
                {k: _lower(k, v) for k, v in raw_props.items() if v is not None and v != ""}
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
                        areas.append(_Area(n, props, poly))
                elif gtype in ("Point", "MultiPoint"):
                    if gtype == "MultiPoint":
                        if not isinstance(coords, list) or len(coords) != 1:
                            self.error(n, "a MultiPoint of several points: use one per feature")
                            continue
                        coords = coords[0]
                    points.append(_Point(n, props, to_m(_pair(coords))))
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
                f"the whole map is {size:.3g} cm across at {_num(self.k)} m per cm: are the "
                "coordinates in degrees? Reproject the layer to a CRS in metres "
                "(e.g. EPSG:27700) or set --metres-per-cm",
            )
            return {}
        ref = Geo(self.unproject(minx, miny), self.k, crs)

        def cm(x: float, y: float) -> tuple[float, float]:
            return (_tidy((x - minx) / self.k, 4), _tidy((y - miny) / self.k, 4))

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
                self.warn(None, f"crs name {_show(value)} not understood: ignored")
        if not _is_lonlat(crs_name):
            return (lambda p: p), crs_name
        self.warn(None, "coordinates are longitude/latitude: projected locally to metres")
        lon0, lat0 = _min_lonlat(feats)
        self.unproject = lambda x, y: _from_local(x, y, lon0, lat0)
        return (lambda p: _to_local(p[0], p[1], lon0, lat0)), crs_name

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

    # -- the scenario ------------------------------------------------------------------
    def _scenario(
        self,
        name: str,
        found: list[_Area],
        points: list[_Point],
        cm: Callable[[float, float], tuple[float, float]],
        ref: Geo,
    ) -> dict[str, Any]:
        self._area_ids(found)
        unknown: set[str] = set()
        areas: list[dict[str, Any]] = []
        buildings: dict[str, dict[str, Any]] = {}
        building_from: dict[str, int] = {}  # building id -> feature that set its levels
        for fa in found:
            props, n = fa.props, fa.n
            unknown |= set(props) - set(_AREA_KEYS) - _QUIET_KEYS - set(_POINT_KEYS)
            misplaced = [k for k in _POINT_KEYS if k in props and k not in _AREA_KEYS]
            if misplaced:
                self.warn(n, f"{', '.join(misplaced)} not used by an area: ignored")
            kind = self._area_kind(n, props)
            if kind is None:
                self.refused.append(fa.poly.bounds)
                continue
            area: dict[str, Any] = {"id": fa.id, "kind": kind}
            if kind == "building":
                bid = self._text_id(n, props.get("building", fa.id), "building")
                area["building"] = bid
                if not self._building(n, props, bid, buildings, building_from):
                    self.refused.append(fa.poly.bounds)
                    continue
            elif "building" in props:
                self.error(n, f"a {kind} area cannot belong to building '{props['building']}'")
                self.refused.append(fa.poly.bounds)
                continue
            else:
                only = [k for k in ("levels", "basement", "building_name") if k in props]
                if only:
                    self.warn(n, f"{', '.join(only)} not used by {_a(kind)} area: ignored")
            if "name" in props:
                area["name"] = str(props["name"])
            ring = [cm(x, y) for x, y in list(fa.poly.exterior.coords)[:-1]]
            area["polygon"] = [list(p) for p in ring]
            self.source[("areas", len(areas))] = n
            areas.append(area)
        for i, bid in enumerate(buildings):
            self.source[("buildings", i)] = building_from[bid]
        shapes = [Polygon(a["polygon"]) for a in areas]
        levels = {
            a["id"]: _level_range(buildings[a["building"]]) if "building" in a else range(0, 1)
            for a in areas
        }
        features: list[dict[str, Any]] = []
        tree = shapely.STRtree(shapes)
        for fp in points:
            unknown |= set(fp.props) - set(_AREA_KEYS) - _QUIET_KEYS - set(_POINT_KEYS)
            misplaced = [k for k in _AREA_KEYS if k in fp.props and k not in (*_POINT_KEYS, "id")]
            if misplaced:
                self.warn(fp.n, f"{', '.join(misplaced)} not used by a point feature: ignored")
            f = self._point_feature(fp, areas, tree, cm, levels)
            if f is not None:
                self.source[("features", len(features))] = fp.n
                features.append(f)
        if unknown:
            self.warn(None, f"properties not used: {', '.join(sorted(unknown))}")
        for b in buildings.values():
            b.pop("_set", None)
        geo: dict[str, Any] = {"origin": list(ref.origin), "metres_per_cm": ref.metres_per_cm}
        if ref.crs is not None:
            geo["crs"] = ref.crs
        return {
            "fireground": 1,
            "name": name,
            "ruleset": "blitz",
            "buildings": list(buildings.values()),
            "areas": areas,
            "features": features,
            "geo": geo,
        }

    def _area_ids(self, found: list[_Area]) -> None:
        """Give every area its id: its own (made valid), or a generated A1, A2, ..."""
        first: dict[str, int] = {}
        for fa in found:
            if "id" in fa.props:
                fa.id = self._text_id(fa.n, fa.props["id"], "id")
                if fa.id in first:
                    self.error(fa.n, f"duplicate id '{fa.id}' (also feature {first[fa.id]})")
                first.setdefault(fa.id, fa.n)
        n = 0
        for fa in found:
            if not fa.id:
                n += 1
                while f"A{n}" in first:
                    n += 1
                fa.id = f"A{n}"

    def _text_id(self, n: int, raw: Any, key: str) -> str:
        text = _text(raw)
        if re.fullmatch(r"\d+\.0+", text):  # a number id from a QGIS real field: 13.0
            text = text.split(".")[0]
        if _ID_OK.match(text):
            return text
        fixed = _ID_BAD.sub("_", text).strip("_") or "x"
        self.warn(n, f"{key} {text!r} is not a valid id (letters, digits, '-', '_'): "
                  f"using '{fixed}'")  # fmt: skip
        return fixed

    def _area_kind(self, n: int, props: dict[str, Any]) -> str | None:
        kind = props.get("kind")
        if kind is None:
            return "building" if "building" in props or "levels" in props else "street"
        kinds = [k.value for k in AreaKind]
        if kind not in kinds:
            self.error(n, f"unknown area kind {_show(kind)}{_suggest(kind, kinds)}")
            return None
        return str(kind)

    def _building(
        self,
        n: int,
        props: dict[str, Any],
        bid: str,
        buildings: dict[str, dict[str, Any]],
        building_from: dict[str, int],
    ) -> bool:
        b = buildings.setdefault(bid, {"id": bid, "levels": 1})
        building_from.setdefault(bid, n)
        ok = True
        if "levels" in props:
            levels = self._int(n, props, "levels")
            if levels is None:
                ok = False
            elif b.get("_set") and b["levels"] != levels:
                self.warn(
                    n,
                    f"building '{bid}' has {levels} levels here but {b['levels']} in feature "
                    f"{building_from[bid]}: kept {b['levels']}",
                )
            else:
                b["levels"], b["_set"] = levels, True
                building_from[bid] = n
        if "basement" in props:
            v = props["basement"]
            if isinstance(v, bool) or v in (0, 1):
                b["basement"] = bool(v)
            elif isinstance(v, str) and v.lower() in ("true", "false"):
                b["basement"] = v.lower() == "true"
            else:
                self.error(n, f"basement must be true or false, got {_show(v)}")
                ok = False
        if "building_name" in props:
            b["name"] = _text(props["building_name"])
        return ok

    def _int(self, n: int, props: dict[str, Any], key: str) -> int | None:
        """A whole number property (QGIS writes real fields as 4.0), range-checked."""
        v = props[key]
        if isinstance(v, str) and re.fullmatch(r"\s*[-+]?\d+\s*", v):
            v = int(v)
        if isinstance(v, float) and v.is_integer():
            v = int(v)
        if isinstance(v, bool) or not isinstance(v, int):
            self.error(n, f"{key} must be a whole number, got {_show(v)}")
            return None
        lo, hi = RANGES.get(key, (1, 1_000_000) if key == "count" else (-1, 20))
        if not lo <= v <= hi:
            self.error(n, f"{key} must be {lo}..{hi}, got {v if abs(v) < 1e12 else f'{v:.3g}'}")
            return None
        return v

    def _point_feature(
        self,
        fp: _Point,
        areas: list[dict[str, Any]],
        tree: shapely.STRtree,
        cm: Callable[[float, float], tuple[float, float]],
        levels: dict[str, range],
    ) -> dict[str, Any] | None:
        props, n = fp.props, fp.n
        ftype = props.get("type")
        types = [t.value for t in FeatureType]
        if ftype is None:
            self.error(n, f"a point feature needs a 'type' ({', '.join(types)})")
            return None
        if ftype not in types:
            self.error(n, f"unknown feature type {_show(ftype)}{_suggest(ftype, types)}")
            return None
        own, needed = _OWN_KEYS[ftype]
        f: dict[str, Any] = {"type": ftype}
        ok = True
        for key in needed:
            if key not in props:
                self.error(n, f"{_a(ftype)} needs '{key}'")
                ok = False
        extra = [k for k in _POINT_KEYS if k in props and k not in own]
        if extra:
            self.warn(n, f"{', '.join(extra)} not used by {_a(ftype)}: ignored")
        # Where: the area that contains the point; its 'area' property breaks a tie.
        x, y = fp.xy
        hits = sorted(int(j) for j in tree.query(Point(cm(x, y)), predicate="covered_by"))
        if not hits:
            if not any(b[0] <= x <= b[2] and b[1] <= y <= b[3] for b in self.refused):
                self.error(n, f"{ftype} at ({_num(x)}, {_num(y)}) lies outside every area")
            return None
        ids = [areas[j]["id"] for j in hits]
        said = _text(props["area"]) if "area" in props else None
        if said in ids:
            f["area"] = said
        else:
            f["area"] = ids[0]
            if said is not None:
                self.warn(n, f"the point lies in area '{ids[0]}', not '{said}': placed in "
                          f"'{ids[0]}'")  # fmt: skip
        for key in own:
            if key not in props:
                continue
            if key in ("level", "pressure", "points", "count"):
                v = self._int(n, props, key)
                if v is None:
                    ok = False
                    continue
                if key == "level" and v not in levels[f["area"]]:
                    lv = levels[f["area"]]
                    self.error(
                        n,
                        f"level {v} does not exist in area '{f['area']}' "
                        f"(levels {lv[0]}..{lv[-1]})",
                    )
                    ok = False
                    continue
                f[key] = v
            elif key == "material":
                materials = [m.value for m in Material]
                if props[key] not in materials:
                    self.error(
                        n,
                        f"unknown material {_show(props[key])}{_suggest(props[key], materials)}",
                    )
                    ok = False
                    continue
                f[key] = props[key]
            else:
                f[key] = _text(props[key])
        return f if ok else None


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


def _level_range(b: dict[str, Any]) -> range:
    return range(-1 if b.get("basement") else 0, int(b["levels"]))


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


# Longitude/latitude: a local equirectangular projection about the map's south-west
# corner, good to centimetres across a few blocks, and exactly invertible for export.
_M_PER_DEG_LON = 111_320.0  # at the equator; times cos(latitude)
_M_PER_DEG_LAT = 110_574.0


def _is_lonlat(crs: str | None) -> bool:
    return crs is not None and crs.endswith(_LONLAT)


def _to_local(lon: float, lat: float, lon0: float, lat0: float) -> tuple[float, float]:
    kx = _M_PER_DEG_LON * math.cos(math.radians(lat0))
    return ((lon - lon0) * kx, (lat - lat0) * _M_PER_DEG_LAT)


def _from_local(x: float, y: float, lon0: float, lat0: float) -> tuple[float, float]:
    kx = _M_PER_DEG_LON * math.cos(math.radians(lat0))
    return (lon0 + x / kx, lat0 + y / _M_PER_DEG_LAT)


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


def _tidy(v: float, digits: int) -> float:
    """Round away the float noise of scaling (4 digits of cm is a micrometre of table)."""
    r = round(v, digits)
    return 0.0 if r == 0 else r


def _num(v: float) -> str:
    """A number as short text: 532100 rather than 532100.0."""
    return str(int(v)) if float(v).is_integer() and abs(v) < 1e15 else repr(float(v))


def _text(v: Any) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def _lower(key: str, v: Any) -> Any:
    """Names from a fixed list are read in any case: 'Building' is 'building'."""
    return v.strip().lower() if key in ("kind", "type", "material") and isinstance(v, str) else v


def _a(word: str) -> str:
    return f"an {word}" if word[0] in "aeiou" else f"a {word}"


def _show(v: Any) -> str:
    return repr(v) if isinstance(v, str) else json.dumps(v)


def _suggest(word: Any, among: list[str]) -> str:
    if not isinstance(word, str):
        return f" (one of {', '.join(among)})"
    close = difflib.get_close_matches(word.lower(), among, n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else f" (one of {', '.join(among)})"


# -- command line ------------------------------------------------------------------------


def cli_import_geojson(args: argparse.Namespace) -> int:
    """``fireground import-geojson FILE --out FILE.fg.yaml [--metres-per-cm M]``."""
    k = args.metres_per_cm
    if not (k > 0 and math.isfinite(k)):
        raise UsageError(f"--metres-per-cm must be a positive number, got {k}")
    imported = load_geojson(args.file, metres_per_cm=k)
    for w in imported.warnings:
        print(_warning(w), file=sys.stderr)
    s = imported.scenario
    save_scenario(s, args.out)
    print(
        f"{args.out}: {len(s.areas)} areas, {len(s.buildings)} buildings, "
        f"{len(s.features)} features from {args.file}"
    )
    return 0


def cli_export_geojson(args: argparse.Namespace) -> int:
    """``fireground export-geojson FILE.fg.yaml --out FILE.geojson [--metres-per-cm M]``."""
    s = load_scenario(args.file)
    scale = getattr(args, "metres_per_cm", None)
    if scale is not None and not (math.isfinite(scale) and scale > 0):
        raise UsageError(f"{args.file}: --metres-per-cm must be a positive number")
    data = to_geojson(s, scale)
    atomic_write(args.out, dumps_geojson(data).encode("utf-8"), backup=False)
    print(f"{args.out}: {len(data['features'])} GeoJSON features from {args.file}")
    return 0


def _warning(d: Diagnostic) -> str:
    where = f"{d.file}:{d.line}:{d.col}" if d.line else d.file
    return f"{where}: warning: {d.message}"
