"""An appliance at work and its fire teams: it parks, connects, pitches its ladders and
sends its teams out; each team lays a line, plays on it, backs off from the heat, and takes
it up when the work is done."""

from __future__ import annotations

from ....board.model import AreaKind, Location
from ....core.turn import TurnContext
from ..reach import danger, foot
from ..rules import acting, equipment, hoses, reach, wheelbarrow
from ..rules import movement as mv
from ..state import GameState, pump_of
from ..units import VEHICLE, HoseLine, UnitState, crew_of
from .jobs import best_job, feeding_pump, next_target
from .parking import (
    choose_parking,
    choose_water,
    dry,
    engaged,
    keep_clear,
    ladder_face,
    left_behind,
    on_reserve,
    out_of_reach,
    shelter,
    spent,
    street_risk,
    strike_spare_ladders,
    threatened,
    unguarded_fires,
    withdraw,
)
from .priorities import lost_cause, policy, vehicle_areas
from .safety import (
    cut_off,
    exposed,
    pocket,
    refuge,
    retreat,
    shelters,
    stand_clear,
    trapped,
)
from .wheelbarrow import fetch_wheelbarrow, wheelbarrow_orders

#: a crew whose branch inside a building has this much heat next to it steps back a location
BACK_OFF_HEAT = 2


def step_clear(ctx: TurnContext, state: GameState, u: UnitState) -> bool:
    """An idle stand next to a fire walks to the nearest spot with no fire next to it,
    out in the street if it can (a fire cannot spread into an empty street)."""
    if u.loc is None or acting.acted(state, u) or danger.heat(ctx, state, u.loc) == 0:
        return False
    dist, _ = foot.foot_search(ctx, state, u.loc, ctx.rules.int("movement.foot_points"))
    vehicles = {v.loc for v in state.units.values() if v.kind == VEHICLE and v.loc is not None}
    cool = [
        loc for loc in dist
        if danger.heat(ctx, state, loc) == 0 and loc not in vehicles
        and not danger.unsafe(ctx, state, loc)
    ]  # fmt: skip
    if not cool:
        return False
    goal = min(
        cool,
        key=lambda loc: (danger.area_kind(ctx, loc[0]) is AreaKind.BUILDING, dist[loc], loc),
    )
    u.task = "move"
    moved = mv.walk(ctx, state, u, goal)
    u.task = "idle"
    return moved


def orphan_orders(ctx: TurnContext, state: GameState, u: UnitState) -> None:
    """A crew whose vehicle is lost: leaves a line without water and walks out toward the
    nearest entry (:func:`.safety.retreat`), or at least out of the heat."""
    h = state.hoses.get(u.hose or "")
    if h is not None:
        pump = state.units.get(h.unit)
        if pump is not None and pump.in_play:
            return  # its line still has a pump: it stays on it
        hoses.leave_hose(state, u)
    if u.task == "aboard":
        u.task = "idle"
    if u.status == "exhausted":
        u.task = "rest"
        return
    if not retreat(ctx, state, u):
        step_clear(ctx, state, u)


def stray_crews(ctx: TurnContext, state: GameState) -> None:
    """A fire team with nothing to do (idle, no line) away from its appliance's pump that
    the appliance's orders left alone this turn (it sheltered, kept clear, withdrew or
    stowed first, and its teams got no orders) keeps clear of the fire like any stand
    with nothing to do (:func:`.safety.stand_clear`: to a haven when it stands next to a
    fire or where it is exposed), rather than stand where its last job left it until the
    fire closes round it (round 8; ``policy.stray_crews`` 0: off). A team waiting in a
    haven stays there."""
    if not state.fire or policy(ctx, "stray_crews") <= 0:
        return
    for uid in state.unit_ids():
        s = state.units[uid]
        if (
            s.kind == VEHICLE or not s.in_play or s.order is not None or s.loc is None
            or s.task != "idle" or s.hose is not None or s.parent is None or s.role != "crew"
            or acting.acted(state, s)
        ):  # fmt: skip
            continue
        home = state.units.get(s.parent)
        if (
            home is None or not home.in_play or home.kind != VEHICLE
            or home.role != "appliance" or home.order is not None
            or home.type in ("canteen_truck", "mobile_dam_unit", "hose_laying_lorry")
        ):  # fmt: skip
            continue
        pump = pump_of(state, home)
        if pump.loc is not None and pump.loc != s.loc:
            stand_clear(ctx, state, s)


def crews_off(ctx: TurnContext, state: GameState) -> None:
    """A stand on standing orders idle in a street holding a vehicle, or a crew aboard its
    appliance there, with no line, steps off that street when the vehicle is
    :func:`stranded` there: it may burn in the next step 1 and has nowhere safer to drive
    to. A vehicle makes its street one that burns (§1, §3 Roads), and a stand in a
    burning location must escape or become a casualty (R-10), so the stands waiting by
    it would burn with it. It waits within a turn's walk where nothing can burn, with the
    least fire next to it (:func:`.safety.refuge`); a crew does not walk back to its
    appliance while the appliance is stranded. Run after every unit's orders, so the
    vehicles stand where they end the turn (round 9; ``policy.crew_off_chance`` 0: off)."""
    least = policy(ctx, "crew_off_chance")
    if not state.fire or least <= 0:
        return
    doomed: dict[str, bool] = {}
    for uid in state.unit_ids():
        s = state.units[uid]
        if (
            s.kind == VEHICLE or not s.in_play or s.order is not None or s.loc is None
            or s.task not in ("idle", "aboard") or s.hose is not None or s.loc[1] != 0
            or s.loc[0] not in vehicle_areas(ctx, state) or acting.acted(state, s)
        ):  # fmt: skip
            continue
        if s.task == "aboard":
            home = state.units.get(s.parent) if s.parent is not None else None
            if home is None or not home.in_play or home.loc != s.loc:
                continue
        here = s.loc[0]
        if here not in doomed:
            doomed[here] = stranded(ctx, state, here)
        if not doomed[here]:
            continue
        spot = refuge(ctx, state, s)
        if spot is None or spot == s.loc:
            continue
        s.task = "move"
        mv.walk(ctx, state, s, spot)
        s.task = "idle"


def stranded(ctx: TurnContext, state: GameState, area: str) -> bool:
    """A vehicle in street ``area`` may burn there in the next step 1 (chance
    ``policy.crew_off_chance`` or more, a spread or a jump: :func:`.parking.street_risk`)
    and can drive nowhere that could not (no street it can reach with no chance to
    catch). False with the policy off (0)."""
    least = policy(ctx, "crew_off_chance")
    return (
        least > 0
        and street_risk(ctx, state, area) >= least
        and not any(
            a != area and street_risk(ctx, state, a) <= 0
            for a in reach.road_routes(ctx, state, area)
        )
    )


def rides_into_fire(ctx: TurnContext, state: GameState, park: str) -> bool:
    """Whether an appliance's crews at the vehicle stay where they are, rather than ride
    with it, when it drives to parking street ``park``: the street may burn with the
    vehicle in the next step 1 (a spread or a jump, :func:`.parking.street_risk`) with
    chance ``policy.ride_risk`` or more. Aboard, the whole crew would stand in a burning
    location at once (R-10: every stand must pass a heat test to get out); left behind,
    they walk after it next turn, if it is still there (round 10; 0: off)."""
    least = policy(ctx, "ride_risk")
    return least > 0 and street_risk(ctx, state, park) >= least


def appliance_orders(ctx: TurnContext, state: GameState, u: UnitState, pri: set[Location]) -> None:
    assert u.loc is not None
    crews = crew_of(state.units, u.id)
    pump = pump_of(state, u)
    if withdraw(ctx, state, u, pri):
        return
    strike_spare_ladders(ctx, state, u)
    # lines left lying where they were slipped do not hold an appliance whose crew is
    # aboard (round 15): it is free; with nothing left to give, out of the fire's way
    free = (
        policy(ctx, "free_left_behind") > 0
        and engaged(state, u, crews)
        and left_behind(state, u, crews)
    )
    stay: set[str] = set()
    if free and (dry(ctx, state, u) or spent(ctx, state, u)):
        if shelter(ctx, state, u):
            return
        free = False
    elif _apart(ctx, state, u, crews):
        # (round 15b) its teams wait away from it where the fire cannot reach them: it
        # shelters all the same, in no street where a stand waits (a vehicle makes its
        # street burn, R-10), and they walk back to it only by a way with no heat test
        if shelter(ctx, state, u, avoid=_stands_at(state)):
            return
        stay = {
            s.id
            for s in crews
            if s.loc != u.loc
            and s.task == "idle"
            and not acting.acted(state, s)
            and not _cool_way(ctx, state, s, u)
        }
        for s in crews:
            if s.id in stay:
                stand_clear(ctx, state, s)
    if free or not engaged(state, u, crews):
        trailer_here = pump is not u and pump.loc == u.loc
        if pump is not u and pump.deployed and trailer_here and not pump.towed_by:
            equipment.stow(ctx, state, pump)
            return
        if pump.task == "stow":
            return  # its trailer pump is being recovered
        if not crews:
            return
        hold = bool(u.extra.get("hold")) and (
            acting.acted(state, u) or best_job(ctx, state, pump, u, pri) is not None
        )  # placed by the player: work from here while there is work in reach
        if not hold:
            u.extra.pop("hold", None)
        empty = not hold and spent(ctx, state, u)
        park = None if hold else choose_parking(ctx, state, u, pri, need_water=empty)
        if park is None and empty and shelter(ctx, state, u):
            return  # its tank is dry and no water is in reach: out of the fire's way
        if park is None and not hold and keep_clear(ctx, state, u):
            return
        if park is not None and park != u.loc[0]:
            if pump is u and u.deployed and equipment.sets_up(ctx, u):
                equipment.stow(ctx, state, u)  # §7: recover the trailer pump (a turn) first
                return
            walk = rides_into_fire(ctx, state, park)  # (round 10)
            for s in crews:
                if s.loc == u.loc:
                    s.task = "idle" if walk else "aboard"
            if mv.drive(ctx, state, u, park):
                return
    # at the parking street: water, trailer, ladders, then the teams
    if pump is not u and pump.loc == u.loc and not pump.deployed and pump.task != "deploy":
        equipment.deploy(ctx, state, pump)
    elif (
        pump is u
        and not u.deployed
        and u.task != "deploy"
        and state.fire
        and equipment.sets_up(ctx, u)
    ):
        equipment.deploy(ctx, state, u)  # the small pump team unhitches its trailer pump (a turn)
    if pump.deployed and pump.pumps > 0:
        choose_water(ctx, state, pump)
    face = ladder_face(ctx, state, u)
    if face is not None:
        equipment.pitch_ladder(ctx, state, u, face)
    work = False
    for s in crews:
        if s.id in stay:
            continue
        if s.loc == u.loc and s.task == "aboard":
            s.task = "idle"
        work |= _fire_team(ctx, state, s, u, pump, pri)
    if not work and not engaged(state, u, crews):
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
                    not work
                    or danger.area_kind(ctx, s.loc[0] if s.loc else "") is AreaKind.BUILDING
                )
            ):
                step_clear(ctx, state, s)


def _apart(ctx: TurnContext, state: GameState, u: UnitState, crews: list[UnitState]) -> bool:
    """(round 15b, ``policy.free_left_behind`` 2) An appliance with nothing left to give
    (:func:`.parking.dry` or :func:`.parking.spent`) held only by lines left lying where
    they were slipped (:func:`.parking.left_behind`), a team of its crew away from it with
    no line and no work, every such team where the fire cannot reach it (not
    :func:`.safety.exposed`)."""
    loc = u.loc
    if policy(ctx, "free_left_behind") < 2 or loc is None:
        return False
    away = [s for s in crews if s.in_play and s.loc != loc]
    return (
        bool(away)
        and engaged(state, u, crews)
        and left_behind(state, u, crews, anywhere=True)
        and (dry(ctx, state, u) or spent(ctx, state, u))
        and all(s.loc is None or not exposed(ctx, state, s.loc) for s in away)
    )


def _stands_at(state: GameState) -> frozenset[str]:
    """The areas where a stand in play is."""
    return frozenset(
        s.loc[0]
        for s in state.units.values()
        if s.kind != VEHICLE and s.in_play and s.loc is not None
    )


def _cool_way(ctx: TurnContext, state: GameState, s: UnitState, u: UnitState) -> bool:
    """Whether the shortest way from stand ``s`` to ``u`` (the one it would walk) passes no
    place where a heat test can fail (no fire, heat ``heat.always_pass_max`` or less)."""
    if s.loc is None or u.loc is None:
        return False
    dist, prev = foot.foot_search(ctx, state, s.loc, None, goal=u.loc)
    cool = ctx.rules.int("heat.always_pass_max")
    return u.loc in dist and all(
        x not in state.fire and danger.heat(ctx, state, x) <= cool
        for x in foot.path_to(prev, s.loc, u.loc)[1:]
    )


def _fire_team(
    ctx: TurnContext,
    state: GameState,
    s: UnitState,
    home: UnitState,
    pump: UnitState,
    pri: set[Location],
) -> bool:
    """One fire team's standing orders; whether it has work."""
    if s.order is not None or s.loc is None or acting.acted(state, s):
        return s.task not in ("idle", "aboard")
    if s.task == "rest":
        return False
    h = state.hoses.get(s.hose) if s.hose is not None else None
    if (h is None or not h.plan) and cut_off(ctx, state, s.loc):
        # the fire is closing round it: leave the line and make for a haven while it can
        hoses.leave_hose(state, s)
        s.task = "idle"
        retreat(ctx, state, s)
        return False
    if h is not None and _dead_end(ctx, state, h):
        # making up this line would leave the crew at its pump end, where the fire is now
        hoses.leave_hose(state, s)
        if not h.crew:
            h.recover_left = 0  # nobody makes it up: it lies where it was slipped
        s.task = "idle"
        h = None
    if s.status == "exhausted":
        carried = wheelbarrow.carried_pump(state, s)
        if carried is not None:
            wheelbarrow.set_down(ctx, state, carried)
        hoses.leave_hose(state, s)
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
            hoses.recover_hose(ctx, state, h)  # no water will come: free the appliance
            return True
        assert line_pump is not None
        low = _keeps_reserve(ctx, state, line_pump)
        if _back_off(ctx, state, s, h):
            return True
        guard = _guard_target(ctx, state, h, home)
        if guard is not None:
            h.target = guard  # a fire next to our own vehicle comes first
            s.task = "fight"
            return True
        street = _wet_down(ctx, state, h, home)
        if street is not None:
            h.target = street  # §3: damp in the street of our own vehicle
            s.task = "damp"
            return True
        if low:
            hoses.recover_hose(ctx, state, h)  # the tank's reserve is for its own street
            return True
        if h.target is not None and h.target in state.fire and not lost_cause(ctx, state, h.target):
            s.task = "fight"
            return True
        new = next_target(ctx, state, h, pri, wet=pump.source is not None)
        if new is not None:
            h.target = new
            s.task = "fight" if new in state.fire else "damp"
            return True
        if state.fire:
            hoses.recover_hose(ctx, state, h)
            return True
        h.target = None
        s.task = "idle"
        return False
    if wheelbarrow_orders(ctx, state, s, home, pri):
        return True
    # no line: back to the pump, then a new line (or help on a line in trouble)
    if pump.loc is None:
        return False
    if s.loc != pump.loc:
        if s.loc in shelters(ctx, state) and cut_off(ctx, state, pump.loc):
            return False  # it waits in its haven while the fire closes round its appliance
        if pocket(ctx, state, pump.loc) and not pocket(ctx, state, s.loc):
            return False  # nor does it walk back into a place the fire may close round
        if pump.loc[1] == 0 and stranded(ctx, state, pump.loc[0]):
            return False  # nor to a vehicle that may burn where it stands (round 9)
        if not mv.walk(ctx, state, s, pump.loc):
            stand_clear(ctx, state, s)  # no way back this turn: not where the fire can reach it
        return True
    if s.status == "tired" and not state.fire:
        s.task = "rest"
        return False
    # the lines of home's stock, in id order (which stock a line draws on does not change)
    own = sorted(hid for hid, h in state.hoses.items() if h.stock == home.id)
    for hid in own:
        o = state.hoses[hid]
        if o.crew or o.recover_left or o.plan or _dead_end(ctx, state, o):
            continue
        # a line its crew had to leave: man it again if the fire is still there, else take it up
        if (
            o.target in state.fire and _walks_to(ctx, state, s.loc, o.branch)
            and not danger.unsafe(ctx, state, o.branch) and not trapped(ctx, state, o.branch)
        ):  # fmt: skip
            mv.walk(ctx, state, s, o.branch)
            if s.loc == o.branch:
                s.hose = o.id
                o.crew.append(s.id)
                s.task = "fight"
            return True
        s.hose = o.id
        o.crew.append(s.id)
        hoses.recover_hose(ctx, state, o)
        return True
    if not state.fire:
        return False
    feed = feeding_pump(state, pump)
    if feed is not None and _keeps_reserve(ctx, state, feed):
        return _guard_line(ctx, state, s, home, feed)  # no new line on the fire
    job = best_job(ctx, state, feed, home, pri) if feed is not None else None
    if job is not None and feed is not None:
        target, route = job
        hoses.start_hose(ctx, state, [s], feed, route, target, home)
        return True
    if fetch_wheelbarrow(ctx, state, s, home):
        return True
    for hid in sorted(hid for hid, h in state.hoses.items() if h.stock == home.id):
        other = state.hoses[hid]
        if (
            other.target in state.fire and not other.plan
            and len(other.crew) < ctx.rules.int("firefighting.crews_for_bonus")
            and _walks_to(ctx, state, s.loc, other.branch)
        ):  # fmt: skip
            mv.walk(ctx, state, s, other.branch)
            if s.loc == other.branch:
                s.hose = other.id
                other.crew.append(s.id)
                s.task = "fight"
            return True
    return False


def _walks_to(ctx: TurnContext, state: GameState, start: Location, goal: Location) -> bool:
    """Whether a stand at ``start`` has a way on foot to ``goal`` (a goal search reaches
    it). A search reaches only its start and places a stand may step into
    (:func:`.foot.passable`), so a goal that is neither is not searched for (round 23):
    mostly a branch where the fire now stands too hot next to it, asked of each team at
    the pump each turn, where the search would walk all it could reach."""
    if goal != start and not foot.passable(ctx, state, goal):
        return False
    dist, _ = foot.foot_search(ctx, state, start, goal=goal)
    return goal in dist


def _guard_line(
    ctx: TurnContext, state: GameState, s: UnitState, home: UnitState, pump: UnitState
) -> bool:
    """A team at its appliance whose pump is down to its tank's reserve lays a line of one
    length into the appliance's own street and wets it (:func:`_wet_down`'s test: a fire
    could spread or jump in, damp below ``policy.guard_damp``, no other line on it): a
    parked vehicle makes its street flammable, and each level of damp adds one to the die
    (§3), so one stops every jump (R-5). Whether it laid one."""
    street = home.loc
    want = policy(ctx, "guard_damp")
    if street is None or pump.loc != street or home.hose_left <= 0 or want <= 0:
        return False
    if state.damp.get(street, 0) >= want or not threatened(ctx, state, street):
        return False
    if any(o.target == street for o in state.hoses.values()):
        return False
    hoses.start_hose(ctx, state, [s], pump, [street], street, home)
    return True


def _dead_end(ctx: TurnContext, state: GameState, h: HoseLine) -> bool:
    """A slipped line (its pump drove off) whose pump end burns, is next to a fire or is
    :func:`.safety.exposed`: the crew that makes a line up is put down at its pump end
    (``equipment.finish_recovery``), so it leaves this one where it lies rather than be
    put down where the fire is."""
    if not h.cut:
        return False
    end = h.path[0]
    return end in state.fire or danger.heat(ctx, state, end) > 0 or exposed(ctx, state, end)


def _back_off(ctx: TurnContext, state: GameState, s: UnitState, h: HoseLine) -> bool:
    """A branch inside a building with fires next to it adding up to :data:`BACK_OFF_HEAT`
    or more is one spread from trapping its crew: the crew steps back down its own hose to
    the cooler location before it (taking the branch along, so the stream plays from one
    step further), as long as that is not about to come down (R-7). Whether it moved."""
    if s.loc != h.branch or len(h.path) < 2 or h.plan or acting.acted(state, s):
        return False
    x, y = h.branch, h.path[-2]
    if danger.area_kind(ctx, x[0]) is not AreaKind.BUILDING:
        return False
    hot = danger.heat(ctx, state, x)
    if hot < BACK_OFF_HEAT or y in state.fire or danger.unsafe(ctx, state, y):
        return False
    if danger.heat(ctx, state, y) >= hot:
        return False
    crew = [state.units[c] for c in h.crew if c in state.units and state.units[c].loc == x]
    moved = False
    for c in crew:
        moved |= mv.walk(ctx, state, c, y)
    return moved


def _wet_down(ctx: TurnContext, state: GameState, h: HoseLine, home: UnitState) -> Location | None:
    """The appliance's own street, to play on this turn, when a fire could spread or jump
    into it (R-5; a vehicle makes the street flammable, R-10), its damp is below
    ``policy.guard_damp`` and this branch reaches it: each level of damp adds one to the
    spread die (§3), so one level stops every jump (a modified 1) until a roll that only
    the damp stopped takes it. One line a turn per street."""
    want = policy(ctx, "guard_damp")
    if home.loc is None or want <= 0:
        return None
    street = home.loc
    if state.damp.get(street, 0) >= want or reach.stream_range(ctx, h.branch, street) is None:
        return None
    if not threatened(ctx, state, street):
        return None
    if any(o.target == street and o is not h for o in state.hoses.values()):
        return None
    return street


def _guard_target(
    ctx: TurnContext, state: GameState, h: HoseLine, home: UnitState
) -> Location | None:
    """A fire next to the line's own appliance that no line plays on yet and this branch
    reaches (the fire would burn the appliance out if it spread into its street)."""
    if home.loc is None or h.target is None:
        return None
    around = danger.neighbours(ctx, home.loc)
    if h.target in around:
        return None
    near = unguarded_fires(state, around)
    if not near:
        return None
    for loc, rng in reach.in_range(ctx, h.branch):
        if rng >= 1 and loc in near:
            return loc
    return None


def _keeps_reserve(ctx: TurnContext, state: GameState, pump: UnitState) -> bool:
    """The pump keeps its tank's last ``policy.tank_reserve`` points for its own street
    (:func:`.parking.on_reserve`) while a fire is within two spreads of that street or
    could jump into it (not :func:`.parking.out_of_reach`); farther off, the water still
    goes on the fire."""
    return (
        policy(ctx, "tank_reserve") > 0
        and on_reserve(ctx, pump)
        and pump.loc is not None
        and not out_of_reach(ctx, state, pump.loc[0])
    )
