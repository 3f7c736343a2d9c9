"""Rules-aware checks of a scenario: ``check(scenario) -> list[Finding]``.

Errors make a scenario unplayable or ambiguous (``simulate``, ``export`` and ``analyze``
refuse them); warnings are playability concerns. Every code is listed with an example in
``docs/checks.md``. Checks work on scenarios built in code as well as loaded ones (lines
are then None), and never raise for user data: a check that fails inside becomes FG199.

>>> from fireground.engine.scenario import Area, AreaKind, Feature, FeatureType, Scenario
>>> s = Scenario(areas=(Area("R1", AreaKind.STREET, ((0, 0), (10, 0), (10, 10), (0, 10))),),
...              features=(Feature(FeatureType.HYDRANT, "R1", pressure=3),))
>>> check(s)
[]
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal

import numpy as np
import shapely

from .graph import MapGraph, build_graph, max_hose_lengths
from .ruleset import KNOWN_RULESETS, Ruleset, load_ruleset
from .scenario import (
    AreaKind,
    FeatureType,
    Location,
    Scenario,
)
from .shapes import raw_shapes

Severity = Literal["error", "warning"]
#: Areas closer than this (cm) that do not touch are reported as a drawing slip.
NEAR_MISS_CM = 1.0
#: An area smaller than LOW or larger than HIGH times the nominal area is reported.
SIZE_LOW, SIZE_HIGH = 0.25, 4.0
#: Highest ladder rating when the ruleset lists none (turntable ladder, §7).
DEFAULT_LADDER_REACH = 4


@dataclass(frozen=True)
class Finding:
    """One problem: a stable ``code`` (FG1nn), severity, message and where it is."""

    code: str
    severity: Severity
    message: str
    area: str | None = None
    level: int | None = None
    line: int | None = None

    def __str__(self) -> str:
        return f"{self.code} {self.message}"

    @property
    def sort_key(self) -> tuple[int, int, str, str, int, str]:
        return (
            0 if self.severity == "error" else 1,
            self.line if self.line is not None else 1 << 30,
            self.code,
            self.area or "",
            self.level if self.level is not None else -99,
            self.message,
        )


def finding_position(scenario: Scenario, finding: Finding) -> tuple[int, int]:
    """(line, col) of a finding in its file: col is where its area's entry starts when that
    entry is on the finding's line, else 1. (0, 0) when the scenario has no file."""
    line = finding.line or 0
    if not line:
        return (0, 0)
    if finding.area is not None:
        for i, a in enumerate(scenario.areas):
            if a.id == finding.area:
                pos = scenario.source.get(("areas", i))
                if pos and pos[0] == line:
                    return (line, pos[1])
                break
    return (line, 1)


def error_lines(scenario: Scenario, path: str) -> list[str]:
    """The scenario's check errors as ``FILE:LINE:COL: CODE message`` lines (empty when it is
    playable). ``simulate``, ``export`` and ``analyze`` refuse a scenario that has any."""
    out: list[str] = []
    for f in check(scenario):
        if f.severity != "error":
            continue
        line, col = finding_position(scenario, f)
        where = f"{path}:{line}:{col}" if line else path
        out.append(f"{where}: {f.code} {f.message}")
    return out


def check(scenario: Scenario) -> list[Finding]:
    """Every finding for the scenario: errors first, then by file line and code."""
    ctx = _Context(scenario)
    found: list[Finding] = []
    for fn in _CHECKS:
        try:
            found.extend(fn(ctx))
        except Exception as exc:  # a bug or an input no check foresaw: report, don't raise
            name = fn.__name__.lstrip("_")
            found.append(Finding("FG199", "error", f"internal failure in check {name}: {exc!r}"))
    return sorted(set(found), key=lambda f: f.sort_key)


def errors(findings: list[Finding]) -> list[Finding]:
    return [f for f in findings if f.severity == "error"]


class _Context:
    """Shared, lazily computed inputs of the checks."""

    def __init__(self, scenario: Scenario) -> None:
        self.s = scenario
        self.area_line = {a.id: scenario.line_of("areas", i) for i, a in enumerate(scenario.areas)}

    @cached_property
    def raw(self) -> Any:
        """Polygons as drawn (maybe invalid, empty where none can be built)."""
        return raw_shapes(self.s.areas)

    @cached_property
    def graph(self) -> MapGraph:
        return build_graph(self.s, raw_shapes=self.raw)

    @cached_property
    def ruleset(self) -> Ruleset | None:
        try:
            return load_ruleset(self.s.ruleset, self.s.house_rules)
        except Exception:
            try:
                return load_ruleset("blitz")
            except Exception:
                return None

    @cached_property
    def units(self) -> dict[str, dict[str, Any]]:
        return dict(self.ruleset.units) if self.ruleset is not None else {}

    @cached_property
    def geoms(self) -> Any:
        return self.graph.shapes

    def levels(self, area: str) -> range:
        return self.s.levels_of(area)

    def kind(self, area: str) -> AreaKind | None:
        a = self.s.area_by_id.get(area)
        return a.kind if a is not None else None

    @cached_property
    def foot_reach(self) -> set[Location]:
        """Locations a firefighter reaches from a street: on foot (stairs included), or by a
        ladder pitched in a street/open area next to the building (§7)."""
        g = self.graph
        areas = self.s.areas
        kinds = {AreaKind.STREET}
        if not any(a.kind is AreaKind.STREET for a in areas):
            kinds.add(AreaKind.OPEN)
        seeds: list[Location] = [(a.id, 0) for a in areas if a.kind in kinds]
        return set(g.hose_steps_from(seeds, ladders=self.ladder_reach))

    @cached_property
    def ladder_reach(self) -> int:
        return _ladder_reach(self.units)

    def finding(
        self,
        code: str,
        severity: Severity,
        message: str,
        area: str | None = None,
        level: int | None = None,
        path: tuple[str | int, ...] | None = None,
    ) -> Finding:
        line = self.s.line_of(*path) if path else None
        if line is None and area is not None:
            line = self.area_line.get(area)
        return Finding(code, severity, message, area, level, line)


def _ladder_reach(units: dict[str, dict[str, Any]]) -> int:
    ratings = [
        int(ld.get("rating", 0))
        for u in units.values()
        for ld in (u.get("ladders") or [])
        if isinstance(ld, dict)
    ]
    return max(ratings, default=DEFAULT_LADDER_REACH)


# -- scenario-wide ---------------------------------------------------------------------------
def _ruleset(ctx: _Context) -> Iterator[Finding]:
    s = ctx.s
    if s.ruleset not in KNOWN_RULESETS:
        yield ctx.finding("FG160", "error", f"unknown ruleset '{s.ruleset}'", path=("ruleset",))
        return
    try:
        load_ruleset(s.ruleset, s.house_rules)
    except Exception as exc:
        yield ctx.finding("FG160", "error", f"house rules: {exc}", path=("house_rules",))


def _ranges(ctx: _Context) -> Iterator[Finding]:
    """Numbers out of the ranges of scenario-format.md (the loader refuses them in files)."""
    s = ctx.s
    if not 1 <= s.turns <= 500:
        yield ctx.finding("FG161", "error", f"turns {s.turns} is not in 1..500", path=("turns",))
    if s.mains not in ("working", "failed"):
        yield ctx.finding(
            "FG161", "error", f"mains '{s.mains}' is not working or failed", path=("mains",)
        )
    for i, b in enumerate(s.buildings):
        if not 1 <= b.levels <= 20:
            yield ctx.finding(
                "FG161",
                "error",
                f"building {b.id} has {b.levels} levels (1..20)",
                path=("buildings", i),
            )
    limits = {"pressure": (1, 20), "points": (1, 100000), "count": (1, 10**6)}
    for i, f in enumerate(s.features):
        for name, (lo, hi) in limits.items():
            v = getattr(f, name)
            if v is not None and not lo <= v <= hi:
                yield ctx.finding(
                    "FG161",
                    "error",
                    f"{f.type} at {f.area}: {name} {v} is not in {lo}..{hi}",
                    area=f.area,
                    path=("features", i),
                )
    for key, values, lo in (
        ("fires", s.start.fires, 1),
        ("damp", s.start.damp, 0),
        ("damage", s.start.damage, 1),
    ):
        for i, v in enumerate(values):
            if not lo <= v.value <= 5:
                yield ctx.finding(
                    "FG161",
                    "error",
                    f"start {key} at {v.area} level {v.level}: {v.value} is not in {lo}..5",
                    area=v.area,
                    level=v.level,
                    path=("start", key, i),
                )


def _duplicates(ctx: _Context) -> Iterator[Finding]:
    s = ctx.s
    lists: tuple[tuple[str, str, list[str]], ...] = (
        ("buildings", "building", [b.id for b in s.buildings]),
        ("areas", "area", [a.id for a in s.areas]),
        ("forces", "unit", [u.id for u in s.forces]),
    )
    for key, what, ids in lists:
        seen: set[str] = set()
        for i, ident in enumerate(ids):
            if ident in seen:
                yield ctx.finding(
                    "FG115", "error", f"{what} id {ident} is used twice", path=(key, i)
                )
            seen.add(ident)


# -- geometry --------------------------------------------------------------------------------
def _polygons(ctx: _Context) -> Iterator[Finding]:
    nominal = ctx.s.scale.area_cm**2
    raw = ctx.raw
    empty = shapely.is_empty(raw)
    area = np.nan_to_num(shapely.area(raw))
    valid = shapely.is_valid(raw)
    water = np.array([a.kind is AreaKind.WATER for a in ctx.s.areas], dtype=bool)
    ratio = area / nominal if nominal > 0 else np.ones(len(raw))
    odd = ~water & ((ratio < SIZE_LOW) | (ratio > SIZE_HIGH))
    bad = empty | (area <= 0) | ~valid | odd
    for i in np.flatnonzero(bad).tolist():
        a = ctx.s.areas[i]
        path = ("areas", i)
        if empty[i]:
            msg = f"area {a.id}: polygon needs 3 distinct finite points"
            yield ctx.finding("FG111", "error", msg, a.id, path=path)
        elif area[i] <= 0:
            yield ctx.finding(
                "FG111", "error", f"area {a.id}: polygon has no area", a.id, path=path
            )
        elif not valid[i]:
            why = shapely.is_valid_reason(raw[i])
            msg = f"area {a.id}: invalid polygon ({why})"
            yield ctx.finding("FG110", "error", msg, a.id, path=path)
        else:
            msg = f"area {a.id} covers {area[i]:g} cm², {ratio[i]:.2g}× the nominal {nominal:g} cm²"
            yield ctx.finding("FG114", "warning", msg, a.id, path=path)


def _overlaps(ctx: _Context) -> Iterator[Finding]:
    """Overlaps beyond the tolerance, and near-misses. Pairs of axis-aligned rectangles (most
    maps) are measured from their bounds; other pairs with shapely."""
    geoms = ctx.geoms
    if len(geoms) < 2:
        return
    areas = ctx.s.areas
    tree = shapely.STRtree(geoms)
    left, right = tree.query(geoms, predicate="dwithin", distance=NEAR_MISS_CM)
    keep = left < right
    left, right = left[keep], right[keep]
    if not len(left):
        return
    bounds = shapely.bounds(geoms)
    box_area = (bounds[:, 2] - bounds[:, 0]) * (bounds[:, 3] - bounds[:, 1])
    is_box = np.isclose(shapely.area(geoms), box_area, rtol=1e-12, atol=1e-12) & (box_area > 0)
    boxes = is_box[left] & is_box[right]
    bl, br = bounds[left], bounds[right]
    w = np.minimum(bl[:, 2], br[:, 2]) - np.maximum(bl[:, 0], br[:, 0])
    h = np.minimum(bl[:, 3], br[:, 3]) - np.maximum(bl[:, 1], br[:, 1])
    overlap = np.where(boxes, np.maximum(w, 0) * np.maximum(h, 0), 0.0)
    dist = np.where(boxes, np.hypot(np.maximum(-w, 0), np.maximum(-h, 0)), 0.0)
    other = np.flatnonzero(~boxes)
    if len(other):
        a, b = geoms[left[other]], geoms[right[other]]
        with np.errstate(all="ignore"):
            dist[other] = shapely.distance(a, b)
            overlap[other] = shapely.area(shapely.intersection(a, b))
    tol = ctx.s.scale.overlap_tolerance_cm2
    flagged = np.flatnonzero((overlap > tol) | ((dist > 0) & (dist < NEAR_MISS_CM)))
    for k in flagged.tolist():
        i, j = int(left[k]), int(right[k])
        a_id, b_id = areas[i].id, areas[j].id
        if overlap[k] > tol:
            msg = f"areas {a_id} and {b_id} overlap by {overlap[k]:.3g} cm²"
            yield ctx.finding("FG112", "error", msg, a_id, path=("areas", i))
        else:
            msg = (
                f"areas {a_id} and {b_id} are {dist[k]:.2g} cm apart but do not touch "
                "(a drawing slip?)"
            )
            yield ctx.finding("FG113", "warning", msg, a_id, path=("areas", i))


# -- references and levels -------------------------------------------------------------------
def _area_buildings(ctx: _Context) -> Iterator[Finding]:
    buildings = ctx.s.building_by_id
    used: set[str] = set()
    for i, a in enumerate(ctx.s.areas):
        path = ("areas", i)
        if a.kind is AreaKind.BUILDING:
            if a.building is None:
                yield ctx.finding(
                    "FG116", "error", f"building area {a.id} names no building", a.id, path=path
                )
            elif a.building not in buildings:
                yield ctx.finding(
                    "FG116",
                    "error",
                    f"area {a.id} names unknown building {a.building}",
                    a.id,
                    path=path,
                )
            else:
                used.add(a.building)
        elif a.building is not None:
            yield ctx.finding(
                "FG116",
                "error",
                f"{a.kind} area {a.id} cannot belong to building {a.building}",
                a.id,
                path=path,
            )
    for i, b in enumerate(ctx.s.buildings):
        if b.id not in used:
            yield ctx.finding(
                "FG117", "warning", f"building {b.id} has no areas", path=("buildings", i)
            )


_LEVELLED = {FeatureType.STORE, FeatureType.OCCUPANTS}


def _features(ctx: _Context) -> Iterator[Finding]:
    s = ctx.s
    seen: dict[tuple[FeatureType, str, int | None], int] = {}
    for i, f in enumerate(s.features):
        path = ("features", i)
        kind = ctx.kind(f.area)
        if kind is None:
            yield ctx.finding("FG124", "error", f"{f.type} names unknown area {f.area}", path=path)
            continue
        if f.type in _LEVELLED:
            lvl = 0 if f.level is None else f.level
            if lvl not in ctx.levels(f.area):
                yield ctx.finding(
                    "FG123",
                    "error",
                    f"{f.type} at {f.area} level {lvl}: no such level "
                    f"({_span(ctx.levels(f.area))})",
                    f.area,
                    lvl,
                    path,
                )
            if kind is AreaKind.WATER:
                yield ctx.finding(
                    "FG123", "error", f"{f.type} on water area {f.area}", f.area, lvl, path
                )
        key = (f.type, f.area, f.level if f.type in _LEVELLED else None)
        if f.type not in (FeatureType.LABEL, FeatureType.ENTRY) and key in seen:
            yield ctx.finding(
                "FG127",
                "error",
                f"two {f.type} features at {f.area}"
                + (f" level {f.level}" if f.type in _LEVELLED else ""),
                f.area,
                f.level,
                path,
            )
        seen.setdefault(key, i)
        if f.type is FeatureType.HYDRANT and kind not in (AreaKind.STREET, AreaKind.OPEN):
            yield ctx.finding(
                "FG120",
                "error",
                f"hydrant in {kind} area {f.area} (streets and open areas only)",
                f.area,
                0,
                path,
            )
        elif f.type is FeatureType.ENTRY and kind is not AreaKind.STREET:
            name = f"entry '{f.name}'" if f.name else "entry"
            yield ctx.finding(
                "FG125",
                "error",
                f"{name} is in {kind} area {f.area}, not a street",
                f.area,
                0,
                path,
            )
        elif f.type is FeatureType.STAIRWELL and len(ctx.levels(f.area)) < 2:
            what = "one-level building" if kind is AreaKind.BUILDING else f"{kind} area"
            yield ctx.finding(
                "FG122", "warning", f"stairwell in {what} {f.area} links nothing", f.area, 0, path
            )
        elif f.type is FeatureType.WATER and kind not in (AreaKind.WATER, AreaKind.OPEN):
            yield ctx.finding(
                "FG126", "warning", f"open water source in {kind} area {f.area}", f.area, 0, path
            )


def _span(levels: range) -> str:
    return f"levels {levels[0]}..{levels[-1]}"


def _start(ctx: _Context) -> Iterator[Finding]:
    s = ctx.s
    st = s.start
    rubble = set(st.rubble)
    vehicles = {u.area for u in s.forces if u.area and ctx.units.get(u.type, {}).get("vehicle")}
    lists: list[tuple[str, list[tuple[str, int, int | None]]]] = [
        ("fires", [(v.area, v.level, v.value) for v in st.fires]),
        ("embers", [(v.area, v.level, None) for v in st.embers]),
        ("damp", [(v.area, v.level, v.value) for v in st.damp]),
        ("damage", [(v.area, v.level, v.value) for v in st.damage]),
    ]
    for key, items in lists:
        for i, (area, level, value) in enumerate(items):
            path = ("start", key, i)
            kind = ctx.kind(area)
            if kind is None:
                yield ctx.finding(
                    "FG130", "error", f"start {key} name unknown area {area}", path=path
                )
                continue
            if level not in ctx.levels(area):
                yield ctx.finding(
                    "FG130",
                    "error",
                    f"start {key} at {area} level {level}: no such level "
                    f"({_span(ctx.levels(area))})",
                    area,
                    level,
                    path,
                )
                continue
            if key not in ("fires", "embers"):
                continue
            if kind is AreaKind.WATER:
                yield ctx.finding(
                    "FG131",
                    "error",
                    f"{key[:-1] if key == 'fires' else key} on water area {area}",
                    area,
                    level,
                    path,
                )
            elif (
                kind is not AreaKind.BUILDING
                and value is not None
                and value > 1
                and area not in rubble
                and area not in vehicles
            ):
                yield ctx.finding(
                    "FG132",
                    "warning",
                    f"fire {value} on empty {kind} area {area}: an incendiary there burns at 1",
                    area,
                    level,
                    path,
                )
    for key, ids in (("rubble", st.rubble), ("craters", st.craters)):
        for i, area in enumerate(ids):
            kind = ctx.kind(area)
            if kind is None:
                yield ctx.finding(
                    "FG130",
                    "error",
                    f"start {key} names unknown area {area}",
                    path=("start", key, i),
                )
            elif kind not in (AreaKind.STREET, AreaKind.OPEN):
                yield ctx.finding(
                    "FG133",
                    "error",
                    f"{key} in {kind} area {area} (streets and open areas only)",
                    area,
                    0,
                    ("start", key, i),
                )


def _objectives(ctx: _Context) -> Iterator[Finding]:
    s = ctx.s
    for i, o in enumerate(s.objectives):
        path = ("objectives", i)
        if o.type == "protect":
            if o.building is None and o.area is None:
                yield ctx.finding("FG150", "error", "protect objective names nothing", path=path)
            if o.building is not None and o.building not in s.building_by_id:
                yield ctx.finding(
                    "FG150",
                    "error",
                    f"protect objective names unknown building {o.building}",
                    path=path,
                )
            if o.area is not None and o.area not in s.area_by_id:
                yield ctx.finding(
                    "FG150", "error", f"protect objective names unknown area {o.area}", path=path
                )
        elif o.type == "rescue":
            if o.at_least is None or o.at_least < 1:
                yield ctx.finding(
                    "FG150", "error", "rescue objective needs at_least ≥ 1", path=path
                )
        elif o.type == "contain":
            if o.max_destroyed is None or o.max_destroyed < 0:
                yield ctx.finding(
                    "FG150", "error", "contain objective needs max_destroyed ≥ 0", path=path
                )
        else:
            yield ctx.finding("FG150", "error", f"unknown objective type {o.type}", path=path)


# -- units -----------------------------------------------------------------------------------
def _forces(ctx: _Context) -> Iterator[Finding]:
    s = ctx.s
    entries = {
        f.name: f.area for f in s.features if f.type is FeatureType.ENTRY and f.name is not None
    }
    entry_areas = [
        f.area
        for f in s.features
        if f.type is FeatureType.ENTRY and ctx.kind(f.area) is AreaKind.STREET
    ]
    connected: set[str] | None = None
    for i, u in enumerate(s.forces):
        path = ("forces", i)
        spec = ctx.units.get(u.type)
        if spec is None:
            yield ctx.finding("FG140", "error", f"unit {u.id} has unknown type {u.type}", path=path)
        vehicle = bool(spec and (spec.get("vehicle") or spec.get("moves") == "road"))
        if u.arrives < 1 or u.arrives > s.turns:
            yield ctx.finding(
                "FG145",
                "warning",
                f"unit {u.id} arrives on turn {u.arrives}, outside 1..{s.turns}",
                path=path,
            )
        if (u.area is None) == (u.entry is None):
            yield ctx.finding(
                "FG141", "error", f"unit {u.id} needs exactly one of area or entry", path=path
            )
            continue
        if u.entry is not None:
            if u.entry not in entries:
                yield ctx.finding(
                    "FG141", "error", f"unit {u.id} arrives at unknown entry '{u.entry}'", path=path
                )
            continue
        area = u.area
        assert area is not None
        kind = ctx.kind(area)
        if kind is None:
            yield ctx.finding(
                "FG141", "error", f"unit {u.id} starts in unknown area {area}", path=path
            )
            continue
        if u.level not in ctx.levels(area):
            yield ctx.finding(
                "FG141",
                "error",
                f"unit {u.id} starts at {area} level {u.level}: no such level",
                area,
                u.level,
                path,
            )
            continue
        if kind is AreaKind.WATER:
            yield ctx.finding(
                "FG141", "error", f"unit {u.id} starts on water area {area}", area, 0, path
            )
            continue
        if vehicle and kind is not AreaKind.STREET:
            sev: Severity = "error" if kind is AreaKind.BUILDING else "warning"
            yield ctx.finding(
                "FG142",
                sev,
                f"vehicle {u.id} starts in {kind} area {area}, off the road",
                area,
                u.level,
                path,
            )
        elif vehicle and entry_areas:
            if connected is None:
                roads = ctx.graph.road_graph()
                connected = set()
                for e in entry_areas:
                    if e in roads and e not in connected:
                        connected |= set(_component(roads, e))
            if area not in connected:
                yield ctx.finding(
                    "FG143",
                    "warning",
                    f"vehicle {u.id} starts on street {area}, which no road links to an entry",
                    area,
                    0,
                    path,
                )
        elif not vehicle and (area, u.level) not in ctx.foot_reach:
            yield ctx.finding(
                "FG144",
                "warning",
                f"unit {u.id} starts at {area} level {u.level}, which no "
                "firefighter can reach from a street",
                area,
                u.level,
                path,
            )


def _component(graph: Any, start: str) -> list[str]:
    seen = {start}
    queue = deque([start])
    while queue:
        n = queue.popleft()
        for m in graph.neighbors(n):
            if m not in seen:
                seen.add(m)
                queue.append(m)
    return list(seen)


# -- reachability and water ------------------------------------------------------------------
def _walkable(ctx: _Context) -> Iterator[Finding]:
    """Building locations no firefighter can reach from a street, one finding per building."""
    reach = ctx.foot_reach
    lost: dict[str, list[Location]] = {}
    for a in ctx.s.areas:
        if a.kind is AreaKind.BUILDING:
            for lvl in ctx.levels(a.id):
                if (a.id, lvl) not in reach:
                    lost.setdefault(a.building or "?", []).append((a.id, lvl))
    for building, locs in lost.items():
        yield ctx.finding(
            "FG103",
            "warning",
            f"building {building}: {_where(locs)} cannot be reached on foot or by ladder from "
            "a street",
            locs[0][0],
            locs[0][1],
        )


def _where(locs: list[Location], most: int = 4) -> str:
    """'S1 levels 1..3, S2 level 2' for a list of locations (at most ``most`` areas)."""
    by_area: dict[str, list[int]] = {}
    for area, lvl in locs:
        by_area.setdefault(area, []).append(lvl)
    parts = [f"{area} {_levels_text(sorted(lv))}" for area, lv in list(by_area.items())[:most]]
    if len(by_area) > most:
        parts.append(f"and {len(by_area) - most} more areas")
    return ", ".join(parts)


def _levels_text(levels: list[int]) -> str:
    if len(levels) == 1:
        return f"level {levels[0]}"
    if levels == list(range(levels[0], levels[-1] + 1)):
        return f"levels {levels[0]}..{levels[-1]}"
    return "levels " + ", ".join(map(str, levels))


def _sources(ctx: _Context) -> list[tuple[str, str, bool]]:
    """(label, area, is_hydrant) of every water source, in ``MapGraph.water_sources`` order."""
    out: list[tuple[str, str, bool]] = []
    for f in ctx.s.features:
        if f.type is FeatureType.HYDRANT and ctx.s.mains != "failed":
            out.append((f"hydrant {f.area}", f.area, True))
        elif f.type is FeatureType.WATER:
            out.append((f"open water {f.name or f.area}", f.area, False))
    return out


def _nearest_source(ctx: _Context) -> tuple[list[int], list[int]]:
    """For every node: index into ``_sources`` of its best source (fewest lengths, ladders
    allowed) and the lengths needed; -1 when none reaches."""
    lengths, source = ctx.graph.water_sources_reach(ladders=ctx.ladder_reach)
    return source.tolist(), lengths.tolist()


def _water(ctx: _Context) -> Iterator[Finding]:
    sources = _sources(ctx)
    if not any(ctx.kind(area) is not None for _, area, _ in sources):
        why = (
            " (the mains have failed)"
            if ctx.s.mains == "failed"
            and any(f.type is FeatureType.HYDRANT for f in ctx.s.features)
            else ""
        )
        yield ctx.finding("FG102", "warning", f"no water at all: no hydrant or open water{why}")
        return
    g = ctx.graph
    limit = max_hose_lengths(ctx.s)
    best_src, best_len = _nearest_source(ctx)
    by_building: dict[str, list[tuple[Location, int, int]]] = {}
    for v, loc in enumerate(g.locations):
        area = ctx.s.area_by_id.get(loc[0])
        if area is None or area.kind is not AreaKind.BUILDING:
            continue
        if best_len[v] < 0 or best_len[v] > limit:
            by_building.setdefault(area.building or "?", []).append((loc, best_src[v], best_len[v]))
    for building, lost in by_building.items():
        where = _where([loc for loc, _, _ in lost])
        first = lost[0][0]
        near = [(ln, src) for _, src, ln in lost if ln >= 0]
        if near:
            ln, src = min(near)
            msg = (
                f"{sources[src][0]} cannot reach building {building} within {limit} lengths "
                f"({where}; {ln} needed at best)"
            )
        else:
            msg = f"no water source can reach building {building} by hose ({where})"
        yield ctx.finding("FG101", "warning", msg, first[0], first[1])
    yield from _hydrant_load(ctx, sources, best_src, best_len, limit)


def _hydrant_load(
    ctx: _Context,
    sources: list[tuple[str, str, bool]],
    best_src: list[int],
    best_len: list[int],
    limit: int,
) -> Iterator[Finding]:
    """Appliances (units with pumps) starting on the map count against their nearest water
    source; a hydrant feeds at most ``water.hydrant_appliances`` of them (§8)."""
    cap = 2
    if ctx.ruleset is not None:
        value = ctx.ruleset.get("water.hydrant_appliances", 2)
        cap = int(value) if isinstance(value, int) else 2
    g = ctx.graph
    served: dict[int, list[str]] = {}
    for u in ctx.s.forces:
        spec = ctx.units.get(u.type) or {}
        if not spec.get("pumps") or u.area is None:
            continue
        v = g.index.get((u.area, u.level))
        if v is None or best_src[v] < 0 or best_len[v] > limit:
            continue
        if sources[best_src[v]][2]:
            served.setdefault(best_src[v], []).append(u.id)
    for k, units in sorted(served.items()):
        if len(units) > cap:
            label, area, _ = sources[k]
            yield ctx.finding(
                "FG121",
                "warning",
                f"{label} is the nearest water for {len(units)} appliances "
                f"({', '.join(sorted(units))}) but feeds at most {cap}",
                area,
                0,
            )


# -- tracing background ----------------------------------------------------------------------
def background_image_path(scenario: Scenario) -> str | None:
    """Where the tracing background's image is, as the editor finds it: a relative path is
    read from the scenario file's folder. None when there is no background, or when the path
    is relative and the scenario has no file to be relative to."""
    bg = scenario.background
    if bg is None:
        return None
    image = os.path.expanduser(bg.image)
    if os.path.isabs(image):
        return os.path.normpath(image)
    src = scenario.source_file
    if src is None or (src.startswith("<") and src.endswith(">")):  # "<string>": no file
        return None
    return os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(src)), image))


def _background(ctx: _Context) -> Iterator[Finding]:
    """FG170: the tracing image cannot be found or read (the editor then draws no plan)."""
    bg = ctx.s.background
    path = background_image_path(ctx.s)
    if bg is None or path is None:
        return
    try:
        is_file, exists = os.path.isfile(path), os.path.exists(path)
        readable = is_file and os.access(path, os.R_OK)
    except (ValueError, OSError):  # a path the system cannot even look up
        is_file = exists = readable = False
    if readable:
        return
    if not exists:
        why = f"not found (looked for {path})"
    elif not is_file:
        why = f"is not a file ({path})"
    else:
        why = f"cannot be read ({path})"
    yield ctx.finding(
        "FG170", "warning", f"background image '{bg.image}' {why}", path=("background", "image")
    )


_CHECKS: list[Callable[[_Context], Iterator[Finding]]] = [
    _ruleset,
    _ranges,
    _duplicates,
    _polygons,
    _overlaps,
    _area_buildings,
    _features,
    _start,
    _objectives,
    _forces,
    _walkable,
    _water,
    _background,
]
