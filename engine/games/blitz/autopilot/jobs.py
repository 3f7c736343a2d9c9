"""Where a line plays: the best (branch position, fire) for a new line, the next target
from where a branch stands, and the pump a new line runs from."""

from __future__ import annotations

from ....board.model import AreaKind, Location
from ....core.turn import TurnContext
from ..memos import AP_P_IN, HEAT_MEMO
from ..reach import danger, foot
from ..rules import hoses, reach
from ..state import GameState
from ..units import HoseLine, UnitState
from .priorities import coverage, fire_priority, p_extinguish, p_heat
from .safety import too_hot, trapped

#: weight on the chance of a branch position inside a building next to a fire: a team
#: there can be trapped when the fire spreads in, a team in the street cannot
RISKY = 0.6


def feeding_pump(state: GameState, own: UnitState) -> UnitState | None:
    """The pump a new line runs from: the appliance's own while it has a free delivery
    and water, else another deployed pump in the same street that has both."""

    def usable(p: UnitState) -> bool:
        return (
            p.in_play and p.deployed and p.pumps > 0 and hoses.pump_capacity(state, p) > 0
            and (p.source is not None or p.water > 0)
        )  # fmt: skip

    if usable(own):
        return own
    others = sorted(
        (p for p in state.units.values() if p.loc == own.loc and p.id != own.id and usable(p)),
        key=lambda p: p.id,
    )
    return others[0] if others else None


def next_target(
    ctx: TurnContext, state: GameState, h: HoseLine, pri: set[Location], wet: bool = True
) -> Location | None:
    """From where a branch stands: a fire in range, the embers just beaten, or a threatened
    neighbour of a fire to damp down (these two only with water to spare: not on a tank)."""
    cands = reach.in_range(ctx, h.branch)
    fire = state.fire
    # the fire in range with the least (covered, priority, -chance, location): a loop, the
    # first least kept as min() keeps it (compiled, a key lambda is a generic call)
    best: tuple[bool, int, float, Location] | None = None
    cov: dict[Location, int] | None = None
    for loc, r in cands:
        f = fire.get(loc)
        if f is None or r < 1:
            continue
        if cov is None:
            cov = coverage(state)
        key = (
            cov.get(loc, 0) >= 2,
            fire_priority(ctx, state, loc, pri),
            -p_extinguish(f, ctx.rules.int(f"firefighting.range.{r}")),
            loc,
        )
        if best is None or key < best:
            best = key
    if best is not None:
        return best[3]
    if not wet:
        return None
    if h.target is not None and h.target in state.embers:
        return h.target
    damp_max = ctx.rules.int("firefighting.damp_max")
    threatened = []
    for loc, _r in cands:
        if loc in state.fire or state.damp.get(loc, 0) >= damp_max:
            continue
        if danger.area_kind(ctx, loc[0]) is not AreaKind.BUILDING:
            continue
        near = [nb for nb in danger.neighbours(ctx, loc) if nb in state.fire]
        if near:
            threatened.append((0 if loc in pri else 1, state.damp.get(loc, 0), loc))
    return min(threatened)[2] if threatened else None


def _risk_weight(ctx: TurnContext, state: GameState, x: Location) -> float:
    """Weight on a branch position next to a fire: 1 in an empty street (the fire cannot
    follow), :data:`RISKY` where it can spread in (a building, rubble, a street with a
    vehicle) and the street is a step away, half that with no way straight out."""
    kind = danger.area_kind(ctx, x[0])
    if kind is not AreaKind.BUILDING:
        return RISKY if x[0] in state.rubble or state.has_vehicle(x[0]) else 1.0
    if x[1] == 0 and any(
        danger.area_kind(ctx, nb[0]) in (AreaKind.STREET, AreaKind.OPEN) and nb not in state.fire
        for nb in danger.neighbours(ctx, x)
    ):
        return RISKY
    return RISKY / 2


#: the highest chance to get to and hold a branch position (see :func:`_risk_weight`)
P_IN_MAX = max(1.0, RISKY)


def round3(p: float) -> float:
    """``round(p, 3)`` for a chance (0 to 1; others are left to ``round``): compiled, the
    builtin is a generic call that works through a decimal string, and ``best_job`` asks
    it of every position and pair it weighs (round 24). ``y - n`` is exact, and ``y`` is
    within half a unit in the last place of ``1000 p`` (under 1e-13), so away from a half
    the side ``y`` rounds to is the side ``1000 p`` does, and ``k / 1000`` is the double
    nearest to k thousandths, which is what ``round`` gives (it reads the decimal back
    correctly rounded). Within 1e-6 of a half, ``round`` decides; 0 (either sign) is
    itself."""
    if p == 0.0:
        return p
    if 0.0 < p <= 1.0:
        y = p * 1000.0
        n = float(int(y))
        frac = y - n
        if frac < 0.499999:
            return n / 1000.0
        if frac > 0.500001:
            return (n + 1.0) / 1000.0
    return round(p, 3)


def _class_key(c: tuple[float, float, float, Location, int]) -> tuple[float, float, float]:
    return c[0], c[1], c[2]


def best_job(
    ctx: TurnContext, state: GameState, pump: UnitState, stock: UnitState, pri: set[Location]
) -> tuple[Location, list[Location]] | None:
    """(target, hose route from the pump) with the best expected effect, or None."""
    if pump.loc is None or hoses.pump_capacity(state, pump) <= 0 or stock.hose_left <= 0:
        return None
    r = ctx.rules
    per = r.int("hose.steps_per_length")
    hyd = r.int("hose.hydrant_lengths") if (pump.source or "").startswith("hydrant:") else 0
    reserved = sum(
        hoses.path_lengths(ctx, [*h.path, *h.plan]) - h.lengths
        for h in state.hoses.values()
        if h.plan and h.stock == stock.id
    )  # lengths other lines being laid will still take
    max_len = min(stock.hose_left - reserved, r.int("hose.max_lengths") - hyd)
    if max_len <= 0:
        return None
    dist, prev = foot.foot_search(ctx, state, pump.loc, per * max_len, weight=2)
    cov = coverage(state)
    fires = state.fire
    top = r.int("firefighting.max_range")
    mods = {k: r.int(f"firefighting.range.{k}") for k in range(1, top + 1)}
    water = danger.water_area_set(ctx)
    # a building position's chance is fixed through step 6 (fire, damage and the map
    # decide it): kept for the call of the standing orders; a street's depends on the
    # vehicles, which move, so it is kept for this search only
    p_ins: dict[Location, float] = dict(ctx.cache.get(AP_P_IN) or {})
    kept: dict[Location, float] | None = ctx.cache.get(AP_P_IN)

    opens: dict[Location, float] = {}

    def p_open(x: Location) -> float:
        """Chance to get to and hold branch position ``x`` if it is no trap (0: not a
        position): the trap check (:func:`.safety.trapped`), the dear part, is left to
        :func:`sure`, asked only of a position that would be the best so far."""
        hit = opens.get(x)
        if hit is None:
            hit = 0.0
            if (
                x[0] not in water
                and not danger.unsafe(ctx, state, x)
                and not too_hot(ctx, state, x)
            ):
                h_x = danger.heat(ctx, state, x)
                hit = p_heat(ctx, h_x)
                if hit > 0 and h_x > 0:
                    hit *= _risk_weight(ctx, state, x)
            opens[x] = hit
            if hit <= 0:
                keep(x, hit)
        return hit

    def keep(x: Location, p: float) -> None:
        p_ins[x] = p
        if kept is not None and danger.area_kind(ctx, x[0]) is AreaKind.BUILDING:
            kept[x] = p

    def sure(x: Location, p: float) -> bool:
        """Position ``x`` (:func:`p_open` ``p`` > 0) is no trap: its chance is ``p``."""
        if x in p_ins:
            return True
        if trapped(ctx, state, x):
            keep(x, 0.0)
            return False
        keep(x, p)
        return True

    best: tuple[tuple[float, ...], Location, Location] | None = None
    # the bounds below ask the heat test's chance (:func:`.priorities.p_heat`) of many
    # positions: its two limits read once, the step's heat memo read inline
    pass_max, fail_min = r.int("heat.always_pass_max"), r.int("heat.always_fail_min")
    heats: dict[Location, int] = ctx.cache.get(HEAT_MEMO) or {}

    # every (position, fire) pair in range: walk whichever side is smaller (range is
    # symmetric, and the best pair is the same either way: ties are broken by both ids)
    if len(fires) <= len(dist):
        # fires by a bound on the key's leading fields (cover, priority, -chance, with the
        # best range and a sure position): once a fire's bound is worse than the best key,
        # no later fire can beat it (the best is the key's minimum, whatever the order)
        top_mod = max(mods.values())
        # the bound by fire (fires are whole numbers from 1 to the largest burning now)
        bounds = [
            -round3(p_extinguish(f, top_mod) * P_IN_MAX) for f in range(max(fires.values()) + 1)
        ]
        classes = [
            (float(cov.get(t, 0) >= 2), float(fire_priority(ctx, state, t, pri)), bounds[f], t, f)
            for t, f in fires.items()
        ]
        classes.sort(key=_class_key)
        # the best's key past cover and priority: (-chance, hose steps, position, fire)
        tail: tuple[float, float, Location, Location] | None = None
        chances: dict[int, dict[int, float]] = {}
        for covered, prio, bound, t, fire in classes:
            if best is not None and (covered, prio, bound) > best[0][:3]:
                break
            # consider() for each position in range of t, inline. The fires come in order
            # of cover and priority, and the loop has left once they are worse than the
            # best's: so the best's are this fire's, and only the rest of the key decides
            chance = chances.get(fire)
            if chance is None:  # (one per fire value: fires are whole numbers)
                chance = chances[fire] = {k: p_extinguish(fire, m) for k, m in mods.items()}
            for x, rng in reach.in_range(ctx, t):
                if rng < 1 or x not in dist:
                    continue
                p_in = p_ins.get(x)
                if p_in is None:
                    if tail is not None:  # the best key x could give, with the heat test's
                        # chance (the most p_open can give): no p_open if it cannot win
                        h = heats.get(x)
                        if h is None:
                            h = danger.heat(ctx, state, x)
                        most_in = 1.0 if h <= pass_max else 0.0 if h >= fail_min else (7 - h) / 6
                        # (-chance, hose steps) > the best's, compared without a tuple
                        a = -round3(chance[rng] * most_in)
                        if a > tail[0] or (a == tail[0] and dist[x] > tail[1]):
                            continue
                    p_in = p_open(x)
                if p_in <= 0:
                    continue
                p = chance[rng] * p_in
                if p <= 0:
                    continue
                here = (-round3(p), float(dist[x]), x, t)
                if (tail is None or here < tail) and sure(x, p_in):
                    tail = here
                    best = ((covered, prio, here[0], here[1]), x, t)
    else:
        # p_extinguish by range and fire, worked out once for this call (fires are whole
        # numbers from 1 to the largest burning now)
        most = max(fires.values())
        ext = {k: [p_extinguish(f, m) for f in range(most + 1)] for k, m in mods.items()}
        # a fire's cover and priority as one number in the same order (priorities are 0
        # to 2): the key (cover, priority, -chance, hose steps, position, fire) compared
        # as (grade, -chance, hose steps, position, fire), with the best's fields apart
        grades: dict[Location, int] = {}
        bg = 0
        bkey: tuple[int, float, float, Location, Location] | None = None
        # the best chance to put a fire out from any range (a fire of 1, the best range)
        most_ext = max(by_fire[1] for by_fire in ext.values())
        for x in dist:
            dx = float(dist[x])
            p_in = p_ins.get(x)
            if p_in is None:
                if bkey is not None:  # as below, with the heat test's chance (p_open's most)
                    h = heats.get(x)
                    if h is None:
                        h = danger.heat(ctx, state, x)
                    most_in = 1.0 if h <= pass_max else 0.0 if h >= fail_min else (7 - h) / 6
                    # (0, -chance, hose steps) > the best's (grade, ...), without a tuple
                    a = -round3(most_ext * most_in)
                    if bg == 0 and (a > bkey[1] or (a == bkey[1] and dx > bkey[2])):
                        continue
                p_in = p_open(x)  # no dice, no state change: only its memo
            if p_in <= 0:
                continue
            if bkey is not None and bg == 0:
                a = -round3(most_ext * p_in)
                if a > bkey[1] or (a == bkey[1] and dx > bkey[2]):
                    continue  # even grade 0 at the best chance from here cannot beat the best
            for t, rng in reach.in_range(ctx, x):
                burning = fires.get(t)
                if burning is None or rng < 1:
                    continue
                # leave as soon as the key cannot beat the best
                grade = grades.get(t)
                if grade is None:
                    grade = 4 * (cov.get(t, 0) >= 2) + fire_priority(ctx, state, t, pri)
                    grades[t] = grade
                if bkey is not None and grade > bg:
                    continue
                p = ext[rng][burning] * p_in
                if p <= 0:
                    continue
                key = (grade, -round3(p), dx, x, t)
                if bkey is None or key < bkey:
                    if not sure(x, p_in):
                        break  # a trap: its chance is 0 now, no later fire from x counts
                    bkey, bg = key, grade
                    best = ((float(grade >= 4), float(grade % 4), key[1], dx), x, t)
    if best is None:
        return None
    _, x, t = best
    return t, foot.path_to(prev, pump.loc, x)
