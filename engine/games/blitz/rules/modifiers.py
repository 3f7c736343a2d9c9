"""The modifiers of BLITZ!'s modified rolls, part by part (one place per rule).

Each function returns the parts of one roll's modifier: the ruleset key that gives the
value, the value, and the ruling it applies. The rule sums them for its roll (the turn log
keeps the total only); the turn report calls the same function on the state it replays to
say why ("-1 oil store"), so the reasons cannot drift from the rule.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Final, NamedTuple

from ....board.model import Location, Material
from ....core.turn import TurnContext
from ..reach.danger import neighbours
from ..state import GameState, store_at
from ..units import VEHICLE, HoseLine, UnitState
from .ignition import downwind

# Compiled, ``AreaKind.WATER`` is two look-ups by name (the class in the module's
# globals, then the member) at every read; a Final is read from a C global.
_MATERIAL_OIL: Final = Material.OIL
_MATERIAL_PETROL: Final = Material.PETROL
_MATERIAL_WOOD: Final = Material.WOOD


class Part(NamedTuple):
    """One reason in a roll's modifier: ``key`` names the ruleset value (``spread.oil_store``),
    ``value`` what it adds, ``ruling`` the ruling that reads it (R-2), if any."""

    key: str
    value: int
    ruling: str | None = None


def total(parts: Iterable[Part]) -> int:
    return sum(p.value for p in parts)


def rulings(parts: Iterable[Part]) -> list[str]:
    return [p.ruling for p in parts if p.ruling]


# -- step 1: spread, climb and jump ------------------------------------------------------------
def fighting_locations(state: GameState) -> set[Location]:
    """Where a hose team is fighting fire (step 1: spread into them is harder)."""
    return {
        u.loc
        for u in state.units.values()
        if u.task == "fight" and u.loc is not None and u.kind not in (VEHICLE,) and u.in_play
    }


def spread_map_parts(ctx: TurnContext, src: Location, dst: Location) -> list[Part]:
    """The parts the map fixes: a strong wind blowing from src to dst (R-2), a store in
    dst (R-4)."""
    rules = ctx.rules
    parts = []
    if ctx.scenario.wind.strong and downwind(ctx, src[0], dst[0]):
        parts.append(Part("spread.strong_downwind", rules.int("spread.strong_downwind"), "R-2"))
    store = store_at(ctx.scenario, dst)
    if store is _MATERIAL_OIL:
        parts.append(Part("spread.oil_store", rules.int("spread.oil_store"), "R-4"))
    elif store is _MATERIAL_PETROL:
        parts.append(Part("spread.petrol_store", rules.int("spread.petrol_store"), "R-4"))
    return parts


def spread_parts(
    ctx: TurnContext, state: GameState, src: Location, dst: Location, fighting: Collection[Location]
) -> list[Part]:
    """Every part of a spread (or climb, or jump) roll from src into dst: dst's damp (one
    part per level), embers and hose team, then the map's parts."""
    return spread_state_parts(ctx, state, dst, fighting) + spread_map_parts(ctx, src, dst)


def spread_state_parts(
    ctx: TurnContext, state: GameState, dst: Location, fighting: Collection[Location]
) -> list[Part]:
    """The parts of a spread roll into dst that the game's state sets: dst's damp, its
    embers, a hose team fighting there."""
    rules = ctx.rules
    parts = []
    damp = state.damp.get(dst, 0)
    if damp:
        parts.append(Part("spread.damp_per_level", damp * rules.int("spread.damp_per_level")))
    if dst in state.embers:
        parts.append(Part("spread.embers", rules.int("spread.embers")))
    if dst in fighting:
        parts.append(Part("spread.hose_team", rules.int("spread.hose_team")))
    return parts


# -- step 2: growth ----------------------------------------------------------------------------
def growth_store_parts(ctx: TurnContext, loc: Location) -> list[Part]:
    """The part the map fixes: a wood store in the location."""
    if store_at(ctx.scenario, loc) is _MATERIAL_WOOD:
        return [Part("growth.wood_store", ctx.rules.int("growth.wood_store"))]
    return []


def growth_parts(ctx: TurnContext, loc: Location, burning: Collection[Location]) -> list[Part]:
    """A growth roll's parts: a neighbour burning (at the start of step 2), a wood store."""
    parts = []
    if any(nb in burning for nb in neighbours(ctx, loc)):
        parts.append(Part("growth.neighbour_burning", ctx.rules.int("growth.neighbour_burning")))
    return parts + growth_store_parts(ctx, loc)


# -- step 9: streams and casualties ------------------------------------------------------------
def crew_at_branch(state: GameState, h: HoseLine) -> list[UnitState]:
    """The hose's stands at its branch (they handle the stream)."""
    out = []
    for sid in h.crew:
        s = state.units.get(sid)
        if s is not None and s.in_play and h.path and s.loc == h.branch:
            out.append(s)
    return out


def stream_parts(ctx: TurnContext, state: GameState, h: HoseLine, rng: int) -> list[Part]:
    """§9: range, the crew's fatigue (the freshest stand handles the branch), two or more
    crews, unmanned branch. Range 0 (the branch's own location) has its own entry in the
    ruleset: fireground reads it as range 1."""
    r = ctx.rules
    key = f"firefighting.range.{rng}"
    parts = [Part(key, r.int(key))]
    crew = crew_at_branch(state, h)
    if not crew:
        return [*parts, Part("firefighting.unmanned", r.int("firefighting.unmanned"))]
    best = min(s.fatigue for s in crew)
    if best == 1:
        parts.append(Part("firefighting.tired", r.int("firefighting.tired")))
    elif best >= 2:
        parts.append(Part("firefighting.exhausted", r.int("firefighting.exhausted")))
    if len(crew) >= r.int("firefighting.crews_for_bonus"):
        parts.append(Part("firefighting.crews_bonus", r.int("firefighting.crews_bonus")))
    return parts


def casualty_parts(ctx: TurnContext, state: GameState, loc: Location) -> list[Part]:
    """§9: a doctor in the casualty's area."""
    if any(u.type == "doctor" for u in state.units_in_area(loc[0])):
        return [Part("casualty.doctor", ctx.rules.int("casualty.doctor"))]
    return []
