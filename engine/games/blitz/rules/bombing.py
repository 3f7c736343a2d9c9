"""Step 5 of the turn: the bomb run, the sticks and what incendiaries and HE do (§5).

Bombs land at a uniformly random point of the table; a point outside every area is dropped
again (R-6), and the level hit is the top level of the area found.
"""

from __future__ import annotations

from typing import Any, Final

import shapely

from ....board.model import AreaKind, FeatureType, Location
from ....core.turn import TurnContext
from ..events import (
    BombDrop,
    BombLoad,
    BombRun,
    Crater,
    HeDamage,
    HeEquipment,
    HeKilled,
    HePersonnel,
    HoseSevered,
    HydrantLost,
)
from ..memos import BOMB_INDEX
from ..state import GameState
from ..units import STAND
from . import damage
from .ignition import ignite, is_flammable, is_open_ground

# Compiled, ``AreaKind.WATER`` is two look-ups by name (the class in the module's
# globals, then the member) at every read; a Final is read from a C global.
_FEATURE_HYDRANT: Final = FeatureType.HYDRANT
_KIND_BUILDING: Final = AreaKind.BUILDING
_KIND_OPEN: Final = AreaKind.OPEN
_KIND_STREET: Final = AreaKind.STREET
_KIND_WATER: Final = AreaKind.WATER


def step_bombing(ctx: TurnContext, state: GameState) -> None:
    """Step 5: unless the All Clear has sounded, roll 2d6 for the bomb run."""
    if not ctx.scenario.bombing or state.all_clear:
        return
    rules = ctx.rules
    run = ctx.roll(BombRun, dice=rules.int("bombing.run_dice"))
    if run <= rules.int("bombing.all_clear_max"):
        state.all_clear = True
        ctx.amend(result="all_clear")
    elif run >= rules.int("bombing.stick_on"):
        ctx.amend(result="stick")
        drop_stick(ctx, state)
    else:
        ctx.amend(result="nothing")


def drop_stick(ctx: TurnContext, state: GameState) -> tuple[int, int]:
    """Roll 1d6 on the bomb load table and drop the bombs: (HE, incendiaries) dropped."""
    score = ctx.roll(BombLoad)
    load: dict[str, Any] = ctx.rules[f"bombing.load.{score}"]
    he, inc = int(load.get("he", 0)), int(load.get("incendiary", 0))
    ctx.amend(he=he, incendiary=inc)
    for _ in range(he):
        drop_bomb(ctx, state, "he")
    for _ in range(inc):
        drop_bomb(ctx, state, "incendiary")
    return he, inc


def drop_sticks(ctx: TurnContext, state: GameState, n: int) -> None:
    """Seed a starting situation: drop ``n`` sticks (a scenario-editor action, §5)."""
    for _ in range(n):
        drop_stick(ctx, state)


def _index(ctx: TurnContext) -> tuple[shapely.STRtree, list[str]]:
    hit: tuple[shapely.STRtree, list[str]] | None = ctx.cache.get(BOMB_INDEX)
    if hit is None:
        areas = ctx.scenario.areas
        hit = (shapely.STRtree([a.shape for a in areas]), [a.id for a in areas])
        ctx.cache[BOMB_INDEX] = hit
    return hit


def area_at(ctx: TurnContext, x: float, y: float) -> str | None:
    """The area under a table point (the first by id on a shared edge), or None."""
    tree, ids = _index(ctx)
    found = tree.query(shapely.Point(x, y), predicate="intersects")
    if len(found) == 0:
        return None
    return min(ids[int(i)] for i in found)


def drop_bomb(ctx: TurnContext, state: GameState, bomb: str) -> Location | None:
    """Drop one bomb (R-6: uniform over the table, dropped again when it misses every area)."""
    bounds = ctx.scenario.bounds()
    limit = ctx.rules.int("bombing.redrop_limit")
    area: str | None = None
    redrops = 0
    while area is None:
        if redrops >= limit:
            ctx.note(BombDrop, ruling="R-6", bomb=bomb, result="lost", redrops=limit)
            return None
        x, y = ctx.dice.point(bounds)
        area = area_at(ctx, x, y)
        redrops += area is None
    loc = (area, ctx.scenario.top_level(area))
    ctx.note(
        BombDrop, ruling="R-6", need="table", at=loc, bomb=bomb, point=[round(x, 2), round(y, 2)],
        redrops=redrops,
    )  # fmt: skip
    if bomb == "he":
        he_blast(ctx, state, area)
    else:
        incendiary(ctx, state, loc)
    return loc


def incendiary(ctx: TurnContext, state: GameState, loc: Location) -> None:
    """Fire 1 where it lands; an empty street/open area burns as a road fire (§3 Roads)."""
    a = ctx.scenario.area_by_id[loc[0]]
    if a.kind is _KIND_WATER or loc in state.fire:
        return
    start = ctx.rules.int("fire.start")
    if is_open_ground(ctx, loc) and not is_flammable(ctx, state, loc):
        state.fire[loc] = min(start, ctx.rules.int("roads.max_fire"))
        state.street_fire_age[loc] = 0
        state.embers.discard(loc)
        state.damp.pop(loc, None)
        state.caught.add(loc)
        return
    ignite(ctx, state, loc, start, cause="incendiary")


def _hoses_through(state: GameState, pred: Any) -> list[str]:
    return sorted(h.id for h in state.hoses.values() if not h.cut and any(map(pred, h.path)))


def he_blast(
    ctx: TurnContext,
    state: GameState,
    area: str,
    origin: str = "he",
    keep_burning: Location | None = None,
) -> None:
    """An HE bomb (or a petrol store) goes off in ``area`` (§5)."""
    sc, rules = ctx.scenario, ctx.rules
    a = sc.area_by_id[area]
    levels = list(sc.levels_of(area))
    # everyone in the area is killed; vehicles and equipment are destroyed
    for u in state.units_in_area(area):
        if u.kind == STAND:
            u.status = "dead"
            assert u.loc is not None
            state.add_casualty(u.loc, "dead", u.id)
        else:
            u.status = "destroyed"
        u.task = "idle"
        ctx.note(HeKilled, at=u.loc, unit=u.id, origin=origin)
    for lvl in levels:
        count = state.occupants.pop((area, lvl), 0)
        for _ in range(count):
            state.add_casualty((area, lvl), "dead")
    for hid in _hoses_through(state, lambda p: p[0] == area):
        state.hoses[hid].cut = True
        ctx.note(HoseSevered, at=(area, 0), hose=hid)
    hydrant = any(f.type is _FEATURE_HYDRANT and f.area == area for f in sc.features)
    if hydrant and area not in state.hydrants_lost:
        state.hydrants_lost.add(area)
        ctx.note(HydrantLost, at=(area, 0))
    if a.kind is _KIND_BUILDING:
        for lvl in levels:  # destroyed now; the collapse itself is worked off below
            state.damage[(area, lvl)] = rules.int("damage.destroyed")
    elif a.kind in (_KIND_STREET, _KIND_OPEN) and area not in state.craters:
        state.craters.add(area)
        ctx.note(Crater, at=(area, 0))
    # each neighbouring location, at each level of the blast
    destroyed_on = rules.int("he.destroyed_on")
    destroyed = rules.int("damage.destroyed")
    escape_on = rules.int("he.personnel_escape_on")
    lost_max = rules.int("he.equipment_lost_max")
    around = sorted({nb for lvl in levels for nb in ctx.graph.horizontal((area, lvl))})
    blasted: set[str] = set()  # one roll per unit for one blast, wherever it escapes
    for nb in around:
        kind = sc.area_by_id[nb[0]].kind
        if kind is _KIND_WATER:
            continue
        score = ctx.roll(HeDamage, at=nb)
        result = destroyed if score >= destroyed_on else score
        for u in state.units_at(nb):
            if u.id in blasted:
                continue
            blasted.add(u.id)
            if u.kind == STAND:
                ok, _ = ctx.test(HePersonnel, f">={escape_on}", at=nb, unit=u.id)
                if not ok:
                    u.status = "casualty"
                    u.task = "idle"
                    state.add_casualty(nb, "found", u.id)
            else:
                hit, _ = ctx.test(HeEquipment, f"<={lost_max}", at=nb, unit=u.id)
                if hit:
                    u.status = "knocked_out"
                    u.task = "idle"
        for hid in _hoses_through(state, lambda p, nb=nb: p == nb):
            hit, _ = ctx.test(HeEquipment, f"<={lost_max}", at=nb, hose=hid)
            if hit:
                state.hoses[hid].cut = True
        if kind is _KIND_BUILDING:
            damage.set_damage(ctx, state, nb, result, cause=origin)
        elif result >= destroyed and nb[0] not in state.craters:
            state.craters.add(nb[0])  # an impassable crater
            ctx.note(Crater, at=nb)
    # the blasted building comes down last: its rubble strikes what the blast left standing
    if a.kind is _KIND_BUILDING:
        damage.destroy_area(ctx, state, area, cause=origin)
    if keep_burning is not None:
        state.fire[keep_burning] = rules.int("stores.petrol.fire")
