"""Steps 1-4 of the turn: fire spread and jumps, growth, reignition, damp (§3).

Every step iterates the fires (or embers) as they stood at the start of the step, in sorted
location order (R-3), so the work per turn follows what burns, not the size of the map.

The helpers other steps use (ignite, flammability, the map lookups) live in
:mod:`.ignition`, step 1's plans and quiet mode in :mod:`.spread_plan`; callers import
them from there.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ....board.model import Location
from ....core.events import Event
from ....core.turn import TurnContext
from ..events import DampLoss, FireClimb, Growth, Jump, Reignite, RoadBurnout, Spread
from ..memos import GROWTH_PLAN
from ..reach.danger import map_tuples, neighbours
from ..state import GameState
from .ignition import (
    ignite,
    is_flammable,
    location_ranks,
    spread_targets,
    vehicle_areas,
)
from .modifiers import (
    fighting_locations,
    growth_parts,
    growth_store_parts,
    rulings,
    spread_parts,
    total,
)
from .spread_plan import jumps_allowed, spread_quiet, with_climbs


# -- step 1: spread and jumps ------------------------------------------------------------------
def spread_modifier(
    ctx: TurnContext, state: GameState, src: Location, dst: Location, fighting: set[Location]
) -> tuple[int, int, list[str]]:
    """(total modifier, the damp part of it, rulings applied) for a spread from src to dst
    (the parts: :func:`.modifiers.spread_parts`)."""
    parts = spread_parts(ctx, state, src, dst, fighting)
    damp_mod = sum(p.value for p in parts if p.key == "spread.damp_per_level")
    return total(parts), damp_mod, rulings(parts)


def _try_spread(
    ctx: TurnContext,
    state: GameState,
    kind: type[Event],
    src: Location,
    dst: Location,
    limit: int,
    fighting: set[Location],
    extra_ruling: str | None,
) -> bool:
    mod, damp_mod, rulings = spread_modifier(ctx, state, src, dst, fighting)
    if extra_ruling:
        rulings.insert(0, extra_ruling)
    need = f"<={limit}"
    ok, total = ctx.test(
        kind, need, modifier=mod, ruling=",".join(rulings) or None, from_=src, to=dst
    )
    if ok:
        ignite(ctx, state, dst, ctx.rules.int("fire.start"), cause=kind.rule)
    elif damp_mod and total - damp_mod <= limit:
        # only the damp stopped it: the target loses damp (shown applied in step 4)
        state.pending_damp_loss[dst] = state.pending_damp_loss.get(dst, 0) + 1
        ctx.amend(damp_loss=True)
    return ok


def step_spread(ctx: TurnContext, state: GameState) -> None:
    """Step 1: every fire burning at the start of the step rolls into each flammable,
    non-burning neighbour (R-3: fires started now wait for the next turn), then fires of 5
    try to jump (R-5) to flammable locations over gaps that cannot burn at the time."""
    rules = ctx.rules
    climb_min = rules.int("spread.climb_min_fire")
    jump_min = rules.int("jump.min_fire")
    jump_max = rules.int("jump.max")
    gap, gap_down = rules.int("jump.gap"), rules.int("jump.gap_downwind")
    fighting = fighting_locations(state)
    vehicles = vehicle_areas(state)
    if not ctx.log_events:
        spread_quiet(ctx, state, fighting, vehicles)
        return
    snapshot = sorted(state.fire.items())
    burning = state.fire
    for src, fire in snapshot:
        nbs, climbs = spread_targets(ctx, src)
        if fire >= climb_min and climbs:  # R-1 climbing
            for dst, ruling in with_climbs(ctx, src, nbs, climbs):
                if dst in burning or not is_flammable(ctx, state, dst, vehicles):
                    continue
                kind = FireClimb if ruling == "R-1" else Spread
                _try_spread(ctx, state, kind, src, dst, fire, fighting, ruling)
        else:
            for dst in nbs:  # sorted already
                if dst in burning or not is_flammable(ctx, state, dst, vehicles):
                    continue
                _try_spread(ctx, state, Spread, src, dst, fire, fighting, None)
        if fire >= jump_min:
            for dst, gap_areas in jumps_allowed(ctx, src, gap, gap_down):
                if dst in burning or not is_flammable(ctx, state, dst, vehicles):
                    continue
                # the gap must not burn now (rubble or a vehicle makes a street burn)
                if any(is_flammable(ctx, state, (g, 0), vehicles) for g in gap_areas):
                    continue
                _try_spread(ctx, state, Jump, src, dst, jump_max, fighting, "R-5")


# -- step 2: growth ------------------------------------------------------------------------------
def step_growth(ctx: TurnContext, state: GameState) -> None:
    """Step 2: each fire rolls 1d6 to grow one (bonuses: a burning neighbour, a wood store);
    road incendiaries age and burn out."""
    rules = ctx.rules
    on = rules.int("growth.on")
    nb_bonus = rules.int("growth.neighbour_burning")
    need = f">={on}"
    top, road_top = rules.int("fire.max"), rules.int("roads.max_fire")
    if not ctx.log_events:
        _growth_quiet(ctx, state, on, nb_bonus, top, road_top)
    else:
        _growth_logged(ctx, state, set(state.fire), need, top, road_top)
    burn_turns = rules.int("roads.burn_turns")
    for loc in sorted(state.street_fire_age):
        age = state.street_fire_age[loc] + 1
        if age >= burn_turns:
            del state.street_fire_age[loc]
            state.fire.pop(loc, None)  # burns out without embers
            ctx.note(RoadBurnout, at=loc, age=age)
        else:
            state.street_fire_age[loc] = age


def _growth_quiet(
    ctx: TurnContext,
    state: GameState,
    on: int,
    nb_bonus: int,
    top: int,
    road_top: int,
) -> None:
    """The growth rolls of the quiet mode: as :func:`_growth_logged`, with each location's
    neighbours and the number its roll must reach (with and without a burning neighbour)
    worked out once for the game."""
    # by the location's rank on the map (R-3 order): (location, neighbours, the least
    # uniform() * 6 that grows the fire with no neighbour burning, the same with one, the
    # lesser and the greater of the two): die() + mod >= on is uniform() * 6 >= on - 1 - mod
    # (the locations typed Any: compiled, a plan's location typed as a tuple would be made
    # a new tuple at each read, and the fire looked up by an equal copy, not the map's own)
    plans: dict[int, tuple[Any, tuple[Any, ...], int, int, int, int]] = ctx.cache.setdefault(
        GROWTH_PLAN, {}
    )
    uniform = ctx.dice.uniform()
    fires = state.fire
    roads = state.street_fire_age
    rank, by_rank = location_ranks(ctx)
    # growth changes how big fires are, never which locations burn: the keys now are the
    # fires at the start of the step (a burning neighbour is one of them)
    isdisjoint = fires.keys().isdisjoint
    # only fires below their cap roll (most big fires are at the top already), in the
    # order of their ranks; growth changes no other fire than the one rolling, so the
    # values now are the values then
    # (round 22: the locations typed Any, as they come: compiled, a location typed as a
    # tuple is unpacked and a new tuple made for each lookup by it)
    items: Iterable[tuple[Any, int]] = fires.items()
    try:
        if roads:
            ranks = [rank[loc] for loc, f in items if f < (road_top if loc in roads else top)]
        else:
            ranks = [rank[loc] for loc, f in items if f < top]
    except KeyError:  # a fire off the map (a test's): no rank; the logged walk's rolls
        # (ctx.test's quiet path: the same die, in the same sorted order)
        _growth_logged(ctx, state, set(fires), f">={on}", top, road_top)
        return
    ranks.sort()
    for k in ranks:
        plan = plans.get(k)
        if plan is None:
            canon = map_tuples(ctx)
            loc: Any = canon.get(by_rank[k], by_rank[k])  # (the map's own tuple)
            need = on - 1 - total(growth_store_parts(ctx, loc))
            alone, beside = need, need - nb_bonus
            # (the neighbours as the map's own tuples, as :func:`neighbours` keeps them: the
            # fires' keys mostly are, and the look-up below then matches by identity)
            near: list[Any] = neighbours(ctx, loc)
            nbs = tuple(near)
            plan = plans[k] = (
                loc, nbs, alone, beside, min(alone, beside), max(alone, beside),
            )  # fmt: skip
        # one roll per fire, as always; whether a neighbour burns is asked only when the
        # roll lies between the two numbers (it decides only there)
        x = uniform() * 6
        if x >= plan[5] or (x >= plan[4] and x >= (plan[2] if isdisjoint(plan[1]) else plan[3])):
            fires[plan[0]] += 1  # below its cap (fire_cap) as it rolls: the cap is not passed


def _growth_logged(
    ctx: TurnContext,
    state: GameState,
    burning: set[Location],
    need: str,
    top: int,
    road_top: int,
) -> None:
    roads = state.street_fire_age
    for loc in sorted(burning):
        fire = state.fire.get(loc)
        if fire is None:
            continue
        cap = road_top if loc in roads else top  # fire_cap
        if fire >= cap:
            continue  # nothing to roll for: the fire cannot grow
        mod = total(growth_parts(ctx, loc, burning))
        ok, _ = ctx.test(Growth, need, modifier=mod, at=loc)
        if ok:
            state.fire[loc] = min(cap, fire + 1)


# -- step 3: reignition --------------------------------------------------------------------------
def step_reignite(ctx: TurnContext, state: GameState) -> None:
    """Step 3: each ember location rolls 2d6 and re-ignites at fire 1 on 12."""
    rules = ctx.rules
    on = rules.int("embers.reignite_on")
    n = rules.int("embers.dice")
    start = rules.int("fire.start")
    loc: Any  # (the embers' own objects become the fires' keys: see ignite)
    if not ctx.log_events:
        # the quiet mode: ctx.test's own quiet path (the sum of ``n`` dice against
        # ">=on"), inline
        dice = ctx.dice
        for loc in sorted(state.embers):
            if (dice.die() if n == 1 else sum(dice.d6(n))) >= on:
                ignite(ctx, state, loc, start, cause="reignite")
        return
    need = f">={on}"
    for loc in sorted(state.embers):
        ok, _ = ctx.test(Reignite, need, dice=n, at=loc)
        if ok:
            ignite(ctx, state, loc, start, cause="reignite")


# -- step 4: damp ------------------------------------------------------------------------------
def step_damp(ctx: TurnContext, state: GameState) -> None:
    """Step 4: damp lost to failed spreads in step 1 is taken off now."""
    loss = ctx.rules.int("spread.damp_loss")
    for loc, times in sorted(state.pending_damp_loss.items()):
        damp = state.damp.get(loc, 0)
        if loc in state.fire or damp <= 0:
            continue
        new = max(0, damp - loss * times)
        if new:
            state.damp[loc] = new
        else:
            del state.damp[loc]
        ctx.note(DampLoss, at=loc, damp=new)
    state.pending_damp_loss = {}
