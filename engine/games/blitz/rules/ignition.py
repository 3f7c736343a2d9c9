"""Setting alight and putting out (ignite, reduce_fire, fire_cap), what can burn, and the
map lookups the fire steps share, remembered for the game."""

from __future__ import annotations

from collections.abc import Collection, Container, Iterable, KeysView
from typing import Any, Final

from ....board.model import AreaKind, Location, Material
from ....core.turn import TurnContext
from ..events import BurnOut, OilSpread, OilStore, PetrolStore
from ..memos import (
    AREA_KINDS,
    DOWNWIND,
    JUMPS,
    LOCATION_BY_RANK,
    LOCATION_RANK,
    SPREAD_TARGETS,
)
from ..reach.danger import area_kinds, map_tuples, neighbours
from ..state import GameState, store_at
from ..units import EQUIPMENT, VEHICLE

# Compiled, ``AreaKind.WATER`` is two look-ups by name (the class in the module's
# globals, then the member) at every read; a Final is read from a C global.
_KIND_BUILDING: Final = AreaKind.BUILDING
_KIND_OPEN: Final = AreaKind.OPEN
_KIND_STREET: Final = AreaKind.STREET
_KIND_WATER: Final = AreaKind.WATER
_MATERIAL_OIL: Final = Material.OIL
_MATERIAL_PETROL: Final = Material.PETROL


# -- helpers other steps use -----------------------------------------------------------------
def location_ranks(ctx: TurnContext) -> tuple[dict[Location, int], list[Location]]:
    """Each location's rank among the map's sorted locations, and the locations by rank
    (kept for the game; do not mutate)."""
    rank: dict[Location, int] | None = ctx.cache.get(LOCATION_RANK)
    if rank is None:
        # (typed Any: compiled, the keys are then the map's own tuples, not copies; see
        # map_tuples)
        ordered: list[Any] = sorted(ctx.graph.locations)
        ctx.cache[LOCATION_BY_RANK] = ordered
        rank = ctx.cache[LOCATION_RANK] = {loc: k for k, loc in enumerate(ordered)}
    by_rank: list[Location] = ctx.cache[LOCATION_BY_RANK]
    return rank, by_rank


def sorted_locations(ctx: TurnContext, locs: Iterable[Location]) -> list[Location]:
    """``sorted(locs)``, faster: by each location's rank among the map's sorted locations
    (the same order; a location off the map falls back to the plain sort)."""
    rank, by_rank = location_ranks(ctx)
    if isinstance(locs, Collection) and 3 * len(locs) >= len(by_rank):
        # a third of the map or more (a big fire): the map's own order, filtered, beats a
        # sort; the same list when every location is on the map once
        chosen = locs if isinstance(locs, (set, frozenset, KeysView)) else set(locs)
        out = [loc for loc in by_rank if loc in chosen]
        if len(out) == len(locs):
            return out
    try:
        ranks = sorted(map(rank.__getitem__, locs))  # sorting numbers beats a key function
    except KeyError:
        return sorted(locs)
    return [by_rank[k] for k in ranks]


def jump_lines(ctx: TurnContext, loc: Location) -> list[tuple[Location, tuple[str, ...]]]:
    """``graph.jump_lines`` (R-5 target, gap areas), remembered for the game."""
    memo: dict[Location, list[tuple[Location, tuple[str, ...]]]] = ctx.cache.setdefault(JUMPS, {})
    hit = memo.get(loc)
    if hit is None:
        hit = memo[loc] = ctx.graph.jump_lines(loc)
    return hit


def downwind(ctx: TurnContext, src: str, dst: str) -> bool:
    """R-2 ``graph.is_downwind`` for the scenario's wind, remembered for the game."""
    memo: dict[tuple[str, str], bool] = ctx.cache.setdefault(DOWNWIND, {})
    hit = memo.get((src, dst))
    if hit is None:
        hit = memo[(src, dst)] = ctx.graph.is_downwind(src, dst, ctx.scenario.wind)
    return hit


def spread_targets(ctx: TurnContext, loc: Location) -> tuple[list[Location], list[Location]]:
    """(neighbours, R-1 climbing targets) of a location, remembered for the game."""
    memo: dict[Location, tuple[list[Location], list[Location]]] = ctx.cache.setdefault(
        SPREAD_TARGETS, {}
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
    kinds: dict[str, AreaKind] | None = ctx.cache.get(AREA_KINDS)  # (area_kind, inline)
    kind = (area_kinds(ctx) if kinds is None else kinds).get(loc[0])
    if kind is None or kind is _KIND_WATER:
        return False
    if kind is _KIND_BUILDING:
        return True
    if loc[0] in state.rubble:
        return True
    return loc[0] in (vehicle_areas(state) if vehicles is None else vehicles)


def is_open_ground(ctx: TurnContext, loc: Location) -> bool:
    area = ctx.scenario.area_by_id.get(loc[0])
    return area is not None and area.kind in (_KIND_STREET, _KIND_OPEN)


def ignite(
    ctx: TurnContext,
    state: GameState,
    loc: Any,  # a Location, kept as the object it is (see below)
    level: int = 1,
    *,
    cause: str = "",
    occupied: Container[Location] | None = None,
) -> bool:
    """Set ``loc`` burning at ``level`` (a burning location is left as it is).

    The location loses its embers and all its damp; vehicles in it burn out (R-10; stands
    leave in step 6); an oil store goes to fire 5 and sets every flammable neighbour alight;
    a petrol store goes to fire 5 and explodes like an HE bomb. Returns whether it caught.
    ``occupied``: every location a unit stands in (or more), when the caller knows it: a
    location not in it has no unit to burn out (None: the units are looked at).

    (``loc`` typed Any: compiled, a location typed as a tuple is unpacked at the call and a
    new tuple made at each look-up by it, so the key the fire gets would be a copy.)
    """
    if loc in state.fire:
        return False
    rules = ctx.rules
    loc = map_tuples(ctx).get(loc, loc)  # (the map's own tuple: see map_tuples)
    state.fire[loc] = level
    state.embers.discard(loc)
    state.damp.pop(loc, None)
    state.pending_damp_loss.pop(loc, None)
    state.caught.add(loc)
    for u in state.units_at(loc) if occupied is None or loc in occupied else ():
        if u.kind in (VEHICLE, EQUIPMENT):
            u.status = "burned_out"  # the wreck stays, and still burns
            u.task = "idle"
            ctx.note(BurnOut, ruling="R-10", at=loc, unit=u.id)
    store = store_at(ctx.scenario, loc)
    if store is _MATERIAL_OIL:
        state.fire[loc] = rules.int("stores.oil.fire")
        ctx.note(OilStore, at=loc, fire=state.fire[loc])
        spread_fire = rules.int("stores.oil.spread_fire")
        vehicles = vehicle_areas(state)
        for nb in neighbours(ctx, loc):
            if nb not in state.fire and is_flammable(ctx, state, nb, vehicles):
                ctx.note(OilSpread, from_=loc, to=nb)
                ignite(ctx, state, nb, spread_fire, cause="oil", occupied=occupied)
    elif store is _MATERIAL_PETROL:
        state.fire[loc] = rules.int("stores.petrol.fire")
        ctx.note(PetrolStore, at=loc, fire=state.fire[loc])
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
