"""Step 1's spread planned from the map once per game: each fire's spread, climb (R-1) and
jump (R-5) targets in roll order, the reverse index by target, and the quiet mode using them."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

from ....board.model import AreaKind, Location, Material
from ....core.turn import TurnContext
from ..memos import JUMP_PLAN, JUMPS_ALLOWED, SPREAD_ORDER, SPREAD_PLAN, SPREAD_REVERSE
from ..reach.danger import area_kind, map_tuples
from ..state import GameState, store_at
from .ignition import (
    downwind,
    ignite,
    jump_lines,
    sorted_locations,
    spread_targets,
)
from .modifiers import spread_map_parts, total

#: a spread target planned for the quiet mode: (target, rule, 2 if it is a street or open
#: ground that burns only with rubble or a vehicle else 1, the modifier fixed by the map)
_Target = tuple[Location, str, int, int]
#: an R-5 jump planned for the quiet mode: the target, and the gap areas that might burn
_Jump = tuple[_Target, tuple[str, ...]]

# Compiled, ``AreaKind.WATER`` is two look-ups by name (the class in the module's
# globals, then the member) at every read; a Final is read from a C global.
_KIND_BUILDING: Final = AreaKind.BUILDING
_KIND_WATER: Final = AreaKind.WATER
_MATERIAL_PETROL: Final = Material.PETROL


def _target(ctx: TurnContext, src: Location, dst: Location, rule: str) -> _Target | None:
    """A planned target (None: it can never burn), with what follows from the map alone:
    its kind, and the wind (R-2) and store (R-4) modifiers."""
    kind = area_kind(ctx, dst[0])
    if kind is None or kind is _KIND_WATER:
        return None
    mod = total(spread_map_parts(ctx, src, dst))
    return (dst, rule, 1 if kind is _KIND_BUILDING else 2, mod)


def _spread_plan(ctx: TurnContext, src: Location, climbing: bool) -> list[_Target]:
    """The quiet mode's spread (and, when ``climbing``, climb) targets from ``src`` in roll
    order, remembered for the game (by source: [plain, climbing], each made when first
    needed). Targets that can never burn are left out: they never roll."""
    memo: dict[Location, list[list[_Target] | None]] = ctx.cache.setdefault(SPREAD_PLAN, {})
    pair = memo.get(src)
    if pair is None:
        pair = memo[src] = [None, None]
    plan = pair[climbing]
    if plan is not None:
        return plan
    nbs, climbs = spread_targets(ctx, src)
    if climbing and climbs:
        pairs = [(dst, "climb" if ruling == "R-1" else "spread") for dst, ruling in
                 with_climbs(ctx, src, nbs, climbs)]  # fmt: skip
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
    memo: dict[Location, list[_Jump]] = ctx.cache.setdefault(JUMP_PLAN, {})
    plan = memo.get(src)
    if plan is not None:
        return plan
    rules = ctx.rules
    gap, gap_down = rules.int("jump.gap"), rules.int("jump.gap_downwind")
    plan = memo[src] = []
    for dst, gap_areas in jumps_allowed(ctx, src, gap, gap_down):
        t = _target(ctx, src, dst, "jump")
        kinds = [area_kind(ctx, g) for g in gap_areas]
        if t is None or _KIND_BUILDING in kinds:
            continue
        open_gaps = tuple(
            g
            for g, k in zip(gap_areas, kinds, strict=True)
            if k is not None and k is not _KIND_WATER
        )
        plan.append((t, open_gaps))
    return plan


def spread_quiet(
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
    rand = ctx.dice.uniform()  # die() is int(rand() * 6) + 1
    burning = state.fire
    damp = state.damp
    embers = state.embers
    rubble = state.rubble
    pending = state.pending_damp_loss

    # (round 22: the planned targets are passed along as the objects the plans hold, typed
    # Any: compiled, a value typed as a tuple of fixed length is unpacked into its fields
    # and a new tuple made each time it is passed on or looked up, for every roll)
    def attempt(src: Any, t: Any, limit: int, occupied: set[Location] | None) -> None:
        dst = t[0]
        damp_mod = damp.get(dst, 0) * per_damp
        mod = t[3] + damp_mod
        if dst in embers:
            mod += embers_mod
        if dst in fighting:
            mod += hose_mod
        total = int(rand() * 6) + 1 + mod
        if total <= limit:
            ignite(ctx, state, dst, start, cause=t[1], occupied=occupied)
        elif damp_mod and total - damp_mod <= limit:
            pending[dst] = pending.get(dst, 0) + 1

    src: Any  # (round 22: sources and targets typed Any, as they come: see attempt)
    t: Any
    jump: Any
    reverse = _reverse_index(ctx) if by_target_pays(ctx, len(burning)) else None
    if reverse is not None:
        # the fires as a set (made from the dict's own hashes: the set operations below
        # hash no location again); those not yet indexed are few (most burned last turn),
        # and the order they are indexed in does not matter (the rolls are sorted by
        # their keys)
        alight = set(burning)
        # (a petrol store set alight mid-step explodes and may change the map: with one
        # not yet burning, the plain walk below is used)
        if reverse.petrol <= alight and _index_sources(ctx, reverse, alight - reverse.indexed):
            # no unit moves in this step (no petrol store can catch: all burn), so where
            # units stand is found once, for every location set alight
            occupied = {u.loc for u in state.units.values() if u.loc is not None}
            roll: Any  # (key, source, target, limit, gaps): see attempt
            for roll in _by_target(ctx, state, reverse, vehicles, alight):
                t = roll[2]
                dst = t[0]
                if dst in burning or (
                    t[2] == 2 and dst[0] not in rubble and dst[0] not in vehicles
                ):
                    continue
                gaps = roll[4]
                if gaps and any(g in rubble or g in vehicles for g in gaps):
                    continue
                attempt(roll[1], t, roll[3], occupied)
            return
    plans = ctx.cache.setdefault(SPREAD_PLAN, {})
    jump_plans = ctx.cache.setdefault(JUMP_PLAN, {})
    # where units stand, found once for the step's ignitions, when no unit can move in it:
    # only a petrol store set alight moves units (it explodes), and one already burning
    # cannot be set alight again (else None: each ignition looks at the units itself)
    where: set[Location] | None = None
    petrol = (reverse or _reverse_index(ctx)).petrol
    if not petrol or petrol <= burning.keys():
        where = {u.loc for u in state.units.values() if u.loc is not None}
    ordered: list[Any] = sorted_locations(ctx, list(burning))
    snapshot: list[tuple[Any, int]] = [(loc, burning[loc]) for loc in ordered]
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
            attempt(src, t, fire, where)
        if fire >= jump_min:
            jumps = jump_plans.get(src)
            if jumps is None:
                jumps = _jump_plan(ctx, src)
            for jump in jumps:
                t = jump[0]
                dst = t[0]
                if dst in burning or (
                    t[2] == 2 and dst[0] not in rubble and dst[0] not in vehicles
                ):
                    continue
                if any(g in rubble or g in vehicles for g in jump[1]):
                    continue
                attempt(src, t, jump_max, where)


#: a roll of the reverse index: (its order key: the source's rank (R-3 order) times 2**31
#: plus its place among its source's rolls, target, gap areas)
_Roll = tuple[int, _Target, tuple[str, ...]]
#: the rolls of one source into one target: (rolls as a plain spread, as the spread of a
#: fire that climbs (R-1), as jumps (R-5))
_FromSource = tuple[tuple[_Roll, ...], tuple[_Roll, ...], tuple[_Roll, ...]]


@dataclass
class _Reverse:
    """The quiet spread's plans turned round (see :func:`_by_target`), for the sources
    indexed so far: every source is indexed before a step that burns it uses the index,
    so the work follows the locations that have burned (kept for the game)."""

    # (the locations below are the map's own tuples, as the fires' keys mostly are (see
    # danger.map_tuples), typed Any so that compiled code keeps them as they are: the set
    # operations and look-ups each step then match them by identity)

    #: the map's locations by sorted order (R-3)
    rank: dict[Any, int]
    #: by target location: (its kind as in :data:`_Target`, the rolls of each indexed
    #: source that can roll into it)
    into: dict[Any, tuple[int, dict[Any, _FromSource]]]
    #: by target location: the indexed sources that can roll into it (``into``'s keys)
    sources: dict[Any, frozenset[Any]]
    #: the buildings (kind 1) an indexed source can roll into
    targets: set[Any]
    #: the streets and open ground (kind 2: they burn only with rubble or a vehicle) an
    #: indexed source can roll into, by area
    open_targets: dict[str, set[Any]]
    #: the sources indexed
    indexed: set[Any]
    #: petrol stores (one set alight explodes, which can change the map mid-step)
    petrol: frozenset[Location]


def _reverse_index(ctx: TurnContext) -> _Reverse:
    memo: dict[str, _Reverse] = ctx.cache.setdefault(SPREAD_REVERSE, {})
    hit = memo.get("index")
    if hit is None:
        ordered: list[Any] = sorted(ctx.graph.locations)
        petrol = frozenset(
            loc for loc in ordered if store_at(ctx.scenario, loc) is _MATERIAL_PETROL
        )
        rank = {loc: k for k, loc in enumerate(ordered)}
        hit = memo["index"] = _Reverse(rank, {}, {}, set(), {}, set(), petrol)
    return hit


def _index_sources(ctx: TurnContext, reverse: _Reverse, sources: Iterable[Any]) -> bool:
    """Add the rolls of ``sources`` to the index; False (and the index still sound) when
    one of them is off the map, so that the plain walk must be used."""
    src: Any  # (the fires' own keys, kept as they are: see _Reverse)
    for src in sources:
        rank = reverse.rank.get(src)
        if rank is None:
            return False
        jumps = _jump_plan(ctx, src)
        plans = (
            _spread_plan(ctx, src, False),
            _spread_plan(ctx, src, True),
            [t for t, _gaps in jumps],
        )
        found: dict[Location, tuple[list[_Roll], list[_Roll], list[_Roll]]] = {}
        for how, plan in enumerate(plans):
            for k, t in enumerate(plan):
                # jumps come after every spread: their places follow any spread plan
                place = k + (1 << 30 if how == 2 else 0)
                lists = found.setdefault(t[0], ([], [], []))
                lists[how].append(((rank << 31) + place, t, jumps[k][1] if how == 2 else ()))
        canon = map_tuples(ctx)
        dst: Any
        for target, (a, b, c) in found.items():
            dst = canon.get(target, target)
            entry = reverse.into.get(dst)
            if entry is None:
                kind = (a or b or c)[0][1][2]
                entry = reverse.into[dst] = (kind, {})
                if kind == 2:
                    reverse.open_targets.setdefault(dst[0], set()).add(dst)
                else:
                    reverse.targets.add(dst)
            entry[1][src] = (tuple(a), tuple(b), tuple(c))
            reverse.sources[dst] = frozenset(entry[1])
        reverse.indexed.add(src)
    return True


def by_target_pays(ctx: TurnContext, burning: int) -> bool:
    """Whether the quiet spread starts from the locations not burning (a quarter of the
    map or more burns): either way the same rolls are made."""
    return 4 * burning >= len(ctx.graph.locations)


def _by_target(
    ctx: TurnContext,
    state: GameState,
    reverse: _Reverse,
    vehicles: set[str],
    alight: set[Location],
) -> list[Any]:
    """Every spread and jump roll the fires burning now (``alight``: the locations of
    ``state.fire``, as a set) could make into a location that does not burn now (and can:
    a building, or a street with rubble or a vehicle), as (order key, source, target, the
    number to roll under, gap areas), in the order the plain walk makes them: by source
    (R-3), spreads in plan order, then jumps."""
    rules = ctx.rules
    climb_min = rules.int("spread.climb_min_fire")
    jump_min = rules.int("jump.min_fire")
    jump_max = rules.int("jump.max")
    fires = state.fire
    into = reverse.into
    sources = reverse.sources
    candidates = reverse.targets - alight  # (sets: no location hashed again)
    loc: Any
    open_targets = reverse.open_targets
    if open_targets:  # streets and open ground burn only with rubble or a vehicle
        for area in open_targets.keys() & (state.rubble | vehicles):
            # (a look-up each, not a set difference: most areas hold one or two targets,
            # and a new set for each costs more than the look-ups)
            for loc in open_targets[area]:
                if loc not in alight:
                    candidates.add(loc)
    # (round 23: the rolls' list typed Any too: compiled, a list of fixed-length tuples
    # unpacks each source and target into its fields and makes new tuples of them at every
    # append)
    rolls: list[Any] = []
    # (round 22: locations, plans and rolls typed Any, as spread_quiet's attempt says: the
    # objects the index holds go into the rolls as they are)
    dst: Any
    src: Any
    roll: Any
    for dst in candidates:
        if sources[dst].isdisjoint(alight):
            continue
        by_source: dict[Any, Any] = into[dst][1]
        for src, plans in by_source.items():
            fire = fires.get(src)  # (compiled: a dict's own get, not a bound method called)
            if fire is None:
                continue
            for roll in plans[1] if fire >= climb_min else plans[0]:
                rolls.append((roll[0], src, roll[1], fire, ()))
            jumps = plans[2]
            if jumps and fire >= jump_min:
                for roll in jumps:
                    rolls.append((roll[0], src, roll[1], jump_max, roll[2]))
    rolls.sort()  # the keys differ: the order is theirs alone
    return rolls


def with_climbs(
    ctx: TurnContext, src: Location, nbs: list[Location], climbs: list[Location]
) -> list[tuple[Location, str | None]]:
    """Neighbours and R-1 climbing targets in one sorted list, for the game."""
    memo: dict[Location, list[tuple[Location, str | None]]] = ctx.cache.setdefault(SPREAD_ORDER, {})
    hit = memo.get(src)
    if hit is None:
        hit = memo[src] = sorted([(b, None) for b in nbs] + [(b, "R-1") for b in climbs])
    return hit


def jumps_allowed(
    ctx: TurnContext, src: Location, gap: int, gap_down: int
) -> list[tuple[Location, tuple[str, ...]]]:
    """R-5 (target, gap areas) whose width the wind allows (one gap, two downwind), for the
    game; whether the gap and the target can burn is checked each time (fire step)."""
    memo: dict[tuple[Location, int, int], list[tuple[Location, tuple[str, ...]]]] = (
        ctx.cache.setdefault(JUMPS_ALLOWED, {})
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
