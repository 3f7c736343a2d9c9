"""From GeoJSON feature properties to scenario entries: area ids and kinds, buildings and
their levels, point features placed in the area that contains them."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import shapely
from shapely.geometry import Point, Polygon

from ...board.model import AreaKind, FeatureType, Geo, Material
from ..schema import RANGES
from .common import POINT_KEYS, Report, as_text, num, show, suggest, with_article

_AREA_KEYS = ("id", "kind", "building", "levels", "name", "basement", "building_name")
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


@dataclass
class FoundArea:
    """A Polygon feature read from the file: its number (from 1), properties, shape (m)."""

    n: int
    props: dict[str, Any]
    poly: Polygon
    id: str = ""


@dataclass
class FoundPoint:
    """A Point feature read from the file: its number (from 1), properties, place (m)."""

    n: int
    props: dict[str, Any]
    xy: tuple[float, float]


class PropertyReader(Report):
    """Turns the features' properties into the scenario's entries, reporting as it goes."""

    def _scenario(
        self,
        name: str,
        found: list[FoundArea],
        points: list[FoundPoint],
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
            unknown |= set(props) - set(_AREA_KEYS) - _QUIET_KEYS - set(POINT_KEYS)
            misplaced = [k for k in POINT_KEYS if k in props and k not in _AREA_KEYS]
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
                    self.warn(
                        n, f"{', '.join(only)} not used by {with_article(kind)} area: ignored"
                    )
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
            unknown |= set(fp.props) - set(_AREA_KEYS) - _QUIET_KEYS - set(POINT_KEYS)
            misplaced = [k for k in _AREA_KEYS if k in fp.props and k not in (*POINT_KEYS, "id")]
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

    def _area_ids(self, found: list[FoundArea]) -> None:
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
        text = as_text(raw)
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
            self.error(n, f"unknown area kind {show(kind)}{suggest(kind, kinds)}")
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
                self.error(n, f"basement must be true or false, got {show(v)}")
                ok = False
        if "building_name" in props:
            b["name"] = as_text(props["building_name"])
        return ok

    def _int(self, n: int, props: dict[str, Any], key: str) -> int | None:
        """A whole number property (QGIS writes real fields as 4.0), range-checked."""
        v = props[key]
        if isinstance(v, str) and re.fullmatch(r"\s*[-+]?\d+\s*", v):
            v = int(v)
        if isinstance(v, float) and v.is_integer():
            v = int(v)
        if isinstance(v, bool) or not isinstance(v, int):
            self.error(n, f"{key} must be a whole number, got {show(v)}")
            return None
        lo, hi = RANGES.get(key, (1, 1_000_000) if key == "count" else (-1, 20))
        if not lo <= v <= hi:
            self.error(n, f"{key} must be {lo}..{hi}, got {v if abs(v) < 1e12 else f'{v:.3g}'}")
            return None
        return v

    def _point_feature(
        self,
        fp: FoundPoint,
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
            self.error(n, f"unknown feature type {show(ftype)}{suggest(ftype, types)}")
            return None
        own, needed = _OWN_KEYS[ftype]
        f: dict[str, Any] = {"type": ftype}
        ok = True
        for key in needed:
            if key not in props:
                self.error(n, f"{with_article(ftype)} needs '{key}'")
                ok = False
        extra = [k for k in POINT_KEYS if k in props and k not in own]
        if extra:
            self.warn(n, f"{', '.join(extra)} not used by {with_article(ftype)}: ignored")
        # Where: the area that contains the point; its 'area' property breaks a tie.
        x, y = fp.xy
        hits = sorted(int(j) for j in tree.query(Point(cm(x, y)), predicate="covered_by"))
        if not hits:
            if not any(b[0] <= x <= b[2] and b[1] <= y <= b[3] for b in self.refused):
                self.error(n, f"{ftype} at ({num(x)}, {num(y)}) lies outside every area")
            return None
        ids = [areas[j]["id"] for j in hits]
        said = as_text(props["area"]) if "area" in props else None
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
                        f"unknown material {show(props[key])}{suggest(props[key], materials)}",
                    )
                    ok = False
                    continue
                f[key] = props[key]
            else:
                f[key] = as_text(props[key])
        return f if ok else None


def _level_range(b: dict[str, Any]) -> range:
    return range(-1 if b.get("basement") else 0, int(b["levels"]))
