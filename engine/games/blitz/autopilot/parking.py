"""Appliances on the move: the fire's reach to a street, where to park (and when to pull
back), the water to connect to there, and the ladders to pitch or strike."""

from __future__ import annotations

from bisect import insort
from heapq import heapify, heappop
from typing import Any, Final

from ....board.model import AreaKind, FeatureType, Location
from ....core.turn import TurnContext
from ..events import HoseSlipped, LadderStruck, Withdraw
from ..memos import (
    AP_CATCH,
    AP_CUT,
    AP_FIRE_TOTAL,
    AP_HOT_AREAS,
    AP_JUMP,
    AP_SIDE,
    AP_SOURCES,
    AP_THREAT,
    JUMP_STREETS,
    JUMPS_INTO,
    NEIGHBOURS,
    SHELTER_EXPOSURE,
    WATER_HERE,
    WATER_NEXT_DOOR,
)
from ..reach import danger
from ..reach.hose_steps import hose_reach, steps_to
from ..rules import acting, equipment, ignition, reach
from ..rules import movement as mv
from ..rules.modifiers import fighting_locations, spread_map_parts, total
from ..state import GameState, pump_of
from ..units import UnitState, crew_of
from .priorities import coverage, fire_sources, policy, vehicle_areas
from .safety import catch_chance, catch_chance_two

#: parking penalties, in hose steps: a street next to a fire (a parked vehicle makes its
#: street flammable and burns out when the fire spreads in, R-10), a street one location
#: away from a fire (the next spread brings it next door), a street with no water but the
#: tank, a street whose every way out runs next to a fire, a street downwind of a fire
PARK_HOT, PARK_NEAR, PARK_DRY, PARK_TRAPPED, PARK_DOWNWIND = 12, 3, 3, 3, 1


#: how far (in spread steps) the fire's threat to a street is measured
THREAT_RANGE: Final = 3


#: an appliance whose street has this much heat next to it slips its lines and drives off
WITHDRAW_HEAT = 2


def keep_clear(ctx: TurnContext, state: GameState, u: UnitState) -> bool:
    """A free vehicle drives to the nearest street out of the fire's reach when its street
    may catch next turn, by a spread from next door or a jump (R-10: a vehicle makes its
    street flammable; chance ``policy.vehicle_move_chance`` or more), when it is not an
    appliance or pump and a fire is within two spreads, or when a collapse may close its
    way back to an entry (:func:`entry_side`). Whether it moved."""
    if u.loc is None or mv.tied_down(state, u):
        return False
    here = u.loc[0]
    leave, risk, near, boxed, side = _leave_street(ctx, state, u, here)
    if not leave:
        return False
    if u.role == "appliance" and engaged(state, u):
        return False
    crews = crew_of(state.units, u.id)
    if any(s.loc != u.loc or s.task not in ("aboard", "idle") for s in crews) or u.carrying:
        return False
    routes = reach.road_routes(ctx, state, here)

    def beyond(a: str) -> bool:
        return street_risk(ctx, state, a) == 0 and street_threat(ctx, state, a) >= 3

    cool = [
        a for a in routes if danger.heat(ctx, state, (a, 0)) == 0
        and (street_risk(ctx, state, a) < risk or ((near or boxed) and beyond(a)))
    ]  # fmt: skip
    if boxed and any(a in side for a in cool):
        cool = [a for a in cool if a in side]  # back to the entries' side first
    cool = [a for a in cool if a != here]
    if not cool:
        return False
    jumps = jump_chances(ctx, state)
    # out of the fire's reach (two spreads away or more, no jump) when there is such a street
    to = min(
        cool,
        key=lambda a: (
            street_risk(ctx, state, a) > 0,
            street_threat(ctx, state, a) < 3,
            jumps.get(a, (0.0, False))[1],
            len(routes[a]),
            a,
        ),
    )
    for s in crews:
        s.task = "aboard"
    return mv.drive(ctx, state, u, to)


def _leave_street(
    ctx: TurnContext, state: GameState, u: UnitState, area: str
) -> tuple[bool, float, bool, bool, set[str]]:
    """Whether :func:`keep_clear` drives ``u`` out of street ``area``, with the reasons it
    weighs: (leave, the street's risk, a fire within two spreads, boxed, the entries' side)."""
    risk = street_risk(ctx, state, area)
    near = u.role not in ("appliance", "pump") and street_threat(ctx, state, area) < 3
    side = entry_side(ctx, state)
    boxed = bool(side) and area not in side
    hot = danger.heat(ctx, state, (area, 0)) > 0
    return (
        hot or near or boxed or risk >= policy(ctx, "vehicle_move_chance"),
        risk,
        near,
        boxed,
        side,
    )


def stays_clear(ctx: TurnContext, state: GameState, u: UnitState, area: str) -> bool:
    """Whether ``u`` may park in street ``area`` without :func:`keep_clear` driving it away
    again next turn (a vehicle that parks where it must flee never lets its crew out)."""
    return not _leave_street(ctx, state, u, area)[0]


def entry_side(ctx: TurnContext, state: GameState) -> set[str]:
    """The streets joined to an entry by streets that are open now and that no collapse is
    likely to close soon (none next to a building location burning at
    ``damage.fire_for_roll`` with damage ``policy.closing_damage`` or more, §6: its rubble
    would block the street). Empty when the map has no entry. Worked out once a call of
    the standing orders (fire, damage and what blocks a road do not change in step 6; do
    not mutate)."""
    hit: set[str] | None = ctx.cache.get(AP_SIDE)
    if hit is None:
        hit = _entry_side(ctx, state)
        if AP_SIDE in ctx.cache:
            ctx.cache[AP_SIDE] = hit
    return hit


def _entry_side(ctx: TurnContext, state: GameState) -> set[str]:
    entries = mv.entry_areas(ctx)
    if not entries:
        return set()
    worn = int(policy(ctx, "closing_damage"))
    closing = set(reach.road_blocked(ctx, state))
    # the areas first (a building's levels share its neighbours), then their neighbours
    for a, d in hot_areas(ctx, state).items():
        if d >= worn:
            closing.update(danger.area_neighbours(ctx, a))
    side: set[str] = set()
    for e in entries:
        if e not in side and e not in closing:
            side |= reach.road_reach(ctx, e, closing)  # road_routes' streets
    return side


def street_threat(ctx: TurnContext, state: GameState, area: str) -> int:
    """How many spreads a fire needs to reach a vehicle parked in ``area``: 1 when a
    neighbour burns (it can spread in next turn), up to ``THREAT_RANGE + 1`` (out of
    reach)."""
    return _street_threat(ctx, state, area)[0]


def jump_chances(ctx: TurnContext, state: GameState) -> JumpChances:
    """For each street or open area a fire can jump into (R-5) if a vehicle stands there:
    (the chance a jump reaches it in the next step 1, from the fires of ``jump.min_fire``
    now; whether a fire one below that, which may grow first, could jump there). Jumps come
    over gaps that cannot burn (no vehicle or rubble in them), one area wide, two downwind;
    a jump needs a modified roll of ``jump.max`` (§3 modifiers: damp, and a hose team at
    work in the street, stop it). Kept for one call of the
    standing orders (fire does not change in step 6), each street worked out when first
    asked (:class:`JumpChances`)."""
    hit: JumpChances | None = ctx.cache.get(AP_JUMP)
    if hit is None:
        hit = JumpChances(ctx, state)
        if AP_JUMP in ctx.cache:
            ctx.cache[AP_JUMP] = hit
    return hit


class JumpChances:
    """:func:`jump_chances`' answer, read like a dict (``get``, ``[]``): a street's entry
    is made when first asked, from the map's list of the jumps into it (:func:`_jumps_into`,
    in the order of their sources), so only the streets asked about cost anything (the
    same numbers, multiplied in the same order, as a walk over every fire). A street no
    fire of ``jump.min_fire`` or one below can jump into has no entry."""

    def __init__(self, ctx: TurnContext, state: GameState) -> None:
        r = ctx.rules
        self.ctx, self.state = ctx, state
        self.jmin, self.jmax = r.int("jump.min_fire"), r.int("jump.max")
        self.per_damp, self.embers = r.int("spread.damp_per_level"), r.int("spread.embers")
        self.hose_team = r.int("spread.hose_team")
        self.fighting = fighting_locations(state)  # §3: a hose team at work there, +1
        self.into = _jumps_into(ctx, state.fire, self.jmin - 1)
        self.done: dict[str, tuple[float, bool] | None] = {}
        # :func:`street_risk` by street, when the call keeps the spread chances too (the
        # standing orders' ``ap_catch``); else None (each answer worked out afresh)
        self.risk: dict[str, float] | None = {} if ctx.cache.get(AP_CATCH) is not None else None
        # :func:`parking_penalty` by street, with the blocked streets it was worked out
        # around, kept as :attr:`risk` is (its parts are fixed for the call: the fire's
        # reach, the jumps, the roads); else None
        self.penalty: dict[str, tuple[set[str], int]] | None = (
            {} if self.risk is not None and ctx.cache.get(AP_THREAT) is not None else None
        )
        # :func:`cut_soon` by the appliance's street, kept as :attr:`penalty` is (its parts
        # are fixed for the call too: the closing streets, the roads, the fire's reach and
        # the risks); else None. Its sets are shared: do not mutate
        self.cut: dict[str, set[str]] | None = {} if self.penalty is not None else None
        # :func:`shelter`'s street (or None: it stays) by the street it is asked from and
        # the streets to avoid, kept as :attr:`penalty` is (the roads, the entries' side
        # and the risks are the call's)
        self.shelter: dict[tuple[str, frozenset[str]], str | None] | None = (
            {} if self.penalty is not None else None
        )

    def get(self, area: str, default: tuple[float, bool] = (0.0, False)) -> tuple[float, bool]:
        done = self.done
        hit = done[area] if area in done else done.setdefault(area, self._work(area))
        return default if hit is None else hit

    def __contains__(self, area: str) -> bool:
        return self.get(area, (-1.0, False))[0] >= 0

    def __getitem__(self, area: str) -> tuple[float, bool]:
        hit = self.get(area, (-1.0, False))
        if hit[0] < 0:
            raise KeyError(area)
        return hit

    def _work(self, area: str) -> tuple[float, bool] | None:
        state = self.state
        # the entries' locations read as objects (compiled, a typed ``Location`` would be
        # made anew at each look-up)
        entries: list[Any] | None = self.into.get(area)
        if entries is None:
            return None
        fire: dict[Any, int] = state.fire
        rubble = state.rubble
        jmin = self.jmin
        miss: float | None = None
        soon = False
        here: int | None = None
        for src, _k, dst, gaps, map_mod in entries:
            f = fire.get(src)
            if f is None or f < jmin - 1:
                continue
            if gaps and not rubble.isdisjoint(gaps):
                continue  # a gap that burns now (§1: rubble in a street)
            # a vehicle in the gap shields nothing for long: it drives off (then the jump
            # is open) or burns (then its wreck spreads on), so it is not counted
            if f < jmin:
                soon = True
                continue
            if here is None:  # the state's part (spread_state_parts)
                here = state.damp.get(dst, 0) * self.per_damp
                if dst in state.embers:
                    here += self.embers
                if dst in self.fighting:
                    here += self.hose_team
            p = max(0, min(6, self.jmax - (map_mod + here))) / 6
            miss = (1.0 if miss is None else miss) * (1 - p)
        if miss is None:
            return (0.0, True) if soon else None
        return (1 - miss, soon)


#: :func:`_jumps_into`'s entry: (source, its place in the source's list, target, gaps, the
#: map's part of the modifier); sorted, entries run by source, then in the source's order
_Into = tuple[Location, int, Location, tuple[str, ...], int]


def _jumps_into(ctx: TurnContext, fire: dict[Location, int], least: int) -> dict[str, list[_Into]]:
    """For each street or open area, the jumps into it (:func:`_jump_streets`) from every
    location burning at ``least`` or more in ``fire``, in order of their sources (the order
    :func:`jump_chances` took them in when it walked the fires), and maybe from other
    locations (never a fire in this call: they are skipped). The map's lists, filled as
    sources catch, kept for the game."""
    memo: dict[str, Any] = ctx.cache.setdefault(JUMPS_INTO, {})
    if not memo:
        memo["done"], memo["into"] = set(), {}
    done: set[Any] = memo["done"]
    into: dict[str, list[_Into]] = memo["into"]
    # the sources not yet listed (most fires are listed by now: each fire big enough is
    # looked up once); the lists are sorted, so the order they are listed in does not matter
    # (read as objects: compiled, a typed ``Location`` is made anew at each look-up)
    fires: dict[Any, int] = fire
    for src, f in fires.items():
        if f >= least and src not in done:
            done.add(src)
            for k, (dst, gaps, map_mod) in enumerate(_jump_streets(ctx, src)):
                insort(into.setdefault(dst[0], []), (src, k, dst, gaps, map_mod))
    return into


def _jump_streets(ctx: TurnContext, src: Location) -> list[tuple[Location, tuple[str, ...], int]]:
    """The streets and open areas (level 0) a fire in ``src`` can jump into as the map
    stands (R-5: gaps one area wide, two downwind; no building in the gap, which always
    burns): (target, the gap areas that burn with rubble or a vehicle in them, the map's
    part of the modifier), in ``jump_lines`` order; kept for the game."""
    memo: dict[Location, list[tuple[Location, tuple[str, ...], int]]] = ctx.cache.setdefault(
        JUMP_STREETS, {}
    )
    hit = memo.get(src)
    if hit is None:
        r = ctx.rules
        gap, gap_down = r.int("jump.gap"), r.int("jump.gap_downwind")
        hit = []
        for dst, gaps in ignition.jump_lines(ctx, src):
            if dst[1] != 0 or danger.area_kind(ctx, dst[0]) not in (AreaKind.STREET, AreaKind.OPEN):
                continue
            if len(gaps) > (gap_down if ignition.downwind(ctx, src[0], dst[0]) else gap):
                continue
            kinds = [danger.area_kind(ctx, g) for g in gaps]
            if AreaKind.BUILDING in kinds:
                continue
            streets = tuple(
                g for g, k in zip(gaps, kinds, strict=True) if k not in (None, AreaKind.WATER)
            )
            hit.append((dst, streets, total(spread_map_parts(ctx, src, dst))))
        memo[src] = hit
    return hit


def threatened(ctx: TurnContext, state: GameState, loc: Location) -> bool:
    """A street location (holding a vehicle) that a fire could enter in the next step 1:
    a neighbour burns, or a fire of ``jump.min_fire`` (or one below it, which may grow
    first) stands a jump away (R-5) over a gap that cannot burn now."""
    return danger.heat(ctx, state, loc) > 0 or loc[0] in jump_chances(ctx, state)


def street_risk(ctx: TurnContext, state: GameState, area: str) -> float:
    """The chance a vehicle in ``area`` is burned out in the next step 1 (R-10): a burning
    neighbour spreads in (§3, the spread table with its modifiers) or a fire of 5 jumps in
    (R-5). In the standing orders the answer is kept for the call (:attr:`JumpChances.risk`:
    both chances are, and the street's risk does not depend on who asks)."""
    jumps = jump_chances(ctx, state)
    memo = jumps.risk
    if memo is not None:
        hit = memo.get(area)
        if hit is not None:
            return hit
    spread = catch_chance(ctx, state, (area, 0))
    out = 1 - (1 - spread) * (1 - jumps.get(area, (0.0, False))[0])
    if memo is not None:
        memo[area] = out
    return out


def street_risk_two(ctx: TurnContext, state: GameState, area: str) -> float:
    """The chance a vehicle in ``area`` is burned out in one of the next two spread steps
    (:func:`.safety.catch_chance_two`, and a fire of 5 a jump away rolling twice): what a
    unit that takes a turn to pack up (§7) weighs, since it cannot drive off at once."""
    spread = catch_chance_two(ctx, state, (area, 0))
    jump = jump_chances(ctx, state).get(area, (0.0, False))[0]
    return 1 - (1 - spread) * (1 - jump) * (1 - jump)


def out_of_reach(ctx: TurnContext, state: GameState, area: str) -> bool:
    """A street three spreads or more from every fire with no jump into it, now or once a
    fire of 4 grows: where a pump with no crew of its own waits (it takes turns to pack
    up, and nobody guards its street)."""
    return street_threat(ctx, state, area) > 2 and not any(
        jump_chances(ctx, state).get(area, (0.0, False))
    )


def packs_up(ctx: TurnContext, state: GameState, area: str) -> bool:
    """Whether a unit set up in ``area`` that takes turns to pack up (a trailer or skid
    pump, §7) should start now: its street catches within two spread steps with chance
    ``policy.pack_up_chance`` or more (0: never)."""
    least = policy(ctx, "pack_up_chance")
    return least > 0 and street_risk_two(ctx, state, area) >= least


def _street_threat(ctx: TurnContext, state: GameState, area: str) -> tuple[int, Location | None]:
    """(threat, the nearest fire) by a search outward from the street through locations a
    fire can enter now (buildings, rubble, streets holding a vehicle), :data:`THREAT_RANGE`
    deep: the work follows the street, not the number of fires. Remembered for one call of
    the standing orders (fire does not change in step 6)."""
    memo: dict[str, tuple[int, Location | None]] | None = ctx.cache.get(AP_THREAT)
    if memo is not None:
        known = memo.get(area)
        if known is not None:
            return known
    out: tuple[int, Location | None] = (THREAT_RANGE + 1, None)
    # locations read as the objects they are (``Any``, not ``Location``: compiled, each
    # look-up of a typed one would make its tuple anew, as in :mod:`..reach.foot`)
    fire: dict[Any, int] = state.fire
    start: Any = (area, 0)
    if start in fire:
        out = (1, start)
    elif fire:
        vehicles = vehicle_areas(ctx, state)
        # ``ignition.is_flammable`` inline: a building, or a street or open ground with
        # rubble or a vehicle (water and areas off the map never burn)
        kinds, rubble = danger.area_kinds(ctx), state.rubble
        building, water = AreaKind.BUILDING, AreaKind.WATER
        nbs: dict[Any, list[Any]] | None = ctx.cache.get(NEIGHBOURS)
        seen = {start}
        frontier: list[Any] = [start]
        for d in range(1, THREAT_RANGE + 1):
            nxt: list[Any] = []
            hit: Any = None
            for loc in frontier:
                near = nbs.get(loc) if nbs is not None else None
                if near is None:
                    near = danger.neighbours(ctx, loc)
                for nb in near:
                    if nb in seen:
                        continue
                    seen.add(nb)
                    if nb in fire:
                        if hit is None or nb < hit:
                            hit = nb
                        continue
                    kind = kinds.get(nb[0])
                    if kind is building or (
                        kind is not None
                        and kind is not water
                        and (nb[0] in rubble or nb[0] in vehicles)
                    ):
                        nxt.append(nb)
            if hit is not None:
                out = (d, hit)
                break
            frontier = nxt
    if memo is not None:
        memo[area] = out
    return out


def engaged(state: GameState, u: UnitState, crews: list[UnitState] | None = None) -> bool:
    """An appliance with a line of its own, or a stand of its crew away from it or at work.
    ``crews``: its crew (:func:`crew_of`) when the caller holds it already; a stand that
    has left play since is passed over, as :func:`crew_of` would."""
    uid = u.id
    for h in state.hoses.values():
        if h.stock == uid or h.unit == uid:
            return True
    loc = u.loc
    return any(
        s.in_play and (s.task not in ("aboard", "idle", "rest") or s.loc != loc)
        for s in (crew_of(state.units, uid) if crews is None else crews)
    )


def left_behind(
    state: GameState, u: UnitState, crews: list[UnitState], anywhere: bool = False
) -> bool:
    """An appliance :func:`engaged` only by lines left where they were slipped: every line
    of its own lies cut with nobody on it or making it up, and its whole crew is at the
    vehicle (or, ``anywhere``, wherever they are: round 15b) with no line and no work
    (aboard, idle or resting). Its work where it stands is over (round 15)."""
    uid, loc = u.id, u.loc
    for h in state.hoses.values():
        if (h.unit == uid or h.stock == uid) and (not h.cut or h.crew or h.recover_left or h.plan):
            return False
    return all(
        (anywhere or s.loc == loc) and s.hose is None and s.task in ("aboard", "idle", "rest")
        for s in crews
        if s.in_play
    )


def withdraw(ctx: TurnContext, state: GameState, u: UnitState, pri: set[Location]) -> bool:
    """R-7 in spirit: an appliance whose street may catch next turn (chance
    ``policy.vehicle_withdraw_chance`` or more, a spread or a jump, R-10), or has unfought
    fires next to it adding up to ``WITHDRAW_HEAT``, or is off the entries' side
    (:func:`entry_side`) while that side is in reach, pulls back out of the fire's reach.
    Its lines are slipped (left cut, for the teams to make up and carry back) and its
    ladders struck; teams at the vehicle ride with it, the others walk back to it. With a
    trailer pump set up, it recovers the pump first (a turn). Whether it drove off (or
    began to recover its pump)."""
    if u.loc is None or acting.acted(state, u):
        return False
    risk = street_risk(ctx, state, u.loc[0])
    side = entry_side(ctx, state)
    routes: dict[str, list[str]] | None = None  # the road search, only when it is needed
    boxed = False
    if side and u.loc[0] not in side:
        routes = reach.road_routes(ctx, state, u.loc[0])
        boxed = any(a in side for a in routes)
    outside: set[str] = set()  # the far streets beyond a closing collapse (:func:`cut_soon`)
    if not boxed:
        outside = cut_soon(ctx, state, u)
    heat = danger.heat(ctx, state, u.loc)
    jump = jump_chances(ctx, state).get(u.loc[0], (0.0, False))[0]
    # a lone fire of 1 next door is guarded by a line rather than run from, when there is
    # water to guard it with and a line there or one of its own in reach of it
    hot = risk >= policy(ctx, "vehicle_withdraw_chance") and (
        heat >= WITHDRAW_HEAT or jump > 0 or dry(ctx, state, u) or unguarded(ctx, state, u)
    )
    # (the cheapest test, and the one few units pass, first: a unit set up)
    trailers = sorted((p for p in state.units.values()
                       if p.deployed and p.towed_by is None and p.extra.get("tow") == u.id
                       and p.loc == u.loc), key=lambda x: x.id)  # fmt: skip
    if u.deployed and equipment.sets_up(ctx, u):
        trailers.append(u)  # its own trailer pump is set up
    if trailers:
        # it would leave its trailer pump behind: only when the street is likely to catch
        # (now, or within the turn the pump takes to recover: ``packs_up``) does it slip
        # its lines and recover the pump (a turn), to drive off after
        if any(p.task == "stow" for p in trailers):
            return False
        if not hot and not packs_up(ctx, state, u.loc[0]):
            return False
    elif not hot and not boxed and not outside:
        if heat < WITHDRAW_HEAT:
            return False
        cov = coverage(state)
        if all(cov.get(nb, 0) for nb in danger.neighbours(ctx, u.loc) if nb in state.fire):
            return False  # lines are on every fire next to it: they may yet put it out
    if trailers:
        _slip_lines(ctx, state, u)
        for p in trailers:
            _slip_lines(ctx, state, p)
        return any([equipment.stow(ctx, state, p) for p in trailers])
    if u.extra.get("held_ladders") and u.extra.get("held_since") == state.turn:
        return False  # not in the turn the player had its ladder pitched
    if routes is None:
        routes = reach.road_routes(ctx, state, u.loc[0])
    # the streets it may pull back to; the parking street is taken when it is one of them
    # that cannot catch next step 1, so it is asked only when there is such a street (the
    # risks are the call's, whoever asks first)
    safe = [a for a in routes if street_threat(ctx, state, a) >= 2
            and (a in side or not boxed) and (not outside or a in outside)]  # fmt: skip
    if not safe:
        return False
    to = (
        choose_parking(ctx, state, u, pri)
        if any(not street_risk(ctx, state, a) > 0 for a in safe)
        else None
    )
    if (to is None or to not in routes or street_threat(ctx, state, to) < 2
            or street_risk(ctx, state, to) > 0 or (boxed and to not in side)
            or (outside and to not in outside)):  # fmt: skip
        to = min(safe, key=lambda a: (street_risk(ctx, state, a) > 0,
                                      -min(street_threat(ctx, state, a), 3), len(routes[a]), a))  # fmt: skip
        if street_risk(ctx, state, to) >= risk and not boxed and not outside:
            return False
    if to == u.loc[0]:
        return False
    _slip_lines(ctx, state, u)
    if any(ld.at is not None for ld in u.ladders):
        equipment.strike_ladders(ctx, state, u)
        u.extra.pop("held_ladders", None)
        ctx.note(LadderStruck, at=u.loc, unit=u.id)
    for s in crew_of(state.units, u.id):
        if s.loc == u.loc and s.hose is None and s.order is None:
            s.task = "aboard"
    ctx.note(Withdraw, at=u.loc, to=(to, 0), unit=u.id, cause="fire_near")
    return mv.drive(ctx, state, u, to)


def _closing(ctx: TurnContext, state: GameState, worn: int) -> frozenset[str]:
    """The streets next to a building burning at ``damage.fire_for_roll`` with damage
    ``worn`` or more (:func:`cut_soon`), worked out once a call of the standing orders
    (fire and damage do not change in step 6)."""
    hit: frozenset[str] | None = ctx.cache.get(AP_CUT)
    if hit is None:
        # the areas first (a building's levels share its neighbours), then their neighbours
        kinds = danger.area_kinds(ctx)
        closing: set[str] = set()
        for a, d in hot_areas(ctx, state).items():
            if d >= worn and kinds.get(a) is AreaKind.BUILDING:
                closing.update(danger.area_neighbours(ctx, a))
        hit = frozenset(closing)
        if AP_CUT in ctx.cache:
            ctx.cache[AP_CUT] = hit
    return hit


def hot_areas(ctx: TurnContext, state: GameState) -> dict[str, int]:
    """Each area with a location burning at ``damage.fire_for_roll`` or more: the most
    damage among those locations (an undamaged one counts 1). What :func:`_closing` and
    :func:`_entry_side` ask of the fire (an area qualifies at damage ``worn`` when this is
    ``worn`` or more), from one walk over the fires a call of the standing orders (fire
    and damage do not change in step 6; round 24: each walked them for itself). The call
    is told apart as :func:`fire_total` tells it (do not mutate)."""
    call = ctx.cache.get(AP_SOURCES)
    if call is not None:
        known: tuple[object, dict[str, int]] | None = ctx.cache.get(AP_HOT_AREAS)
        if known is not None and known[0] is call:
            return known[1]
    hot = ctx.rules.int("damage.fire_for_roll")
    # (the locations read as objects: compiled, a typed ``Location`` is made anew at
    # each look-up)
    fire: dict[Any, int] = state.fire
    damage: dict[Any, int] = state.damage
    out: dict[str, int] = {}
    loc: Any
    for loc, f in fire.items():
        if f >= hot:
            d = damage.get(loc, 1)
            a: str = loc[0]
            top = out.get(a)
            if top is None or d > top:
                out[a] = d
    if call is not None:
        ctx.cache[AP_HOT_AREAS] = (call, out)
    return out


def cut_soon(ctx: TurnContext, state: GameState, u: UnitState) -> set[str]:
    """An appliance at work (a line of its own out) that the forecast rubble is cutting
    off: every street it can drive to now that cannot catch in the next step 1 and lies two
    spreads or more from every fire (where :func:`withdraw` pulls back to) lies beyond the
    streets next to a building burning at ``damage.fire_for_roll`` with damage
    ``policy.cutoff_damage`` or more (§6: its collapse drops rubble there, and no vehicle
    crosses rubble, §7). Those far streets, to pull back to while the roads are open; else
    empty (nothing is closing round it, it has no far street in reach, or the policy is
    off, 0). Round 14: :func:`entry_side` asks the same only of the way to the entries."""
    worn = int(policy(ctx, "cutoff_damage"))
    if worn <= 0 or u.loc is None or not any(h.unit == u.id for h in state.hoses.values()):
        return set()
    here = u.loc[0]
    # past the line test the answer depends on the street alone, and every part of it is
    # the call's (the closing streets, the roads, the fire's reach and the risks): kept
    # by street for the call, with the risks (:attr:`JumpChances.cut`)
    memo = jump_chances(ctx, state).cut
    if memo is not None:
        known = memo.get(here)
        if known is None:
            known = memo[here] = _cut_soon(ctx, state, here, worn)
        return known
    return _cut_soon(ctx, state, here, worn)


def _cut_soon(ctx: TurnContext, state: GameState, here: str, worn: int) -> set[str]:
    closing = _closing(ctx, state, worn) - {here}
    if not closing:
        return set()
    routes = reach.road_routes(ctx, state, here)
    if not any(a in closing for a in routes):
        return set()
    # a far street still joined to ``here`` whatever falls: nothing to pull back from (asked
    # first, as it is the common answer and stops at the first such street)
    kept = reach.road_reach(ctx, here, reach.road_blocked(ctx, state) | closing)
    for a in routes:
        if a != here and a in kept and _far(ctx, state, a):
            return set()
    far = {a for a in routes if a != here and a not in kept and _far(ctx, state, a)}
    return {a for a in far if a not in closing}


def _far(ctx: TurnContext, state: GameState, street: str) -> bool:
    """Where :func:`withdraw` pulls back to: a street that cannot catch in the next step 1
    and lies two spreads or more from every fire."""
    return street_threat(ctx, state, street) >= 2 and not street_risk(ctx, state, street) > 0


def unguarded_fires(state: GameState, around: list[Location]) -> list[Location]:
    """The fires among ``around`` (in its order) that no line plays on: what an appliance
    next to them must guard or run from."""
    fire = state.fire
    near = [nb for nb in around if nb in fire]  # (the lines' cover only when one burns)
    if not near:
        return near
    cov = coverage(state)
    return [nb for nb in near if not cov.get(nb)]


def unguarded(ctx: TurnContext, state: GameState, u: UnitState) -> bool:
    """A fire next to the appliance's street that no line plays on and that none of its own
    lines reaches from where its branch is (§7, R-15: range 3), so no line of its own can
    turn to guard it (the guard of :mod:`.teams`): a reason to pull back as good as
    ``WITHDRAW_HEAT`` when the street may catch (round 14; ``policy.withdraw_unguarded``
    0: off)."""
    if u.loc is None or policy(ctx, "withdraw_unguarded") <= 0:
        return False
    near = unguarded_fires(state, danger.neighbours(ctx, u.loc))
    if not near:
        return False
    for h in state.hoses.values():
        if h.unit != u.id or h.cut:
            continue
        for loc, rng in reach.in_range(ctx, h.branch):
            if rng >= 1 and loc in near:
                return False
    return True


def dry(ctx: TurnContext, state: GameState, u: UnitState) -> bool:
    """The appliance's pump (:func:`.state.pump_of`) has no water to give: no source
    connected, an empty tank, and none at hand in its street (:func:`water_at`). Its
    lines cannot guard its street, and it has nothing to do near the fire."""
    pump = pump_of(state, u)
    if pump.source is not None or pump.water > 0 or u.loc is None:
        return False
    return not water_at(ctx, state, u.loc[0])


def spent(ctx: TurnContext, state: GameState, u: UnitState) -> bool:
    """The appliance's pump runs on a tank it has drawn down to its reserve
    (:func:`on_reserve`) and has no other water at hand in its street: it has nothing left
    to give the fire (a pump that never had a tank waits for water where the fire is)."""
    pump = pump_of(state, u)
    return on_reserve(ctx, pump) and u.loc is not None and not water_at(ctx, state, u.loc[0])


def on_reserve(ctx: TurnContext, pump: UnitState) -> bool:
    """A pump with a tank (the catalogue's ``water``), no other source connected, and
    ``policy.tank_reserve`` points or fewer left in it: the rest is kept to wet its own
    street (round 7), not spent on the fire."""
    return (
        pump.source is None
        and pump.water <= policy(ctx, "tank_reserve")
        and bool(ctx.rules.units.get(pump.type, {}).get("water"))
    )


def shelter(
    ctx: TurnContext,
    state: GameState,
    u: UnitState,
    crew: bool = True,
    avoid: frozenset[str] = frozenset(),
) -> bool:
    """A vehicle with nothing left to do near the fire (an appliance with no water,
    :func:`dry`, and none to park at) drives, while the roads are open, to the street the
    fire is least likely ever to reach (:func:`exposure`) among those it can reach that
    cannot catch in the next step 1, on the entries' side when there is one, the nearest of
    the equals; it stays where it is when that is no better. When every street in reach
    may catch, it drives to the one least likely to, if that is less likely than its own
    (then the entries' side, the exposure, the drive). Its crew at the vehicle rides
    with it (``crew``; else they stay, as the lorry's team at its line's end). Whether it
    moved."""
    if u.loc is None or mv.tied_down(state, u):
        return False
    to = shelter_street(ctx, state, u.loc[0], avoid)
    if to is None:
        return False
    if crew:
        for s in crew_of(state.units, u.id):
            if s.loc == u.loc:
                s.task = "aboard"
    return mv.drive(ctx, state, u, to)


def shelter_street(
    ctx: TurnContext, state: GameState, here: str, avoid: frozenset[str] = frozenset()
) -> str | None:
    """The street :func:`shelter` drives a vehicle in ``here`` to, or None when it stays.
    It follows from ``here`` and ``avoid`` alone, every other part being the call's (the
    roads, the entries' side, the risks): kept for the call (:attr:`JumpChances.shelter`;
    vehicles wait together, so many ask the same)."""
    routes = reach.road_routes(ctx, state, here)
    if here not in routes:
        return None  # (before the jump chances are asked for: they are made when first asked)
    memo = jump_chances(ctx, state).shelter
    if memo is None:
        return _shelter_to(ctx, state, here, routes, avoid)
    key = (here, avoid)
    if key in memo:
        return memo[key]
    to = memo[key] = _shelter_to(ctx, state, here, routes, avoid)
    return to


def _shelter_to(
    ctx: TurnContext,
    state: GameState,
    here: str,
    routes: dict[str, list[str]],
    avoid: frozenset[str],
) -> str | None:
    """:func:`shelter`'s street for a vehicle in ``here`` (``routes``: the roads from
    it), or None when it stays."""
    if avoid:
        routes = {a: r for a, r in routes.items() if a == here or a not in avoid}
    side = entry_side(ctx, state)
    exposed = exposures(ctx)
    # the rank is (may catch next step 1, off the entries' side, exposure, the drive, the
    # street), the least wins: by the map's part alone first (a heap), the best is the
    # first street that cannot catch (street_risk 0); so only the streets ahead of it ask
    # their risk
    ranked = [
        (bool(side) and a not in side, exposed.get(a, NO_EXPOSURE), len(route), a)
        for a, route in routes.items()
    ]
    heapify(ranked)
    risky = True
    while ranked:
        best = heappop(ranked)
        if not street_risk(ctx, state, best[3]) > 0:
            risky = False
            break
    if risky:
        # no street in reach is free of risk (the heap asked them all): the least likely
        # to catch next step 1, when it is less likely than its own (round 14: the least
        # exposed may be the one a fire of 5 can jump into now)
        least = min((street_risk(ctx, state, a), bool(side) and a not in side,
                     exposed.get(a, NO_EXPOSURE), len(route), a) for a, route in routes.items())  # fmt: skip
        to = least[4]
        if to == here or least[0] >= street_risk(ctx, state, here):
            return None
    else:
        to = best[3]
        if to == here:
            return None
        stay = (street_risk(ctx, state, here) > 0, bool(side) and here not in side,
                exposed.get(here, NO_EXPOSURE))  # fmt: skip
        if (False, best[0], best[1]) >= stay:
            return None
    return to


def exposure(ctx: TurnContext, area: str) -> tuple[int, int, int]:
    """How exposed a street is to the fire over the whole game, from the map alone: (the
    buildings next to it, which spread into a vehicle there and drop rubble into it, §3,
    §6; the jumps a fire of 5 could make into it, R-5; the streets and open areas next to
    it with a building next door, where rubble may fall and burn). Kept for the game."""
    return exposures(ctx).get(area, NO_EXPOSURE)


#: :func:`exposure` of an area that is no street or open area
NO_EXPOSURE: Final = (9, 9, 9)


def exposures(ctx: TurnContext) -> dict[str, tuple[int, int, int]]:
    """:func:`exposure` of every street and open area (do not mutate)."""
    memo: dict[str, tuple[int, int, int]] = ctx.cache.setdefault(SHELTER_EXPOSURE, {})
    if not memo:
        jumps: dict[str, int] = {}
        for a in ctx.scenario.areas:
            if a.kind is AreaKind.BUILDING:
                for lv in ctx.scenario.levels_of(a.id):
                    for dst, _g, _m in _jump_streets(ctx, (a.id, lv)):
                        jumps[dst[0]] = jumps.get(dst[0], 0) + 1

        def built(a: str) -> int:
            return sum(
                danger.area_kind(ctx, nb) is AreaKind.BUILDING
                for nb in danger.area_neighbours(ctx, a)
            )

        for a in ctx.scenario.areas:
            if a.kind in (AreaKind.STREET, AreaKind.OPEN):
                near = [nb for nb in danger.area_neighbours(ctx, a.id)
                        if danger.area_kind(ctx, nb) in (AreaKind.STREET, AreaKind.OPEN)]  # fmt: skip
                memo[a.id] = (built(a.id), jumps.get(a.id, 0), sum(built(nb) > 0 for nb in near))
    return memo


def _slip_lines(ctx: TurnContext, state: GameState, u: UnitState) -> None:
    """Leave every line of the appliance cut, for its teams to make up and carry back."""
    for hid in sorted(state.hoses):
        h = state.hoses[hid]
        if h.unit == u.id and not h.cut:
            h.cut = True
            h.plan = []
            ctx.note(HoseSlipped, at=h.path[0], hose=h.id, unit=u.id)


def ladder_face(ctx: TurnContext, state: GameState, u: UnitState) -> str | None:
    """A building next to the appliance's street with a fire on an upper level its free
    ladder reaches, no stairwell to climb by, and its ground floor not burning: the
    building to pitch against (hottest fire first), or None."""
    if u.loc is None or acting.acted(state, u):
        return None
    free = [ld.rating for ld in u.ladders if ld.at is None]
    if not free or not any(s.loc == u.loc and s.hose is None for s in crew_of(state.units, u.id)):
        return None
    rating, here = max(free), u.loc[0]
    if danger.area_kind(ctx, here) not in (AreaKind.STREET, AreaKind.OPEN):
        return None
    best: tuple[int, str] | None = None
    for b in danger.area_neighbours(ctx, here):
        if danger.area_kind(ctx, b) is not AreaKind.BUILDING or ctx.scenario.has_stairwell(b):
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
    held = u.extra.get("held_ladders", ())
    for ld in u.ladders:
        if ld.at is None or ld.face is None or ld.face in held:
            continue  # a ladder the player had pitched stays up
        face = ld.face
        if any((face, lv) in state.fire for lv in ctx.scenario.levels_of(face) if lv >= 1):
            continue
        if any(loc[0] == face and loc[1] >= 1 for h in state.hoses.values()
               if h.stock == u.id or h.unit == u.id for loc in h.path):  # fmt: skip
            continue
        ld.at = ld.face = None
        ld.height = ld.pitch_left = 0
        ctx.note(LadderStruck, at=(face, 0), unit=u.id)


def choose_water(ctx: TurnContext, state: GameState, pump: UnitState) -> None:
    """Connect to the best source here: a hydrant, open water, a dam, else the tank."""
    assert pump.loc is not None
    hydrants, waters = _water_here(ctx, pump.loc[0])
    if pump.source is not None and pump.source in hydrants:
        return  # already on the first kind of source it would choose from
    options = list(hydrants)
    options += [f"open:{a}" for a in waters if state.water_left.get(a, 0) > 0]
    dams = [d for d in state.units.values()
            if d.type == "mobile_dam_unit" and d.in_play and d.deployed and d.water > 0]  # fmt: skip
    options += [f"dam:{d.id}" for d in sorted(dams, key=lambda x: x.id)]
    if pump.source in options:
        return
    for src in options:
        if equipment.connect_problem(ctx, state, pump, src) is None:
            equipment.connect(ctx, state, pump, src)
            return
    if pump.source is not None and equipment.connect_problem(ctx, state, pump, pump.source):
        equipment.disconnect(ctx, state, pump)


def _water_here(ctx: TurnContext, here: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The map's water for a pump in ``here``: (its hydrant sources, one per hydrant
    there, and the open-water areas here or next door, one per feature), for the game."""
    memo: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = ctx.cache.setdefault(WATER_HERE, {})
    hit = memo.get(here)
    if hit is None:
        features = ctx.scenario.features
        near = danger.area_neighbours(ctx, here)
        hit = memo[here] = (
            tuple(f"hydrant:{here}" for f in features
                  if f.type is FeatureType.HYDRANT and f.area == here),
            tuple(f.area for f in features
                  if f.type is FeatureType.WATER and (f.area == here or f.area in near)),
        )  # fmt: skip
    return hit


def water_at(ctx: TurnContext, state: GameState, area: str) -> bool:
    """A usable source here: a hydrant with a free place, or open water next door."""
    if (
        area in danger.hydrant_areas(ctx)
        and ctx.scenario.mains != "failed"
        and area not in state.hydrants_lost
        and equipment.hydrant_user_count(state, area) < ctx.rules.int("water.hydrant_appliances")
    ):
        return True
    next_door = _water_next_door(ctx, area)
    if not next_door:
        return False
    water_left = state.water_left
    return any(water_left.get(nb, 0) > 0 for nb in next_door)


def _water_next_door(ctx: TurnContext, area: str) -> tuple[str, ...]:
    """The areas next to ``area`` holding an open-water source (in
    :func:`.danger.area_neighbours` order), for the game."""
    memo: dict[str, tuple[str, ...]] = ctx.cache.setdefault(WATER_NEXT_DOOR, {})
    hit = memo.get(area)
    if hit is None:
        waters = danger.water_areas(ctx)
        hit = memo[area] = tuple(nb for nb in danger.area_neighbours(ctx, area) if nb in waters)
    return hit


def choose_parking(
    ctx: TurnContext,
    state: GameState,
    u: UnitState,
    pri: set[Location],
    need_water: bool = False,
    far: bool = False,
) -> str | None:
    """The street to drive to: near an unfought fire (priority ones first), with water at
    hand, not next to a fire itself, then the shortest drive; with ``far``, only streets
    :func:`out_of_reach`. None when no fire is near any street it can reach."""
    if not state.fire or u.loc is None:
        return None
    limit = hose_reach(ctx, u.hose_left)
    blocked = reach.road_blocked(ctx, state)
    routes = reach.road_routes(ctx, state, u.loc[0])  # (around ``blocked``)
    prio, others = fire_sources(ctx, state, pri)
    set_up = equipment.sets_up(ctx, u)  # a pump that takes turns to deploy and pack up
    spots: list[Any] | None = None
    for group in (prio, others):
        if not group:
            continue
        if spots is None:
            spots = [(a, 0) for a in routes]  # (one location a street, for both groups)
        dist: dict[Any, int] = steps_to(ctx, group, spots, limit)
        best: tuple[int, int, str] | None = None
        for (area, route), spot in zip(routes.items(), spots, strict=True):
            d = dist.get(spot)
            if d is None or (best is not None and (d, len(route), area) > best):
                continue  # the penalties are never negative: this street cannot win
            if danger.unsafe(ctx, state, spot):
                continue
            water = water_at(ctx, state, area)
            if need_water and not water:
                continue
            # a parked vehicle makes its street flammable: out of the fire's reach if at
            # all possible, with a way out, and not downwind of the fire
            dry = PARK_DRY * (not water)
            if best is not None and (d + dry, len(route), area) > best:
                continue  # the penalty is never negative: this street cannot win
            # (the two dear tests after that bound: both read the call's fixed chances,
            # and a street that fails it comes after a winner, so the jump chances are
            # made, when first asked, at the same street as before)
            if set_up and packs_up(ctx, state, area):
                continue  # it would have to pack up again as soon as it was set up
            if far and not out_of_reach(ctx, state, area):
                continue  # a pump with no crew of its own waits out of the fire's reach
            if not water:
                dry = dry_penalty(ctx, state, u, area)  # (PARK_DRY or more)
            key = (d + parking_penalty(ctx, state, area, blocked) + dry,
                   len(route), area)  # fmt: skip
            if best is None or key < best:
                best = key
        if best is not None:
            return best[2]
    return None


def dry_penalty(ctx: TurnContext, state: GameState, u: UnitState, area: str) -> int:
    """Parking penalty (hose steps) for ``u`` in a street with no water but the tank:
    ``PARK_DRY``, or ``policy.park_dry_reach`` when a fire is within reach of the street
    (:func:`street_threat`, ``THREAT_RANGE`` spreads) and the fires on the map add up to
    more than the water left in its pump's tank (round 10). Such a tank is spent on the
    fire in a few turns, and the appliance is then left where the fire is coming, with
    no water to wet its own street and a drive through the fire to the water (a parked
    vehicle makes its street flammable, R-10); at a hydrant or open water it keeps both.
    A tank that holds more water than there is fire may well put it out from where it
    stands. ``policy.park_dry_reach`` 0 (or anything up to ``PARK_DRY``): ``PARK_DRY``
    alone."""
    near = int(policy(ctx, "park_dry_reach"))
    if (
        near > PARK_DRY
        and street_threat(ctx, state, area) <= THREAT_RANGE
        and fire_total(ctx, state) > pump_of(state, u).water
    ):
        return near
    return PARK_DRY


def fire_total(ctx: TurnContext, state: GameState) -> int:
    """``sum(state.fire.values())``, added up once a call of the standing orders (fire does
    not change in step 6; :func:`dry_penalty` weighs it at every dry street it looks at).
    The call is told apart by its own memo dict (``AP_SOURCES``, made anew for each call
    and dropped after it): the total is kept with the dict it was added up under."""
    call = ctx.cache.get(AP_SOURCES)
    if call is None:
        return sum(state.fire.values())
    hit: tuple[object, int] | None = ctx.cache.get(AP_FIRE_TOTAL)
    if hit is not None and hit[0] is call:
        return hit[1]
    total = sum(state.fire.values())
    ctx.cache[AP_FIRE_TOTAL] = (call, total)
    return total


def parking_penalty(ctx: TurnContext, state: GameState, area: str, blocked: set[str]) -> int:
    """Extra hose steps a parking street is worth avoiding for (see the ``PARK_*`` weights).
    In the standing orders the answer is kept for the call (:attr:`JumpChances.penalty`)."""
    jumps = jump_chances(ctx, state)
    memo = jumps.penalty
    if memo is not None:
        hit = memo.get(area)
        if hit is not None and hit[0] is blocked:
            return hit[1]
    out = _parking_penalty(ctx, state, area, blocked, jumps)
    if memo is not None:
        memo[area] = (blocked, out)
    return out


def _parking_penalty(
    ctx: TurnContext, state: GameState, area: str, blocked: set[str], jumps: JumpChances
) -> int:
    threat, src = _street_threat(ctx, state, area)
    out = PARK_HOT if threat <= 1 else PARK_NEAR if threat == 2 else 0
    jump, soon = jumps.get(area, (0.0, False))
    if jump > 0:
        out += int(policy(ctx, "park_jump"))
    elif soon:
        out += int(policy(ctx, "park_jump_soon"))
    wind = ctx.scenario.wind
    if src is not None and wind.towards_bearing is not None and src[0] != area:
        out += PARK_DOWNWIND * ctx.graph.is_downwind(src[0], area, wind)
    if threat <= THREAT_RANGE:
        exits = [
            a for a in reach.road_adjacency(ctx)[area]
            if a not in blocked and street_threat(ctx, state, a) >= 2
        ]  # fmt: skip
        if not exits and area not in mv.entry_areas(ctx):
            out += PARK_TRAPPED
    return out
