"""Step 7 of the turn, and the structural effects of bombs: damage, collapse, rubble and
escape (§6).

Damage never improves. A location reaching heavy damage turns every occupant into a
casualty; a destroyed location brings down every intact level above it, and the rubble
strikes the ground level of every neighbouring area (+1 damage to buildings, rubble on
streets and open ground). Units caught in a collapse or struck by rubble roll to escape.
Chains of collapse are worked off a queue, so a whole street can fall without recursion.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Any, Final

from ....board.model import AreaKind, Location
from ....core.turn import TurnContext
from ..events import Collapse, CollapseRoll, Escape, HeavyDamage, Rubble, Trapped
from ..memos import BUILDING_AREAS, COLLAPSE_QUEUE, COLLAPSING, DAMAGE_STANDING
from ..reach.danger import area_kind, area_kinds, area_neighbours
from ..reach.danger import neighbours as fire_neighbours
from ..state import GameState
from ..units import STAND, UnitState
from .ignition import location_ranks, sorted_locations

# Compiled, ``AreaKind.WATER`` is two look-ups by name (the class in the module's
# globals, then the member) at every read; a Final is read from a C global.
_KIND_BUILDING: Final = AreaKind.BUILDING
_KIND_STREET: Final = AreaKind.STREET
_KIND_WATER: Final = AreaKind.WATER


def _building(ctx: TurnContext, area: str) -> bool:
    return area_kind(ctx, area) is _KIND_BUILDING


def set_damage(
    ctx: TurnContext, state: GameState, loc: Location, new: int, cause: str = ""
) -> None:
    """Raise the damage of a building location to ``new`` (never lowers it)."""
    rules = ctx.rules
    destroyed = rules.int("damage.destroyed")
    if new > destroyed:
        new = destroyed
    old = state.damage.get(loc, 1)  # (state.damage_at, inline)
    if new <= old:
        return
    state.damage[loc] = new
    if new >= destroyed:
        destroy_location(ctx, state, loc, cause=cause)
    elif new >= rules.int("damage.casualties_from") > old:
        hurt_occupants(ctx, state, loc)


def add_damage(
    ctx: TurnContext, state: GameState, loc: Location, by: int = 1, cause: str = ""
) -> None:
    set_damage(ctx, state, loc, state.damage_at(loc) + by, cause)


def hurt_occupants(ctx: TurnContext, state: GameState, loc: Location) -> None:
    """Heavy damage: every civilian and personnel stand in ``loc`` becomes a buried casualty."""
    count = state.occupants.pop(loc, 0)
    for _ in range(count):
        state.add_casualty(loc, "buried")
    stands = [u for u in state.units_at(loc) if u.kind == STAND]
    for u in stands:
        _make_casualty(state, u, "buried")
    if count or stands:
        ctx.note(HeavyDamage, at=loc, civilians=count, units=[u.id for u in stands])


def _make_casualty(state: GameState, u: UnitState, status: str) -> None:
    assert u.loc is not None
    u.status = "casualty"
    u.task = "idle"
    state.add_casualty(u.loc, status, u.id)


def destroy_location(ctx: TurnContext, state: GameState, loc: Location, cause: str = "") -> None:
    """``loc`` is destroyed: queue its collapse (levels above, rubble, escapes)."""
    _queue(ctx, state, [loc], cause)


def destroy_area(ctx: TurnContext, state: GameState, area: str, cause: str = "") -> None:
    """Every level of a building area is destroyed at once (an HE hit)."""
    if not _building(ctx, area):
        return
    levels = list(ctx.scenario.levels_of(area))
    _queue(ctx, state, [(area, lvl) for lvl in levels], cause)


def _queue(ctx: TurnContext, state: GameState, locs: list[Location], cause: str) -> None:
    q: deque[tuple[list[Location], str]] = ctx.cache.setdefault(COLLAPSE_QUEUE, deque())
    q.append((locs, cause))
    if ctx.cache.get(COLLAPSING):
        return  # the outer call drains the queue
    ctx.cache[COLLAPSING] = True
    try:
        while q:
            batch, why = q.popleft()
            _collapse(ctx, state, batch, why)
    finally:
        ctx.cache[COLLAPSING] = False


def _collapse(ctx: TurnContext, state: GameState, locs: list[Location], cause: str) -> None:
    destroyed = ctx.rules.int("damage.destroyed")
    area = locs[0][0]
    if len(locs) == 1:  # (one location destroyed: the usual case)
        lowest = locs[0][1]
        falling = list(locs)
    else:
        lowest = min(lvl for _, lvl in locs)
        falling = sorted(set(locs))
    damage = state.damage
    # every intact level above the lowest destroyed one comes down too
    for lvl in ctx.scenario.levels_of(area):
        if lvl > lowest:
            above = (area, lvl)
            if above not in falling and damage.get(above, 1) < destroyed:
                falling.append(above)
    falling.sort()
    for f in falling:
        state.damage[f] = destroyed
    if ctx.log_events:  # (the quiet mode logs nothing: the event is not made)
        levels = [lv for _, lv in falling]
        ctx.note(Collapse, at=(area, lowest), levels=levels, cause=cause or None)
    rolled: set[str] = set()  # one escape roll per unit per collapse
    # where the units are as the collapse starts: a unit that moves during it (escapes)
    # has rolled, so the others are still where they were (see _escape_all). Only the
    # falling levels and the ground of the neighbours are asked: with no unit in any of
    # them (the usual case) nobody is there.
    struck = set(falling)
    struck.update([(nb, 0) for nb in area_neighbours(ctx, area)])
    where: dict[Location, list[UnitState]] = {}
    for u in state.units.values():  # (round 23: a plain loop, see GameState.units_at)
        if u.loc in struck:
            where = _units_by_location(state)
            break
    for f in falling:
        count = state.occupants.pop(f, 0)
        for _ in range(count):
            state.add_casualty(f, "buried")
        for u in where.get(f, ()):  # nobody escapes into the area that is falling
            rolled.add(u.id)
            escape(ctx, state, u, f)
    spread_rubble(ctx, state, area, rolled, where)


def _units_by_location(state: GameState) -> dict[Location, list[UnitState]]:
    """Units in play by location, each list by id (as :meth:`GameState.units_at`)."""
    out: dict[Location, list[UnitState]] = {}
    for u in state.units.values():
        if u.loc is not None and u.in_play:
            out.setdefault(u.loc, []).append(u)
    for here in out.values():
        if len(here) > 1:
            here.sort(key=_unit_id)
    return out


def _unit_id(u: UnitState) -> str:
    return u.id


def spread_rubble(
    ctx: TurnContext,
    state: GameState,
    area: str,
    rolled: set[str] | None = None,
    where: dict[Location, list[UnitState]] | None = None,
) -> None:
    """Rubble from a collapse strikes the ground level of every neighbouring area.

    Units there roll to escape, except those in ``rolled``: a unit that has already rolled
    in this collapse (it got out of the falling levels, or out of another struck location,
    into this one) is not made to roll a second time (§6: one roll to get clear of the
    collapse and its rubble). ``where``: the units by location as the collapse started.
    """
    by = ctx.rules.int("collapse.rubble_damage")
    rolled = set() if rolled is None else rolled
    logged = ctx.log_events  # (the quiet mode logs nothing: no Rubble event is made)
    kinds = area_kinds(ctx)
    damage = state.damage
    for nb in area_neighbours(ctx, area):
        kind = kinds.get(nb)
        if kind is _KIND_WATER:
            continue
        ground = (nb, 0)
        # with ``where`` (the units by location as the collapse started) nobody who was
        # not there then rolls: a place where nobody was has nobody to roll
        escapes = where is None or ground in where
        if kind is _KIND_BUILDING:
            if logged:
                ctx.note(Rubble, from_=(area, 0), to=ground)
            if escapes:
                _escape_all(ctx, state, ground, rolled, where)
            set_damage(ctx, state, ground, damage.get(ground, 1) + by, cause="rubble")
        else:
            if nb not in state.rubble:
                state.rubble.add(nb)
                if logged:
                    ctx.note(Rubble, from_=(area, 0), to=ground)
            if escapes:
                _escape_all(ctx, state, ground, rolled, where)


def _escape_all(
    ctx: TurnContext,
    state: GameState,
    loc: Location,
    rolled: set[str],
    where: dict[Location, list[UnitState]] | None = None,
) -> None:
    """Every unit at ``loc`` that has not rolled in this collapse rolls to escape. With
    ``where`` (the units by location as the collapse started) the units looked at are
    those that were here then and still are, in play: the same units, since any unit
    that moved in or out since has rolled."""
    if where is None:
        here = state.units_at(loc)
    else:
        here = [u for u in where.get(loc, ()) if u.loc == loc and u.in_play]
    for u in here:
        if u.id not in rolled:
            rolled.add(u.id)
            escape(ctx, state, u, loc)


def _escape_route(
    ctx: TurnContext, state: GameState, u: UnitState, loc: Location
) -> Location | None:
    destroyed = ctx.rules.int("damage.destroyed")
    nb: Location
    for nb in fire_neighbours(ctx, loc):
        if nb[0] == loc[0] or nb in state.fire or state.damage_at(nb) >= destroyed:
            continue
        a = ctx.scenario.area_by_id[nb[0]]
        if a.kind is _KIND_WATER:
            continue
        if u.kind != STAND and (
            a.kind is not _KIND_STREET or nb[0] in state.rubble or nb[0] in state.craters
        ):
            continue  # vehicles and pumps need a clear street
        return nb
    return None


def escape(ctx: TurnContext, state: GameState, u: UnitState, loc: Location) -> bool:
    """A unit caught by a collapse or rubble rolls to get out to a neighbour (§6)."""
    if not u.in_play:
        return False
    route = _escape_route(ctx, state, u, loc)
    stand = u.kind == STAND
    if route is None:
        ok = False
        ctx.note(Trapped, at=loc, unit=u.id)
    else:
        need = ctx.rules.int("escape.stand_on" if stand else "escape.vehicle_on")
        ok, _ = ctx.test(Escape, f">={need}", at=loc, unit=u.id)
    if ok and route is not None:
        u.loc = route
        u.task = "idle"
        return True
    if stand:
        _make_casualty(state, u, "buried")
    else:
        u.status = "destroyed"
        u.task = "idle"
    return False


def _standing(
    ctx: TurnContext, state: GameState, buildings: frozenset[str], destroyed: int
) -> list[Any]:
    """The building locations of the map not destroyed, in map (sorted) order, kept from
    one step 7 of ``state`` to the next: damage never improves, so a location destroyed
    stays out, and the list may still hold some destroyed since (step 7 drops them as it
    walks it). Made afresh for another state object."""
    memo: tuple[GameState, list[Any]] | None = ctx.cache.get(DAMAGE_STANDING)
    if memo is not None and memo[0] is state:
        return memo[1]
    damage = state.damage
    # (typed Any: compiled, the list then holds the map's own tuples, as the fires' keys
    # mostly are, not copies, and a look-up by one matches by identity)
    ordered: list[Any] = sorted(ctx.graph.locations)
    standing = [loc for loc in ordered if loc[0] in buildings and damage.get(loc, 1) < destroyed]
    ctx.cache[DAMAGE_STANDING] = (state, standing)
    return standing


def step_damage(ctx: TurnContext, state: GameState) -> None:
    """Step 7: each building location burning at fire 5 rolls 1d6; a 6 adds one damage.
    Civilians in heavily damaged locations become casualties."""
    rules = ctx.rules
    at_fire = rules.int("damage.fire_for_roll")
    need = f">={rules.int('damage.add_on')}"
    destroyed = rules.int("damage.destroyed")
    buildings: frozenset[str] | None = ctx.cache.get(BUILDING_AREAS)
    if buildings is None:
        kinds = ((a.id, a.kind) for a in ctx.scenario.areas)
        buildings = frozenset(a for a, k in kinds if k is _KIND_BUILDING)
        ctx.cache[BUILDING_AREAS] = buildings
    damage = state.damage
    fires = state.fire
    standing = _standing(ctx, state, buildings, destroyed)
    # (round 22: the locations typed Any, as they come: compiled, a location typed as a
    # tuple is unpacked and a new tuple made for each lookup by it)
    loc: Any
    if len(fires) <= len(standing):  # few fires: they are looked at, then sorted
        rank, by_rank = location_ranks(ctx)
        # (round 22: the locations typed Any, as they come: compiled, a location typed as
        # a tuple is unpacked and a new tuple made for each lookup by it)
        items: Iterable[tuple[Any, int]] = fires.items()
        try:  # by their ranks on the map (R-3 order), sorted as numbers
            ranks = [
                rank[loc]
                for loc, f in items
                if f >= at_fire and loc[0] in buildings and damage.get(loc, 1) < destroyed
            ]
            ranks.sort()
            rolling = [by_rank[k] for k in ranks]
        except KeyError:  # a fire off the map (a test's): no rank
            rolling = sorted_locations(
                ctx,
                [
                    loc
                    for loc, f in fires.items()
                    if f >= at_fire and loc[0] in buildings and damage.get(loc, 1) < destroyed
                ],
            )
    else:  # most buildings down: those still standing are looked at, in map order
        still = []
        rolling = []
        for loc in standing:
            if damage.get(loc, 1) < destroyed:
                still.append(loc)
                if fires.get(loc, 0) >= at_fire:
                    rolling.append(loc)
        standing[:] = still
    if not ctx.log_events:
        # the quiet mode: ctx.test's own quiet path (one die against ">=add_on"), inline,
        # and add_damage's one damage (below destroyed: never capped) too
        uniform, on = ctx.dice.uniform(), rules.int("damage.add_on")
        heavy = rules.int("damage.casualties_from")
        for loc in rolling:  # die() >= on is uniform() * 6 >= on - 1
            old = damage.get(loc, 1)
            if old < destroyed and uniform() * 6 >= on - 1:
                damage[loc] = new = old + 1
                if new >= destroyed:
                    destroy_location(ctx, state, loc, cause="fire")
                elif new >= heavy > old:
                    hurt_occupants(ctx, state, loc)
        rolling = []
    for loc in rolling:  # the locations as they stood at the start of the step
        if state.damage_at(loc) >= destroyed:
            continue  # brought down by an earlier collapse this step
        ok, _ = ctx.test(CollapseRoll, need, at=loc)
        if ok:
            add_damage(ctx, state, loc, 1, cause="fire")
    heavy = rules.int("damage.casualties_from")
    for loc in sorted(state.occupants):
        if state.damage_at(loc) >= heavy:
            hurt_occupants(ctx, state, loc)
