"""Checks of the scenario's values and references: ruleset and house rules (FG160), numbers
in range (FG161), unique ids (FG115), buildings, features, start state and objectives that
name real areas and levels (FG116-FG133, FG150), and the tracing image (FG170)."""

from __future__ import annotations

import os
from collections.abc import Iterator

from ....board.model import AreaKind, FeatureType, Scenario
from ....core.ruleset import known_rulesets, load_ruleset
from .context import CheckContext, Finding


def _ruleset(ctx: CheckContext) -> Iterator[Finding]:
    s = ctx.s
    if s.ruleset not in known_rulesets():
        yield ctx.finding("FG160", "error", f"unknown ruleset '{s.ruleset}'", path=("ruleset",))
        return
    try:
        load_ruleset(s.ruleset, s.house_rules)
    except Exception as exc:
        yield ctx.finding("FG160", "error", f"house rules: {exc}", path=("house_rules",))


def _ranges(ctx: CheckContext) -> Iterator[Finding]:
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


def _duplicates(ctx: CheckContext) -> Iterator[Finding]:
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


def _area_buildings(ctx: CheckContext) -> Iterator[Finding]:
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


def _features(ctx: CheckContext) -> Iterator[Finding]:
    s = ctx.s
    seen: dict[tuple[FeatureType, str, int | None], int] = {}
    entry_names: set[str] = set()
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
        if f.type is FeatureType.ENTRY and f.name is not None:
            if f.name in entry_names:
                yield ctx.finding(
                    "FG127",
                    "error",
                    f"two entries named '{f.name}' (units name the entry they arrive at)",
                    f.area,
                    None,
                    path,
                )
            entry_names.add(f.name)
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


def _start(ctx: CheckContext) -> Iterator[Finding]:
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


def _objectives(ctx: CheckContext) -> Iterator[Finding]:
    s = ctx.s
    for i, o in enumerate(s.objectives):
        path = ("objectives", i)
        if o.type == "protect":
            if o.building is None and o.area is None:
                yield ctx.finding("FG150", "error", "protect objective names nothing", path=path)
            if o.building is not None and o.area is not None:
                yield ctx.finding(
                    "FG150",
                    "error",
                    "protect objective names both a building and an area: keep one",
                    path=path,
                )
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


def _background(ctx: CheckContext) -> Iterator[Finding]:
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


CHECKS = [
    _ruleset,
    _ranges,
    _duplicates,
    _area_buildings,
    _features,
    _start,
    _objectives,
    _background,
]
