"""Pure scenario edits: each takes a Scenario and returns a new one (no Qt).

The undo commands wrap these; tests call them directly. Removing something also removes
what refers to it (features, start state, forces, objectives), so an edit never leaves a
dangling reference behind.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from shapely.geometry import Point as ShPoint

from fireground.engine.board.model import (
    Area,
    AreaKind,
    Building,
    Feature,
    FeatureType,
    ForceUnit,
    Scenario,
)

from . import geometry
from .ops_start import dedupe_start

Coord = geometry.Coord


# -- ids ----------------------------------------------------------------------------------
def next_id(existing: Iterable[str], prefix: str) -> str:
    """The next free id ``PREFIX<n>`` after the highest number already used with it."""
    pat = re.compile(re.escape(prefix) + r"(\d+)$")
    used = set(existing)
    n = max((int(m.group(1)) for e in used if (m := pat.match(e))), default=0) + 1
    while f"{prefix}{n}" in used:
        n += 1
    return f"{prefix}{n}"


def id_prefix(kind: AreaKind, building: str | None = None) -> str:
    if kind is AreaKind.BUILDING and building:
        letters = re.sub(r"[^A-Za-z]", "", building)[:1].upper() or "B"
        return letters
    return {AreaKind.STREET: "R", AreaKind.OPEN: "O", AreaKind.WATER: "W"}.get(kind, "A")


def new_area_ids(
    s: Scenario, kind: AreaKind, building: str | None, n: int, like: str | None = None
) -> list[str]:
    """``n`` fresh area ids. ``like``: an id whose naming they follow (a piece cut from PO3
    is PO7, not P1); else the kind's (or building's) letter, or that of the building's other
    areas."""
    ids: list[str] = []
    used = set(s.area_by_id)
    if like is None and building is not None:
        like = next((a.id for a in s.areas if a.building == building), None)
    prefix = id_prefix(kind, building)
    if like:
        m = re.fullmatch(r"(.*?)\d+", like)
        prefix = m.group(1) if m and m.group(1) else like
    for _ in range(n):
        i = next_id(used, prefix)
        used.add(i)
        ids.append(i)
    return ids


# -- areas --------------------------------------------------------------------------------
def add_areas(s: Scenario, areas: Sequence[Area]) -> Scenario:
    taken = set(s.area_by_id)
    for a in areas:
        if a.id in taken:
            raise ValueError(f"area id {a.id!r} is already used")
        taken.add(a.id)
    return replace(s, areas=s.areas + tuple(areas))


def remove_areas(s: Scenario, ids: Iterable[str]) -> Scenario:
    gone = set(ids)
    st = s.start
    start = replace(
        st,
        fires=tuple(v for v in st.fires if v.area not in gone),
        embers=tuple(v for v in st.embers if v.area not in gone),
        damp=tuple(v for v in st.damp if v.area not in gone),
        damage=tuple(v for v in st.damage if v.area not in gone),
        rubble=tuple(a for a in st.rubble if a not in gone),
        craters=tuple(a for a in st.craters if a not in gone),
    )
    forces = tuple(u for u in s.forces if u.area not in gone)
    return replace(
        s,
        areas=tuple(a for a in s.areas if a.id not in gone),
        features=tuple(f for f in s.features if f.area not in gone),
        start=start,
        forces=forces,
        objectives=tuple(o for o in s.objectives if o.area is None or o.area not in gone),
    )


def replace_area(s: Scenario, area_id: str, new: Area) -> Scenario:
    if new.id != area_id and new.id in s.area_by_id:
        raise ValueError(f"area id {new.id!r} is already used")
    out = replace(s, areas=tuple(new if a.id == area_id else a for a in s.areas))
    if new.id != area_id:
        out = rename_area_refs(out, area_id, new.id)
    was = s.area(area_id)
    if new.kind is not was.kind or new.building != was.building:
        out = _drop_missing_levels(out, new.id)
    return out


def set_area_fields(s: Scenario, area_id: str, **fields: Any) -> Scenario:
    a = s.area(area_id)
    if "kind" in fields:
        fields["kind"] = AreaKind(fields["kind"])
        if fields["kind"] is not AreaKind.BUILDING:
            fields["building"] = None
    return replace_area(s, area_id, replace(a, **fields))


def set_polygon(s: Scenario, area_id: str, polygon: Sequence[Coord]) -> Scenario:
    a = s.area(area_id)
    return replace_area(s, area_id, replace(a, polygon=tuple(geometry.rnd(p) for p in polygon)))


def move_areas(s: Scenario, ids: Iterable[str], dx: float, dy: float) -> Scenario:
    moving = set(ids)
    return replace(
        s,
        areas=tuple(
            replace(a, polygon=geometry.translate(a.polygon, dx, dy)) if a.id in moving else a
            for a in s.areas
        ),
    )


def rename_area_refs(s: Scenario, old: str, new: str) -> Scenario:
    def r(a: str) -> str:
        return new if a == old else a

    st = s.start
    return replace(
        s,
        features=tuple(replace(f, area=r(f.area)) for f in s.features),
        start=replace(
            st,
            fires=tuple(replace(v, area=r(v.area)) for v in st.fires),
            embers=tuple(replace(v, area=r(v.area)) for v in st.embers),
            damp=tuple(replace(v, area=r(v.area)) for v in st.damp),
            damage=tuple(replace(v, area=r(v.area)) for v in st.damage),
            rubble=tuple(r(a) for a in st.rubble),
            craters=tuple(r(a) for a in st.craters),
        ),
        forces=tuple(replace(u, area=r(u.area)) if u.area else u for u in s.forces),
        objectives=tuple(replace(o, area=r(o.area)) if o.area else o for o in s.objectives),
    )


def _drop_missing_levels(s: Scenario, area_id: str) -> Scenario:
    """After an area's building changes, forget start state on levels it no longer has."""
    levels = set(s.levels_of(area_id))

    def ok(a: str, lvl: int | None) -> bool:
        return a != area_id or lvl is None or lvl in levels

    st = s.start
    return replace(
        s,
        features=tuple(f for f in s.features if ok(f.area, f.level)),
        start=replace(
            st,
            fires=tuple(v for v in st.fires if ok(v.area, v.level)),
            embers=tuple(v for v in st.embers if ok(v.area, v.level)),
            damp=tuple(v for v in st.damp if ok(v.area, v.level)),
            damage=tuple(v for v in st.damage if ok(v.area, v.level)),
        ),
        forces=tuple(u for u in s.forces if u.area is None or ok(u.area, u.level)),
    )


# -- buildings ----------------------------------------------------------------------------
def add_building(s: Scenario, b: Building) -> Scenario:
    if b.id in s.building_by_id:
        raise ValueError(f"building id {b.id!r} is already used")
    return replace(s, buildings=(*s.buildings, b))


def set_building_fields(s: Scenario, building_id: str, **fields: Any) -> Scenario:
    b = s.building_by_id[building_id]
    nb = replace(b, **fields)
    if nb.id != b.id and nb.id in s.building_by_id:
        raise ValueError(f"building id {nb.id!r} is already used")
    out = replace(s, buildings=tuple(nb if x.id == building_id else x for x in s.buildings))
    if nb.id != b.id:
        out = replace(
            out,
            areas=tuple(replace(a, building=nb.id) if a.building == b.id else a for a in out.areas),
            objectives=tuple(
                replace(o, building=nb.id) if o.building == b.id else o for o in out.objectives
            ),
        )
    for a in out.areas:
        if a.building == nb.id:
            out = _drop_missing_levels(out, a.id)
    return out


# -- features -----------------------------------------------------------------------------
def add_feature(s: Scenario, f: Feature) -> Scenario:
    return replace(s, features=(*s.features, f))


def remove_features(s: Scenario, indices: Iterable[int]) -> Scenario:
    gone = set(indices)
    return replace(s, features=tuple(f for i, f in enumerate(s.features) if i not in gone))


def replace_feature(s: Scenario, index: int, f: Feature) -> Scenario:
    feats = list(s.features)
    feats[index] = f
    return replace(s, features=tuple(feats))


def make_feature(ftype: FeatureType, area: str, level: int = 0, **extra: Any) -> Feature:
    """A feature with the fields its type needs, defaults filled in."""
    defaults: dict[FeatureType, dict[str, Any]] = {
        FeatureType.STAIRWELL: {},
        FeatureType.STORE: {"level": level, "material": "wood"},
        FeatureType.HYDRANT: {"pressure": 3},
        FeatureType.WATER: {"points": 1000, "name": "Water"},
        FeatureType.OCCUPANTS: {"level": level, "count": 2},
        FeatureType.ENTRY: {"name": "entry"},
        FeatureType.LABEL: {"text": "Label"},
    }
    fields = {**defaults[ftype], **extra}
    if "material" in fields and fields["material"] is not None:
        from fireground.engine.board.model import Material

        fields["material"] = Material(fields["material"])
    return Feature(type=ftype, area=area, **fields)


# -- forces and settings ------------------------------------------------------------------
def set_forces(s: Scenario, forces: Sequence[ForceUnit]) -> Scenario:
    ids = [u.id for u in forces]
    if len(set(ids)) != len(ids):
        raise ValueError("unit ids must be unique")
    return replace(s, forces=tuple(forces))


_ID = re.compile(r"[A-Za-z0-9_-]+\Z")


def set_unit_fields(s: Scenario, unit_id: str, **fields: Any) -> Scenario:
    """Change one unit's fields, checked as the loader would: a valid unique id, a known
    type, a start area whose level exists *or* an entry that exists, arrival in 1..turns."""
    units = {u.id: u for u in s.forces}
    if unit_id not in units:
        raise ValueError(f"no unit {unit_id!r}")
    u = replace(units[unit_id], **fields)
    if not _ID.match(u.id):
        raise ValueError(f"{u.id!r} is not a valid id (letters, digits, '-' and '_')")
    if u.id != unit_id and u.id in units:
        raise ValueError(f"unit id {u.id!r} is already used")
    from fireground.engine.core.ruleset import unit_types

    try:
        known = unit_types(s.ruleset)
    except ValueError:
        known = ()
    if known and u.type not in known:
        raise ValueError(f"unknown unit type {u.type!r}")
    if u.area is not None:
        if u.area not in s.area_by_id:
            raise ValueError(f"no area {u.area!r}")
        if u.level not in s.levels_of(u.area):
            lv = s.levels_of(u.area)
            raise ValueError(f"{u.area} has levels {lv[0]}..{lv[-1]}, not {u.level}")
    if u.entry is not None:
        entries = {f.name for f in s.features if f.type is FeatureType.ENTRY}
        if u.entry not in entries:
            raise ValueError(f"no entry named {u.entry!r}")
    if not 1 <= u.arrives <= s.turns:
        raise ValueError(f"arrival must be on turn 1..{s.turns}")
    return set_forces(s, [u if x.id == unit_id else x for x in s.forces])


def set_settings(s: Scenario, **fields: Any) -> Scenario:
    return replace(s, **fields)


# -- splitting and merging ----------------------------------------------------------------
def split_area_cells(s: Scenario, area_id: str, cell_cm: float | None = None) -> Scenario:
    """Divide an area (a building footprint) into cells of about ``area_cm``.

    The first cell in reading order keeps the id (the one under the old centre, when
    something refers to the area); the others get fresh ids of the same kind and building.
    """
    a = s.area(area_id)
    parts = geometry.split_into_cells(a.polygon, cell_cm or s.scale.area_cm)
    return _replace_with_parts(s, a, parts)


def split_area_line(s: Scenario, area_id: str, line: Sequence[Coord]) -> Scenario:
    a = s.area(area_id)
    parts = geometry.split_by_line(a.polygon, line)
    if len(parts) < 2:
        raise ValueError("the line does not cross the area")
    return _replace_with_parts(s, a, parts)


def _replace_with_parts(s: Scenario, a: Area, parts: list[tuple[Coord, ...]]) -> Scenario:
    if len(parts) <= 1:
        return s
    from shapely.geometry import Polygon

    # Ids follow reading order (north row first, west to east), as a designer numbers a
    # terrace; when something refers to the area, the part under its old centre keeps the id
    # so the reference stays where it was.
    parts.sort(key=lambda p: _reading_key(Polygon(p)))
    if _is_referenced(s, a.id):
        c = ShPoint(a.centroid)
        keep = min(range(len(parts)), key=lambda i: Polygon(parts[i]).distance(c))
        parts.insert(0, parts.pop(keep))
    new_ids = new_area_ids(s, a.kind, a.building, len(parts) - 1, like=a.id)
    first = replace(a, polygon=parts[0])
    others = [replace(a, id=i, polygon=p, name="") for i, p in zip(new_ids, parts[1:], strict=True)]
    areas: list[Area] = []
    for x in s.areas:
        if x.id == a.id:
            areas.append(first)
            areas.extend(others)
        else:
            areas.append(x)
    return replace(s, areas=tuple(areas))


def _reading_key(poly: Any) -> tuple[float, float]:
    c = poly.centroid
    return (-round(c.y, 1), round(c.x, 1))


def _is_referenced(s: Scenario, area_id: str) -> bool:
    st = s.start
    located = (*st.fires, *st.embers, *st.damp, *st.damage, *s.features)
    return (
        any(v.area == area_id for v in located)
        or area_id in st.rubble
        or area_id in st.craters
        or any(u.area == area_id for u in s.forces)
        or any(o.area == area_id for o in s.objectives)
    )


def merge_areas(s: Scenario, ids: Sequence[str]) -> Scenario:
    """Join adjacent areas into the first one; the others' references move to it."""
    if len(ids) < 2:
        raise ValueError("select two or more areas to merge")
    areas = [s.area(i) for i in ids]
    poly = geometry.merge_polygons([a.polygon for a in areas])
    if poly is None:
        raise ValueError("the areas do not form one simple shape (they must touch along edges)")
    keep = areas[0]
    out = s
    for other in areas[1:]:
        out = rename_area_refs(out, other.id, keep.id)
    out = replace(
        out,
        areas=tuple(
            replace(keep, polygon=poly) if a.id == keep.id else a
            for a in out.areas
            if a.id not in set(ids[1:])
        ),
    )
    return dedupe_start(out)
