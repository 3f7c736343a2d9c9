"""Steps 1-4 of the turn: fire spread and jumps, growth, reignition, damp (§3).

Every step iterates the fires (or embers) as they stood at the start of the step, in sorted
location order (R-3), so the work per turn follows what burns, not the size of the map.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..scenario import AreaKind, Location, Material
from ..state import GameState, store_at
from ..turn import TurnContext
from ..units import EQUIPMENT, VEHICLE
from .reach import area_kind


# -- helpers other steps use -----------------------------------------------------------------
def sorted_locations(ctx: TurnContext, locs: Iterable[Location]) -> list[Location]:
    """``sorted(locs)``, faster: by each location's rank among the map's sorted locations
    (the same order; a location off the map falls back to the plain sort)."""
    rank: dict[Location, int] | None = ctx.cache.get("location_rank")
    if rank is None:
        ordered = ctx.cache["location_by_rank"] = sorted(ctx.graph.locations)
        rank = ctx.cache["location_rank"] = {loc: k for k, loc in enumerate(ordered)}
    try:
        ranks = sorted(map(rank.__getitem__, locs))  # sorting numbers beats a key function
    except KeyError:
        return sorted(locs)
    by_rank: list[Location] = ctx.cache["location_by_rank"]
    return [by_rank[k] for k in ranks]


def neighbours(ctx: TurnContext, loc: Location) -> list[Location]:
    """``graph.neighbours``, remembered for the game (the map does not change in play)."""
    memo: dict[Location, list[Location]] = ctx.cache.setdefault("neighbours", {})
    hit = memo.get(loc)
    if hit is None:
        hit = memo[loc] = ctx.graph.neighbours(loc)
    return hit


def jump_lines(ctx: TurnContext, loc: Location) -> list[tuple[Location, tuple[str, ...]]]:
    """``graph.jump_lines`` (R-5 target, gap areas), remembered for the game."""
    memo: dict[Location, list[tuple[Location, tuple[str, ...]]]] = ctx.cache.setdefault("jumps", {})
    hit = memo.get(loc)
    if hit is None:
        hit = memo[loc] = ctx.graph.jump_lines(loc)
    return hit


def downwind(ctx: TurnContext, src: str, dst: str) -> bool:
    """R-2 ``graph.is_downwind`` for the scenario's wind, remembered for the game."""
    memo: dict[tuple[str, str], bool] = ctx.cache.setdefault("downwind", {})
    hit = memo.get((src, dst))
    if hit is None:
        hit = memo[(src, dst)] = ctx.graph.is_downwind(src, dst, ctx.scenario.wind)
    return hit


def spread_targets(ctx: TurnContext, loc: Location) -> tuple[list[Location], list[Location]]:
    """(neighbours, R-1 climbing targets) of a location, remembered for the game."""
    memo: dict[Location, tuple[list[Location], list[Location]]] = ctx.cache.setdefault(
        "spread_targets", {}
    )
    hit = memo.get(loc)
    if hit is None:
        hit = memo[loc] = (neighbours(ctx, loc), ctx.graph.climb_targets(loc))
    return hit


def vehicle_areas(state: GameState) -> set[str]:
    """Areas holding a vehicle or a burned-out wreck (these streets can burn)."""
    return {
        u.loc[0]
        for u in state.units.values()
        if u.kind == VEHICLE and u.loc is not None and (u.in_play or u.status == "burned_out")
    }


def is_flammable(
    ctx: TurnContext, state: GameState, loc: Location, vehicles: set[str] | None = None
) -> bool:
    """Buildings burn (destroyed ones too); streets/open only with rubble or a vehicle."""
    kind = area_kind(ctx, loc[0])
    if kind is None or kind is AreaKind.WATER:
        return False
    if kind is AreaKind.BUILDING:
        return True
    if loc[0] in state.rubble:
        return True
    return loc[0] in (vehicle_areas(state) if vehicles is None else vehicles)


def is_open_ground(ctx: TurnContext, loc: Location) -> bool:
    area = ctx.scenario.area_by_id.get(loc[0])
    return area is not None and area.kind in (AreaKind.STREET, AreaKind.OPEN)


def ignite(
    ctx: TurnContext, state: GameState, loc: Location, level: int = 1, *, cause: str = ""
) -> bool:
    """Set ``loc`` burning at ``level`` (a burning location is left as it is).

    The location loses its embers and all its damp; vehicles in it burn out (R-10; stands
    leave in step 6); an oil store goes to fire 5 and sets every flammable neighbour alight;
    a petrol store goes to fire 5 and explodes like an HE bomb. Returns whether it caught.
    """
    if loc in state.fire:
        return False
    rules = ctx.rules
    state.fire[loc] = level
    state.embers.discard(loc)
    state.damp.pop(loc, None)
    state.pending_damp_loss.pop(loc, None)
    state.caught.add(loc)
    for u in state.units_at(loc):
        if u.kind in (VEHICLE, EQUIPMENT):
            u.status = "burned_out"  # the wreck stays, and still burns
            u.task = "idle"
            ctx.note("burn_out", ruling="R-10", at=loc, unit=u.id)
    store = store_at(ctx.scenario, loc)
    if store is Material.OIL:
        state.fire[loc] = rules.int("stores.oil.fire")
        ctx.note("oil_store", at=loc, fire=state.fire[loc])
        spread_fire = rules.int("stores.oil.spread_fire")
        vehicles = vehicle_areas(state)
        for nb in neighbours(ctx, loc):
            if nb not in state.fire and is_flammable(ctx, state, nb, vehicles):
                ctx.note("oil_spread", from_=loc, to=nb)
                ignite(ctx, state, nb, spread_fire, cause="oil")
    elif store is Material.PETROL:
        state.fire[loc] = rules.int("stores.petrol.fire")
        ctx.note("petrol_store", at=loc, fire=state.fire[loc])
        if rules["stores.petrol.explodes"]:
            from .bombing import he_blast

            he_blast(ctx, state, loc[0], origin="petrol", keep_burning=loc)
    return True


def reduce_fire(state: GameState, loc: Location, by: int = 1) -> int:
    """Lower a fire (firefighting); below 1 it becomes embers, or goes out on a road.

    Returns the new fire (0 when out).
    """
    f = state.fire.get(loc)
    if f is None:
        return 0
    if f - by >= 1:
        state.fire[loc] = f - by
        return f - by
    del state.fire[loc]
    if state.street_fire_age.pop(loc, None) is None:
        state.embers.add(loc)
    return 0


def fire_cap(ctx: TurnContext, state: GameState, loc: Location) -> int:
    """Highest fire a location can reach: 1 for an incendiary on an empty road."""
    if loc in state.street_fire_age:
        return ctx.rules.int("roads.max_fire")
    return ctx.rules.int("fire.max")


# -- step 1: spread and jumps ------------------------------------------------------------------
def spread_modifier(
    ctx: TurnContext, state: GameState, src: Location, dst: Location, fighting: set[Location]
) -> tuple[int, int, list[str]]:
    """(total modifier, the damp part of it, rulings applied) for a spread from src to dst."""
    rules = ctx.rules
    damp_mod = state.damp.get(dst, 0) * rules.int("spread.damp_per_level")
    mod = damp_mod
    rulings: list[str] = []
    if dst in state.embers:
        mod += rules.int("spread.embers")
    if dst in fighting:
        mod += rules.int("spread.hose_team")
    if ctx.scenario.wind.strong and downwind(ctx, src[0], dst[0]):
        mod += rules.int("spread.strong_downwind")
        rulings.append("R-2")
    store = store_at(ctx.scenario, dst)
    if store is Material.OIL:
        mod += rules.int("spread.oil_store")
        rulings.append("R-4")
    elif store is Material.PETROL:
        mod += rules.int("spread.petrol_store")
        rulings.append("R-4")
    return mod, damp_mod, rulings


def _try_spread(
    ctx: TurnContext,
    state: GameState,
    rule: str,
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
        rule, need, modifier=mod, ruling=",".join(rulings) or None, from_=src, to=dst
    )
    if ok:
        ignite(ctx, state, dst, ctx.rules.int("fire.start"), cause=rule)
    elif damp_mod and total - damp_mod <= limit:
        # only the damp stopped it: the target loses damp (shown applied in step 4)
        state.pending_damp_loss[dst] = state.pending_damp_loss.get(dst, 0) + 1
        ctx.events[-1]["damp_loss"] = True
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
    fighting = {
        u.loc
        for u in state.units.values()
        if u.loc is not None and u.task == "fight" and u.in_play and u.kind not in (VEHICLE,)
    }
    vehicles = vehicle_areas(state)
    if not ctx.log_events:
        _spread_quiet(ctx, state, fighting, vehicles)
        return
    snapshot = sorted(state.fire.items())
    burning = state.fire
    for src, fire in snapshot:
        nbs, climbs = spread_targets(ctx, src)
        if fire >= climb_min and climbs:  # R-1 climbing
            for dst, ruling in _with_climbs(ctx, src, nbs, climbs):
                if dst in burning or not is_flammable(ctx, state, dst, vehicles):
                    continue
                rule = "climb" if ruling == "R-1" else "spread"
                _try_spread(ctx, state, rule, src, dst, fire, fighting, ruling)
        else:
            for dst in nbs:  # sorted already
                if dst in burning or not is_flammable(ctx, state, dst, vehicles):
                    continue
                _try_spread(ctx, state, "spread", src, dst, fire, fighting, None)
        if fire >= jump_min:
            for dst, gap_areas in _jumps_allowed(ctx, src, gap, gap_down):
                if dst in burning or not is_flammable(ctx, state, dst, vehicles):
                    continue
                # the gap must not burn now (rubble or a vehicle makes a street burn)
                if any(is_flammable(ctx, state, (g, 0), vehicles) for g in gap_areas):
                    continue
                _try_spread(ctx, state, "jump", src, dst, jump_max, fighting, "R-5")


#: a spread target planned for the quiet mode: (target, rule, 2 if it is a street or open
#: ground that burns only with rubble or a vehicle else 1, the modifier fixed by the map)
_Target = tuple[Location, str, int, int]
#: an R-5 jump planned for the quiet mode: the target, and the gap areas that might burn
_Jump = tuple[_Target, tuple[str, ...]]


def _target(ctx: TurnContext, src: Location, dst: Location, rule: str) -> _Target | None:
    """A planned target (None: it can never burn), with what follows from the map alone:
    its kind, and the wind (R-2) and store (R-4) modifiers."""
    kind = area_kind(ctx, dst[0])
    if kind is None or kind is AreaKind.WATER:
        return None
    rules = ctx.rules
    mod = 0
    if ctx.scenario.wind.strong and downwind(ctx, src[0], dst[0]):
        mod += rules.int("spread.strong_downwind")
    store = store_at(ctx.scenario, dst)
    if store is Material.OIL:
        mod += rules.int("spread.oil_store")
    elif store is Material.PETROL:
        mod += rules.int("spread.petrol_store")
    return (dst, rule, 1 if kind is AreaKind.BUILDING else 2, mod)


def _spread_plan(ctx: TurnContext, src: Location, climbing: bool) -> list[_Target]:
    """The quiet mode's spread (and, when ``climbing``, climb) targets from ``src`` in roll
    order, remembered for the game (by source: [plain, climbing], each made when first
    needed). Targets that can never burn are left out: they never roll."""
    memo: dict[Location, list[list[_Target] | None]] = ctx.cache.setdefault("spread_plan", {})
    pair = memo.get(src)
    if pair is None:
        pair = memo[src] = [None, None]
    plan = pair[climbing]
    if plan is not None:
        return plan
    nbs, climbs = spread_targets(ctx, src)
    if climbing and climbs:
        pairs = [(dst, "climb" if ruling == "R-1" else "spread") for dst, ruling in
                 _with_climbs(ctx, src, nbs, climbs)]  # fmt: skip
    else:
        pairs = [(dst, "spread") for dst in nbs]
    plan = pair[climbing] = [
        t for t in (_target(ctx, src, dst, rule) for dst, rule in pairs) if t is not None
    ]
    return plan


def _jump_plan(ctx: TurnContext, src: Location) -> list[_Jump]:
    """The quiet mode's R-5 jumps from ``src`` with the gap areas that might burn (streets
    and open ground), for the game. Left out: targets that never burn, and lines with a
    building in the gap (it always burns, so the jump is never allowed)."""
    memo: dict[Location, list[_Jump]] = ctx.cache.setdefault("jump_plan", {})
    plan = memo.get(src)
    if plan is not None:
        return plan
    rules = ctx.rules
    gap, gap_down = rules.int("jump.gap"), rules.int("jump.gap_downwind")
    plan = memo[src] = []
    for dst, gap_areas in _jumps_allowed(ctx, src, gap, gap_down):
        t = _target(ctx, src, dst, "jump")
        kinds = [area_kind(ctx, g) for g in gap_areas]
        if t is None or AreaKind.BUILDING in kinds:
            continue
        open_gaps = tuple(
            g
            for g, k in zip(gap_areas, kinds, strict=True)
            if k is not None and k is not AreaKind.WATER
        )
        plan.append((t, open_gaps))
    return plan


def _spread_quiet(
    ctx: TurnContext, state: GameState, fighting: set[Location], vehicles: set[str]
) -> None:
    """Step 1 in the quiet mode: the same rolls, in the same order, with the same results
    as :func:`step_spread`'s logged path, with the map's share of the work planned once.

    With few fires it walks each fire's targets; once fires are many (most of them ringed
    by fires already) it starts from the locations not burning and looks up which fires
    can roll into them, then makes those rolls in the same order (see :func:`_by_target`)."""
    rules = ctx.rules
    climb_min = rules.int("spread.climb_min_fire")
    jump_min = rules.int("jump.min_fire")
    jump_max = rules.int("jump.max")
    per_damp = rules.int("spread.damp_per_level")
    embers_mod = rules.int("spread.embers")
    hose_mod = rules.int("spread.hose_team")
    start = rules.int("fire.start")
    die = ctx.dice.die
    burning = state.fire
    damp = state.damp
    embers = state.embers
    rubble = state.rubble
    pending = state.pending_damp_loss

    def attempt(src: Location, t: _Target, limit: int) -> None:
        dst = t[0]
        damp_mod = damp.get(dst, 0) * per_damp
        mod = t[3] + damp_mod
        if dst in embers:
            mod += embers_mod
        if dst in fighting:
            mod += hose_mod
        total = die() + mod
        if total <= limit:
            ignite(ctx, state, dst, start, cause=t[1])
        elif damp_mod and total - damp_mod <= limit:
            pending[dst] = pending.get(dst, 0) + 1

    reverse = _reverse_index(ctx)
    if 4 * len(burning) >= len(reverse.targets) and all(p in burning for p in reverse.petrol):
        # (a petrol store set alight mid-step explodes and may change the map: with one
        # not yet burning, the plain walk below is used)
        for src, t, limit, gaps in _by_target(ctx, state, reverse, vehicles):
            dst = t[0]
            if dst in burning or (t[2] == 2 and dst[0] not in rubble and dst[0] not in vehicles):
                continue
            if gaps and any(g in rubble or g in vehicles for g in gaps):
                continue
            attempt(src, t, limit)
        return
    plans = ctx.cache.setdefault("spread_plan", {})
    jump_plans = ctx.cache.setdefault("jump_plan", {})
    snapshot = [(loc, burning[loc]) for loc in sorted_locations(ctx, list(burning))]
    for src, fire in snapshot:
        climbing = fire >= climb_min
        pair = plans.get(src)
        spreads = None if pair is None else pair[climbing]
        if spreads is None:
            spreads = _spread_plan(ctx, src, climbing)
        for t in spreads:
            dst = t[0]
            if dst in burning or (t[2] == 2 and dst[0] not in rubble and dst[0] not in vehicles):
                continue
            attempt(src, t, fire)
        if fire >= jump_min:
            jumps = jump_plans.get(src)
            if jumps is None:
                jumps = _jump_plan(ctx, src)
            for t, gaps in jumps:
                dst = t[0]
                if dst in burning or (
                    t[2] == 2 and dst[0] not in rubble and dst[0] not in vehicles
                ):
                    continue
                if any(g in rubble or g in vehicles for g in gaps):
                    continue
                attempt(src, t, jump_max)


#: a roll of the reverse index: (its place among its source's rolls, target, gap areas)
_Roll = tuple[int, _Target, tuple[str, ...]]
#: the rolls of one source into one target: (source, its rank (R-3 order), rolls as a plain
#: spread, as the spread of a fire that climbs (R-1), as jumps (R-5))
_FromSource = tuple[Location, int, tuple[_Roll, ...], tuple[_Roll, ...], tuple[_Roll, ...]]


@dataclass(frozen=True)
class _Reverse:
    """The quiet spread's plans turned round, for the game (see :func:`_by_target`)."""

    #: by target location: (its kind as in :data:`_Target`, the sources that can roll
    #: into it, their rolls)
    into: dict[Location, tuple[int, frozenset[Location], tuple[_FromSource, ...]]]
    #: every location some fire can roll into
    targets: frozenset[Location]
    #: petrol stores (one set alight explodes, which can change the map mid-step)
    petrol: frozenset[Location]


def _reverse_index(ctx: TurnContext) -> _Reverse:
    memo: dict[str, _Reverse] = ctx.cache.setdefault("spread_reverse", {})
    hit = memo.get("index")
    if hit is not None:
        return hit
    rank: dict[Location, int] = {loc: k for k, loc in enumerate(sorted(ctx.graph.locations))}
    found: dict[Location, dict[Location, tuple[list[_Roll], list[_Roll], list[_Roll]]]] = {}
    kinds: dict[Location, int] = {}
    for src in sorted(ctx.graph.locations):
        plans = (
            _spread_plan(ctx, src, False),
            _spread_plan(ctx, src, True),
            [t for t, _gaps in _jump_plan(ctx, src)],
        )
        gaps = [g for _t, g in _jump_plan(ctx, src)]
        for how, plan in enumerate(plans):
            for k, t in enumerate(plan):
                # jumps come after every spread: their places follow any spread plan
                place = k + (1 << 30 if how == 2 else 0)
                kinds[t[0]] = t[2]
                lists = found.setdefault(t[0], {}).setdefault(src, ([], [], []))
                lists[how].append((place, t, gaps[k] if how == 2 else ()))
    into = {}
    for dst, by_src in found.items():
        into[dst] = (
            kinds[dst],
            frozenset(by_src),
            tuple(
                (src, rank[src], tuple(a), tuple(b), tuple(c))
                for src, (a, b, c) in sorted(by_src.items())
            ),
        )
    petrol = frozenset(
        loc for loc in ctx.graph.locations if store_at(ctx.scenario, loc) is Material.PETROL
    )
    hit = memo["index"] = _Reverse(into, frozenset(into), petrol)
    return hit


def _by_target(
    ctx: TurnContext, state: GameState, reverse: _Reverse, vehicles: set[str]
) -> list[tuple[Location, _Target, int, tuple[str, ...]]]:
    """Every spread and jump roll the fires burning now could make into a location that
    does not burn now (and can: a building, or a street with rubble or a vehicle), as
    (source, target, the number to roll under, gap areas), in the order the plain walk
    makes them: by source (R-3), spreads in plan order, then jumps."""
    rules = ctx.rules
    climb_min = rules.int("spread.climb_min_fire")
    jump_min = rules.int("jump.min_fire")
    jump_max = rules.int("jump.max")
    burning = state.fire
    alight = burning.keys()
    rubble = state.rubble
    into = reverse.into
    rolls: list[tuple[int, int, Location, _Target, int, tuple[str, ...]]] = []
    for dst in reverse.targets.difference(burning):
        kind, sources, by_src = into[dst]
        if kind == 2 and dst[0] not in rubble and dst[0] not in vehicles:
            continue
        if alight.isdisjoint(sources):
            continue
        for src, rank, plain, climbing, jumps in by_src:
            fire = burning.get(src)
            if fire is None:
                continue
            for place, t, _none in climbing if fire >= climb_min else plain:
                rolls.append((rank, place, src, t, fire, ()))
            if jumps and fire >= jump_min:
                for place, t, gaps in jumps:
                    rolls.append((rank, place, src, t, jump_max, gaps))
    rolls.sort(key=_roll_order)
    return [(src, t, limit, gaps) for _r, _p, src, t, limit, gaps in rolls]


def _roll_order(r: tuple[int, int, Location, _Target, int, tuple[str, ...]]) -> tuple[int, int]:
    return r[0], r[1]


def _with_climbs(
    ctx: TurnContext, src: Location, nbs: list[Location], climbs: list[Location]
) -> list[tuple[Location, str | None]]:
    """Neighbours and R-1 climbing targets in one sorted list, for the game."""
    memo: dict[Location, list[tuple[Location, str | None]]] = ctx.cache.setdefault(
        "spread_order", {}
    )
    hit = memo.get(src)
    if hit is None:
        hit = memo[src] = sorted([(b, None) for b in nbs] + [(b, "R-1") for b in climbs])
    return hit


def _jumps_allowed(
    ctx: TurnContext, src: Location, gap: int, gap_down: int
) -> list[tuple[Location, tuple[str, ...]]]:
    """R-5 (target, gap areas) whose width the wind allows (one gap, two downwind), for the
    game; whether the gap and the target can burn is checked each time (fire step)."""
    memo: dict[tuple[Location, int, int], list[tuple[Location, tuple[str, ...]]]] = (
        ctx.cache.setdefault("jumps_allowed", {})
    )
    key = (src, gap, gap_down)
    hit = memo.get(key)
    if hit is None:
        hit = memo[key] = [
            (dst, gaps)
            for dst, gaps in jump_lines(ctx, src)
            if len(gaps) <= (gap_down if downwind(ctx, src[0], dst[0]) else gap)
        ]
    return hit


# -- step 2: growth ------------------------------------------------------------------------------
def step_growth(ctx: TurnContext, state: GameState) -> None:
    """Step 2: each fire rolls 1d6 to grow one (bonuses: a burning neighbour, a wood store);
    road incendiaries age and burn out."""
    rules = ctx.rules
    on = rules.int("growth.on")
    nb_bonus = rules.int("growth.neighbour_burning")
    wood_bonus = rules.int("growth.wood_store")
    burning = set(state.fire)
    need = f">={on}"
    top, road_top = rules.int("fire.max"), rules.int("roads.max_fire")
    if not ctx.log_events:
        _growth_quiet(ctx, state, burning, on, nb_bonus, wood_bonus, top, road_top)
    else:
        _growth_logged(ctx, state, burning, need, nb_bonus, wood_bonus, top, road_top)
    burn_turns = rules.int("roads.burn_turns")
    for loc in sorted(state.street_fire_age):
        age = state.street_fire_age[loc] + 1
        if age >= burn_turns:
            del state.street_fire_age[loc]
            state.fire.pop(loc, None)  # burns out without embers
            ctx.note("road_burnout", at=loc, age=age)
        else:
            state.street_fire_age[loc] = age


def _growth_quiet(
    ctx: TurnContext,
    state: GameState,
    burning: set[Location],
    on: int,
    nb_bonus: int,
    wood_bonus: int,
    top: int,
    road_top: int,
) -> None:
    """The growth rolls of the quiet mode: as :func:`_growth_logged`, with each location's
    neighbours and wood bonus looked up once for the game."""
    plans: dict[Location, tuple[tuple[Location, ...], int]] = ctx.cache.setdefault(
        "growth_plan", {}
    )
    uniform = ctx.dice.uniform()  # die() >= k is uniform() * 6 >= k - 1
    fires = state.fire
    roads = state.street_fire_age
    isdisjoint = burning.isdisjoint
    # only fires below their cap roll (most big fires are at the top already); growth
    # changes no other fire than the one rolling, so the values now are the values then
    if roads:
        growing = [loc for loc, f in fires.items() if f < (road_top if loc in roads else top)]
    else:
        growing = [loc for loc, f in fires.items() if f < top]
    for loc in sorted_locations(ctx, growing):
        fire = fires[loc]
        cap = road_top if loc in roads else top  # fire_cap
        plan = plans.get(loc)
        if plan is None:
            wood = store_at(ctx.scenario, loc) is Material.WOOD
            plan = plans[loc] = (tuple(neighbours(ctx, loc)), wood_bonus if wood else 0)
        mod = plan[1]
        if not isdisjoint(plan[0]):  # a burning neighbour
            mod += nb_bonus
        if uniform() * 6 >= on - 1 - mod:  # die() + mod >= on
            fires[loc] = min(cap, fire + 1)


def _growth_logged(
    ctx: TurnContext,
    state: GameState,
    burning: set[Location],
    need: str,
    nb_bonus: int,
    wood_bonus: int,
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
        mod = 0
        if any(nb in burning for nb in neighbours(ctx, loc)):
            mod += nb_bonus
        if store_at(ctx.scenario, loc) is Material.WOOD:
            mod += wood_bonus
        ok, _ = ctx.test("growth", need, modifier=mod, at=loc)
        if ok:
            state.fire[loc] = min(cap, fire + 1)


# -- step 3: reignition --------------------------------------------------------------------------
def step_reignite(ctx: TurnContext, state: GameState) -> None:
    """Step 3: each ember location rolls 2d6 and re-ignites at fire 1 on 12."""
    rules = ctx.rules
    need = f">={rules.int('embers.reignite_on')}"
    n = rules.int("embers.dice")
    for loc in sorted(state.embers):
        ok, _ = ctx.test("reignite", need, dice=n, at=loc)
        if ok:
            ignite(ctx, state, loc, rules.int("fire.start"), cause="reignite")


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
        ctx.note("damp_loss", at=loc, damp=new)
    state.pending_damp_loss = {}
