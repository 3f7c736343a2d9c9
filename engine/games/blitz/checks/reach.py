"""Reach checks: where units start (FG140-FG145), building locations no firefighter reaches
(FG103), water that cannot reach a building (FG101, FG102) and overloaded hydrants (FG121)."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from typing import Any

from ....board.hose import max_hose_lengths
from ....board.model import AreaKind, FeatureType, Location
from .context import CheckContext, Finding, Severity


def _forces(ctx: CheckContext) -> Iterator[Finding]:
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
            if u.level != 0:
                yield ctx.finding(
                    "FG141",
                    "error",
                    f"unit {u.id} arrives at an entry but has level {u.level} (a level is for "
                    "a unit that starts in an area)",
                    path=path,
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
def _walkable(ctx: CheckContext) -> Iterator[Finding]:
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


def _sources(ctx: CheckContext) -> list[tuple[str, str, bool]]:
    """(label, area, is_hydrant) of every water source, in ``MapGraph.water_sources`` order."""
    out: list[tuple[str, str, bool]] = []
    for f in ctx.s.features:
        if f.type is FeatureType.HYDRANT and ctx.s.mains != "failed":
            out.append((f"hydrant {f.area}", f.area, True))
        elif f.type is FeatureType.WATER:
            out.append((f"open water {f.name or f.area}", f.area, False))
    return out


def _nearest_source(ctx: CheckContext) -> tuple[list[int], list[int]]:
    """For every node: index into ``_sources`` of its best source (fewest lengths, ladders
    allowed) and the lengths needed; -1 when none reaches."""
    lengths, source = ctx.graph.water_sources_reach(ladders=ctx.ladder_reach)
    return source.tolist(), lengths.tolist()


def _water(ctx: CheckContext) -> Iterator[Finding]:
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
    ctx: CheckContext,
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


CHECKS = [_forces, _walkable, _water]
