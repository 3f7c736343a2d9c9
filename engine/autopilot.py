"""Standing orders (§7): what every unit without a player's order does in step 6.

The policy, in short (docs/autopilot.md has the long form):

* an appliance with nothing in hand drives along clear streets to the parking street that
  best serves the fires nobody yet fights (fires next to stores, occupants and objectives
  first; then nearness, water at hand and a cool street), connects to the best water
  there (hydrant, open water, dam, else its tank) and sends its fire teams out;
* each fire team lays a line from its pump to the branch position that gives the best
  chance against a fire in range (range bonus times the chance to pass the heat test),
  then plays on it; when that fire is out it takes another in range, puts out embers,
  damps down neighbours of fires it cannot reach, and finally takes its line up so the
  appliance can move on; an exhausted team rests;
* fire parties attack fires of 1 next to them and refill; rescue teams and crews go to
  buried casualties once the fire there is out; ambulance and mortuary crews carry the
  found to their vehicle, which drives them out through an entry; a doctor goes where
  casualties are being found; the canteen follows the busiest appliance; a mobile dam
  deploys next to an appliance running on its tank; trailer and skid pumps deploy (the small
  pump team deploys its own trailer pump, a turn, and recovers it before driving on);
* an idle fire team with hose on its appliance fetches a free wheelbarrow pump lying within
  a turn's walk when water is close to it and a fire within hose reach of that water,
  carries it there, sets it down, connects it and lays a line from it.

Every unit also preserves itself (R-7, in the movement step).
"""

from __future__ import annotations

from .hose_steps import steps_to
from .rules import fire as fire_rules
from .rules import movement as mv
from .rules import reach
from .rules.firefighting import party_targets, refill_point
from .scenario import AreaKind, FeatureType, Location
from .state import GameState
from .turn import TurnContext
from .units import STAND, VEHICLE, HoseLine, UnitState, crew_of

#: weight on the chance of a branch position inside a building next to a fire: a team
#: there can be trapped when the fire spreads in, a team in the street cannot
RISKY = 0.6
#: parking penalties, in hose steps: a street next to a fire (a parked vehicle makes its
#: street flammable and burns out when the fire spreads in, R-10), a street one location
#: away from a fire (the next spread brings it next door), a street with no water but the
#: tank, a street whose every way out runs next to a fire, a street downwind of a fire
PARK_HOT, PARK_NEAR, PARK_DRY, PARK_TRAPPED, PARK_DOWNWIND = 12, 3, 3, 3, 1
#: how far (in spread steps) the fire's threat to a street is measured
THREAT_RANGE = 3
#: an appliance whose street has this much heat next to it slips its lines and drives off
WITHDRAW_HEAT = 2
#: a crew whose branch inside a building has this much heat next to it steps back a location
BACK_OFF_HEAT = 2


def standing_orders(ctx: TurnContext, state: GameState) -> None:
    """Give every unit that has no player's order its standing orders for this turn."""
    if not any(u.in_play for u in state.units.values()):
        return
    ctx.cache["ap_threat"] = {}  # the fire's reach to each street, worked out once a call
    ctx.cache["ap_vehicles"] = None  # streets a vehicle makes flammable, as the call starts
    ctx.cache["ap_prio"] = {}  # each fire's priority (the call keeps one ``pri``)
    ctx.cache["ap_fires"] = None  # the fires, sorted, as the call starts
    ctx.cache["ap_small"] = None  # the fires a fire party can tackle
    ctx.cache["ap_p_in"] = {}  # best_job's chances at building positions
    try:
        _standing_orders(ctx, state)
    finally:
        for key in ("ap_threat", "ap_vehicles", "ap_prio", "ap_fires", "ap_small", "ap_p_in"):
            ctx.cache.pop(key, None)


def _standing_orders(ctx: TurnContext, state: GameState) -> None:
    pri = priority_locations(ctx, state)
    for uid in sorted(state.units):
        u = state.units[uid]
        if not u.in_play or u.order is not None:
            continue
        if u.parent is not None:
            home = state.units.get(u.parent)
            if home is None or not home.in_play:
                _orphan(ctx, state, u)  # its vehicle is lost: keep safe
            continue
        if u.kind == VEHICLE and u.role not in ("appliance", "pump") and keep_clear(ctx, state, u):
            continue  # appliances weigh the heat when they choose where to park
        if u.role in ("appliance",) or (u.kind == VEHICLE and u.role == "support"):
            if u.type == "canteen_truck":
                _canteen(ctx, state, u)
            elif u.type == "mobile_dam_unit":
                _dam(ctx, state, u)
            elif u.type == "hose_laying_lorry":
                continue
            else:
                _appliance(ctx, state, u, pri)
        elif u.role == "pump":
            _pump(ctx, state, u, pri)
        elif u.role == "fire_party":
            _fire_party(ctx, state, u)
        elif u.role == "rescue":
            if u.kind == STAND:
                _rescuer(ctx, state, u)
            else:
                _crew_vehicle(ctx, state, u, _rescue_sites(ctx, state))
        elif u.role == "medical":
            if u.type == "doctor":
                _doctor(ctx, state, u)
            elif u.kind == VEHICLE:
                _carrier(ctx, state, u)


def _far(ctx: TurnContext) -> int:
    """How far (movement points) a stand looks for work on foot: four turns' walk."""
    return 4 * ctx.rules.int("movement.foot_points")


def step_clear(ctx: TurnContext, state: GameState, u: UnitState) -> bool:
    """An idle stand next to a fire walks to the nearest spot with no fire next to it,
    out in the street if it can (a fire cannot spread into an empty street)."""
    if u.loc is None or mv.acted(state, u) or reach.heat(ctx, state, u.loc) == 0:
        return False
    dist, _ = reach.foot_search(ctx, state, u.loc, ctx.rules.int("movement.foot_points"))
    vehicles = {v.loc for v in state.units.values() if v.kind == VEHICLE and v.loc is not None}
    cool = [
        loc for loc in dist
        if reach.heat(ctx, state, loc) == 0 and loc not in vehicles
        and not reach.unsafe(ctx, state, loc)
    ]  # fmt: skip
    if not cool:
        return False
    goal = min(
        cool,
        key=lambda loc: (reach.area_kind(ctx, loc[0]) is AreaKind.BUILDING, dist[loc], loc),
    )
    u.task = "move"
    moved = mv.walk(ctx, state, u, goal)
    u.task = "idle"
    return moved


def _orphan(ctx: TurnContext, state: GameState, u: UnitState) -> None:
    """A crew whose vehicle is lost: leaves a line without water and keeps out of the heat."""
    h = state.hoses.get(u.hose or "")
    if h is not None:
        pump = state.units.get(h.unit)
        if pump is not None and pump.in_play:
            return  # its line still has a pump: it stays on it
        mv.leave_hose(state, u)
    if u.task == "aboard":
        u.task = "idle"
    if u.status == "exhausted":
        u.task = "rest"
        return
    step_clear(ctx, state, u)


def keep_clear(ctx: TurnContext, state: GameState, u: UnitState) -> bool:
    """A free vehicle next to a fire drives to the nearest street that is not (R-10: a
    vehicle makes its street flammable). Whether it moved."""
    if u.loc is None or reach.heat(ctx, state, u.loc) == 0 or mv.tied_down(state, u):
        return False
    if u.role == "appliance" and _engaged(state, u):
        return False
    crews = crew_of(state.units, u.id)
    if any(s.loc != u.loc or s.task not in ("aboard", "idle") for s in crews) or u.carrying:
        return False
    routes = reach.road_routes(ctx, state, u.loc[0])
    cool = [a for a in routes if reach.heat(ctx, state, (a, 0)) == 0]
    if not cool:
        return False
    # out of the fire's reach (two spreads away or more) when there is such a street
    to = min(cool, key=lambda a: (street_threat(ctx, state, a) < 3, len(routes[a]), a))
    for s in crews:
        s.task = "aboard"
    return mv.drive(ctx, state, u, to)


# -- the fire's reach ------------------------------------------------------------------------
def street_threat(ctx: TurnContext, state: GameState, area: str) -> int:
    """How many spreads a fire needs to reach a vehicle parked in ``area``: 1 when a
    neighbour burns (it can spread in next turn), up to ``THREAT_RANGE + 1`` (out of
    reach)."""
    return _street_threat(ctx, state, area)[0]


def _street_threat(ctx: TurnContext, state: GameState, area: str) -> tuple[int, Location | None]:
    """(threat, the nearest fire) by a search outward from the street through locations a
    fire can enter now (buildings, rubble, streets holding a vehicle), :data:`THREAT_RANGE`
    deep: the work follows the street, not the number of fires. Remembered for one call of
    the standing orders (fire does not change in step 6)."""
    memo: dict[str, tuple[int, Location | None]] | None = ctx.cache.get("ap_threat")
    if memo is not None and area in memo:
        return memo[area]
    out: tuple[int, Location | None] = (THREAT_RANGE + 1, None)
    fire = state.fire
    start: Location = (area, 0)
    if start in fire:
        out = (1, start)
    elif fire:
        vehicles = _vehicle_areas(ctx, state)
        seen = {start}
        frontier = [start]
        for d in range(1, THREAT_RANGE + 1):
            nxt: list[Location] = []
            hit: Location | None = None
            for loc in frontier:
                for nb in reach.neighbours(ctx, loc):
                    if nb in seen:
                        continue
                    seen.add(nb)
                    if nb in fire:
                        if hit is None or nb < hit:
                            hit = nb
                    elif fire_rules.is_flammable(ctx, state, nb, vehicles):
                        nxt.append(nb)
            if hit is not None:
                out = (d, hit)
                break
            frontier = nxt
    if memo is not None:
        memo[area] = out
    return out


def _vehicle_areas(ctx: TurnContext, state: GameState) -> set[str]:
    hit: set[str] | None = ctx.cache.get("ap_vehicles")
    if hit is None:
        hit = fire_rules.vehicle_areas(state)
        if "ap_vehicles" in ctx.cache:
            ctx.cache["ap_vehicles"] = hit
    return hit


# -- what matters ----------------------------------------------------------------------------
def priority_locations(ctx: TurnContext, state: GameState) -> set[Location]:
    """Locations whose loss matters most: stores, occupants and protected objectives."""
    key = "autopilot_priority_static"
    static: set[Location] | None = ctx.cache.get(key)
    if static is None:
        static = set()
        sc = ctx.scenario
        for f in sc.features:
            if f.type is FeatureType.STORE:
                static.add((f.area, f.level or 0))
        protected = set()
        for o in sc.objectives:
            if o.type == "protect":
                if o.building is not None:
                    protected |= {a.id for a in sc.areas if a.building == o.building}
                elif o.area is not None:
                    protected.add(o.area)
        for a in protected:
            static |= {(a, lvl) for lvl in sc.levels_of(a)}
        ctx.cache[key] = static
    vehicles = {
        u.loc for u in state.units.values() if u.in_play and u.kind == VEHICLE and u.loc is not None
    }  # fires next to our own vehicles threaten them
    return static | vehicles | {loc for loc, n in state.occupants.items() if n > 0}


def fire_priority(ctx: TurnContext, state: GameState, fire: Location, pri: set[Location]) -> int:
    """0 when the fire is in or next to a location that matters, 2 for a fire in an empty
    street (it cannot grow and goes out by itself), else 1. Within one call of the standing
    orders (one ``pri`` throughout) the answer is remembered."""
    memo: dict[Location, int] | None = ctx.cache.get("ap_prio")
    if memo is not None:
        hit = memo.get(fire)
        if hit is None:
            hit = memo[fire] = _fire_priority(ctx, state, fire, pri)
        return hit
    return _fire_priority(ctx, state, fire, pri)


def _fire_priority(ctx: TurnContext, state: GameState, fire: Location, pri: set[Location]) -> int:
    if fire in pri or any(nb in pri for nb in reach.neighbours(ctx, fire)):
        return 0
    if fire in state.street_fire_age:
        return 2
    return 1


def coverage(state: GameState) -> dict[Location, int]:
    out: dict[Location, int] = {}
    for h in state.hoses.values():
        if h.target is not None and not h.cut and not h.recover_left:
            out[h.target] = out.get(h.target, 0) + 1
    return out


def _p_extinguish(fire: int, mod: int) -> float:
    return max(0, min(6, 7 - fire + mod)) / 6


def _p_heat(ctx: TurnContext, h: int) -> float:
    if h <= ctx.rules.int("heat.always_pass_max"):
        return 1.0
    if h >= ctx.rules.int("heat.always_fail_min"):
        return 0.0
    return (7 - h) / 6


# -- appliances ------------------------------------------------------------------------------
def pump_of(state: GameState, u: UnitState) -> UnitState:
    """The pump an appliance's teams use: itself, or its trailer when it has no pumps."""
    if u.pumps > 0:
        return u
    for p in sorted(state.units.values(), key=lambda x: x.id):
        if p.in_play and (p.towed_by == u.id or p.extra.get("tow") == u.id) and p.pumps:
            return p
    return u


def _engaged(state: GameState, u: UnitState) -> bool:
    if any(h.stock == u.id or h.unit == u.id for h in state.hoses.values()):
        return True
    return any(s.task not in ("aboard", "idle", "rest") or s.loc != u.loc for s in
               crew_of(state.units, u.id))  # fmt: skip


def _appliance(ctx: TurnContext, state: GameState, u: UnitState, pri: set[Location]) -> None:
    assert u.loc is not None
    crews = crew_of(state.units, u.id)
    pump = pump_of(state, u)
    if withdraw(ctx, state, u, pri):
        return
    strike_spare_ladders(ctx, state, u)
    if not _engaged(state, u):
        trailer_here = pump is not u and pump.loc == u.loc
        if pump is not u and pump.deployed and trailer_here and not pump.towed_by:
            mv.stow(ctx, state, pump)
            return
        if pump.task == "stow":
            return  # its trailer pump is being recovered
        if not crews:
            return
        hold = bool(u.extra.get("hold")) and (
            mv.acted(state, u) or best_job(ctx, state, pump, u, pri) is not None
        )  # placed by the player: work from here while there is work in reach
        if not hold:
            u.extra.pop("hold", None)
        park = None if hold else choose_parking(ctx, state, u, pri)
        if park is None and not hold and keep_clear(ctx, state, u):
            return
        if park is not None and park != u.loc[0]:
            if pump is u and u.deployed and mv.sets_up(ctx, u):
                mv.stow(ctx, state, u)  # §7: recover the trailer pump (a turn) first
                return
            for s in crews:
                if s.loc == u.loc:
                    s.task = "aboard"
            if mv.drive(ctx, state, u, park):
                return
    # at the parking street: water, trailer, ladders, then the teams
    if pump is not u and pump.loc == u.loc and not pump.deployed and pump.task != "deploy":
        mv.deploy(ctx, state, pump)
    elif pump is u and not u.deployed and u.task != "deploy" and state.fire and mv.sets_up(ctx, u):
        mv.deploy(ctx, state, u)  # the small pump team unhitches its trailer pump (a turn)
    if pump.deployed and pump.pumps > 0:
        choose_water(ctx, state, pump)
    face = ladder_face(ctx, state, u)
    if face is not None:
        mv.pitch_ladder(ctx, state, u, face)
    work = False
    for s in crews:
        if s.loc == u.loc and s.task == "aboard":
            s.task = "idle"
        work |= _fire_team(ctx, state, s, u, pump, pri)
    if not work and not _engaged(state, u):
        for s in crews:
            if s.loc == u.loc and s.task == "idle":
                s.task = "aboard"
    else:
        for s in crews:  # nothing to do inside a building next to a fire: get out
            if (
                s.task == "idle"
                and s.hose is None
                and s.order is None
                and (
                    not work or reach.area_kind(ctx, s.loc[0] if s.loc else "") is AreaKind.BUILDING
                )
            ):
                step_clear(ctx, state, s)


def withdraw(ctx: TurnContext, state: GameState, u: UnitState, pri: set[Location]) -> bool:
    """R-7 in spirit: a vehicle whose street has a fire next to it (it can spread in and
    burn the vehicle out, R-10) pulls back out of the fire's reach. Its lines are slipped
    (left cut, for the teams to make up and carry back) and its ladders struck; teams at
    the vehicle ride with it, the others walk back to it. Whether it drove off."""
    if u.loc is None or mv.acted(state, u) or reach.heat(ctx, state, u.loc) < WITHDRAW_HEAT:
        return False
    cov = coverage(state)
    if all(cov.get(nb, 0) for nb in fire_rules.neighbours(ctx, u.loc) if nb in state.fire):
        return False  # lines are on every fire next to it: they may yet put it out
    if any(p.towed_by is None and p.extra.get("tow") == u.id and p.loc == u.loc and p.deployed
           for p in state.units.values()):  # fmt: skip
        return False  # it would leave its deployed trailer pump behind
    if u.deployed and mv.sets_up(ctx, u):
        return False  # its own trailer pump is set up: it stays with it (a turn to recover)
    blocked = reach.road_blocked(ctx, state)
    routes = reach.road_routes(ctx, state, u.loc[0], blocked)
    to = choose_parking(ctx, state, u, pri)
    if to is None or to not in routes or street_threat(ctx, state, to) < 2:
        safe = [a for a in routes if street_threat(ctx, state, a) >= 2]
        if not safe:
            return False
        to = min(safe, key=lambda a: (-min(street_threat(ctx, state, a), 3), len(routes[a]), a))
    if to == u.loc[0]:
        return False
    for hid in sorted(state.hoses):
        h = state.hoses[hid]
        if h.unit == u.id and not h.cut:
            h.cut = True
            h.plan = []
            ctx.note("hose_slipped", at=h.path[0], hose=h.id, unit=u.id)
    if any(ld.at is not None for ld in u.ladders):
        mv.strike_ladders(ctx, state, u)
        ctx.note("ladder_struck", at=u.loc, unit=u.id)
    for s in crew_of(state.units, u.id):
        if s.loc == u.loc and s.hose is None and s.order is None:
            s.task = "aboard"
    ctx.note("withdraw", at=u.loc, to=(to, 0), unit=u.id, cause="fire_near")
    return mv.drive(ctx, state, u, to)


def ladder_face(ctx: TurnContext, state: GameState, u: UnitState) -> str | None:
    """A building next to the appliance's street with a fire on an upper level its free
    ladder reaches, no stairwell to climb by, and its ground floor not burning: the
    building to pitch against (hottest fire first), or None."""
    if u.loc is None or mv.acted(state, u):
        return None
    free = [ld.rating for ld in u.ladders if ld.at is None]
    if not free or not any(s.loc == u.loc and s.hose is None for s in crew_of(state.units, u.id)):
        return None
    rating, here = max(free), u.loc[0]
    if reach.area_kind(ctx, here) not in (AreaKind.STREET, AreaKind.OPEN):
        return None
    best: tuple[int, str] | None = None
    for b in reach.area_neighbours(ctx, here):
        if reach.area_kind(ctx, b) is not AreaKind.BUILDING or ctx.scenario.has_stairwell(b):
            continue
        if (b, 0) in state.fire:
            continue
        hot = [state.fire.get((b, lv), 0) for lv in range(1, rating + 1)]
        if any(hot) and (best is None or (-max(hot), b) < best):
            best = (-max(hot), b)
    return None if best is None else best[1]


def strike_spare_ladders(ctx: TurnContext, state: GameState, u: UnitState) -> None:
    """Take down a pitched ladder once no fire burns above the ground floor of its building
    and no line of the appliance runs up it, so the appliance is free to move."""
    for ld in u.ladders:
        if ld.at is None or ld.face is None:
            continue
        face = ld.face
        if any((face, lv) in state.fire for lv in ctx.scenario.levels_of(face) if lv >= 1):
            continue
        if any(loc[0] == face and loc[1] >= 1 for h in state.hoses.values()
               if h.stock == u.id or h.unit == u.id for loc in h.path):  # fmt: skip
            continue
        ld.at = ld.face = None
        ld.height = ld.pitch_left = 0
        ctx.note("ladder_struck", at=(face, 0), unit=u.id)


def choose_water(ctx: TurnContext, state: GameState, pump: UnitState) -> None:
    """Connect to the best source here: a hydrant, open water, a dam, else the tank."""
    assert pump.loc is not None
    hydrants, waters = _water_here(ctx, pump.loc[0])
    options = list(hydrants)
    options += [f"open:{a}" for a in waters if state.water_left.get(a, 0) > 0]
    for d in sorted(state.units.values(), key=lambda x: x.id):
        if d.type == "mobile_dam_unit" and d.in_play and d.deployed and d.water > 0:
            options.append(f"dam:{d.id}")
    if pump.source in options:
        return
    for src in options:
        if mv.connect_problem(ctx, state, pump, src) is None:
            mv.connect(ctx, state, pump, src)
            return
    if pump.source is not None and mv.connect_problem(ctx, state, pump, pump.source):
        mv.disconnect(ctx, state, pump)


def _water_here(ctx: TurnContext, here: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The map's water for a pump in ``here``: (its hydrant sources, one per hydrant
    there, and the open-water areas here or next door, one per feature), for the game."""
    memo: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = ctx.cache.setdefault(
        "water_here", {}
    )
    hit = memo.get(here)
    if hit is None:
        features = ctx.scenario.features
        near = reach.area_neighbours(ctx, here)
        hit = memo[here] = (
            tuple(f"hydrant:{here}" for f in features
                  if f.type is FeatureType.HYDRANT and f.area == here),
            tuple(f.area for f in features
                  if f.type is FeatureType.WATER and (f.area == here or f.area in near)),
        )  # fmt: skip
    return hit


def _small_fires(ctx: TurnContext, state: GameState) -> list[Location]:
    """Fires small enough for a fire party, once a call of the standing orders (fire does
    not change in step 6; do not mutate)."""
    hit: list[Location] | None = ctx.cache.get("ap_small")
    if hit is None:
        top = ctx.rules.int("fire_party.max_fire")
        hit = [f for f, v in state.fire.items() if v <= top]
        if "ap_small" in ctx.cache:
            ctx.cache["ap_small"] = hit
    return hit


def _fire_sources(
    ctx: TurnContext, state: GameState, pri: set[Location]
) -> tuple[list[Location], list[Location]]:
    """(priority fires, other fires) nobody has two lines on yet (all fires if none)."""
    cov = coverage(state)
    fires = _sorted_fires(ctx, state)
    open_fires = [f for f in fires if cov.get(f, 0) < 2] if cov else list(fires)
    if not open_fires:
        open_fires = list(fires)
    prio = [f for f in open_fires if fire_priority(ctx, state, f, pri) == 0]
    return prio, open_fires


def _sorted_fires(ctx: TurnContext, state: GameState) -> list[Location]:
    """``sorted(state.fire)``, once a call of the standing orders (fire does not change in
    step 6; do not mutate)."""
    hit: list[Location] | None = ctx.cache.get("ap_fires")
    if hit is None:
        hit = fire_rules.sorted_locations(ctx, state.fire)
        if "ap_fires" in ctx.cache:
            ctx.cache["ap_fires"] = hit
    return hit


def _water_at(ctx: TurnContext, state: GameState, area: str) -> bool:
    """A usable source here: a hydrant with a free place, or open water next door."""
    if (
        area in reach.hydrant_areas(ctx)
        and ctx.scenario.mains != "failed"
        and area not in state.hydrants_lost
        and len(mv.hydrant_users(state, area)) < ctx.rules.int("water.hydrant_appliances")
    ):
        return True
    waters = reach.water_areas(ctx)
    return any(
        nb in waters and state.water_left.get(nb, 0) > 0 for nb in reach.area_neighbours(ctx, area)
    )


def choose_parking(
    ctx: TurnContext, state: GameState, u: UnitState, pri: set[Location], need_water: bool = False
) -> str | None:
    """The street to drive to: near an unfought fire (priority ones first), with water at
    hand, not next to a fire itself, then the shortest drive. None when no fire is near any
    street it can reach."""
    if not state.fire or u.loc is None:
        return None
    reach_steps = 2 * max(u.hose_left - 1, 1) + ctx.rules.int("firefighting.max_range")
    limit = min(reach_steps, 2 * ctx.rules.int("hose.max_lengths"))
    blocked = reach.road_blocked(ctx, state)
    routes = reach.road_routes(ctx, state, u.loc[0], blocked)
    prio, others = _fire_sources(ctx, state, pri)
    for group in (prio, others):
        if not group:
            continue
        dist = steps_to(ctx, group, [(a, 0) for a in routes], limit)
        best: tuple[int, int, str] | None = None
        for area, route in routes.items():
            d = dist.get((area, 0))
            if d is None or reach.unsafe(ctx, state, (area, 0)):
                continue
            water = _water_at(ctx, state, area)
            if need_water and not water:
                continue
            # a parked vehicle makes its street flammable: out of the fire's reach if at
            # all possible, with a way out, and not downwind of the fire
            dry = PARK_DRY * (not water)
            if best is not None and (d + dry, len(route), area) > best:
                continue  # the penalty is never negative: this street cannot win
            key = (d + parking_penalty(ctx, state, area, blocked) + dry,
                   len(route), area)  # fmt: skip
            if best is None or key < best:
                best = key
        if best is not None:
            return best[2]
    return None


def parking_penalty(ctx: TurnContext, state: GameState, area: str, blocked: set[str]) -> int:
    """Extra hose steps a parking street is worth avoiding for (see the ``PARK_*`` weights)."""
    threat, src = _street_threat(ctx, state, area)
    out = PARK_HOT if threat <= 1 else PARK_NEAR if threat == 2 else 0
    wind = ctx.scenario.wind
    if src is not None and wind.towards_bearing is not None and src[0] != area:
        out += PARK_DOWNWIND * ctx.graph.is_downwind(src[0], area, wind)
    if threat <= THREAT_RANGE:
        exits = [
            a for a in ctx.graph.road_graph().neighbors(area)
            if a not in blocked and street_threat(ctx, state, a) >= 2
        ]  # fmt: skip
        if not exits and area not in mv.entry_areas(ctx):
            out += PARK_TRAPPED
    return out


def _fire_team(
    ctx: TurnContext,
    state: GameState,
    s: UnitState,
    home: UnitState,
    pump: UnitState,
    pri: set[Location],
) -> bool:
    """One fire team's standing orders; whether it has work."""
    if s.order is not None or s.loc is None or mv.acted(state, s):
        return s.task not in ("idle", "aboard")
    if s.task == "rest":
        return False
    h = state.hoses.get(s.hose) if s.hose is not None else None
    if s.status == "exhausted":
        carried = mv.carried_pump(state, s)
        if carried is not None:
            mv.set_down(ctx, state, carried)
        mv.leave_hose(state, s)
        s.task = "rest"
        return False
    if h is not None:
        if h.plan or h.recover_left:
            return True
        line_pump = state.units.get(h.unit)
        dry = (
            line_pump is None
            or not line_pump.in_play
            or (line_pump.source is None and line_pump.water <= 0)
        )
        if h.cut or dry:
            mv.recover_hose(ctx, state, h)  # no water will come: free the appliance
            return True
        if _back_off(ctx, state, s, h):
            return True
        guard = _guard_target(ctx, state, h, home)
        if guard is not None:
            h.target = guard  # a fire next to our own vehicle comes first
            s.task = "fight"
            return True
        if h.target is not None and h.target in state.fire:
            s.task = "fight"
            return True
        new = _next_target(ctx, state, h, pri, wet=pump.source is not None)
        if new is not None:
            h.target = new
            s.task = "fight" if new in state.fire else "damp"
            return True
        if state.fire:
            mv.recover_hose(ctx, state, h)
            return True
        h.target = None
        s.task = "idle"
        return False
    if _wheelbarrow(ctx, state, s, home, pri):
        return True
    # no line: back to the pump, then a new line (or help on a line in trouble)
    if pump.loc is None:
        return False
    if s.loc != pump.loc:
        mv.walk(ctx, state, s, pump.loc)
        return True
    if s.status == "tired" and not state.fire:
        s.task = "rest"
        return False
    for hid in sorted(state.hoses):
        o = state.hoses[hid]
        if o.stock != home.id or o.crew or o.recover_left or o.plan:
            continue
        # a line its crew had to leave: man it again if the fire is still there, else take it up
        dist, _ = reach.foot_search(ctx, state, s.loc, goal=o.branch)
        if o.target in state.fire and o.branch in dist and not reach.unsafe(ctx, state, o.branch):
            mv.walk(ctx, state, s, o.branch)
            if s.loc == o.branch:
                s.hose = o.id
                o.crew.append(s.id)
                s.task = "fight"
            return True
        s.hose = o.id
        o.crew.append(s.id)
        mv.recover_hose(ctx, state, o)
        return True
    if not state.fire:
        return False
    feed = feeding_pump(state, pump)
    job = best_job(ctx, state, feed, home, pri) if feed is not None else None
    if job is not None and feed is not None:
        target, route = job
        mv.start_hose(ctx, state, [s], feed, route, target, home)
        return True
    if _fetch_wheelbarrow(ctx, state, s, home):
        return True
    for hid in sorted(state.hoses):
        other = state.hoses[hid]
        if (
            other.stock == home.id and other.target in state.fire and not other.plan
            and len(other.crew) < ctx.rules.int("firefighting.crews_for_bonus")
        ):  # fmt: skip
            dist, _ = reach.foot_search(ctx, state, s.loc, goal=other.branch)
            if other.branch in dist:
                mv.walk(ctx, state, s, other.branch)
                if s.loc == other.branch:
                    s.hose = other.id
                    other.crew.append(s.id)
                    s.task = "fight"
                return True
    return False


# -- the wheelbarrow pump ----------------------------------------------------------------------
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
        if reach.area_kind(ctx, a) in (AreaKind.STREET, AreaKind.OPEN)
        and _water_at(ctx, state, a) and not reach.unsafe(ctx, state, (a, 0))
        and (a, 0) not in state.fire
    }  # fmt: skip
    if not spots:
        return []
    dist, _ = reach.foot_search(ctx, state, start, _walk_points(ctx, CARRY_TURNS))
    limit = min(
        2 * (home.hose_left - 1) + ctx.rules.int("firefighting.max_range"),
        2 * ctx.rules.int("hose.max_lengths"),
    )
    steps = steps_to(ctx, _sorted_fires(ctx, state), sorted(spots), limit)
    out = [(steps[x], dist[x], x) for x in spots if x in dist and x in steps]
    return sorted(out)


def _fetch_wheelbarrow(ctx: TurnContext, state: GameState, s: UnitState, home: UnitState) -> bool:
    """An idle team with no line to lay from its own pump goes for a free wheelbarrow pump
    within a turn's walk, when water with a fire in reach lies within two turns' walk of it."""
    if s.loc is None or s.type != "fire_team" or s.hose is not None or s.carrying:
        return False
    pumps = _free_wheelbarrows(state, s)
    if not pumps:
        return False
    dist, _ = reach.foot_search(ctx, state, s.loc, _walk_points(ctx, FETCH_TURNS))
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
            mv.pick_up(ctx, state, s, p)
        return True
    return False


def _wheelbarrow(
    ctx: TurnContext, state: GameState, s: UnitState, home: UnitState, pri: set[Location]
) -> bool:
    """A team busy with a wheelbarrow pump: going for it, carrying it to water, or running
    a line from it once it is down. Whether it had something to do."""
    wid = s.extra.get("wb")
    p = state.units.get(wid) if isinstance(wid, str) else None
    if p is None or s.loc is None or p.loc is None:
        s.extra.pop("wb", None)
        return False
    carrier = mv.carrier_of(state, p)
    if not p.in_play or not state.fire or (carrier is not None and carrier is not s):
        if carrier is s:
            mv.set_down(ctx, state, p)
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
            mv.pick_up(ctx, state, s, p)  # picking it up costs no movement
        return True
    if carrier is s:
        spots = _water_spots(ctx, state, s, s.loc, home)
        if not spots:
            mv.set_down(ctx, state, p)  # nowhere to take it: leave it and go back
            s.extra.pop("wb", None)
            s.task = "idle"
            return False
        goal = spots[0][2]
        if s.loc != goal and mv.acted(state, s):
            return True  # it has moved this turn already (the heat, R-10)
        if s.loc != goal:
            s.task = "move"
            if mv.walk(ctx, state, s, goal) and s.loc != goal:
                return True
            if s.loc != goal:
                mv.set_down(ctx, state, p)
                s.extra.pop("wb", None)
                return False
        mv.set_down(ctx, state, p)
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
    mv.start_hose(ctx, state, [s], p, route, target, home)
    return True


def _back_off(ctx: TurnContext, state: GameState, s: UnitState, h: HoseLine) -> bool:
    """A branch inside a building with fires next to it adding up to :data:`BACK_OFF_HEAT`
    or more is one spread from trapping its crew: the crew steps back down its own hose to
    the cooler location before it (taking the branch along, so the stream plays from one
    step further), as long as that is not about to come down (R-7). Whether it moved."""
    if s.loc != h.branch or len(h.path) < 2 or h.plan or mv.acted(state, s):
        return False
    x, y = h.branch, h.path[-2]
    if reach.area_kind(ctx, x[0]) is not AreaKind.BUILDING:
        return False
    hot = reach.heat(ctx, state, x)
    if hot < BACK_OFF_HEAT or y in state.fire or reach.unsafe(ctx, state, y):
        return False
    if reach.heat(ctx, state, y) >= hot:
        return False
    crew = [state.units[c] for c in h.crew if c in state.units and state.units[c].loc == x]
    moved = False
    for c in crew:
        moved |= mv.walk(ctx, state, c, y)
    return moved


def _guard_target(
    ctx: TurnContext, state: GameState, h: HoseLine, home: UnitState
) -> Location | None:
    """A fire next to the line's own appliance that no line plays on yet and this branch
    reaches (the fire would burn the appliance out if it spread into its street)."""
    if home.loc is None or h.target is None or h.target in fire_rules.neighbours(ctx, home.loc):
        return None
    cov = coverage(state)
    near = [
        nb for nb in fire_rules.neighbours(ctx, home.loc) if nb in state.fire and not cov.get(nb)
    ]
    if not near:
        return None
    for loc, rng in reach.in_range(ctx, h.branch):
        if rng >= 1 and loc in near:
            return loc
    return None


def feeding_pump(state: GameState, own: UnitState) -> UnitState | None:
    """The pump a new line runs from: the appliance's own while it has a free delivery
    and water, else another deployed pump in the same street that has both."""

    def usable(p: UnitState) -> bool:
        return (
            p.in_play and p.deployed and p.pumps > 0 and mv.pump_capacity(state, p) > 0
            and (p.source is not None or p.water > 0)
        )  # fmt: skip

    if usable(own):
        return own
    others = sorted(
        (p for p in state.units.values() if p.loc == own.loc and p.id != own.id and usable(p)),
        key=lambda p: p.id,
    )
    return others[0] if others else None


def _next_target(
    ctx: TurnContext, state: GameState, h: HoseLine, pri: set[Location], wet: bool = True
) -> Location | None:
    """From where a branch stands: a fire in range, the embers just beaten, or a threatened
    neighbour of a fire to damp down (these two only with water to spare: not on a tank)."""
    cands = reach.in_range(ctx, h.branch)
    fires = [(loc, r) for loc, r in cands if loc in state.fire and r >= 1]
    if fires:
        cov = coverage(state)
        return min(
            fires,
            key=lambda lr: (
                cov.get(lr[0], 0) >= 2,
                fire_priority(ctx, state, lr[0], pri),
                -_p_extinguish(state.fire[lr[0]], ctx.rules.int(f"firefighting.range.{lr[1]}")),
                lr[0],
            ),
        )[0]
    if not wet:
        return None
    if h.target is not None and h.target in state.embers:
        return h.target
    damp_max = ctx.rules.int("firefighting.damp_max")
    threatened = []
    for loc, _r in cands:
        if loc in state.fire or state.damp.get(loc, 0) >= damp_max:
            continue
        if reach.area_kind(ctx, loc[0]) is not AreaKind.BUILDING:
            continue
        near = [nb for nb in reach.neighbours(ctx, loc) if nb in state.fire]
        if near:
            threatened.append((0 if loc in pri else 1, state.damp.get(loc, 0), loc))
    return min(threatened)[2] if threatened else None


def _risk_weight(ctx: TurnContext, state: GameState, x: Location) -> float:
    """Weight on a branch position next to a fire: 1 in an empty street (the fire cannot
    follow), :data:`RISKY` where it can spread in (a building, rubble, a street with a
    vehicle) and the street is a step away, half that with no way straight out."""
    kind = reach.area_kind(ctx, x[0])
    if kind is not AreaKind.BUILDING:
        return RISKY if x[0] in state.rubble or state.has_vehicle(x[0]) else 1.0
    if x[1] == 0 and any(
        reach.area_kind(ctx, nb[0]) in (AreaKind.STREET, AreaKind.OPEN) and nb not in state.fire
        for nb in fire_rules.neighbours(ctx, x)
    ):
        return RISKY
    return RISKY / 2


#: the highest chance to get to and hold a branch position (see :func:`_risk_weight`)
P_IN_MAX = max(1.0, RISKY)


def _class_key(c: tuple[float, float, float, Location, int]) -> tuple[float, float, float]:
    return c[0], c[1], c[2]


def best_job(
    ctx: TurnContext, state: GameState, pump: UnitState, stock: UnitState, pri: set[Location]
) -> tuple[Location, list[Location]] | None:
    """(target, hose route from the pump) with the best expected effect, or None."""
    if pump.loc is None or mv.pump_capacity(state, pump) <= 0 or stock.hose_left <= 0:
        return None
    r = ctx.rules
    per = r.int("hose.steps_per_length")
    hyd = r.int("hose.hydrant_lengths") if (pump.source or "").startswith("hydrant:") else 0
    reserved = sum(
        mv.path_lengths(ctx, [*h.path, *h.plan]) - h.lengths
        for h in state.hoses.values()
        if h.plan and h.stock == stock.id
    )  # lengths other lines being laid will still take
    max_len = min(stock.hose_left - reserved, r.int("hose.max_lengths") - hyd)
    if max_len <= 0:
        return None
    dist, prev = reach.foot_search(ctx, state, pump.loc, per * max_len, weight=2)
    cov = coverage(state)
    fires = state.fire
    top = r.int("firefighting.max_range")
    mods = {k: r.int(f"firefighting.range.{k}") for k in range(1, top + 1)}
    water = reach.water_area_set(ctx)
    # a building position's chance is fixed through step 6 (fire, damage and the map
    # decide it): kept for the call of the standing orders; a street's depends on the
    # vehicles, which move, so it is kept for this search only
    p_ins: dict[Location, float] = dict(ctx.cache.get("ap_p_in") or {})
    kept: dict[Location, float] | None = ctx.cache.get("ap_p_in")
    prios: dict[Location, float] = {}

    def p_in_at(x: Location) -> float:
        """Chance to get to and hold branch position ``x`` (0: not a position)."""
        hit = p_ins.get(x)
        if hit is None:
            hit = 0.0
            if x[0] not in water and not reach.unsafe(ctx, state, x):
                h_x = reach.heat(ctx, state, x)
                hit = _p_heat(ctx, h_x)
                if hit > 0 and h_x > 0:
                    hit *= _risk_weight(ctx, state, x)
            p_ins[x] = hit
            if kept is not None and reach.area_kind(ctx, x[0]) is AreaKind.BUILDING:
                kept[x] = hit
        return hit

    best: tuple[tuple[float, ...], Location, Location] | None = None

    def consider(x: Location, t: Location, rng: int, fire: int) -> None:
        nonlocal best
        if rng < 1:
            return
        p_in = p_ins.get(x)
        if p_in is None:
            p_in = p_in_at(x)  # no dice, no state change: only its memo
        if p_in <= 0:
            return
        # the key is compared field by field: leave as soon as it cannot beat the best
        covered = float(cov.get(t, 0) >= 2)
        if best is not None and covered > best[0][0]:
            return
        prio = prios.get(t)
        if prio is None:
            prio = prios[t] = float(fire_priority(ctx, state, t, pri))
        if best is not None and covered == best[0][0] and prio > best[0][1]:
            return
        p = _p_extinguish(fire, mods[rng]) * p_in
        if p <= 0:
            return
        key = (covered, prio, -round(p, 3), float(dist[x]))
        if best is None or (key, x, t) < (best[0], best[1], best[2]):
            best = (key, x, t)

    # every (position, fire) pair in range: walk whichever side is smaller (range is
    # symmetric, and the best pair is the same either way: ties are broken by both ids)
    if len(fires) <= len(dist):
        # fires by a bound on the key's leading fields (cover, priority, -chance, with the
        # best range and a sure position): once a fire's bound is worse than the best key,
        # no later fire can beat it (the best is the key's minimum, whatever the order)
        top_mod = max(mods.values())
        classes = []
        for t, fire in fires.items():
            prio = prios.get(t)
            if prio is None:
                prio = prios[t] = float(fire_priority(ctx, state, t, pri))
            bound = -round(_p_extinguish(fire, top_mod) * P_IN_MAX, 3)
            classes.append((float(cov.get(t, 0) >= 2), prio, bound, t, fire))
        classes.sort(key=_class_key)
        for covered, prio, bound, t, fire in classes:
            if best is not None and (covered, prio, bound) > best[0][:3]:
                break
            # consider() for each position in range of t, inline (cover and priority are
            # the fire's; the chance depends on the range)
            chance = {k: _p_extinguish(fire, m) for k, m in mods.items()}
            for x, rng in reach.in_range(ctx, t):
                if rng < 1 or x not in dist:
                    continue
                p_in = p_ins.get(x)
                if p_in is None:
                    p_in = p_in_at(x)
                if p_in <= 0:
                    continue
                p = chance[rng] * p_in
                if p <= 0:
                    continue
                key = (covered, prio, -round(p, 3), float(dist[x]))
                if best is None or (key, x, t) < (best[0], best[1], best[2]):
                    best = (key, x, t)
    else:
        for x in dist:
            if p_in_at(x) <= 0:
                continue
            for t, rng in reach.in_range(ctx, x):
                burning = fires.get(t)
                if burning is not None:
                    consider(x, t, rng, burning)
    if best is None:
        return None
    _, x, t = best
    return t, reach.path_to(prev, pump.loc, x)


# -- pumps, dams, canteen --------------------------------------------------------------------
def _pump(ctx: TurnContext, state: GameState, u: UnitState, pri: set[Location]) -> None:
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
    stows = mv.sets_up(ctx, u) and u.moves == "road"  # packing up lets a skid pump move off
    if u.deployed and stows and not busy and u.task == "idle" and reach.heat(ctx, state, u.loc):
        mv.stow(ctx, state, u)  # idle next to a fire: pack up and move off
        return
    if u.task in ("deploy", "stow"):
        return
    if not u.deployed:
        # a trailer without a tow cannot move: it deploys where it stands if water is there
        park = choose_parking(ctx, state, u, pri, need_water=True) if u.moves == "road" else None
        if park is not None and park != u.loc[0]:
            mv.drive(ctx, state, u, park)
        elif park is not None or _water_at(ctx, state, u.loc[0]):
            mv.deploy(ctx, state, u)
    else:
        choose_water(ctx, state, u)


def _dam(ctx: TurnContext, state: GameState, u: UnitState) -> None:
    if u.loc is None or u.task in ("deploy", "stow") or u.deployed:
        return
    thirsty = [
        a for a in sorted(state.units.values(), key=lambda x: x.id)
        if a.in_play and a.pumps and a.source is None and a.loc is not None
        and any(h.unit == a.id for h in state.hoses.values())
    ]  # fmt: skip
    routes = reach.road_routes(ctx, state, u.loc[0])
    for a in thirsty:
        assert a.loc is not None
        if a.loc[0] in routes:
            if a.loc[0] != u.loc[0]:
                mv.drive(ctx, state, u, a.loc[0])
            else:
                mv.deploy(ctx, state, u)
            return


def _canteen(ctx: TurnContext, state: GameState, u: UnitState) -> None:
    if u.loc is None or u.rations <= 0:
        return
    counts: dict[str, int] = {}
    for s in state.units.values():
        if s.kind == STAND and s.in_play and s.loc is not None and s.task != "aboard":
            counts[s.loc[0]] = counts.get(s.loc[0], 0) + 1
    routes = reach.road_routes(ctx, state, u.loc[0])
    best = max(
        ((n, a) for a, n in counts.items() if a in routes and not reach.unsafe(ctx, state, (a, 0))
         and reach.heat(ctx, state, (a, 0)) == 0),
        default=None,
    )  # fmt: skip
    if best is not None and best[1] != u.loc[0]:
        mv.drive(ctx, state, u, best[1])


# -- fire parties ----------------------------------------------------------------------------
def _fire_party(ctx: TurnContext, state: GameState, u: UnitState) -> None:
    assert u.loc is not None
    budget = 3 * ctx.rules.int("movement.foot_points")
    if u.charged:
        if party_targets(ctx, state, u.loc):
            u.task = "fight"
            return
        small = _small_fires(ctx, state)
        if not small:
            u.task = "idle"
            return
        near = reach.area_distances(ctx, u.loc[0], budget + 1)
        goals = {nb for f in small if f[0] in near for nb in reach.neighbours(ctx, f)}
        if not goals:
            return  # no small fire within three turns' walk
        dist, _ = reach.foot_search(ctx, state, u.loc, budget, goals=goals)
        goal, _d = reach.nearest(dist, goals)
        if goal is not None:
            u.task = "move"
            mv.walk(ctx, state, u, goal)
        return
    if refill_point(ctx, state, u.loc):
        u.task = "refill"
        return
    points = _refill_points(ctx, state, u.loc[0], budget)
    dist, _ = reach.foot_search(ctx, state, u.loc, budget, goals=points)
    goal, _d = reach.nearest(dist, points)
    if goal is not None:
        u.task = "refill"
        mv.walk(ctx, state, u, goal)


def _refill_points(
    ctx: TurnContext, state: GameState, area: str, budget: int
) -> frozenset[Location]:
    """Ground locations within ``budget`` area steps of ``area`` where a fire party refills
    (``refill_point``: any building, a working hydrant), the map's part looked up once."""
    memo: dict[tuple[str, int], tuple[frozenset[Location], tuple[str, ...]]] = ctx.cache.setdefault(
        "refill_points", {}
    )
    hit = memo.get((area, budget))
    if hit is None:
        by_id = ctx.scenario.area_by_id
        near = reach.area_distances(ctx, area, budget)
        buildings = [a for a in near if a in by_id and by_id[a].kind is AreaKind.BUILDING]
        hydrants = reach.hydrant_areas(ctx)
        hit = memo[(area, budget)] = (
            frozenset((a, 0) for a in buildings),
            tuple(sorted(a for a in near if a in hydrants and a in by_id and a not in buildings)),
        )
    static, hydrant_areas = hit
    if not hydrant_areas or ctx.scenario.mains == "failed":
        return static
    lost = state.hydrants_lost
    working = [(a, 0) for a in hydrant_areas if a not in lost]
    return static.union(working) if working else static


# -- rescue and casualties -------------------------------------------------------------------
def _rescue_sites(ctx: TurnContext, state: GameState) -> list[Location]:
    return sorted(
        {c.loc for c in state.casualties if c.status in ("buried", "located")} - set(state.fire)
    )


def _rescuer(
    ctx: TurnContext, state: GameState, u: UnitState, sites: list[Location] | None = None
) -> None:
    """A rescue stand goes to the nearest buried casualty whose fire is out, and works."""
    assert u.loc is not None
    if sites is None:
        sites = _rescue_sites(ctx, state)
    if u.status == "exhausted" or (u.status == "tired" and not sites):
        u.task = "rest"
        return
    if u.task == "rest":
        return
    if u.loc in sites:
        u.task = "rescue"
        return
    dist, _ = reach.foot_search(ctx, state, u.loc, _far(ctx))
    goal, _d = reach.nearest(dist, sites)
    if goal is not None:
        u.task = "move"
        mv.walk(ctx, state, u, goal)
    else:
        u.task = "idle"


#: how far (hose steps, fire ignored) from casualties an ambulance or rescue lorry parks
CARRY_STEPS = 12


def _park_near(
    ctx: TurnContext, state: GameState, u: UnitState, goals: list[Location]
) -> str | None:
    """The reachable street closest on foot to any of ``goals``."""
    if u.loc is None or not goals:
        return None
    routes = reach.road_routes(ctx, state, u.loc[0])
    dist = steps_to(ctx, goals, [(a, 0) for a in routes], CARRY_STEPS)
    best = min(
        ((dist[(a, 0)], len(r), a) for a, r in routes.items()
         if (a, 0) in dist and not reach.unsafe(ctx, state, (a, 0))),
        default=None,
    )  # fmt: skip
    return None if best is None else best[2]


def _crew_vehicle(ctx: TurnContext, state: GameState, u: UnitState, sites: list[Location]) -> None:
    """Heavy Rescue: park near the work, its crew goes on foot."""
    assert u.loc is not None
    crews = crew_of(state.units, u.id)
    if not sites:
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
        if s.order is None and not mv.acted(state, s):
            _rescuer(ctx, state, s, sites)


def _doctor(ctx: TurnContext, state: GameState, u: UnitState) -> None:
    assert u.loc is not None
    sites = _rescue_sites(ctx, state)
    if not sites or any(s[0] == u.loc[0] for s in sites):
        return
    dist, _ = reach.foot_search(ctx, state, u.loc, _far(ctx))
    goal, _d = reach.nearest(dist, sites)
    if goal is not None:
        mv.walk(ctx, state, u, goal)


def _wants(u: UnitState, status: str) -> bool:
    if u.type == "mortuary_van":
        return status == "dead"
    return status in ("badly_injured", "lightly_injured")


def _carrier(ctx: TurnContext, state: GameState, u: UnitState) -> None:
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
                        ctx.note("evacuated", at=u.loc, unit=u.id, casualty=c.id)
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
    carry_pts = r.int("casualty.carry_areas")
    claimed = {c.id for c in carried}
    for s in crews:
        if s.order is not None or mv.acted(state, s) or s.loc is None:
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
        dist, _ = reach.foot_search(ctx, state, s.loc, _far(ctx))
        goal, _d = reach.nearest(dist, [c.loc for c in free])
        if goal is not None:
            s.task = "move"
            mv.walk(ctx, state, s, goal)
