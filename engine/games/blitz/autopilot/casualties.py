"""Rescue and casualties: rescue teams dig out the buried once the fire there is out,
ambulance and mortuary crews carry the found to their vehicle, which drives them out, and a
doctor goes where casualties are being found."""

from __future__ import annotations

from ....board.model import Location
from ....core.turn import TurnContext
from ..events import Evacuated
from ..reach import danger, foot
from ..reach.hose_steps import steps_to
from ..rules import acting, reach
from ..rules import movement as mv
from ..state import GameState
from ..units import UnitState, crew_of
from .parking import shelter, stays_clear
from .safety import stand_clear


def _far(ctx: TurnContext) -> int:
    """How far (movement points) a stand looks for work on foot: four turns' walk."""
    return 4 * ctx.rules.int("movement.foot_points")


def rescue_sites(ctx: TurnContext, state: GameState) -> list[Location]:
    return sorted(
        {c.loc for c in state.casualties if c.status in ("buried", "located")} - set(state.fire)
    )


def _accept(_loc: Location) -> bool:
    return True


def _nearest_site(
    ctx: TurnContext, state: GameState, start: Location, sites: list[Location]
) -> Location | None:
    """The nearest of ``sites`` within :func:`_far` on foot (ties by location), as
    :func:`.foot.nearest` picks it from a :func:`.foot.foot_search` of that budget: the
    search stops at the first site it settles (it settles in (cost, location) order),
    and none is made with no site to go to (round 23: most rescue stands asked have
    none)."""
    if not sites:
        return None
    return foot.first_goal(ctx, state, start, _far(ctx), sites, _accept)


def rescuer_orders(
    ctx: TurnContext, state: GameState, u: UnitState, sites: list[Location] | None = None
) -> None:
    """A rescue stand goes to the nearest buried casualty whose fire is out, and works;
    with none to go to, it waits out of the fire's way (:func:`.safety.stand_clear`)."""
    assert u.loc is not None
    if sites is None:
        sites = rescue_sites(ctx, state)
    if u.status == "exhausted" or (u.status == "tired" and not sites):
        u.task = "rest"
        return
    if u.task == "rest":
        return
    if u.loc in sites:
        u.task = "rescue"
        return
    goal = _nearest_site(ctx, state, u.loc, sites)
    if goal is not None:
        u.task = "move"
        mv.walk(ctx, state, u, goal)
    else:
        u.task = "idle"
        stand_clear(ctx, state, u)  # nothing to dig out: out of the fire's way (round 7)


#: how far from casualties an ambulance or rescue lorry parks, in turns of a stand's walk
PARK_NEAR_TURNS = 2


def _carry_steps(ctx: TurnContext) -> int:
    """:data:`PARK_NEAR_TURNS` of foot movement in area steps (the numbers live in the ruleset)."""
    r = ctx.rules
    return PARK_NEAR_TURNS * r.int("movement.foot_points") // max(1, r.int("movement.area"))


def _park_near(
    ctx: TurnContext, state: GameState, u: UnitState, goals: list[Location]
) -> str | None:
    """The reachable street closest on foot to any of ``goals`` where the vehicle can stay
    (:func:`.parking.stays_clear`: out of the fire's reach; else its crew walks)."""
    if u.loc is None or not goals:
        return None
    routes = reach.road_routes(ctx, state, u.loc[0])
    dist = steps_to(ctx, goals, [(a, 0) for a in routes], _carry_steps(ctx))
    best = min(
        ((dist[(a, 0)], len(r), a) for a, r in routes.items()
         if (a, 0) in dist and not danger.unsafe(ctx, state, (a, 0))
         and stays_clear(ctx, state, u, a)),
        default=None,
    )  # fmt: skip
    return None if best is None else best[2]


def crew_vehicle_orders(
    ctx: TurnContext, state: GameState, u: UnitState, sites: list[Location]
) -> None:
    """Heavy Rescue: park near the work, its crew goes on foot."""
    assert u.loc is not None
    crews = crew_of(state.units, u.id)
    if not sites:
        if all(s.loc == u.loc and s.task in ("aboard", "idle") for s in crews):
            shelter(ctx, state, u)  # no work near the fire: wait where it cannot reach
        return
    if all(s.loc == u.loc and s.task in ("aboard", "idle") for s in crews):
        park = _park_near(ctx, state, u, sites)
        if park is not None and park != u.loc[0]:
            for s in crews:
                s.task = "aboard"
            mv.drive(ctx, state, u, park)
            return
    for s in crews:
        if s.task == "aboard":
            s.task = "idle"
        if s.order is None and not acting.acted(state, s):
            rescuer_orders(ctx, state, s, sites)


def doctor_orders(ctx: TurnContext, state: GameState, u: UnitState) -> None:
    assert u.loc is not None
    sites = rescue_sites(ctx, state)
    if not sites or any(s[0] == u.loc[0] for s in sites):
        return
    goal = _nearest_site(ctx, state, u.loc, sites)
    if goal is not None:
        mv.walk(ctx, state, u, goal)


#: how far a carrier's crew walks to a casualty nobody else will fetch, in turns of walk
FETCH_FAR_TURNS = 12


def _fetch_goal(
    ctx: TurnContext, state: GameState, start: Location, goals: list[Location]
) -> Location | None:
    """The nearest of ``goals`` on foot: within four turns' walk if any is, else within
    :data:`FETCH_FAR_TURNS` (the vehicle parks within two turns' walk of a casualty when a
    road reaches there; when none does, only its crew on foot can fetch them)."""
    for pts in (_far(ctx), FETCH_FAR_TURNS * ctx.rules.int("movement.foot_points")):
        dist, _ = foot.foot_search(ctx, state, start, pts)
        goal, _d = foot.nearest(dist, goals)
        if goal is not None:
            return goal
    return None


def _wants(u: UnitState, status: str) -> bool:
    if u.type == "mortuary_van":
        return status == "dead"
    return status in ("badly_injured", "lightly_injured")


def carrier_orders(ctx: TurnContext, state: GameState, u: UnitState) -> None:
    """Ambulance or mortuary van: crews carry casualties to it; full (or nothing left to
    fetch) it drives to the nearest entry and hands them over."""
    assert u.loc is not None
    r = ctx.rules
    capacity = int(r.units.get(u.type, {}).get("carries", 0) or 0)
    crews = crew_of(state.units, u.id)
    waiting = [
        c for c in sorted(state.casualties, key=lambda c: c.id)
        if _wants(u, c.status) and not c.evacuated and c.carried_by is None
        and c.loc not in state.fire
    ]  # fmt: skip
    carried = [c for c in state.casualties if c.carried_by in {s.id for s in crews}]
    entries = mv.entry_areas(ctx)
    if u.carrying and (len(u.carrying) >= capacity or (not waiting and not carried)):
        routes = reach.road_routes(ctx, state, u.loc[0])
        exits = [a for a in entries if a in routes]
        if exits:
            out = min(exits, key=lambda a: (len(routes[a]), a))
            if out == u.loc[0]:
                for c in state.casualties:
                    if c.id in u.carrying:
                        c.evacuated = True
                        c.carried_by = None
                        ctx.note(Evacuated, at=u.loc, unit=u.id, casualty=c.id)
                u.carrying = []
            else:
                for s in crews:
                    if s.loc == u.loc and not s.carrying:
                        s.task = "aboard"
                if all(s.task == "aboard" for s in crews):
                    mv.drive(ctx, state, u, out)
            return
    if waiting and all(s.task in ("aboard", "idle") and s.loc == u.loc for s in crews):
        park = _park_near(ctx, state, u, [c.loc for c in waiting])
        if park is not None and park != u.loc[0]:
            for s in crews:
                s.task = "aboard"
            mv.drive(ctx, state, u, park)
            return
    if (
        not waiting
        and not carried
        and not u.carrying
        and all(s.task in ("aboard", "idle") and s.loc == u.loc for s in crews)
    ):
        shelter(ctx, state, u)  # nobody to fetch: wait where the fire cannot reach
        return
    carry_pts = r.int("casualty.carry_areas")
    claimed = {c.id for c in carried}
    for s in crews:
        if s.order is not None or acting.acted(state, s) or s.loc is None:
            continue
        if s.task == "aboard":
            s.task = "idle"
        if s.carrying:
            if s.loc == u.loc:
                if len(u.carrying) < capacity:
                    u.carrying += s.carrying
                    for c in state.casualties:
                        if c.id in s.carrying:
                            c.carried_by = u.id
                    s.carrying = []
                    s.task = "idle"
            else:
                s.task = "carry"
                mv.walk(ctx, state, s, u.loc, points=carry_pts)
            continue
        free = [c for c in waiting if c.id not in claimed]
        if not free or len(u.carrying) + len(claimed) >= capacity:
            continue
        here = next((c for c in free if c.loc == s.loc), None)
        if here is not None:
            here.carried_by = s.id
            s.carrying = [here.id]
            claimed.add(here.id)
            s.task = "carry"
            continue
        goal = _fetch_goal(ctx, state, s.loc, [c.loc for c in free])
        if goal is not None:
            s.task = "move"
            mv.walk(ctx, state, s, goal)
