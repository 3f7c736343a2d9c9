"""A fire officer's caution (issue 15): how likely a location is to catch fire in the next
spread step, read off the spread table (§3), and from it which places are traps (no way
out that the fire is unlikely to cut this turn) and which are too hot to go to.

The thresholds are policy, not rules: they live in the ruleset's ``policy`` section
(``policy.trap_chance``, ``policy.trap_walk_turns``, ``policy.enter_chance``), so a
scenario's house rules can tune the autopilot without touching a rule.

Everything here reads the state of step 6 (fire, damp and damage do not change in it) and
is remembered for one call of the standing orders (``ap_catch``, ``ap_trap``).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable
from itertools import compress
from typing import Any

from ....board.model import AreaKind, Location
from ....core.turn import TurnContext
from ..memos import (
    AP_ADJACENCY,
    AP_BUILDING_BURNS,
    AP_BURNS,
    AP_CATCH,
    AP_EXIT_BOUND,
    AP_FALLING,
    AP_FIGHT,
    AP_GROUND,
    AP_HAVEN_NEAR,
    AP_HAVENS,
    AP_LIMITS,
    AP_LIMITS_POCKET,
    AP_OK,
    AP_POCKET,
    AP_REFUGE_ZONE,
    AP_RETREAT,
    AP_SHELTERS,
    AP_TRAP,
    AP_WAYBACK,
    AP_ZONE,
    FOOT_LINKS,
    HEAT_MEMO,
    MAP_MODIFIERS,
    NEIGHBOURS,
)
from ..reach import danger, foot
from ..rules import acting, ignition
from ..rules import movement as mv
from ..rules.modifiers import spread_map_parts, spread_state_parts, total
from ..state import GameState
from ..units import STAND, UnitState
from .priorities import coverage, policy, vehicle_areas

_RetreatMemo = tuple[dict[Location, list[tuple[Location, int]]], dict[Location, Location | None]]


def _p_roll(limit: int, mod: int) -> float:
    """Chance that 1d6 + ``mod`` is ``limit`` or less."""
    return max(0, min(6, limit - mod)) / 6


def catch_chance(ctx: TurnContext, state: GameState, loc: Location) -> float:
    """Chance that ``loc`` catches in the next step 1 by a spread, if it can burn: every
    burning neighbour rolls (§3 with its modifiers, R-1 climbs from below); the rolls are
    independent. (Jumps, R-5, are left out: a modified 1 from a fire of 5 only.) In the
    standing orders the hose teams count where they fight as the call starts (a snapshot:
    the answer does not depend on which unit asked first), and the answer is kept for
    the call."""
    # (round 22: compiled, a location typed as a tuple is unpacked into its fields and a
    # new tuple made for each lookup by it: made once here, and the neighbours, typed Any,
    # looked up as they come)
    key: Any = loc
    if key in state.fire:
        return 1.0
    if not state.fire:
        return 0.0
    memo: dict[Location, float] | None = ctx.cache.get(AP_CATCH)
    if memo is not None:
        hit = memo.get(key)
        if hit is not None:
            return hit
    r = ctx.rules
    fire = state.fire
    # the state's part of the modifier is loc's own (damp, embers, a hose team there):
    # worked out once, when a neighbour burns; the map's part is the pair's, per game
    here: int | None = None
    miss = 1.0
    nbs: dict[Location, list[Location]] | None = ctx.cache.get(NEIGHBOURS)  # inline
    near = nbs.get(key) if nbs is not None else None
    if near is None:
        near = danger.neighbours(ctx, loc)
    src: Any
    if not fire.keys().isdisjoint(near):  # (most places asked have no fire next to them)
        for src in near:
            f = fire.get(src)
            if f:
                if here is None:
                    here = _state_modifier(ctx, state, loc)
                miss *= 1 - _p_roll(f, here + _map_modifier(ctx, src, loc))
    below = (loc[0], loc[1] - 1)
    f = fire.get(below, 0)
    if f >= r.int("spread.climb_min_fire") and loc in ignition.spread_targets(ctx, below)[1]:
        if here is None:
            here = _state_modifier(ctx, state, loc)
        miss *= 1 - _p_roll(f, here + _map_modifier(ctx, below, loc))
    out = 1 - miss
    if memo is not None:
        memo[key] = out
    return out


def catch_chance_two(ctx: TurnContext, state: GameState, loc: Location) -> float:
    """Chance that ``loc`` catches by a spread in one of the next two spread steps (this
    step 1 and the next turn's), as far as the fires of now tell: the fires next to it
    roll twice (:func:`catch_chance`, as they burn now), and each neighbour that can burn
    and does not yet may catch in the first step and spread in at the second from fire 1,
    the level a spread sets alight (§3). Growth, new fires further off and jumps (R-5)
    are left out: a lower bound, for units that need a turn to pack up before they can
    drive off (a trailer or skid pump, §7)."""
    first = catch_chance(ctx, state, loc)
    if first >= 1.0:
        return 1.0
    miss = (1 - first) * (1 - first)
    fire = state.fire
    here: int | None = None
    for nb in danger.neighbours(ctx, loc):
        if nb in fire or not _can_burn(ctx, state, nb):
            continue
        p = catch_chance(ctx, state, nb)
        if p <= 0:
            continue
        if here is None:
            here = _state_modifier(ctx, state, loc)
        miss *= 1 - p * _p_roll(1, here + _map_modifier(ctx, nb, loc))
    return 1 - miss


def _state_modifier(ctx: TurnContext, state: GameState, loc: Location) -> int:
    """The state's part of a spread's modifier into ``loc`` (:func:`.modifiers.spread_state_parts`:
    its damp, embers, a hose team fighting there). In the standing orders (``ap_fight``
    set) the hose teams are taken where they fight as the call starts, with the rule's
    values read once; else as they stand now."""
    if AP_FIGHT not in ctx.cache:
        return total(spread_state_parts(ctx, state, loc, _fighting_at(state, loc)))
    snap: tuple[frozenset[Location], int, int, int] | None = ctx.cache[AP_FIGHT]
    if snap is None:
        r = ctx.rules
        units = state.units.values()
        at = {u.loc for u in units if u.kind == STAND and u.task == "fight" and u.in_play}
        snap = ctx.cache[AP_FIGHT] = (
            frozenset(x for x in at if x is not None),
            r.int("spread.damp_per_level"),
            r.int("spread.embers"),
            r.int("spread.hose_team"),
        )
    fighting, per_damp, embers, hose = snap
    out = state.damp.get(loc, 0) * per_damp
    if loc in state.embers:
        out += embers
    if loc in fighting:
        out += hose
    return out


def _map_modifier(ctx: TurnContext, src: Location, dst: Location) -> int:
    """The map's part of a spread's modifier from ``src`` into ``dst`` (R-2, R-4), kept
    for the game."""
    memo: dict[tuple[Location, Location], int] = ctx.cache.setdefault(MAP_MODIFIERS, {})
    hit = memo.get((src, dst))
    if hit is None:
        hit = memo[(src, dst)] = total(spread_map_parts(ctx, src, dst))
    return hit


def _fighting_at(state: GameState, loc: Location) -> set[Location]:
    """``{loc}`` when a hose team is at work there (+1 against a spread into it, §3), else
    empty: all :func:`.modifiers.spread_state_parts` asks of the set is whether it holds
    the location spread into."""
    for u in state.units.values():
        if u.loc == loc and u.kind == STAND and u.task == "fight" and u.in_play:
            return {loc}
    return set()


def _heat_memo(ctx: TurnContext) -> dict[Location, int]:
    """:func:`.danger.heat`'s memo of the step, for a loop to read inline (asking
    :func:`.danger.heat` itself of a place it lacks); an empty dict outside step 6."""
    heats: dict[Location, int] | None = ctx.cache.get(HEAT_MEMO)
    return {} if heats is None else heats


def trapped(ctx: TurnContext, state: GameState, loc: Location) -> bool:
    """A stand in ``loc`` (a building location) could be cut off this turn: the place
    itself, or every way out to a street or open ground within
    ``policy.trap_walk_turns`` of walking, passes a location whose chance to catch is
    ``policy.trap_chance`` or more (burning or too hot to pass counts as cut)."""
    if not state.fire:
        return False
    memo: dict[Location, bool] | None = ctx.cache.get(AP_TRAP)
    if memo is not None:  # (asked first: it holds only places that can burn)
        hit = memo.get(loc)
        if hit is not None:
            return hit
    if not _can_burn(ctx, state, loc):
        return False
    out = not _way_out(ctx, state, loc)
    if memo is not None:
        memo[loc] = out
    return out


def _can_burn(ctx: TurnContext, state: GameState, loc: Location) -> bool:
    """Buildings, and streets or open ground holding rubble or a vehicle (§1): judged on
    the streets holding a vehicle as the call of the standing orders starts (rubble does
    not change in step 6), so remembered for the call."""
    memo: dict[str, bool] | None = ctx.cache.get(AP_BURNS)
    area = loc[0]
    if memo is not None:
        hit = memo.get(area)
        if hit is not None:
            return hit
    if danger.area_kinds(ctx).get(area) is AreaKind.BUILDING:
        out = True
    else:
        out = ignition.is_flammable(ctx, state, loc, vehicle_areas(ctx, state))
    if memo is not None:
        memo[area] = out
    return out


def burns_memo(ctx: TurnContext) -> dict[str, bool]:
    """A fresh memo for :func:`_can_burn` (``ap_burns``) for one call of the standing
    orders, every building area in it already (a building can always burn, §1): most
    places the checks ask of are in buildings. The map's part is kept for the game."""
    memo: dict[str, dict[str, bool]] = ctx.cache.setdefault(AP_BUILDING_BURNS, {})
    hit = memo.get("buildings")
    if hit is None:
        building = AreaKind.BUILDING
        hit = memo["buildings"] = {
            a: True for a, kind in danger.area_kinds(ctx).items() if kind is building
        }
    return dict(hit)


def hazardous(ctx: TurnContext, state: GameState, loc: Location) -> bool:
    """Too risky to go to: where a collapse can strike this turn (:func:`collapse_zone`),
    a trap, or a place that can burn whose chance to catch this turn is
    ``policy.enter_chance`` or more (a margin over ``policy.trap_chance``, so a team is
    not sent where it would have to leave next turn)."""
    return too_hot(ctx, state, loc) or trapped(ctx, state, loc)


def too_hot(ctx: TurnContext, state: GameState, loc: Location) -> bool:
    """:func:`hazardous` but for the trap (the dear part, asked last): where a collapse can
    strike this turn, or a place that can burn whose chance to catch this turn is
    ``policy.enter_chance`` or more."""
    if not state.fire:
        return False
    if collapse_zone(ctx, state, loc):
        return True
    if not _can_burn(ctx, state, loc):
        return False
    return catch_chance(ctx, state, loc) >= policy(ctx, "enter_chance")


def collapse_zone(ctx: TurnContext, state: GameState, loc: Location) -> bool:
    """``loc`` lies where a collapse could strike this turn: in a building area with a
    location that burns hard enough to roll for damage (step 7) and is already damaged
    ``policy.collapse_damage`` or more (one roll, 1 in 6 a turn, from coming down, with
    every level above), or on the ground level of an area next to one (§6: the rubble
    strikes there and everyone in it rolls to escape)."""
    zone: tuple[frozenset[str], frozenset[str]] | None = ctx.cache.get(AP_ZONE)  # _zone's memo
    falling, struck = _zone(ctx, state) if zone is None else zone
    return loc[0] in falling or (loc[1] == 0 and loc[0] in struck)


def _zone(ctx: TurnContext, state: GameState) -> tuple[frozenset[str], frozenset[str]]:
    zone: tuple[frozenset[str], frozenset[str]] | None = ctx.cache.get(AP_ZONE)
    if zone is None:
        zone = _collapse_areas(ctx, state, int(policy(ctx, "collapse_damage")))
        if AP_ZONE in ctx.cache:
            ctx.cache[AP_ZONE] = zone
    return zone


def _collapse_areas(
    ctx: TurnContext,
    state: GameState,
    worn: int,
    within: tuple[frozenset[str], frozenset[str]] | None = None,
) -> tuple[frozenset[str], frozenset[str]]:
    """(building areas that may come down: a location burning hard enough to roll for
    damage, damaged ``worn`` or more; the areas their rubble strikes). ``within``: the
    answer for a higher ``worn`` in the same state, if known: its areas are among these
    and their rubble's way is already followed (the answer is the same, for less)."""
    r = ctx.rules
    hot = r.int("damage.fire_for_roll")
    destroyed = r.int("damage.destroyed")
    damage, fire = state.damage, state.fire  # state.damage_at, inline
    kinds = danger.area_kinds(ctx)  # danger.area_kind, inline
    building = AreaKind.BUILDING
    # in the standing orders the walk is made once a call, for the least damage any of its
    # checks asks (fire and damage do not change in step 6): the others pick theirs
    cands: tuple[int, list[tuple[str, int]]] | None = ctx.cache.get(AP_FALLING)
    if cands is None or cands[0] > worn:
        low = worn
        if AP_FALLING in ctx.cache:
            refuge = int(policy(ctx, "refuge_damage"))
            low = min(worn, refuge) if refuge > 0 else worn
        # (round 22: the locations typed Any, as they come: compiled, a location typed as
        # a tuple is unpacked and a new tuple made for each lookup by it)
        if low > 1:  # (an undamaged location, 1, cannot qualify): the few damaged ones
            # round 18: the damage in range picked at C speed (most damaged locations
            # are destroyed or barely damaged), the rest asked of those alone
            live: Iterable[tuple[Any, int]] = compress(
                damage.items(), map(range(low, destroyed).__contains__, damage.values())
            )
            cands = (
                low,
                [
                    (loc[0], d) for loc, d in live
                    if loc in fire and fire[loc] >= hot and kinds.get(loc[0]) is building
                ],
            )  # fmt: skip
        else:
            # round 23: every fire hot enough to roll, with its damage: one walk serves
            # both the collapse zone and the refuge's wider one (``refuge_damage`` 1)
            fires: Iterable[tuple[Any, int]] = fire.items()
            cands = (
                low,
                [
                    (loc[0], d) for loc, f in fires
                    if f >= hot and (d := damage.get(loc, 1)) < destroyed
                    and kinds.get(loc[0]) is building
                ],
            )  # fmt: skip
        if AP_FALLING in ctx.cache:
            ctx.cache[AP_FALLING] = cands
    falling = {a for a, d in cands[1] if d >= worn}
    # the rubble adds damage to the ground level of each building next door: one that it
    # brings down brings its own rubble onto its neighbours, and so on (which areas come
    # down does not depend on the order they are followed in: each is asked on its own);
    # the rubble strikes every area next to one that comes down
    by = r.int("collapse.rubble_damage")
    struck: set[str] = set()
    if within is not None:  # followed already: only the new areas' rubble is followed
        falling -= within[0]
        struck.update(within[1])
    todo = sorted(falling)
    if within is not None:
        falling.update(within[0])
    weak = destroyed - by
    while todo:  # (each area that comes down, but for ``within``'s, passes here once)
        a = todo.pop()
        near = danger.area_neighbours(ctx, a)
        struck.update(near)
        for nb in near:
            if (
                nb not in falling and kinds.get(nb) is building
                and destroyed > damage.get((nb, 0), 1) >= weak
            ):  # fmt: skip
                falling.add(nb)
                todo.append(nb)
    return frozenset(falling), frozenset(struck)


def exposed(ctx: TurnContext, state: GameState, loc: Location) -> bool:
    """A stand with no work in hand should not wait here: where a collapse can strike,
    or a place that can burn (a building, a street with rubble or a vehicle) whose chance
    to catch this turn is more than ``policy.idle_chance`` (R-10 would throw it out
    through the heat of the fire, a risk with nothing to gain)."""
    if not state.fire:
        return False
    if collapse_zone(ctx, state, loc):
        return True
    return _can_burn(ctx, state, loc) and catch_chance(ctx, state, loc) > policy(ctx, "idle_chance")


def _limits(ctx: TurnContext) -> tuple[float, int]:
    """(``policy.trap_chance``, the walk budget in movement points), for the game."""
    hit: tuple[float, int] | None = ctx.cache.get(AP_LIMITS)
    if hit is None:
        walk = policy(ctx, "trap_walk_turns") * ctx.rules.int("movement.foot_points")
        hit = ctx.cache[AP_LIMITS] = (policy(ctx, "trap_chance"), int(walk))
    return hit


def _way_out(ctx: TurnContext, state: GameState, start: Location) -> bool:
    """Whether a way out leads from ``start`` within the walk budget: each step into a
    place that can burn (:func:`_can_burn`) goes on if that place is safe (passable, its
    chance to catch below ``policy.trap_chance``), a step into an empty street or open
    ground is out, one into a burning one is shut. The map's links are read from the
    foot links' memo for the game (:func:`.foot.foot_links`), a pitched ladder's added
    each time (ladders come and go); what can burn from :func:`_can_burn`'s memo."""
    limit, budget = _limits(ctx)
    seen: dict[Location, bool] = ctx.cache.get(AP_OK, {})
    fire = state.fire
    fail = ctx.rules.int("heat.always_fail_min")
    burns: dict[str, bool] = ctx.cache.get(AP_BURNS) or {}  # _can_burn's memo, inline
    heats = _heat_memo(ctx)

    # (round 22: places typed Any, as they come: see catch_chance)
    def ok(loc: Any) -> bool:
        hit = seen.get(loc)
        if hit is None:
            h = heats.get(loc)
            hit = seen[loc] = (  # foot.passable, inline, then the chance to catch
                loc not in fire and (danger.heat(ctx, state, loc) if h is None else h) < fail
                and catch_chance(ctx, state, loc) < limit
            )  # fmt: skip
        return hit

    ladders = foot.ladder_links(state, ctx)
    # round 18: a place from which no walk within what is left of the budget can reach
    # ground that is not a building (where every way out ends) is not followed: the
    # answer is the same, for fewer places asked
    bound = _exit_bound(ctx, ladders)
    if bound.get(start, 0) > budget or not ok(start):
        return False
    link: Any
    to: Any
    loc: Any
    for link in foot.foot_links(ctx, start, ladders):
        # a step straight out (the search below would find it too, after more checks)
        to = link[0]
        cost: int = link[1]
        if cost <= budget and to not in fire:
            inner = burns.get(to[0])
            if not (_can_burn(ctx, state, to) if inner is None else inner):
                return True
    static: dict[Location, list[foot.Link]] = ctx.cache.get(FOOT_LINKS) or {}
    # round 18: the places nearest a way out by the bound first (the answer is whether
    # one exists, not which: found sooner, for fewer places asked)
    best: dict[Any, int] = {start: 0}
    todo: list[tuple[int, int, Any]] = [(bound.get(start, 0), 0, start)]
    pop, push = heapq.heappop, heapq.heappush
    entry: Any
    while todo:
        entry = pop(todo)
        here: int = entry[1]
        loc = entry[2]
        if here > best[loc]:
            continue  # (reached again for less)
        # foot.foot_links, its memo read inline (no pitched ladder here: the map's links)
        links = None if loc in ladders else static.get(loc)
        if links is None:
            links = foot.foot_links(ctx, loc, ladders)
        for link in links:
            to = link[0]
            cost = link[1]
            d = here + cost
            if d > budget or best.get(to, budget + 1) <= d:
                continue
            inner = burns.get(to[0])
            if not (_can_burn(ctx, state, to) if inner is None else inner):
                if to not in fire:
                    return True  # out in an empty street or open ground
                continue
            f = d + bound.get(to, 0)
            if f > budget:
                continue  # no way out from there within the budget
            hit = seen.get(to)
            if hit is None:
                hit = ok(to)
            if not hit:
                continue
            best[to] = d
            push(todo, (f, d, to))
    return False


def _exit_bound(
    ctx: TurnContext, ladders: dict[Location, list[tuple[Location, int]]]
) -> dict[Location, int]:
    """For each location, a lower bound of the movement points a stand needs to walk from
    it to ground that is not a building (a street or open ground: where every way out of
    :func:`_way_out` ends): the cheapest walk by the map's links (:func:`.foot.foot_links`),
    or down a ladder from a building's level (a pitched ladder links it to a street at
    ``movement.ladder`` points a level, wherever it stands); kept for the game. A location
    it lacks has 0. Empty when a ladder stands in a building (not a street: only odd
    hand-made states), whose links the bound does not foresee."""
    kinds = danger.area_kinds(ctx)
    building = AreaKind.BUILDING
    for x in ladders:
        if x[1] == 0 and kinds.get(x[0]) is building:
            return {}
    memo: dict[str, dict[Location, int]] = ctx.cache.setdefault(AP_EXIT_BOUND, {})
    hit = memo.get("bound")
    if hit is not None:
        return hit
    per_level = ctx.rules.int("movement.ladder")
    ends: dict[Location, int] = {}
    for loc in ctx.graph.locations:
        if kinds.get(loc[0]) is not building:
            ends[loc] = 0
        elif loc[1] >= 1:
            ends[loc] = per_level * loc[1]
    hit = memo["bound"] = _walk_bound(ctx, ends)
    return hit


def _walk_bound(ctx: TurnContext, ends: dict[Location, int]) -> dict[Location, int]:
    """The least cost, for each location, of a walk by the map's links
    (:func:`.foot.foot_links`, no ladder pitched) to one of ``ends`` plus that end's own
    cost (its value); a location with no such walk is left out. The links are read
    backwards from the ends, the cheapest first."""
    back: dict[Location, list[tuple[Location, int]]] = {}
    for loc in ctx.graph.locations:
        for to, cost, _s, _l, _k in foot.foot_links(ctx, loc, {}):
            back.setdefault(to, []).append((loc, cost))
    best = dict(ends)
    todo = [(d, loc) for loc, d in best.items()]
    heapq.heapify(todo)
    while todo:
        d, x = heapq.heappop(todo)
        if d > best[x]:
            continue
        for y, cost in back.get(x, ()):
            nd = d + cost
            if nd < best.get(y, nd + 1):
                best[y] = nd
                heapq.heappush(todo, (nd, y))
    return best


def get_out(ctx: TurnContext, state: GameState, u: UnitState) -> bool:
    """A stand in a trap (or :func:`exposed` with no work in hand) leaves it: back down its own hose when the location before the
    branch is safe (the line gets a location shorter and plays on), else out to the
    nearest street or open ground it can reach this turn, out of any collapse's way.
    Whether it moved."""
    if u.loc is None or acting.acted(state, u):
        return False
    h = state.hoses.get(u.hose or "") if u.hose is not None else None
    if h is not None and h.branch == u.loc and len(h.path) >= 2 and not h.plan:
        back = h.path[-2]
        if (
            back not in state.fire and not trapped(ctx, state, back)
            and not collapse_zone(ctx, state, back)
            and not danger.unsafe(ctx, state, back) and mv.walk(ctx, state, u, back)
        ):  # fmt: skip
            return True
    points = ctx.rules.int("movement.foot_points")
    fire = state.fire
    burns: dict[str, bool] = ctx.cache.get(AP_BURNS) or {}  # _can_burn's memo, inline

    def safe_out(loc: Location) -> bool:  # an out (below) where R-7 does not reach
        inner = burns.get(loc[0])
        return (
            loc not in fire and not (_can_burn(ctx, state, loc) if inner is None else inner)
            and not collapse_zone(ctx, state, loc) and not danger.unsafe(ctx, state, loc)
        )  # fmt: skip

    # round 18: the nearest out that is not unsafe, found by a search that stops there
    # (the least by the rank below when there is one); else the whole turn's walk
    goal: Location | None = foot.first_goal(ctx, state, u.loc, points, _ground(ctx), safe_out)
    if goal is not None:
        return _step_out(ctx, state, u, goal)
    dist, _ = foot.foot_search(ctx, state, u.loc, points)
    outs = [
        loc for loc in dist
        if not burns.get(loc[0], True) or (
            loc[0] not in burns and not _can_burn(ctx, state, loc)
        )
        if loc not in fire and not collapse_zone(ctx, state, loc)
    ]  # fmt: skip

    def rank(loc: Location) -> tuple[bool, int, Location]:
        return danger.unsafe(ctx, state, loc), dist[loc], loc

    if outs:
        goal = min(outs, key=rank)
    else:  # the best place that is no trap, the trap check (the dear part) in that order
        goal = next(
            (
                loc for loc in sorted((x for x in dist if x != u.loc), key=rank)
                if not collapse_zone(ctx, state, loc) and not trapped(ctx, state, loc)
            ),
            None,
        )  # fmt: skip
        if goal is None:
            return False
    return _step_out(ctx, state, u, goal)


def _step_out(ctx: TurnContext, state: GameState, u: UnitState, goal: Location) -> bool:
    """:func:`get_out`'s walk to ``goal`` (idle after it unless it holds a branch)."""
    task = u.task
    u.task = "move"
    moved = mv.walk(ctx, state, u, goal)
    u.task = task if u.hose is not None else "idle"
    return moved


def _ground(ctx: TurnContext) -> frozenset[Location]:
    """The locations that are not in a building (streets, open ground, water), for the
    game: where :func:`get_out` looks for a way out."""
    memo: dict[str, frozenset[Location]] = ctx.cache.setdefault(AP_GROUND, {})
    hit = memo.get("ground")
    if hit is None:
        kinds = danger.area_kinds(ctx)
        hit = memo["ground"] = frozenset(
            loc for loc in ctx.graph.locations if kinds.get(loc[0]) is not AreaKind.BUILDING
        )
    return hit


def haven_areas(ctx: TurnContext) -> frozenset[str]:
    """The streets and open areas with no building next to them, for the game. While one
    holds no vehicle nothing in it can burn (§1, §3 Roads: its neighbours are streets,
    open ground or water, which burn only with a vehicle or rubble in them), no rubble can
    fall into it (§6: rubble falls from a building next door) and no heat test can fail
    there: a stand with nothing to do waits there out of the fire's way."""
    memo: dict[str, frozenset[str]] = ctx.cache.setdefault(AP_HAVENS, {})
    hit = memo.get("areas")
    if hit is None:
        hit = memo["areas"] = frozenset(
            a.id for a in ctx.scenario.areas
            if a.kind in (AreaKind.STREET, AreaKind.OPEN)
            and not any(danger.area_kind(ctx, nb) is AreaKind.BUILDING
                        for nb in danger.area_neighbours(ctx, a.id))
        )  # fmt: skip
    return hit


def _haven_near(ctx: TurnContext) -> list[tuple[str, frozenset[str]]]:
    """Each haven (:func:`haven_areas`, sorted) with the areas a vehicle or rubble in
    which would keep a stand from waiting there (itself and the areas next to it), for
    the game."""
    memo: dict[str, list[tuple[str, frozenset[str]]]] = ctx.cache.setdefault(AP_HAVEN_NEAR, {})
    hit = memo.get("near")
    if hit is None:
        hit = memo["near"] = [
            (a, frozenset((a, *danger.area_neighbours(ctx, a)))) for a in sorted(haven_areas(ctx))
        ]
    return hit


def shelters(ctx: TurnContext, state: GameState) -> list[Location]:
    """The havens (:func:`haven_areas`) a stand may wait in now: no vehicle or rubble in
    them (either would make the place burn), none next to them either."""
    havens = haven_areas(ctx)
    if not havens:
        return []
    vehicles = vehicle_areas(ctx, state)
    # in the standing orders ``vehicles`` is the call's one set (rubble does not change in
    # step 6): the answer is kept while it is the same set (do not mutate)
    hit: tuple[set[str], list[Location]] | None = ctx.cache.get(AP_SHELTERS)
    if hit is not None and hit[0] is vehicles:
        return hit[1]
    burns = vehicles | state.rubble
    out = [(a, 0) for a, near in _haven_near(ctx) if burns.isdisjoint(near)]
    ctx.cache[AP_SHELTERS] = (vehicles, out)
    return out


def cut_off(ctx: TurnContext, state: GameState, loc: Location) -> bool:
    """The map has havens (:func:`shelters`), the force is not holding the fire round
    ``loc`` (:func:`held`), and no haven can be reached from ``loc`` within
    ``policy.way_back_turns`` turns' walk by a way whose every location has fires next to
    it adding up to ``policy.way_back_heat`` or less: the fire is closing round the place,
    and a stand there should make for a haven while it still can (remembered for one call
    of the standing orders). Off when ``policy.way_back_turns`` is 0."""
    turns = policy(ctx, "way_back_turns")
    if turns <= 0 or not state.fire:
        return False  # off
    havens = shelters(ctx, state)
    if not havens or loc in havens:
        return False
    memo: dict[Location, bool] | None = ctx.cache.get(AP_WAYBACK)
    if memo is not None and loc in memo:
        return memo[loc]
    watch = int(policy(ctx, "way_back_watch"))
    if watch > 0 and held(ctx, state, loc, watch):
        out = False  # the lines are holding the fire round it: the crews stay at work
    else:
        limit = int(policy(ctx, "way_back_heat"))

        fire, heats = state.fire, _heat_memo(ctx)

        def sure(x: Location) -> bool:
            if x in fire:
                return False
            h = heats.get(x)
            return (danger.heat(ctx, state, x) if h is None else h) <= limit

        budget = int(turns * ctx.rules.int("movement.foot_points"))
        out = not _reaches(ctx, state, loc, budget, sure, frozenset(havens))
    if memo is not None:
        memo[loc] = out
    return out


def _reaches(
    ctx: TurnContext,
    state: GameState,
    start: Location,
    budget: int,
    ok: Callable[[Location], bool],
    havens: frozenset[Location],
) -> bool:
    """Whether a walk of ``budget`` movement points or less from ``start`` through places
    that pass ``ok`` (the start itself is not asked) reaches one of ``havens`` (places on
    the ground level of :func:`haven_areas`): what :func:`.foot.nearest` of a
    :func:`.foot.foot_search` for them tells (round 18). The places nearest a haven by a
    lower bound of the walk left are taken first (the map's walk to a haven, or a pitched
    ladder's cost and the walk from its other end, the least of them: a walk that takes a
    ladder walks on from its last one by the map's links), and one whose bound leaves no
    walk to a haven within the budget is not followed."""
    ladders = foot.ladder_links(state, ctx)
    near = _haven_bound(ctx)
    far = budget + 1
    per_level = ctx.rules.int("movement.ladder")
    by_ladder = far
    for ends in ladders.values():
        for to, lvl in ends:
            by_ladder = min(by_ladder, per_level * lvl + near.get(to, far))
    if min(near.get(start, far), by_ladder) > budget:
        return False
    static: dict[Location, list[foot.Link]] = ctx.cache.get(FOOT_LINKS) or {}
    best = {start: 0}
    todo = [(0, 0, start)]
    pop, push = heapq.heappop, heapq.heappush
    while todo:
        _f, here, x = pop(todo)
        if here > best[x]:
            continue  # (reached again for less)
        links = None if x in ladders else static.get(x)  # foot.foot_links, inline
        if links is None:
            links = foot.foot_links(ctx, x, ladders)
        for to, cost, _s, _l, _k in links:
            d = here + cost
            if d > budget or best.get(to, far) <= d:
                continue
            f = d + min(near.get(to, far), by_ladder)
            if f > budget or not ok(to):
                continue
            if to in havens:
                return True
            best[to] = d
            push(todo, (f, d, to))
    return False


def _haven_bound(ctx: TurnContext) -> dict[Location, int]:
    """For each location, the least walk by the map's links (:func:`.foot.foot_links`) to
    the ground level of a haven (:func:`haven_areas`), for the game; a location with no
    such walk is left out."""
    memo: dict[str, dict[Location, int]] = ctx.cache.setdefault(AP_EXIT_BOUND, {})
    hit = memo.get("havens")
    if hit is not None:
        return hit
    areas = haven_areas(ctx)
    ends = {loc: 0 for loc in ctx.graph.locations if loc[1] == 0 and loc[0] in areas}
    hit = memo["havens"] = _walk_bound(ctx, ends)
    return hit


class _Forecast:
    """The pocket forecast of one call of the standing orders (:func:`_forecast`)."""

    __slots__ = (
        "catch", "chance", "fail", "goal_set", "goals", "grow", "joined", "opened", "rubble",
        "top", "turns",
    )  # fmt: skip

    def __init__(
        self, goals: list[Location], chance: float, turns: int, grow: tuple[int, int],
        top: int, fail: int,
    ) -> None:  # fmt: skip
        self.goals = goals  # the havens and entries
        self.goal_set = frozenset(goals)
        self.chance = chance  # policy.pocket_chance
        self.turns = turns  # policy.pocket_turns
        self.grow = grow  # the growths a fire is taken to make (alone, a neighbour burning)
        self.top = top  # the highest fire (§3)
        self.fail = fail  # the heat no stand passes (§4)
        self.catch: dict[Location, bool] = {}  # places that catch in the forecast
        self.opened: dict[Location, bool] = {}  # places that stay open in the forecast
        #: for the open places searched from, whether a way through open places leads
        #: from them to a goal (a search settles the whole of what it visits)
        self.joined: dict[Location, bool] = {}
        #: with ``policy.pocket_rubble`` (round 11), the areas the rubble of a building
        #: damaged ``policy.refuge_damage`` or more and burning hard enough to roll
        #: strikes: their ground closes in the forecast (None: off)
        self.rubble: frozenset[str] | None = None


def _growths(turns: int, q: float, chance: float, top: int) -> int:
    """How many growths a fire makes within ``turns`` turns with ``chance`` or more, each
    turn's roll raising it one with ``q`` (the binomial tail), at most ``top``."""
    g = 0
    while g < min(turns, top):
        k = g + 1  # P(at least k raises in ``turns`` rolls)
        tail = 0.0
        for j in range(k, turns + 1):
            comb = 1
            for i in range(j):
                comb = comb * (turns - i) // (i + 1)
            tail += comb * q**j * (1 - q) ** (turns - j)
        if tail < chance:
            break
        g = k
    return g


def _forecast(ctx: TurnContext, state: GameState) -> _Forecast | None:
    """The pocket forecast's makings, kept for the call of the standing orders: None when
    it is off (``policy.pocket_turns`` 0) or the map has no haven and no entry."""
    hit: _Forecast | None = ctx.cache.get(AP_POCKET)
    if hit is not None:
        return hit
    limits = _pocket_limits(ctx)
    if limits is None:
        return None
    goals = [*shelters(ctx, state), *((a, 0) for a in mv.entry_areas(ctx))]
    if not goals:
        return None
    chance, turns, grow, top, fail = limits
    fc = _Forecast(goals, chance, turns, grow, top, fail)
    worn = int(policy(ctx, "refuge_damage"))
    if policy(ctx, "pocket_rubble") > 0 and worn > 0:
        fc.rubble = _refuge_zone(ctx, state, worn)[1]
    if AP_POCKET in ctx.cache:
        ctx.cache[AP_POCKET] = fc
    return fc


#: the pocket forecast's figures (:func:`_pocket_limits`)
_PocketLimits = tuple[float, int, tuple[int, int], int, int]


def _pocket_limits(ctx: TurnContext) -> _PocketLimits | None:
    """The pocket forecast's figures, for the game (policy and rules only): (``policy.
    pocket_chance``, ``policy.pocket_turns``, the growths a fire is taken to make alone and
    with a neighbour burning, the highest fire, the heat no stand passes); None when it is
    off (``policy.pocket_turns`` 0)."""
    memo: dict[str, _PocketLimits | None] = ctx.cache.setdefault(AP_LIMITS_POCKET, {})
    if "pocket" in memo:
        return memo["pocket"]
    turns = int(policy(ctx, "pocket_turns"))
    out: _PocketLimits | None = None
    if turns > 0:
        r = ctx.rules
        chance = policy(ctx, "pocket_chance")
        top = r.int("fire.max")
        die = r.int("growth.on")
        alone = min(6, max(0, 7 - die)) / 6  # §3 growth: 1d6 of ``on`` or more raises it one
        near = min(6, max(0, 7 - die + r.int("growth.neighbour_burning"))) / 6
        grow = (_growths(turns, alone, chance, top), _growths(turns, near, chance, top))
        out = (chance, turns, grow, top, r.int("heat.always_fail_min"))
    memo["pocket"] = out
    return out


def _catches(ctx: TurnContext, state: GameState, loc: Location, fc: _Forecast) -> bool:
    """``loc`` can burn and catches by a spread within ``policy.pocket_turns`` spread steps
    with ``policy.pocket_chance`` or more: the fires next to it as they burn now rolling in
    each step (:func:`catch_chance`; a lower bound: fires that grow or come nearer are left
    out); kept for the forecast."""
    hit = fc.catch.get(loc)
    if hit is None:
        if not _can_burn(ctx, state, loc):
            hit = False
        else:
            miss = 1 - catch_chance(ctx, state, loc)
            hit = 1 - miss**fc.turns >= fc.chance
        fc.catch[loc] = hit
    return hit


def _stays_open(ctx: TurnContext, state: GameState, loc: Location, fc: _Forecast) -> bool:
    """``loc`` is still a place a stand can pass in ``policy.pocket_turns`` turns, as far as
    a forecast that fails with ``policy.pocket_chance`` or less tells: it does not catch
    (:func:`_catches`), and the fires next to it then (each grown as often as it does with
    that chance, §3 growth; each neighbour that catches at fire 1) add up to less than the
    heat no stand passes (§4)."""
    fire = state.fire
    if loc in fire:
        return False
    if fc.rubble is not None and loc[1] == 0 and loc[0] in fc.rubble:
        return False  # round 11: a collapse next door may bury it and make it burn (§6)
    heats = _heat_memo(ctx)
    h = heats.get(loc)
    if h is None:
        h = danger.heat(ctx, state, loc)
    if (h or (loc[0], loc[1] - 1) in fire) and _catches(
        ctx, state, loc, fc
    ):  # (with no fire next to it nor below, it cannot catch in the next spread)
        return False
    heat = 0
    alone, near = fc.grow
    top, fail = fc.top, fc.fail
    more: list[Location] = []  # the neighbours that may catch
    nb: Any  # (round 22: places typed Any, as they come: see catch_chance)
    for nb in danger.neighbours(ctx, loc):
        f = fire.get(nb)
        if f:
            if f < top:
                h = heats.get(nb)
                if h is None:
                    h = danger.heat(ctx, state, nb)
                f = min(top, f + (near if h else alone))
            heat += f
        else:
            more.append(nb)
    if heat >= fail:
        return False
    if heat + len(more) < fail:
        return True  # (asked first: whether each may catch is the dear part)
    for nb in more:
        if _catches(ctx, state, nb, fc):
            heat += 1
            if heat >= fail:
                return False
    return True


def _foot_adjacency(
    ctx: TurnContext, fail: int
) -> dict[Location, tuple[tuple[Location, ...], bool]]:
    """For each location, the places a stand steps to from it by the map's own links
    (:func:`.foot.foot_links` with no ladder; links go both ways) and whether it has fewer
    neighbours than ``fail``, the heat no stand passes; kept for the game."""
    memo: dict[int, dict[Location, tuple[tuple[Location, ...], bool]]] = ctx.cache.setdefault(
        AP_ADJACENCY, {}
    )
    hit = memo.get(fail)
    if hit is None:
        # round 18: each place's steps toward the nearest goal last, so that the search
        # (which takes the last step found first) heads for one (the answer is the same)
        far = _goal_distance(ctx)
        hit = memo[fail] = {
            loc: (
                tuple(
                    sorted(
                        (link[0] for link in foot.foot_links(ctx, loc, {})),
                        key=lambda x: -far.get(x, 0),
                    )
                ),
                len(danger.neighbours(ctx, loc)) < fail,
            )
            for loc in ctx.graph.locations
        }
    return hit


def _goal_distance(ctx: TurnContext) -> dict[Location, int]:
    """For each location, the fewest foot steps by the map's links to the ground level of a
    haven (:func:`haven_areas`) or an entry area, the places the pocket forecast's search
    looks for (a location with no way there is left out); for :func:`_foot_adjacency`."""
    back: dict[Location, list[Location]] = {}  # the links read backwards
    for loc in ctx.graph.locations:
        for link in foot.foot_links(ctx, loc, {}):
            back.setdefault(link[0], []).append(loc)
    goals = {*haven_areas(ctx), *mv.entry_areas(ctx)}
    ring = [loc for loc in ctx.graph.locations if loc[1] == 0 and loc[0] in goals]
    out = dict.fromkeys(ring, 0)
    d = 0
    while ring:
        d += 1
        nxt: list[Location] = []
        for x in ring:
            for y in back.get(x, ()):
                if y not in out:
                    out[y] = d
                    nxt.append(y)
        ring = nxt
    return out


def _joined(
    ctx: TurnContext,
    state: GameState,
    fc: _Forecast,
    start: Location,
    adj: dict[Location, tuple[tuple[Location, ...], bool]],
    ladders: dict[Location, list[tuple[Location, int]]],
) -> bool:
    """Whether a way through places that stay open (:func:`_stays_open`) leads from
    ``start``, an open place, to a haven or an entry: a search out from it that stops at
    the first goal or place already settled; every place it visited is joined to the
    same goals or to none (foot links go both ways), and is remembered as such."""
    joined = fc.joined
    hit = joined.get(start)
    if hit is not None:
        return hit
    goals = fc.goal_set
    fire, opened, rubble = state.fire, fc.opened, fc.rubble
    heats: dict[Location, int] = _heat_memo(ctx)
    seen: set[Any] = {start}
    todo: list[Any] = [start]
    out = start in goals
    x: Any
    nb: Any  # (round 22: places typed Any, as they come: see catch_chance)
    while todo and not out:
        x = todo.pop()
        links = adj.get(x, ((), False))[0]
        extra = ladders.get(x)
        for nb in (*links, *(to for to, _lvl in extra)) if extra else links:
            if nb in seen:
                continue
            ok = opened.get(nb)
            if ok is None:
                # :func:`_stays_open`, answered first for a place with no fire next to it
                # or below and fewer neighbours than the heat no stand passes: it cannot
                # catch in the next spread, nor can its neighbours catching add up to it
                # (round 18: unless a collapse's rubble may strike it, as there)
                h = heats.get(nb)
                ok = opened[nb] = nb not in fire and (
                    (
                        adj.get(nb, ((), False))[1]
                        and not (danger.heat(ctx, state, nb) if h is None else h)
                        and (nb[0], nb[1] - 1) not in fire
                        and (rubble is None or nb[1] != 0 or nb[0] not in rubble)
                    ) or _stays_open(ctx, state, nb, fc)
                )  # fmt: skip
            if not ok:
                continue
            seen.add(nb)
            done = joined.get(nb)
            if done is not None or nb in goals:
                out = True if done is None else done
                break
            todo.append(nb)
    for x in seen:
        joined[x] = out
    return out


def _open(ctx: TurnContext, state: GameState, fc: _Forecast, loc: Location) -> bool:
    """:func:`_stays_open`, kept for the forecast."""
    hit = fc.opened.get(loc)
    if hit is None:
        hit = fc.opened[loc] = _stays_open(ctx, state, loc, fc)
    return hit


def pocket(ctx: TurnContext, state: GameState, loc: Location) -> bool:
    """The fire may close round ``loc`` within ``policy.pocket_turns`` turns (round 7): no
    way on foot leads from it to a haven (:func:`shelters`) or an entry through places
    that stay open in the forecast (:func:`_stays_open`). A stand with nothing to do there
    should leave while it still can. False where it is off, at a haven or entry, or with
    no fire."""
    if not state.fire:
        return False
    fc = _forecast(ctx, state)
    if fc is None or loc in fc.goal_set:
        return False
    if fc.opened.get(loc):  # an open place already searched from (or through): its answer
        done = fc.joined.get(loc)
        if done is not None:
            return not done
    adj = _foot_adjacency(ctx, fc.fail)
    ladders = foot.ladder_links(state, ctx)
    if _open(ctx, state, fc, loc):
        return not _joined(ctx, state, fc, loc, adj, ladders)
    for link in foot.foot_links(ctx, loc, ladders):
        nb = link[0]
        if _open(ctx, state, fc, nb) and _joined(ctx, state, fc, nb, adj, ladders):
            return False
    return True


def held(ctx: TurnContext, state: GameState, loc: Location, steps: int) -> bool:
    """The force is holding the fire round ``loc``: the fires within ``steps`` steps of it
    that no line plays on add up to ``policy.way_back_hold`` or less (a fire nobody fights
    grows and spreads; one under a line is being put down)."""
    cov = coverage(state)
    fire = state.fire
    nbs: dict[Location, list[Location]] = ctx.cache.get(NEIGHBOURS) or {}  # inline
    seen = {loc}
    ring = [loc]
    for _ in range(steps):  # each place once (one next to two of the ring is not asked twice)
        nxt: list[Location] = []
        for x in ring:
            near = nbs.get(x)
            if near is None:
                near = danger.neighbours(ctx, x)
            for nb in near:
                if nb not in seen:
                    seen.add(nb)
                    nxt.append(nb)
        ring = nxt
    loose = sum(fire[x] for x in seen if x in fire and not cov.get(x, 0))
    return loose <= policy(ctx, "way_back_hold")


def refuge(ctx: TurnContext, state: GameState, u: UnitState) -> Location | None:
    """Where a stand with no way out on foot (no haven, no entry it can walk to: the fire
    has closed round it) waits: within a turn's walk, a place that cannot burn now (an
    empty street or open ground: §1, §3 Roads), out of the way of any building burning
    hard enough to roll for damage that is damaged ``policy.refuge_damage`` or more (a
    wider margin than :func:`collapse_zone`: it gains nothing by being there), with the
    least fire next to it, then the nearest (its own place first). None when there is
    none, or with ``policy.refuge_damage`` 0 (off)."""
    return None if u.loc is None else _refuge_from(ctx, state, u.loc)


def _refuge_from(ctx: TurnContext, state: GameState, start: Location) -> Location | None:
    """:func:`refuge` for a stand in ``start``."""
    worn = int(policy(ctx, "refuge_damage"))
    if worn <= 0 or not state.fire:
        return None
    dist, _ = foot.foot_search(ctx, state, start, ctx.rules.int("movement.foot_points"))
    falling, struck = _refuge_zone(ctx, state, worn)
    spots = [
        x for x in dist
        if x not in state.fire and not _can_burn(ctx, state, x)
        and x[0] not in falling and not (x[1] == 0 and x[0] in struck)
    ]  # fmt: skip
    if not spots:
        return None
    return min(spots, key=lambda x: (danger.heat(ctx, state, x), dist[x], x))


def _refuge_zone(
    ctx: TurnContext, state: GameState, worn: int
) -> tuple[frozenset[str], frozenset[str]]:
    """:func:`_collapse_areas` for ``policy.refuge_damage`` (``worn``), kept for the call
    (damage does not change in step 6)."""
    zone: tuple[frozenset[str], frozenset[str]] | None = ctx.cache.get(AP_REFUGE_ZONE)
    if zone is None:
        # a margin at least as wide as collapse_zone's holds all of its areas
        tight = _zone(ctx, state) if worn <= policy(ctx, "collapse_damage") else None
        zone = _collapse_areas(ctx, state, worn, tight)
        if AP_REFUGE_ZONE in ctx.cache:
            ctx.cache[AP_REFUGE_ZONE] = zone
    return zone


def calm(ctx: TurnContext, state: GameState, loc: Location) -> bool:
    """A place to wait with work in hand that takes no fire (a fire party refilling): not
    :func:`exposed`, and with fires next to it adding up to ``policy.retreat_heat`` or
    less (an empty street between two burning buildings cannot burn, but it is where the
    fire closes round a stand and the rubble of both falls)."""
    return not exposed(ctx, state, loc) and danger.heat(ctx, state, loc) <= policy(
        ctx, "retreat_heat"
    )


def stand_clear(ctx: TurnContext, state: GameState, u: UnitState) -> None:
    """A stand with nothing to do where the fire can reach it (next to a fire, or
    :func:`exposed`) walks to a haven (:func:`retreat`) before the fire closes round it."""
    if u.loc is not None and (danger.heat(ctx, state, u.loc) > 0 or exposed(ctx, state, u.loc)):
        retreat(ctx, state, u)


def retreat(ctx: TurnContext, state: GameState, u: UnitState) -> bool:
    """A stand with no more work here (its vehicle lost) walks out of the fire's district:
    to the nearest haven (:func:`shelters`) it can reach by a way where no heat test can
    fail, else by one whose every heat test it passes on ``policy.retreat_heat`` or better
    (round 6), else by any way (a failed test only stops it); with no haven in reach,
    toward the nearest entry (where help arrives and the fire has the furthest to come) by
    a way where no test can fail. This turn's part of it, stopping where it is not
    :func:`exposed` when it can, and keeping to that way (:func:`_walk_along`). With no
    way out at all it waits in the best place within a turn's walk (:func:`refuge`).
    Whether it moved."""
    if u.loc is None or acting.acted(state, u):
        return False
    havens = shelters(ctx, state)
    if u.loc in havens:
        return False
    # round 23: where a stand walks to from its place reads only what the call keeps fixed
    # (fire and heat, the havens as the call starts, the call's memos) and the pitched
    # ladders: asked once per place while the ladders stay as they are (most stands that
    # retreat share a place with the rest of their crew)
    memo: _RetreatMemo | None = ctx.cache.get(AP_RETREAT)
    if memo is None:
        goal = _retreat_goal(ctx, state, u.loc, havens)
    else:
        ladders = foot.ladder_links(state, ctx)
        if memo[0] != ladders:
            memo = ctx.cache[AP_RETREAT] = (ladders, {})
        goals = memo[1]
        if u.loc in goals:
            goal = goals[u.loc]
        else:
            goal = goals[u.loc] = _retreat_goal(ctx, state, u.loc, havens)
    return goal is not None and _walk_to(ctx, state, u, goal)


def _retreat_goal(
    ctx: TurnContext, state: GameState, start: Location, havens: list[Location]
) -> Location | None:
    """Where :func:`retreat` walks a stand in ``start`` (not a haven) to this turn: the
    furthest stop on its way that it reaches keeping to that way, else its refuge; None
    when it stays."""
    cool = ctx.rules.int("heat.always_pass_max")
    warm = max(cool, int(policy(ctx, "retreat_heat")))

    fire = state.fire
    heats: dict[Location, int] = _heat_memo(ctx)

    def cool_way(loc: Location) -> bool:  # no heat test on the way (none can fail)
        if loc in fire:
            return False
        h = heats.get(loc)
        return (danger.heat(ctx, state, loc) if h is None else h) <= cool

    def warm_way(loc: Location) -> bool:  # heat tests a stand passes more often than not
        if loc in fire:
            return False
        h = heats.get(loc)
        return (danger.heat(ctx, state, loc) if h is None else h) <= warm

    goal: Location | None = None
    way: Callable[[Location], bool] = cool_way
    if havens:
        dist, prev = foot.foot_search(
            ctx, state, start, None, ok=cool_way, goals=havens, ok_key=("cool", cool)
        )
        goal, _d = foot.nearest(dist, havens)
        if goal is None and warm > cool:  # a way whose heat tests it should pass
            dist, prev = foot.foot_search(
                ctx, state, start, None, ok=warm_way, goals=havens, ok_key=("cool", warm)
            )
            goal, _d = foot.nearest(dist, havens)
            way = warm_way
        if goal is None:  # no such way: through the heat (a failed test only stops it)
            dist, prev = foot.foot_search(ctx, state, start, None, goals=havens)
            goal, _d = foot.nearest(dist, havens)
            way = _anywhere
    entries = [(a, 0) for a in mv.entry_areas(ctx)] if goal is None else []
    if start in entries:
        return None
    if entries:
        dist, prev = foot.foot_search(
            ctx, state, start, None, ok=cool_way, goals=entries, ok_key=("cool", cool)
        )
        goal, _d = foot.nearest(dist, entries)
        way = cool_way
    if goal is None:  # no way out at all: wait in the best place within a turn's walk
        return _refuge_from(ctx, state, start)
    points = ctx.rules.int("movement.foot_points")
    path = [x for x in foot.path_to(prev, start, goal) if dist[x] <= points]  # this turn's part
    stops = [x for x in path if x != start and not exposed(ctx, state, x)]
    if not stops:
        stops = [x for x in path if x != start]
    return _walk_along(ctx, state, start, stops, way)


def _anywhere(loc: Location) -> bool:
    return True


def _walk_along(
    ctx: TurnContext,
    state: GameState,
    start: Location,
    stops: list[Location],
    ok: Callable[[Location], bool],
) -> Location | None:
    """The furthest of ``stops`` (places on a way found with the test ``ok``, in order)
    that a stand's walk from ``start`` (:func:`.movement.walk`: the shortest way) reaches
    through places that pass ``ok`` too, so that it keeps to that way; None if none."""
    if not stops:
        return None
    if ok is _anywhere:  # any way will do: the furthest stop (found by the same search)
        return stops[-1]
    for stop in reversed(stops):
        dist, prev = foot.foot_search(ctx, state, start, None, goal=stop)
        if stop in dist and all(ok(x) for x in foot.path_to(prev, start, stop)[1:]):
            return stop
    return None


def _walk_to(ctx: TurnContext, state: GameState, u: UnitState, goal: Location) -> bool:
    """``u`` walks toward ``goal`` (its task kept); whether it moved."""
    if goal == u.loc:
        return False
    task = u.task
    u.task = "move"
    moved = mv.walk(ctx, state, u, goal)
    u.task = task
    return moved
