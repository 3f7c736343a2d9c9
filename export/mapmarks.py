"""What is on the map at one moment, and the symbols that shows in each area of a level."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from fireground.engine.board.model import FeatureType, Location, Scenario


@dataclass
class Marks:
    """What is on the map at one moment: the scenario's start or a turn-log ``state``."""

    fires: dict[Location, int] = field(default_factory=dict)
    embers: set[Location] = field(default_factory=set)
    damp: dict[Location, int] = field(default_factory=dict)
    damage: dict[Location, int] = field(default_factory=dict)
    rubble: set[str] = field(default_factory=set)
    craters: set[str] = field(default_factory=set)
    units: dict[Location, list[str]] = field(default_factory=dict)
    casualties: dict[Location, int] = field(default_factory=dict)

    @classmethod
    def from_start(cls, scenario: Scenario) -> Marks:
        st = scenario.start
        units: dict[Location, list[str]] = defaultdict(list)
        for u in scenario.forces:
            if u.area is not None and u.arrives <= 1:
                units[(u.area, u.level)].append(u.id)
        return cls(
            fires={v.location: v.value for v in st.fires},
            embers={r.location for r in st.embers},
            damp={v.location: v.value for v in st.damp if v.value > 0},
            damage={v.location: v.value for v in st.damage},
            rubble=set(st.rubble),
            craters=set(st.craters),
            units=dict(units),
        )

    @classmethod
    def from_log_state(cls, state: Mapping[str, Any]) -> Marks:
        """Read the ``state`` of a turn-log entry (scenario-format.md)."""

        def loc(d: Mapping[str, Any]) -> Location:
            return (str(d["area"]), int(d.get("level", 0)))

        units: dict[Location, list[str]] = defaultdict(list)
        for u in state.get("units", []):
            if isinstance(u, Mapping) and u.get("area") is not None:
                units[loc(u)].append(str(u.get("id", "?")))
        cas: dict[Location, int] = defaultdict(int)
        for k in state.get("casualties", []):
            if isinstance(k, Mapping) and k.get("area") is not None:
                cas[loc(k)] += 1
        return cls(
            fires={loc(d): int(d.get("fire", 1)) for d in state.get("fires", [])},
            embers={loc(d) for d in state.get("embers", [])},
            damp={loc(d): int(d.get("damp", 1)) for d in state.get("damp", [])},
            damage={loc(d): int(d.get("damage", 1)) for d in state.get("damage", [])},
            rubble={
                str(a if isinstance(a, str) else a.get("area")) for a in state.get("rubble", [])
            },
            craters={
                str(a if isinstance(a, str) else a.get("area")) for a in state.get("craters", [])
            },
            units=dict(units),
            casualties=dict(cas),
        )


def glyphs_at(scenario: Scenario, marks: Marks, level: int) -> dict[str, list[tuple[str, str]]]:
    """Per area, the (legend key, caption) symbols to draw on the plan of ``level``."""
    out: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for f in scenario.features:
        if f.type is FeatureType.STAIRWELL:
            shown = level in scenario.levels_of(f.area)  # serves every level of its area
        else:
            shown = (f.level if f.level is not None else 0) == level
        if not shown:
            continue
        if f.type is FeatureType.STORE:
            out[f.area].append(("store", (f.material or "?")[0].upper()))
        elif f.type is FeatureType.HYDRANT:
            out[f.area].append(("hydrant", str(f.pressure or "")))
        elif f.type is FeatureType.OCCUPANTS:
            out[f.area].append(("occupants", str(f.count or "")))
        elif f.type in (FeatureType.STAIRWELL, FeatureType.WATER, FeatureType.ENTRY):
            out[f.area].append((f.type.value, ""))
    for (area, lvl), v in sorted(marks.fires.items()):
        if lvl == level:
            out[area].append(("fire", str(v)))
    for area, lvl in sorted(marks.embers):
        if lvl == level:
            out[area].append(("embers", ""))
    for (area, lvl), v in sorted(marks.damp.items()):
        if lvl == level:
            out[area].append(("damp", str(v)))
    for (area, lvl), v in sorted(marks.damage.items()):
        if lvl == level:
            out[area].append(("damage", str(v)))
    if level == 0:
        for area in sorted(marks.rubble):
            out[area].append(("rubble", ""))
        for area in sorted(marks.craters):
            out[area].append(("crater", ""))
    for (area, lvl), ids in sorted(marks.units.items()):
        if lvl == level:
            out[area].extend(("unit", u) for u in ids)
    for (area, lvl), n in sorted(marks.casualties.items()):
        if lvl == level:
            out[area].extend(("casualty", "") for _ in range(n))
    return out
