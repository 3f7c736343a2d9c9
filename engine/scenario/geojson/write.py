"""Writing the map as GeoJSON, back where :mod:`.geojson_read` found it (see
:mod:`.geojson` for the format)."""

from __future__ import annotations

import json
import math
import re
from typing import Any

from shapely.geometry import Point

from ...board.model import Geo, Scenario
from .common import DEFAULT_METRES_PER_CM, POINT_KEYS, from_local, is_lonlat, tidy

_TAG = re.compile(
    r"^\[geojson origin=(?P<x>[^,\s]+),(?P<y>\S+) metres_per_cm=(?P<k>\S+?)"
    r"(?: crs=(?P<crs>[^\]\s]+))?\]$",
    re.MULTILINE,
)

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


def to_geojson(s: Scenario, metres_per_cm: float | None = None) -> dict[str, Any]:
    """The map of ``s`` as a GeoJSON FeatureCollection (coordinates in metres).

    The map goes back where :func:`from_geojson` found it (see :func:`georeference`);
    a scenario drawn in the editor has its origin at (0, 0) and no CRS. ``metres_per_cm``
    overrides the recorded scale (default 0.5).
    """
    ref = georeference(s) or Geo()
    k = metres_per_cm if metres_per_cm is not None else ref.metres_per_cm
    ox, oy = ref.origin
    lonlat = is_lonlat(ref.crs)

    def metres(x: float, y: float) -> list[float]:
        if lonlat:
            lon, lat = from_local(x * k, y * k, ox, oy)
            return [tidy(lon, 12), tidy(lat, 12)]
        return [tidy(x * k + ox, 6), tidy(y * k + oy, 6)]

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
        for key in POINT_KEYS:
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
    """GeoJSON text laid out as QGIS writes it: one feature per line. Raises ValueError
    for a number JSON cannot hold (an infinite coordinate from an absurd scale)."""
    head = [
        f"{json.dumps(k)}: {json.dumps(v, ensure_ascii=False, allow_nan=False)}"
        for k, v in data.items()
        if k != "features"
    ]
    feats = [json.dumps(f, ensure_ascii=False, allow_nan=False) for f in data.get("features", [])]
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
