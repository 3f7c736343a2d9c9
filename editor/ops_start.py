"""Pure edits of the starting situation (no Qt): brushes, an umpire's state as the start,
and dropped bombs. Re-exported by :mod:`.ops`."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from shapely.geometry import Point as ShPoint

from fireground.engine.board.model import (
    Area,
    AreaKind,
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


# -- bombing the start --------------------------------------------------------------------
#: One stick (1d6): (incendiaries, high explosives). Used only when the engine offers no
#: start-seeding function of its own.
_STICKS = {1: (2, 0), 2: (0, 1), 3: (4, 0), 4: (0, 2), 5: (6, 0), 6: (6, 3)}


def drop_bombs(s: Scenario, sticks: int, seed: int) -> Scenario:
    """Ruin the start with ``sticks`` random sticks of bombs (the rules' scenario seeding).

    Uses the engine's own seeding when it provides one; otherwise a simple local version:
    incendiaries light fire 1 at the top level of the area hit (a street burns too),
    a high explosive destroys the area (damage 5 on every level, craters on streets).
    """
    engine_seed = _engine_seed_fn()
    if engine_seed is not None:
        return engine_seed(s, sticks, seed)
    rng = random.Random(seed)
    if not s.areas:
        return s
    minx, miny, maxx, maxy = s.bounds()
    import shapely

    tree = shapely.STRtree([a.shape for a in s.areas])
    out = s

    def land() -> Area | None:
        for _ in range(1000):
            p = ShPoint(rng.uniform(minx, maxx), rng.uniform(miny, maxy))
            hits = [int(i) for i in tree.query(p, predicate="intersects")]
            if hits:
                return s.areas[min(hits)]
        return None

    for _ in range(sticks):
        inc, he = _STICKS[rng.randint(1, 6)]
        for _ in range(he):
            a = land()
            if a is None:
                continue
            if a.kind is AreaKind.BUILDING:
                for lvl in out.levels_of(a.id):
                    out = paint_start(out, "damage", a.id, lvl, 5)
            elif a.kind is AreaKind.STREET:
                out = paint_start(out, "craters", a.id, 0, 1)
        for _ in range(inc):
            a = land()
            if a is None or a.kind is AreaKind.WATER:
                continue
            top = out.top_level(a.id)
            if not any(v.location == (a.id, top) for v in out.start.fires):
                out = paint_start(out, "fire", a.id, top, 1)
    return out


def _engine_seed_fn() -> Callable[[Scenario, int, int], Scenario] | None:
    """The engine's stick dropping (rules §5 scenario seeding), as a start -> start edit."""
    try:
        from fireground.engine.games.blitz.rules.bombing import drop_sticks
        from fireground.engine.play.simulate import new_game
    except ImportError:
        return None

    def seed_start(s: Scenario, sticks: int, seed: int) -> Scenario:
        game = new_game(s, seed)
        drop_sticks(game.ctx, game.state, sticks)
        return start_from_state(s, game.state.to_log())

    return seed_start
