"""Step 6 of the turn: arrivals, forced exits, heat, orders, movement and hose laying (§4, §7).

Order within the step:

1. units due this turn arrive at their entry (or area);
2. R-10: stands in a burning location leave it for a neighbour they can enter, or become
   casualties; a vehicle still in a burning location is burned out;
3. §4: a stand whose neighbouring fires rose re-takes the heat test to stay, or withdraws;
4. R-7: every unit leaves a heavy-damaged location, or one next to a fire of 5 whose own
   location is heavy-damaged;
5. work in progress advances (pumps deploy, ladders go up, hoses are taken up);
6. player orders that take effect now, then the standing orders (autopilot) for the rest:
   both are policies the game hands in (``ctx.policies``); no rule imports them;
7. hoses are laid at their advancing ends.

The primitives (``drive``, ``walk``, ``start_hose``, ``pitch_ladder``...) are what orders and
the autopilot call; each checks the rule it applies and returns whether it acted. Moving
lives here; hose lines in :mod:`.hoses`, pumps, dams, ladders and water connections in
:mod:`.equipment`, the wheelbarrow pump in :mod:`.wheelbarrow`, the one-action-a-turn mark
in :mod:`.acting`; callers import each from the module that defines it.
"""

from __future__ import annotations

from typing import Final

from ....board.model import AreaKind, FeatureType, Location
from ....core.turn import TurnContext
from ..events import Arrive, BurnOut, Climb, Drive, ForcedExit, Trapped, Walk, Withdraw
from ..memos import (
    BLOCKED_MEMO,
    ENTRY_AREAS,
    HEAT_MEMO,
    PASSABLE_NUMBERED,
    ROUTE_MEMO,
    SEARCH_MEMO,
    UNSAFE_MEMO,
)
from ..reach import danger, foot
from ..state import GameState
from ..units import STAND, VEHICLE, UnitState
from . import reach
from .acting import acted, mark
from .equipment import (
    advance_work,
    disconnect,
)
from .hoses import (
    lay_hoses,
    leave_hose,
    path_lengths,
)
from .wheelbarrow import (
    carried_pump,
    carrier_of,
    drop_stray_pumps,
)

__all__ = [
    "arrivals",
    "burn_out_vehicles",
    "drive",
    "entry_area",
    "entry_areas",
    "escape_to",
    "finish_climbs",
    "forced_exits",
    "heat_retests",
    "relocate",
    "self_preservation",
    "start_climb",
    "step_movement",
    "tied_down",
    "walk",
    "works_wreck",
]


# Compiled, ``AreaKind.WATER`` is two look-ups by name (the class in the module's
# globals, then the member) at every read; a Final is read from a C global.
_FEATURE_ENTRY: Final = FeatureType.ENTRY
_KIND_BUILDING: Final = AreaKind.BUILDING


# -- the step -------------------------------------------------------------------------------
def step_movement(ctx: TurnContext, state: GameState) -> None:
    ctx.cache[HEAT_MEMO] = {}  # fire does not change during step 6
    ctx.cache[ROUTE_MEMO] = {}  # nor do rubble and craters
    ctx.cache[SEARCH_MEMO] = {}  # foot searches without an ``ok`` test (see foot_search)
    ctx.cache[UNSAFE_MEMO] = {}  # nor does damage (R-7's danger.unsafe)
    ctx.cache[PASSABLE_NUMBERED] = [None, None]  # (numbering, passable by number)
    try:
        _movement(ctx, state)
    finally:
        ctx.cache.pop(HEAT_MEMO, None)
        ctx.cache.pop(ROUTE_MEMO, None)
        ctx.cache.pop(BLOCKED_MEMO, None)
        ctx.cache.pop(SEARCH_MEMO, None)
        ctx.cache.pop(UNSAFE_MEMO, None)
        ctx.cache.pop(PASSABLE_NUMBERED, None)


def _movement(ctx: TurnContext, state: GameState) -> None:
    arrivals(ctx, state)
    drop_stray_pumps(ctx, state)
    burn_out_vehicles(ctx, state)
    forced_exits(ctx, state)
    heat_retests(ctx, state)
    self_preservation(ctx, state)
    finish_climbs(ctx, state)
    advance_work(ctx, state)
    ctx.policies.orders(ctx, state)  # the player's orders due now (handed in: see Policies)
    ctx.policies.standing(ctx, state)  # then the standing orders for the rest
    lay_hoses(ctx, state)
    for u in state.units.values():
        if u.kind == STAND and u.in_play and u.loc is not None:
            u.heat_seen = danger.heat(ctx, state, u.loc)


# -- 1. arrivals ----------------------------------------------------------------------------
def entry_area(ctx: TurnContext, name: str | None) -> str | None:
    for f in ctx.scenario.features:
        if f.type is _FEATURE_ENTRY and (f.name == name or f.area == name):
            return f.area
    return None


def entry_areas(ctx: TurnContext) -> list[str]:
    """Areas holding an entry, sorted (kept for the game; do not mutate)."""
    hit: list[str] | None = ctx.cache.get(ENTRY_AREAS)
    if hit is None:
        hit = sorted({f.area for f in ctx.scenario.features if f.type is _FEATURE_ENTRY})
        ctx.cache[ENTRY_AREAS] = hit
    return hit


def arrivals(ctx: TurnContext, state: GameState) -> None:
    """Units whose turn has come appear at their entry (level 0) or their given area."""
    turn = state.turn
    # (one unit's arrival changes no other's turn to come: those due are found first)
    due = [
        uid
        for uid, u in state.units.items()
        if u.loc is None and u.status == "ok" and u.arrives <= turn
    ]
    if not due:
        return
    forces = {f.id: f for f in ctx.scenario.forces}
    for uid in sorted(due):
        u = state.units[uid]
        root = forces.get(u.parent or u.id)
        if root is None:
            continue
        if root.area is not None:
            loc: Location = (root.area, root.level)
        else:
            area = entry_area(ctx, root.entry)
            if area is None:
                continue
            loc = (area, 0)
        if loc in state.fire:
            continue  # the way in is burning: it arrives when it can
        u.loc = loc
        u.heat_seen = danger.heat(ctx, state, loc)
        if u.parent is None:
            ctx.note(Arrive, at=loc, unit=u.id)


# -- 2. R-10 --------------------------------------------------------------------------------
def burn_out_vehicles(ctx: TurnContext, state: GameState) -> None:
    for uid in state.unit_ids():
        u = state.units[uid]
        if u.kind != STAND and u.loc in state.fire and u.in_play:
            if carrier_of(state, u) is not None:
                continue  # a carried pump leaves with its team (forced exits, below)
            u.status = "burned_out"
            u.task = "idle"
            ctx.note(BurnOut, ruling="R-10", at=u.loc, unit=u.id)


def escape_to(
    ctx: TurnContext, state: GameState, u: UnitState, *, r7_ok: bool = True
) -> Location | None:
    """A neighbour the stand can enter by the heat test (one roll each): out into the
    street first (fire cannot follow into an empty street), then the coolest. R-7 makes
    a location about to come down a poor refuge, not a barred one: with ``r7_ok`` such
    neighbours are tried last (escaping a fire, R-10 and §4), without it never (R-7's own
    withdrawal)."""
    assert u.loc is not None
    ladders = foot.ladder_links(state, ctx)
    options = sorted(
        {
            (danger.unsafe(ctx, state, link[0]), link[0])
            for link in foot.foot_links(ctx, u.loc, ladders)
            if link[0] not in state.fire
        },
        key=lambda ul: (
            ul[0],
            danger.area_kind(ctx, ul[1][0]) is _KIND_BUILDING,
            danger.heat(ctx, state, ul[1]),
            ul[1],
        ),
    )
    for bad, loc in options:
        if bad and not r7_ok:
            continue
        if danger.heat_test(ctx, state, u, loc):
            return loc
    return None


def forced_exits(ctx: TurnContext, state: GameState) -> None:
    """R-10: a stand in a burning location must leave it, or becomes a casualty."""
    for uid in state.unit_ids():
        u = state.units[uid]
        if not (u.kind == STAND and u.loc in state.fire and u.in_play):
            continue
        to = escape_to(ctx, state, u)
        if to is None:
            assert u.loc is not None
            u.status = "casualty"
            u.task = "idle"
            state.add_casualty(u.loc, "found", u.id)
            ctx.note(Trapped, ruling="R-10", at=u.loc, unit=u.id)
            leave_hose(state, u)
        else:
            ctx.note(ForcedExit, ruling="R-10", from_=u.loc, to=to, unit=u.id)
            relocate(ctx, state, u, to)
            mark(state, u)


# -- 3. heat re-tests -----------------------------------------------------------------------
def heat_retests(ctx: TurnContext, state: GameState) -> None:
    """§4: when the fires next to a stand rise, it must pass the heat test to stay."""
    if not state.fire:
        return
    for uid in state.unit_ids():
        u = state.units[uid]
        if not (u.in_play and u.kind == STAND and u.loc is not None) or u.task == "aboard":
            continue
        h = danger.heat(ctx, state, u.loc)
        if h <= u.heat_seen:
            u.heat_seen = h
            continue
        if danger.heat_test(ctx, state, u, u.loc):
            u.heat_seen = h
            continue
        to = escape_to(ctx, state, u)
        if to is not None:
            ctx.note(Withdraw, at=u.loc, to=to, unit=u.id, cause="heat")
            relocate(ctx, state, u, to)
            mark(state, u)


# -- 4. R-7 ---------------------------------------------------------------------------------
def self_preservation(ctx: TurnContext, state: GameState) -> None:
    """R-7: every unit leaves a location about to come down on it."""
    for uid in state.unit_ids():
        u = state.units[uid]
        if not u.in_play or u.loc is None or not danger.unsafe(ctx, state, u.loc):
            continue
        if u.kind == STAND:
            if u.task == "aboard":
                continue  # rides with its vehicle
            if works_wreck(ctx, state, u):
                continue  # rescue and medical crews at work stay
            to = escape_to(ctx, state, u, r7_ok=False)
            if to is not None:
                ctx.note(Withdraw, ruling="R-7", at=u.loc, to=to, unit=u.id)
                relocate(ctx, state, u, to)
                mark(state, u)
        elif u.kind == VEHICLE and not tied_down(state, u):
            routes = reach.road_routes(ctx, state, u.loc[0])
            safe = [a for a in routes if not danger.unsafe(ctx, state, (a, 0))]
            if safe:
                to_area = min(safe, key=lambda a: (len(routes[a]), a))
                ctx.note(Withdraw, ruling="R-7", at=u.loc, to=(to_area, 0), unit=u.id)
                drive(ctx, state, u, to_area)


#: R-11: the units whose crews work in wrecked buildings, and the casualties each works on
WRECK_WORK: dict[str, frozenset[str]] = {
    "rescue_team": frozenset({"buried", "located"}),
    "heavy_rescue": frozenset({"buried", "located"}),
    "doctor": frozenset({"buried", "located", "found"}),
    "ambulance": frozenset({"badly_injured", "lightly_injured"}),
    "mortuary_van": frozenset({"dead"}),
}


def works_wreck(ctx: TurnContext, state: GameState, u: UnitState) -> bool:
    """R-11: a rescue, Heavy Rescue, doctor, ambulance or mortuary stand searching, digging,
    treating or carrying a casualty stays in a heavy-damaged location that is not burning
    and has no neighbour burning at ``movement.withdraw_fire`` (5); R-7 holds for the rest."""
    assert u.loc is not None
    owner = state.units.get(u.parent) if u.parent is not None else u
    kinds = WRECK_WORK.get(owner.type if owner is not None else u.type)
    if kinds is None or u.loc in state.fire:
        return False
    hot = ctx.rules.int("movement.withdraw_fire")
    if any(state.fire.get(nb, 0) >= hot for nb in danger.neighbours(ctx, u.loc)):
        return False
    if u.carrying:
        return True
    return any(
        c.loc == u.loc and c.status in kinds and not c.evacuated and c.carried_by is None
        for c in state.casualties
    )


# -- ladder climbs longer than a turn ---------------------------------------------------
def start_climb(ctx: TurnContext, state: GameState, u: UnitState, to: Location) -> None:
    """R-12: a ladder climb dearer than a turn's points (level 4: 8) starts now and ends
    at step 6 of the next turn; until then the stand counts as where it stands."""
    assert u.loc is not None
    u.extra["climb"] = [to[0], to[1]]
    u.task = "move"
    ctx.note(Climb, ruling="R-12", from_=u.loc, to=to, unit=u.id)
    mark(state, u)


def finish_climbs(ctx: TurnContext, state: GameState) -> None:
    """R-12: climbs begun last turn end now, if the ladder still stands and the top can be
    entered (not burning, the heat test passed); otherwise the stand stays below."""
    for uid in state.unit_ids():
        u = state.units[uid]
        goal = u.extra.pop("climb", None)
        if goal is None or not u.in_play or u.loc is None:
            continue
        to: Location = (str(goal[0]), int(goal[1]))
        link = foot.link_between(ctx, state, u.loc, to)
        if link is None or link[4] != "ladder" or to in state.fire:
            continue
        if not danger.heat_test(ctx, state, u, to):
            continue
        start = u.loc
        relocate(ctx, state, u, to)
        ctx.note(Walk, ruling="R-12", from_=start, to=to, unit=u.id)
        mark(state, u)


# -- moving ---------------------------------------------------------------------------------
def relocate(ctx: TurnContext, state: GameState, u: UnitState, to: Location) -> None:
    """Move a unit; a stand leaving its branch takes it along when it steps back down the
    hose, or leaves it unmanned."""
    u.extra.pop("climb", None)  # a stand that goes elsewhere gives up its climb
    u.loc = to
    if u.task == "aboard":
        u.task = "idle"
    if u.kind == STAND:
        p = carried_pump(state, u, ctx)
        if p is not None:
            p.loc = to  # the pump goes where its team goes
    if u.kind == STAND and u.hose is not None:
        h = state.hoses.get(u.hose)
        if h is not None and h.path and h.branch != to:
            if len(h.path) >= 2 and h.path[-2] == to and not h.plan:
                h.path.pop()
                h.lengths = path_lengths(ctx, h.path)
            else:
                leave_hose(state, u)


def tied_down(state: GameState, u: UnitState) -> bool:
    """A vehicle cannot drive off while hoses run from it or its ladders stand."""
    if any(h.unit == u.id and not h.cut for h in state.hoses.values()):
        return True
    return any(ld.at is not None for ld in u.ladders)


def drive(ctx: TurnContext, state: GameState, u: UnitState, to_area: str) -> bool:
    """A vehicle (or a pump not yet deployed) drives along clear streets to ``to_area``.

    Its stands aboard and its towed pump go with it; it leaves its water connection.
    """
    if not u.in_play or u.loc is None or u.kind == STAND or tied_down(state, u):
        return False
    if u.moves in ("towed", "carried"):
        return False  # a trailer goes behind its tow (below), a wheelbarrow pump is carried
    if u.task in ("deploy", "stow") or (
        u.deployed and ctx.rules.units.get(u.type, {}).get("deploy_turns")
    ):
        return False  # a deployed pump or dam must be stowed first
    routes = reach.road_routes(ctx, state, u.loc[0])
    if to_area not in routes:
        return False
    if to_area == u.loc[0]:
        return True
    old = u.loc
    new: Location = (to_area, 0)
    u.loc = new
    if u.source is not None:
        disconnect(ctx, state, u)
    for other in state.units.values():
        if other.loc != old or not other.in_play:
            continue
        if (other.parent == u.id and other.task == "aboard") or (
            other.towed_by == u.id and not other.deployed
        ):
            other.loc = new
            other.source = None
    ctx.note(Drive, from_=old, to=new, unit=u.id, route=len(routes[to_area]) - 1)
    mark(state, u)
    return True


def walk(
    ctx: TurnContext, state: GameState, u: UnitState, goal: Location, points: int | None = None
) -> bool:
    """A stand walks toward ``goal`` with its movement points, taking the heat test to enter
    each hot location; a failed test stops it where it stands."""
    if not u.in_play or u.loc is None or u.kind != STAND or acted(state, u):
        return False
    budget = ctx.rules.int("movement.foot_points") if points is None else points
    dist, prev = foot.foot_search(ctx, state, u.loc, None, goal=goal)
    if goal not in dist:
        return False
    path = foot.path_to(prev, u.loc, goal)
    ladders = foot.ladder_links(state, ctx)
    moved = False
    start = u.loc
    full = ctx.rules.int("movement.foot_points")
    for nxt in path[1:]:
        link = next(lk for lk in foot.foot_links(ctx, u.loc, ladders) if lk[0] == nxt)
        if link[1] > budget:
            if link[4] == "ladder" and link[1] > full and not moved and budget == full:
                start_climb(ctx, state, u, nxt)  # it ends at step 6 of the next turn
            break
        if not danger.heat_test(ctx, state, u, nxt):
            break
        budget -= link[1]
        relocate(ctx, state, u, nxt)
        moved = True
    if moved:
        for cid in u.carrying:
            for c in state.casualties:
                if c.id == cid:
                    c.loc = u.loc
        ctx.note(Walk, from_=start, to=u.loc, unit=u.id)
        mark(state, u)
    return moved
