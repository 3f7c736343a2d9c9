"""Pure edits of the starting situation (no Qt): brushes, an umpire's state as the start.
(BLITZ!'s dropped bombs: editor/games/blitz/bombs.py.)"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from fireground.engine.board.model import (
    LocationRef,
    LocationValue,
    Scenario,
    Start,
)

# -- start state --------------------------------------------------------------------------
#: Start-state layers a brush can paint, and whether each takes a value.
BRUSHES: dict[str, bool] = {
    "fire": True,
    "embers": False,
    "damp": True,
    "damage": True,
    "rubble": False,
    "craters": False,
}


def paint_start(s: Scenario, layer: str, area: str, level: int, value: int | None) -> Scenario:
    """Set (value > 0 or True) or clear (None/0) one start-state layer at a location.

    Fire and embers exclude each other (painting fire clears embers there and back).
    """
    st = s.start
    loc = (area, level)
    if layer in ("fire", "damp", "damage"):
        cur: tuple[LocationValue, ...] = getattr(st, _plural(layer))
        kept = tuple(v for v in cur if v.location != loc)
        new = (*kept, LocationValue(area, level, value)) if value else kept
        st = replace(st, **{_plural(layer): _sorted_values(new)})
        if layer == "fire" and value:
            st = replace(st, embers=tuple(e for e in st.embers if e.location != loc))
    elif layer == "embers":
        kept_e = tuple(e for e in st.embers if e.location != loc)
        if value:
            kept_e = tuple(sorted((*kept_e, LocationRef(area, level)), key=_loc_key))
            st = replace(st, fires=tuple(v for v in st.fires if v.location != loc))
        st = replace(st, embers=kept_e)
    elif layer in ("rubble", "craters"):
        cur_a: tuple[str, ...] = getattr(st, layer)
        kept_a = tuple(a for a in cur_a if a != area)
        st = replace(st, **{layer: tuple(sorted((*kept_a, area))) if value else kept_a})
    else:
        raise ValueError(f"unknown start layer {layer!r}")
    return replace(s, start=st)


def _plural(layer: str) -> str:
    return {"fire": "fires"}.get(layer, layer)


def _loc_key(v: LocationRef | LocationValue) -> tuple[str, int]:
    return (v.area, v.level)


def _sorted_values(vs: tuple[LocationValue, ...]) -> tuple[LocationValue, ...]:
    return tuple(sorted(vs, key=_loc_key))


def start_from_state(s: Scenario, state: dict[str, Any]) -> Scenario:
    """A start taken from a turn log ``state`` dict (the umpire's "use this state")."""

    def vals(key: str, field: str) -> tuple[LocationValue, ...]:
        return tuple(
            sorted(
                (
                    LocationValue(d["area"], int(d["level"]), int(d[field]))
                    for d in state.get(key, [])
                    if int(d[field]) > 0
                ),
                key=_loc_key,
            )
        )

    return replace(
        s,
        start=Start(
            fires=vals("fires", "fire"),
            embers=tuple(
                sorted(
                    (LocationRef(d["area"], int(d["level"])) for d in state.get("embers", [])),
                    key=_loc_key,
                )
            ),
            damp=vals("damp", "damp"),
            damage=vals("damage", "damage"),
            rubble=tuple(sorted(state.get("rubble", []))),
            craters=tuple(sorted(state.get("craters", []))),
            all_clear=bool(state.get("all_clear", False)),
        ),
    )


def dedupe_start(s: Scenario) -> Scenario:
    """Keep one start value per location (merging can bring two onto one area)."""
    st = s.start

    def uniq_vals(vs: tuple[LocationValue, ...]) -> tuple[LocationValue, ...]:
        best: dict[tuple[str, int], LocationValue] = {}
        for v in vs:
            if v.location not in best or v.value > best[v.location].value:
                best[v.location] = v
        return _sorted_values(tuple(best.values()))

    return replace(
        s,
        start=replace(
            st,
            fires=uniq_vals(st.fires),
            damp=uniq_vals(st.damp),
            damage=uniq_vals(st.damage),
            embers=tuple(sorted(set(st.embers), key=_loc_key)),
            rubble=tuple(sorted(set(st.rubble))),
            craters=tuple(sorted(set(st.craters))),
        ),
    )
