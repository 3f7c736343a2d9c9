"""The wheelbarrow pump: an idle fire team fetches a free one, carries it to water within
reach of a fire, sets it down, connects it and lays a line from it."""

from __future__ import annotations

from ....board.model import AreaKind, Location
from ....core.turn import TurnContext
from ..reach import danger, foot
from ..reach.hose_steps import hose_reach, steps_to
from ..rules import acting, hoses, reach, wheelbarrow
from ..rules import movement as mv
from ..state import GameState
from ..units import UnitState
from .jobs import best_job
from .parking import choose_water, water_at
from .priorities import sorted_fires

#: how far a team goes to fetch a wheelbarrow pump, in turns of foot movement
FETCH_TURNS = 1


#: how far it carries the pump to water, in turns of foot movement
CARRY_TURNS = 2


def _walk_points(ctx: TurnContext, turns: int) -> int:
    """Movement points of ``turns`` turns on foot (the number lives in the ruleset)."""
    return turns * ctx.rules.int("movement.foot_points")


def _claimed(state: GameState, pump: UnitState, by: UnitState) -> bool:
    return any(
        o.id != by.id and o.in_play and o.extra.get("wb") == pump.id for o in state.units.values()
    )


def _free_wheelbarrows(state: GameState, s: UnitState) -> list[UnitState]:
    """Wheelbarrow pumps on the ground, with no line, no source and nobody coming for them."""
    return sorted(
        (
            p for p in state.units.values()
            if p.moves == "carried" and p.in_play and p.extra.get("carried_by") is None
            and p.source is None and not any(h.unit == p.id for h in state.hoses.values())
            and not _claimed(state, p, s)
        ),
        key=lambda p: p.id,
    )  # fmt: skip


def _water_spots(
    ctx: TurnContext, state: GameState, s: UnitState, start: Location, home: UnitState
) -> list[tuple[int, int, Location]]:
    """Ground locations of streets/open areas with usable water within :data:`CARRY_TURNS`
    of ``start``, from which a fire lies within hose reach of ``home``'s lengths, as
    (hose steps to the fire, walk, location), best first."""
    if home.hose_left < 2 or not state.fire:
        return []
    spots = {
        (a, 0) for a in reach.area_distances(ctx, start[0], _walk_points(ctx, CARRY_TURNS))
        if danger.area_kind(ctx, a) in (AreaKind.STREET, AreaKind.OPEN)
        and water_at(ctx, state, a) and not danger.unsafe(ctx, state, (a, 0))
        and (a, 0) not in state.fire
    }  # fmt: skip
    if not spots:
        return []
    dist, _ = foot.foot_search(ctx, state, start, _walk_points(ctx, CARRY_TURNS))
    limit = hose_reach(ctx, home.hose_left)  # hose_left >= 2 here
    steps = steps_to(ctx, sorted_fires(ctx, state), sorted(spots), limit)
    out = [(steps[x], dist[x], x) for x in spots if x in dist and x in steps]
    return sorted(out)


def fetch_wheelbarrow(ctx: TurnContext, state: GameState, s: UnitState, home: UnitState) -> bool:
    """An idle team with no line to lay from its own pump goes for a free wheelbarrow pump
    within a turn's walk, when water with a fire in reach lies within two turns' walk of it."""
    if s.loc is None or s.type != "fire_team" or s.hose is not None or s.carrying:
        return False
    pumps = _free_wheelbarrows(state, s)
    if not pumps:
        return False
    dist, _ = foot.foot_search(ctx, state, s.loc, _walk_points(ctx, FETCH_TURNS))
    for p in pumps:
        if p.loc is None or p.loc not in dist:
            continue
        if not _water_spots(ctx, state, s, p.loc, home):
            continue
        s.extra["wb"] = p.id
        s.task = "move"
        if s.loc != p.loc:
            mv.walk(ctx, state, s, p.loc)
        if s.loc == p.loc:
            wheelbarrow.pick_up(ctx, state, s, p)
        return True
    return False


def wheelbarrow_orders(
    ctx: TurnContext, state: GameState, s: UnitState, home: UnitState, pri: set[Location]
) -> bool:
    """A team busy with a wheelbarrow pump: going for it, carrying it to water, or running
    a line from it once it is down. Whether it had something to do."""
    wid = s.extra.get("wb")
    p = state.units.get(wid) if isinstance(wid, str) else None
    if p is None or s.loc is None or p.loc is None:
        s.extra.pop("wb", None)
        return False
    carrier = wheelbarrow.carrier_of(state, p)
    if not p.in_play or not state.fire or (carrier is not None and carrier is not s):
        if carrier is s:
            wheelbarrow.set_down(ctx, state, p)
        s.extra.pop("wb", None)
        return False
    if (
        carrier is None
        and p.source is None
        and not any(h.unit == p.id for h in state.hoses.values())
    ):  # still going for it
        if s.loc != p.loc:
            s.task = "move"
            if not mv.walk(ctx, state, s, p.loc):
                s.extra.pop("wb", None)
                return False
        if s.loc == p.loc:
            wheelbarrow.pick_up(ctx, state, s, p)  # picking it up costs no movement
        return True
    if carrier is s:
        spots = _water_spots(ctx, state, s, s.loc, home)
        if not spots:
            wheelbarrow.set_down(ctx, state, p)  # nowhere to take it: leave it and go back
            s.extra.pop("wb", None)
            s.task = "idle"
            return False
        goal = spots[0][2]
        if s.loc != goal and acting.acted(state, s):
            return True  # it has moved this turn already (the heat, R-10)
        if s.loc != goal:
            s.task = "move"
            if mv.walk(ctx, state, s, goal) and s.loc != goal:
                return True
            if s.loc != goal:
                wheelbarrow.set_down(ctx, state, p)
                s.extra.pop("wb", None)
                return False
        wheelbarrow.set_down(ctx, state, p)
        s.task = "idle"
    # down: connect and run a line from it (the team stays with its pump)
    if s.loc != p.loc:
        s.extra.pop("wb", None)
        return False
    choose_water(ctx, state, p)
    job = best_job(ctx, state, p, home, pri) if p.source is not None else None
    if job is None:
        s.extra.pop("wb", None)
        return False
    target, route = job
    hoses.start_hose(ctx, state, [s], p, route, target, home)
    return True
