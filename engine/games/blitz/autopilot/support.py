"""Pumps, dams, the canteen and fire parties: trailer and skid pumps go where water and
fire meet, a mobile dam feeds an appliance on its tank, the canteen follows the busiest
street, fire parties attack small fires and refill."""

from __future__ import annotations

from ....board.model import AreaKind, Location
from ....core.turn import TurnContext
from ..memos import REFILL_NOW, REFILL_POINTS
from ..reach import danger, foot
from ..rules import equipment, reach
from ..rules import movement as mv
from ..rules.firefighting import party_targets, refill_point
from ..state import GameState
from ..units import STAND, UnitState, crew_of
from .parking import (
    choose_parking,
    choose_water,
    keep_clear,
    out_of_reach,
    packs_up,
    shelter,
    street_risk,
    water_at,
)
from .priorities import policy, small_fires
from .safety import calm, stand_clear, trapped


def pump_orders(ctx: TurnContext, state: GameState, u: UnitState, pri: set[Location]) -> None:
    """A trailer without a tow, or a skid pump: go where water and fire meet, deploy."""
    if u.towed_by is not None or u.extra.get("tow") is not None or u.loc is None:
        return
    busy = any(h.unit == u.id for h in state.hoses.values())
    if u.moves == "carried":  # the fire teams fetch, carry and set it down
        if u.deployed and busy:
            choose_water(ctx, state, u)
        return
    if u.deployed and u.pumps and (busy or u.task != "idle"):
        choose_water(ctx, state, u)
        return
    stows = equipment.sets_up(ctx, u) and u.moves == "road"  # packing up lets a skid pump move off
    crewless = not crew_of(state.units, u.id)
    if (
        u.deployed
        and stows
        and not busy
        and u.task == "idle"
        and _unsettled(ctx, state, u.loc[0], crewless)
    ):
        # idle where the fire may reach it before it is packed up: pack up, move off (a
        # pump with no crew of its own, waiting for the lorry's line, leaves once its
        # street is no longer one it would park in)
        equipment.stow(ctx, state, u)
        return
    if u.task in ("deploy", "stow"):
        return
    if not u.deployed:
        # a trailer without a tow cannot move: it deploys where it stands if water is there
        park = (
            choose_parking(ctx, state, u, pri, need_water=True, far=crewless)
            if u.moves == "road"
            else None
        )
        if park is not None and park != u.loc[0]:
            mv.drive(ctx, state, u, park)
        elif park is None and u.moves == "road" and keep_clear(ctx, state, u):
            return  # nothing to pump for from here, and the fire may reach it: move off
        elif park is not None or water_at(ctx, state, u.loc[0]):
            if stows and _unsettled(ctx, state, u.loc[0], crewless):
                # it would pack up again as soon as it is set up (the turns it takes to
                # set up and pack up tie it to a street the fire may reach): move off
                shelter(ctx, state, u)
            else:
                equipment.deploy(ctx, state, u)
        elif u.moves == "road":
            shelter(ctx, state, u)  # nothing to pump for: wait where the fire comes last
    else:
        choose_water(ctx, state, u)


def _unsettled(ctx: TurnContext, state: GameState, area: str, crewless: bool) -> bool:
    """A pump that takes turns to set up and pack up (§7) does not stay set up, idle, in
    ``area``: it may catch next step 1 with ``policy.vehicle_move_chance`` or more, or
    within two with ``policy.pack_up_chance`` (:func:`.parking.packs_up`), or, with no
    crew of its own to guard it, a fire is within two spreads or a jump away
    (:func:`.parking.out_of_reach`)."""
    return (
        street_risk(ctx, state, area) >= policy(ctx, "vehicle_move_chance")
        or packs_up(ctx, state, area)
        or (crewless and not out_of_reach(ctx, state, area))
    )


def dam_orders(ctx: TurnContext, state: GameState, u: UnitState) -> None:
    if u.loc is None or u.task in ("deploy", "stow") or u.deployed:
        return
    thirsty = sorted((
        a for a in state.units.values()
        if a.in_play and a.pumps and a.source is None and a.loc is not None
        and any(h.unit == a.id for h in state.hoses.values())
    ), key=lambda x: x.id)  # fmt: skip
    routes = reach.road_routes(ctx, state, u.loc[0])
    risky = policy(ctx, "vehicle_move_chance")
    for a in thirsty:
        assert a.loc is not None
        if a.loc[0] in routes and street_risk(ctx, state, a.loc[0]) < risky:  # 3 turns to deploy
            if a.loc[0] != u.loc[0]:
                mv.drive(ctx, state, u, a.loc[0])
            else:
                equipment.deploy(ctx, state, u)
            return


def canteen_orders(ctx: TurnContext, state: GameState, u: UnitState) -> None:
    if u.loc is None:
        return
    if u.rations <= 0:
        shelter(ctx, state, u)  # nothing left to give: wait where the fire cannot reach
        return
    counts: dict[str, int] = {}
    for s in state.units.values():
        if s.kind == STAND and s.in_play and s.loc is not None and s.task != "aboard":
            counts[s.loc[0]] = counts.get(s.loc[0], 0) + 1
    routes = reach.road_routes(ctx, state, u.loc[0])
    best = max(
        ((n, a) for a, n in counts.items() if a in routes and not danger.unsafe(ctx, state, (a, 0))
         and danger.heat(ctx, state, (a, 0)) == 0 and out_of_reach(ctx, state, a)),
        default=None,
    )  # fmt: skip
    if best is None:
        shelter(ctx, state, u)  # nobody to feed in a safe street: wait out of the fire's way
    elif best[1] != u.loc[0]:
        mv.drive(ctx, state, u, best[1])


def fire_party_orders(ctx: TurnContext, state: GameState, u: UnitState) -> None:
    assert u.loc is not None
    budget = 3 * ctx.rules.int("movement.foot_points")
    if u.charged:
        if party_targets(ctx, state, u.loc):
            u.task = "fight"
            return
        small = small_fires(ctx, state)
        if not small:
            u.task = "idle"
            stand_clear(ctx, state, u)
            return
        near = reach.area_distances(ctx, u.loc[0], budget + 1)
        places = {nb for f in small if f[0] in near for nb in danger.neighbours(ctx, f)}
        goal = foot.first_goal(
            ctx, state, u.loc, budget, places, lambda x: not trapped(ctx, state, x)
        )
        if goal is None:
            if not any(not trapped(ctx, state, x) for x in sorted(places)):
                stand_clear(ctx, state, u)  # no small fire within three turns' walk
            return
        u.task = "move"
        if not mv.walk(ctx, state, u, goal):
            stand_clear(ctx, state, u)  # no way there this turn: out of the fire's reach
        return
    if refill_point(ctx, state, u.loc) and calm(ctx, state, u.loc):
        u.task = "refill"
        return
    points = _refill_points(ctx, state, u.loc[0], budget)
    goal = foot.first_goal(ctx, state, u.loc, budget, points, lambda x: calm(ctx, state, x))
    if goal is not None:
        u.task = "refill"
        if not mv.walk(ctx, state, u, goal):
            stand_clear(ctx, state, u)  # no way there this turn: out of the fire's reach
    else:
        stand_clear(ctx, state, u)  # nowhere to refill within reach


def officer_orders(ctx: TurnContext, state: GameState, u: UnitState) -> None:
    """An officer or messenger on foot waits for orders, out of the fire's way."""
    if u.loc is not None and state.fire:
        stand_clear(ctx, state, u)


def _refill_points(
    ctx: TurnContext, state: GameState, area: str, budget: int
) -> frozenset[Location]:
    """Ground locations within ``budget`` area steps of ``area`` where a fire party refills
    (``refill_point``: any building, a working hydrant), the map's part looked up once."""
    memo: dict[tuple[str, int], tuple[frozenset[Location], tuple[str, ...]]] = ctx.cache.setdefault(
        REFILL_POINTS, {}
    )
    hit = memo.get((area, budget))
    if hit is None:
        by_id = ctx.scenario.area_by_id
        near = reach.area_distances(ctx, area, budget)
        buildings = [a for a in near if a in by_id and by_id[a].kind is AreaKind.BUILDING]
        hydrants = danger.hydrant_areas(ctx)
        hit = memo[(area, budget)] = (
            frozenset((a, 0) for a in buildings),
            tuple(sorted(a for a in near if a in hydrants and a in by_id and a not in buildings)),
        )
    static, hydrant_areas = hit
    if not hydrant_areas or ctx.scenario.mains == "failed":
        return static
    lost = state.hydrants_lost
    # the same set while no more hydrants are lost (kept for the game: a goal search
    # numbers a set it has seen once, and the same set is found at once by identity)
    now: dict[tuple[str, int], tuple[frozenset[str], frozenset[Location]]] = ctx.cache.setdefault(
        REFILL_NOW, {}
    )
    seen = now.get((area, budget))
    if seen is not None and seen[0] == lost:
        return seen[1]
    working = [(a, 0) for a in hydrant_areas if a not in lost]
    out = static.union(working) if working else static
    now[(area, budget)] = (frozenset(lost), out)
    return out
