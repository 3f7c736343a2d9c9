"""Step 6 of the turn: arrivals, forced exits, heat, orders, movement and hose laying (§4, §7).

Order within the step:

1. units due this turn arrive at their entry (or area);
2. R-10: stands in a burning location leave it for a neighbour they can enter, or become
   casualties; a vehicle still in a burning location is burned out;
3. §4: a stand whose neighbouring fires rose re-takes the heat test to stay, or withdraws;
4. R-7: every unit leaves a heavy-damaged location, or one next to a fire of 5 whose own
   location is heavy-damaged;
5. work in progress advances (pumps deploy, ladders go up, hoses are taken up);
6. player orders that take effect now, then the standing orders (autopilot) for the rest;
7. hoses are laid at their advancing ends.

The primitives below (``drive``, ``walk``, ``start_hose``, ``pitch_ladder``...) are what
orders and the autopilot call; each checks the rule it applies and returns whether it acted.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

from ..scenario import AreaKind, FeatureType, Location
from ..state import GameState
from ..turn import TurnContext
from ..units import STAND, VEHICLE, HoseLine, Ladder, UnitState, crew_of, path_steps
from . import reach


# -- the step -------------------------------------------------------------------------------
def step_movement(ctx: TurnContext, state: GameState) -> None:
    from .. import autopilot, orders  # late: both build on the primitives of this module

    ctx.cache["heat_memo"] = {}  # fire does not change during step 6
    ctx.cache["route_memo"] = {}  # nor do rubble and craters
    ctx.cache["search_memo"] = {}  # foot searches without an ``ok`` test (see foot_search)
    ctx.cache["unsafe_memo"] = {}  # nor does damage (R-7's reach.unsafe)
    ctx.cache["passable_numbered"] = [None, {}]  # (numbering, passable by number)
    try:
        _movement(ctx, state, autopilot.standing_orders, orders.apply_due)
    finally:
        ctx.cache.pop("heat_memo", None)
        ctx.cache.pop("route_memo", None)
        ctx.cache.pop("search_memo", None)
        ctx.cache.pop("unsafe_memo", None)
        ctx.cache.pop("passable_numbered", None)


def _movement(ctx: TurnContext, state: GameState, standing: Any, due: Any) -> None:
    arrivals(ctx, state)
    drop_stray_pumps(ctx, state)
    burn_out_vehicles(ctx, state)
    forced_exits(ctx, state)
    heat_retests(ctx, state)
    self_preservation(ctx, state)
    advance_work(ctx, state)
    due(ctx, state)
    standing(ctx, state)
    lay_hoses(ctx, state)
    for u in state.units.values():
        if u.kind == STAND and u.in_play and u.loc is not None:
            u.heat_seen = reach.heat(ctx, state, u.loc)


def acted(state: GameState, u: UnitState) -> bool:
    """Whether a unit has already moved or started work this turn."""
    return bool(u.extra.get("acted") == state.turn)


def mark(state: GameState, u: UnitState) -> None:
    u.extra["acted"] = state.turn


# -- 1. arrivals ----------------------------------------------------------------------------
def entry_area(ctx: TurnContext, name: str | None) -> str | None:
    for f in ctx.scenario.features:
        if f.type is FeatureType.ENTRY and (f.name == name or f.area == name):
            return f.area
    return None


def entry_areas(ctx: TurnContext) -> list[str]:
    """Areas holding an entry, sorted (kept for the game; do not mutate)."""
    hit: list[str] | None = ctx.cache.get("entry_areas")
    if hit is None:
        hit = sorted({f.area for f in ctx.scenario.features if f.type is FeatureType.ENTRY})
        ctx.cache["entry_areas"] = hit
    return hit


def arrivals(ctx: TurnContext, state: GameState) -> None:
    """Units whose turn has come appear at their entry (level 0) or their given area."""
    forces = {f.id: f for f in ctx.scenario.forces}
    for uid in sorted(state.units):
        u = state.units[uid]
        if u.loc is not None or u.status != "ok" or u.arrives > state.turn:
            continue
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
        u.heat_seen = reach.heat(ctx, state, loc)
        if u.parent is None:
            ctx.note("arrive", at=loc, unit=u.id)


# -- 2. R-10 --------------------------------------------------------------------------------
def burn_out_vehicles(ctx: TurnContext, state: GameState) -> None:
    for uid in sorted(state.units):
        u = state.units[uid]
        if u.in_play and u.kind != STAND and u.loc in state.fire:
            if carrier_of(state, u) is not None:
                continue  # a carried pump leaves with its team (forced exits, below)
            u.status = "burned_out"
            u.task = "idle"
            ctx.note("burn_out", ruling="R-10", at=u.loc, unit=u.id)


def escape_to(
    ctx: TurnContext, state: GameState, u: UnitState, *, r7_ok: bool = True
) -> Location | None:
    """A neighbour the stand can enter by the heat test (one roll each): out into the
    street first (fire cannot follow into an empty street), then the coolest. R-7 makes
    a location about to come down a poor refuge, not a barred one: with ``r7_ok`` such
    neighbours are tried last (escaping a fire, R-10 and §4), without it never (R-7's own
    withdrawal)."""
    assert u.loc is not None
    ladders = reach.ladder_links(state, ctx)
    options = sorted(
        {
            (reach.unsafe(ctx, state, link[0]), link[0])
            for link in reach.foot_links(ctx, u.loc, ladders)
            if link[0] not in state.fire
        },
        key=lambda ul: (
            ul[0],
            reach.area_kind(ctx, ul[1][0]) is AreaKind.BUILDING,
            reach.heat(ctx, state, ul[1]),
            ul[1],
        ),
    )
    for bad, loc in options:
        if bad and not r7_ok:
            continue
        if reach.heat_test(ctx, state, u, loc):
            return loc
    return None


def forced_exits(ctx: TurnContext, state: GameState) -> None:
    """R-10: a stand in a burning location must leave it, or becomes a casualty."""
    for uid in sorted(state.units):
        u = state.units[uid]
        if not (u.in_play and u.kind == STAND and u.loc in state.fire):
            continue
        to = escape_to(ctx, state, u)
        if to is None:
            assert u.loc is not None
            u.status = "casualty"
            u.task = "idle"
            state.add_casualty(u.loc, "found", u.id)
            ctx.note("trapped", ruling="R-10", at=u.loc, unit=u.id)
            leave_hose(state, u)
        else:
            ctx.note("forced_exit", ruling="R-10", frm=u.loc, to=to, unit=u.id)
            relocate(ctx, state, u, to)
            mark(state, u)


# -- 3. heat re-tests -----------------------------------------------------------------------
def heat_retests(ctx: TurnContext, state: GameState) -> None:
    """§4: when the fires next to a stand rise, it must pass the heat test to stay."""
    if not state.fire:
        return
    for uid in sorted(state.units):
        u = state.units[uid]
        if not (u.in_play and u.kind == STAND and u.loc is not None) or u.task == "aboard":
            continue
        h = reach.heat(ctx, state, u.loc)
        if h <= u.heat_seen:
            u.heat_seen = h
            continue
        if reach.heat_test(ctx, state, u, u.loc):
            u.heat_seen = h
            continue
        to = escape_to(ctx, state, u)
        if to is not None:
            ctx.note("withdraw", at=u.loc, to=to, unit=u.id, cause="heat")
            relocate(ctx, state, u, to)
            mark(state, u)


# -- 4. R-7 ---------------------------------------------------------------------------------
def self_preservation(ctx: TurnContext, state: GameState) -> None:
    """R-7: every unit leaves a location about to come down on it."""
    for uid in sorted(state.units):
        u = state.units[uid]
        if not u.in_play or u.loc is None or not reach.unsafe(ctx, state, u.loc):
            continue
        if u.kind == STAND:
            if u.task == "aboard":
                continue  # rides with its vehicle
            to = escape_to(ctx, state, u, r7_ok=False)
            if to is not None:
                ctx.note("withdraw", ruling="R-7", at=u.loc, to=to, unit=u.id)
                relocate(ctx, state, u, to)
                mark(state, u)
        elif u.kind == VEHICLE and not tied_down(state, u):
            routes = reach.road_routes(ctx, state, u.loc[0])
            safe = [a for a in routes if not reach.unsafe(ctx, state, (a, 0))]
            if safe:
                to_area = min(safe, key=lambda a: (len(routes[a]), a))
                ctx.note("withdraw", ruling="R-7", at=u.loc, to=(to_area, 0), unit=u.id)
                drive(ctx, state, u, to_area)


# -- moving ---------------------------------------------------------------------------------
def relocate(ctx: TurnContext, state: GameState, u: UnitState, to: Location) -> None:
    """Move a unit; a stand leaving its branch takes it along when it steps back down the
    hose, or leaves it unmanned."""
    u.loc = to
    if u.task == "aboard":
        u.task = "idle"
    if u.kind == STAND:
        p = carried_pump(state, u)
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


def leave_hose(state: GameState, u: UnitState) -> None:
    if u.hose is not None and u.hose in state.hoses:
        h = state.hoses[u.hose]
        if u.id in h.crew:
            h.crew.remove(u.id)
    u.hose = None
    if u.task in ("fight", "damp", "lay"):
        u.task = "idle"


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
    ctx.note("drive", frm=old, to=new, unit=u.id, route=len(routes[to_area]) - 1)
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
    dist, prev = reach.foot_search(ctx, state, u.loc, None, goal=goal)
    if goal not in dist:
        return False
    path = reach.path_to(prev, u.loc, goal)
    ladders = reach.ladder_links(state, ctx)
    moved = False
    start = u.loc
    for nxt in path[1:]:
        link = next(lk for lk in reach.foot_links(ctx, u.loc, ladders) if lk[0] == nxt)
        if link[1] > budget:
            break
        if not reach.heat_test(ctx, state, u, nxt):
            break
        budget -= link[1]
        relocate(ctx, state, u, nxt)
        moved = True
    if moved:
        for cid in u.carrying:
            for c in state.casualties:
                if c.id == cid:
                    c.loc = u.loc
        ctx.note("walk", frm=start, to=u.loc, unit=u.id)
        mark(state, u)
    return moved


# -- hoses ----------------------------------------------------------------------------------
def lengths_for_steps(ctx: TurnContext, steps: int) -> int:
    """§7: indivisible lengths of two steps; even a branch at the pump takes one."""
    return max(1, math.ceil(steps / ctx.rules.int("hose.steps_per_length")))


def path_lengths(ctx: TurnContext, path: list[Location]) -> int:
    """Lengths a line along ``path`` takes (see :func:`lengths_for_steps`)."""
    return lengths_for_steps(ctx, sum(path_steps(a, b) for a, b in itertools.pairwise(path)))


def pump_capacity(state: GameState, pump: UnitState) -> int:
    """Hoses a pump can still take (one per delivery pump)."""
    used = sum(1 for h in state.hoses.values() if h.unit == pump.id and not h.cut)
    return pump.pumps - used


def start_hose(
    ctx: TurnContext,
    state: GameState,
    stands: list[UnitState],
    pump: UnitState,
    route: list[Location],
    target: Location | None,
    stock: UnitState,
) -> HoseLine:
    """A new line from ``pump`` (route[0] is its location) laid by ``stands`` along ``route``.

    Lengths come from ``stock`` as the line grows.
    """
    n = 1 + max((int(k[1:]) for k in state.hoses if k[1:].isdigit()), default=0)
    h = HoseLine(f"H{n}", pump.id, [route[0]], 1, stock=stock.id, target=target)
    h.plan = list(route[1:])
    stock.hose_left -= 1
    state.hoses[h.id] = h
    for s in stands:
        leave_hose(state, s)
        s.hose = h.id
        s.task = "lay" if h.plan else ("fight" if target in state.fire else "damp")
        h.crew.append(s.id)
    ctx.note("hose_start", at=route[0], hose=h.id, unit=pump.id, crew=[s.id for s in stands])
    return h


def lay_hoses(ctx: TurnContext, state: GameState) -> None:
    """Hoses grow at their advancing end: 2 laying points a turn (1 per area or level by
    stairs, 2 per level by ladder); the crew walks with the end and takes the heat test."""
    r = ctx.rules
    for hid in sorted(state.hoses):
        h = state.hoses[hid]
        if not h.plan or h.cut:
            continue
        crew = [state.units[c] for c in h.crew if c in state.units]
        lead = next((s for s in crew if s.in_play and s.loc == h.branch), None)
        if lead is None:
            continue
        points = r.int("hose.lay_points") + h.progress
        h.progress = 0
        while h.plan:
            nxt = h.plan[0]
            link = reach.link_between(ctx, state, h.branch, nxt)
            if link is None or not reach.passable(ctx, state, nxt):
                h.plan = []
                break
            if link[3] > points:
                h.progress = points
                break
            stock = state.units.get(h.stock or "")
            new_len = path_lengths(ctx, [*h.path, nxt])
            if stock is None or new_len - h.lengths > stock.hose_left:
                ctx.note("hose_short", at=h.branch, hose=h.id)
                h.plan = []
                break
            if not reach.heat_test(ctx, state, lead, nxt):
                break
            points -= link[3]
            stock.hose_left -= new_len - h.lengths
            h.lengths = new_len
            h.path.append(nxt)
            h.plan.pop(0)
            for s in crew:
                if s.in_play and s.loc == h.path[-2]:
                    s.loc = nxt
                    mark(state, s)
        if not h.plan:
            for s in crew:
                if s.in_play and s.task == "lay":
                    s.task = "fight" if h.target in state.fire else "damp"
            ctx.note("hose_laid", at=h.branch, hose=h.id, lengths=h.lengths)


def lorry_lay(ctx: TurnContext, state: GameState, lorry: UnitState, h: HoseLine) -> None:
    """A hose-laying lorry lays up to its rate of street/open areas a turn along its plan."""
    rate = int(ctx.rules.units.get(lorry.type, {}).get("lays_areas", 0) or 0)
    laid = 0
    while h.plan and laid < rate:
        nxt = h.plan[0]
        kind = reach.area_kind(ctx, nxt[0])
        if kind not in (AreaKind.STREET, AreaKind.OPEN) or nxt in state.fire:
            h.plan = []
            break
        new_len = path_lengths(ctx, [*h.path, nxt])
        if new_len - h.lengths > lorry.hose_left:
            h.plan = []
            break
        lorry.hose_left -= new_len - h.lengths
        h.lengths = new_len
        h.path.append(nxt)
        h.plan.pop(0)
        laid += 1
        lorry.loc = nxt
    mark(state, lorry)


def recover_hose(ctx: TurnContext, state: GameState, h: HoseLine) -> None:
    """Start taking up a line: recover_turns per length (§7)."""
    if not h.recover_left:
        h.recover_left = ctx.rules.int("hose.recover_turns") * max(h.lengths, 1)
        h.plan = []
        h.target = None
        for c in h.crew:
            if c in state.units:
                state.units[c].task = "recover"


def _finish_recovery(ctx: TurnContext, state: GameState, h: HoseLine) -> None:
    stock = state.units.get(h.stock or "")
    if stock is not None and stock.in_play:
        stock.hose_left += h.lengths
    for c in h.crew:
        s = state.units.get(c)
        if s is not None and s.in_play:
            s.hose = None
            s.task = "idle"
            s.loc = h.path[0]
    ctx.note("hose_recovered", at=h.path[0], hose=h.id, lengths=h.lengths)
    del state.hoses[h.id]


# -- 5. work in progress --------------------------------------------------------------------
def advance_work(ctx: TurnContext, state: GameState) -> None:
    """Deploying pumps and dams, ladders going up, hoses being taken up."""
    hook_rate = ctx.rules.int("ladders.hook_levels")
    for uid in sorted(state.units):
        u = state.units[uid]
        if not u.in_play:
            continue
        if u.task == "stow":
            u.deploy_left -= 1
            if u.deploy_left <= 0:
                u.deploy_left = int(ctx.rules.units.get(u.type, {}).get("deploy_turns", 0) or 0)
                u.deployed = False
                u.task = "idle"
                u.towed_by = u.extra.get("tow")
                ctx.note("stowed", at=u.loc, unit=u.id)
        if not u.deployed and u.task == "deploy":
            u.deploy_left -= 1
            if u.deploy_left <= 0:
                u.deployed = True
                u.deploy_left = 0
                u.task = "idle"
                dam = ctx.rules.units.get(u.type, {}).get("dam_points")
                if dam:
                    u.water = int(dam)
                ctx.note("deployed", at=u.loc, unit=u.id)
        for ld in u.ladders:
            if ld.at is None or ld.face is None:
                continue
            top = ctx.scenario.top_level(ld.face)
            if ld.pitch_left > 0:
                ld.pitch_left -= 1
                if ld.pitch_left == 0:
                    ld.height = min(ld.rating, top) if not ld.hook else min(hook_rate, top)
                    ctx.note("ladder_up", at=(ld.face, ld.height), unit=u.id)
            elif ld.hook and ld.height < min(ld.rating, top):
                ld.height = min(ld.height + hook_rate, ld.rating, top)
                ctx.note("ladder_up", at=(ld.face, ld.height), unit=u.id)
    for hid in sorted(state.hoses):
        h = state.hoses[hid]
        if h.recover_left:
            h.recover_left -= 1
            if h.recover_left <= 0:
                _finish_recovery(ctx, state, h)
        elif h.lorry is not None and h.plan:
            lorry = state.units.get(h.lorry)
            if lorry is not None and lorry.in_play:
                lorry_lay(ctx, state, lorry, h)


def sets_up(ctx: TurnContext, u: UnitState) -> bool:
    """Whether the unit's pump or dam takes turns to deploy and recover (§7)."""
    return bool(ctx.rules.units.get(u.type, {}).get("deploy_turns"))


def stow(ctx: TurnContext, state: GameState, u: UnitState) -> bool:
    """Start packing up a deployed pump or dam (as long as deploying); lines must be gone."""
    if not u.deployed or u.task == "stow" or not u.in_play:
        return False
    if any(h.unit == u.id for h in state.hoses.values()):
        return False
    disconnect(ctx, state, u)
    u.deploy_left = int(ctx.rules.units.get(u.type, {}).get("deploy_turns", 0) or 0)
    u.task = "stow"
    u.water = 0 if ctx.rules.units.get(u.type, {}).get("dam_points") else u.water
    ctx.note("stow", at=u.loc, unit=u.id)
    return True


def deploy(ctx: TurnContext, state: GameState, u: UnitState) -> bool:
    """Start deploying a trailer/skid pump or a dam (its turns count from the next step 6)."""
    if u.deployed or u.task == "deploy" or not u.in_play:
        return False
    turns = int(ctx.rules.units.get(u.type, {}).get("deploy_turns", 0) or 0)
    u.deploy_left = turns
    u.task = "deploy"
    if u.towed_by is not None:
        u.extra["tow"] = u.towed_by
    u.towed_by = None
    ctx.note("deploy", at=u.loc, unit=u.id, turns=turns)
    mark(state, u)
    return True


# -- ladders --------------------------------------------------------------------------------
def can_pitch(ctx: TurnContext, state: GameState, u: UnitState, face: str) -> str | None:
    """Why ``u`` cannot pitch a ladder against building area ``face`` (None: it can)."""
    if u.loc is None or not u.in_play:
        return "the unit is not on the map"
    at = u.loc[0]
    if reach.area_kind(ctx, at) not in (AreaKind.STREET, AreaKind.OPEN):
        return "§7: a ladder stands in a street or open area"
    if reach.area_kind(ctx, face) is not AreaKind.BUILDING:
        return "§7: a ladder is pitched against a building area"
    if face not in reach.area_neighbours(ctx, at):
        return "§7: the building must be next to the ladder's area"
    if not any(ld.at is None for ld in u.ladders):
        return "§11: the unit has no free ladder"
    if not any(s.loc == u.loc for s in crew_of(state.units, u.id)):
        return "§7: a fire team must be present to pitch a ladder"
    return None


def pitch_ladder(ctx: TurnContext, state: GameState, u: UnitState, face: str) -> bool:
    if can_pitch(ctx, state, u, face) is not None:
        return False
    assert u.loc is not None
    free: list[Ladder] = [ld for ld in u.ladders if ld.at is None]
    ld = max(free, key=lambda x: (x.rating, not x.hook))
    ld.at, ld.face, ld.height = u.loc[0], face, 0
    ld.pitch_left = ctx.rules.int("ladders.pitch_turns") if not ld.hook else 1
    ctx.note("pitch_ladder", at=(face, 0), unit=u.id, rating=ld.rating, hook=ld.hook)
    return True


def strike_ladders(ctx: TurnContext, state: GameState, u: UnitState) -> None:
    for ld in u.ladders:
        if ld.at is not None:
            ld.at = ld.face = None
            ld.height = ld.pitch_left = 0


# -- water connections ----------------------------------------------------------------------
def hydrant_users(state: GameState, area: str) -> list[str]:
    return sorted(u.id for u in state.units.values() if u.in_play and u.source == f"hydrant:{area}")


def connect_problem(ctx: TurnContext, state: GameState, pump: UnitState, source: str) -> str | None:
    """Why ``pump`` cannot draw on ``source`` (None: it can). Sources: ``tank``,
    ``hydrant:AREA``, ``open:AREA``, ``dam:UNIT``."""
    if not pump.in_play or pump.loc is None:
        return "the unit is not on the map"
    if pump.pumps <= 0:
        return "§8: the unit has no delivery pump"
    if not pump.deployed:
        return "§7: the pump is not deployed yet"
    here = pump.loc[0]
    kind, _, ref = source.partition(":")
    if kind == "tank":
        return None
    if kind == "hydrant":
        if not any(f.type is FeatureType.HYDRANT and f.area == ref for f in ctx.scenario.features):
            return f"§8: there is no hydrant in {ref}"
        if ref != here:
            return "§7: an appliance connects to a hydrant in its own area"
        if ctx.scenario.mains == "failed" or ref in state.hydrants_lost:
            return "§8: the hydrant gives no water (mains failed or hydrant lost)"
        users = [x for x in hydrant_users(state, ref) if x != pump.id]
        if len(users) >= ctx.rules.int("water.hydrant_appliances"):
            return "§8: two appliances already draw on this hydrant"
        stock = lengths_stock(state, pump)
        if stock is None or stock.hose_left < ctx.rules.int("hose.hydrant_lengths"):
            return "§7: connecting to a hydrant takes one length of hose"
        return None
    if kind == "open":
        if not any(f.type is FeatureType.WATER and f.area == ref for f in ctx.scenario.features):
            return f"§8: {ref} holds no open water"
        if ref != here and ref not in reach.area_neighbours(ctx, here):
            return "§8: the suction pipe reaches open water from a bank next to it"
        if pump.loc[1] != 0:
            return "§8: the suction pipe reaches open water from ground level only"
        return None
    if kind == "dam":
        dam = state.units.get(ref)
        if dam is None or not dam.in_play or not dam.deployed or "dam" not in dam.type:
            return f"§8: {ref} is not a deployed dam"
        assert dam.loc is not None
        if dam.loc[0] != here and dam.loc[0] not in reach.area_neighbours(ctx, here):
            return "§8: the dam must be in the pump's area or next to it"
        return None
    return f"unknown water source {source!r}"


def lengths_stock(state: GameState, pump: UnitState) -> UnitState | None:
    """The unit whose hose a pump uses: its own, else its towing vehicle's (a wheelbarrow
    pump: the appliance of the fire team that set it down)."""
    if pump.hose_left > 0:
        return pump
    stock = pump.extra.get("stock")
    if pump.moves == "carried" and isinstance(stock, str) and stock in state.units:
        return state.units[stock]
    if pump.towed_by is not None and pump.towed_by in state.units:
        return state.units[pump.towed_by]
    return pump if pump.role == "appliance" else None


def connect(ctx: TurnContext, state: GameState, pump: UnitState, source: str) -> bool:
    if connect_problem(ctx, state, pump, source) is not None:
        return False
    if pump.source != source:
        disconnect(ctx, state, pump)
        if source.startswith("hydrant:"):
            stock = lengths_stock(state, pump)
            assert stock is not None
            stock.hose_left -= ctx.rules.int("hose.hydrant_lengths")
    pump.source = None if source == "tank" else source
    ctx.note("connect", at=pump.loc, unit=pump.id, source=source)
    return True


def disconnect(ctx: TurnContext, state: GameState, pump: UnitState) -> None:
    """Leave the water source; a hydrant's connecting length goes back on the appliance."""
    if pump.source is not None and pump.source.startswith("hydrant:"):
        stock = lengths_stock(state, pump)
        if stock is not None:
            stock.hose_left += ctx.rules.int("hose.hydrant_lengths")
    pump.source = None


# -- the wheelbarrow pump (§11: carried by one fire team) -----------------------------------
def carrier_of(state: GameState, pump: UnitState) -> UnitState | None:
    """The stand carrying ``pump`` (in play), or None when it stands on the ground."""
    sid = pump.extra.get("carried_by")
    s = state.units.get(sid) if isinstance(sid, str) else None
    return s if s is not None and s.in_play else None


def carried_pump(state: GameState, s: UnitState) -> UnitState | None:
    """The pump the stand ``s`` carries, if any."""
    for p in state.units.values():
        if p.extra.get("carried_by") == s.id and p.in_play:
            return p
    return None


def pick_up_problem(state: GameState, s: UnitState, pump: UnitState) -> str | None:
    """Why fire team ``s`` cannot pick up ``pump`` (None: it can)."""
    if not s.in_play or s.loc is None or s.kind != STAND:
        return "the unit is not a personnel stand on the map"
    if s.type != "fire_team" or s.parent is None:
        return f"§11: a wheelbarrow pump is carried by a fire team, not {s.id}"
    if pump.moves != "carried":
        return f"§11: {pump.id} is not carried by hand"
    if not pump.in_play or pump.loc != s.loc:
        return f"§11: {pump.id} is not where {s.id} stands"
    if pump.extra.get("carried_by") is not None:
        return f"§11: {pump.id} is already being carried"
    if carried_pump(state, s) is not None:
        return f"§11: {s.id} already carries a pump"
    if s.hose is not None or s.carrying:
        return f"§11: {s.id} has its hands full (a hose line or a casualty)"
    if any(h.unit == pump.id for h in state.hoses.values()):
        return f"§7: the lines from {pump.id} must be taken up first"
    return None


def pick_up(ctx: TurnContext, state: GameState, s: UnitState, pump: UnitState) -> bool:
    """Fire team ``s`` picks up the wheelbarrow pump where it stands (it leaves its water
    source and pumps nothing while carried). Costs no movement points."""
    if pick_up_problem(state, s, pump) is not None:
        return False
    disconnect(ctx, state, pump)
    pump.extra["carried_by"] = s.id
    pump.deployed = False
    pump.task = "carry"
    ctx.note("pick_up", at=s.loc, unit=s.id, pump=pump.id)
    return True


def set_down(ctx: TurnContext, state: GameState, pump: UnitState) -> bool:
    """Put a carried pump down where its team stands: ready to pump at once (the rules
    give no deploy time for it); its hose comes from the team's appliance."""
    s = carrier_of(state, pump)
    sid = pump.extra.pop("carried_by", None)
    if sid is None:
        return False
    pump.deployed = True
    pump.task = "idle"
    carrier = s or state.units.get(str(sid))
    if carrier is not None and carrier.parent is not None:
        pump.extra["stock"] = carrier.parent
    ctx.note("set_down", at=pump.loc, unit=str(sid), pump=pump.id)
    return True


def drop_stray_pumps(ctx: TurnContext, state: GameState) -> None:
    """A pump whose carrier is lost, or was moved apart from it (a collapse), is dropped."""
    for uid in sorted(state.units):
        p = state.units[uid]
        if p.extra.get("carried_by") is None:
            continue
        s = carrier_of(state, p)
        if s is None or s.loc != p.loc:
            set_down(ctx, state, p)
