"""The hose-laying lorry (§7, §11, section 13 of the spec): it lays a line along open street
from a fixed end at its rate a turn (``lays_areas``: 6), with its own lengths, and its fire
team rides along to man the branch at the far end.

The fixed end is a pump standing where the line starts (an appliance, or a trailer or skid
pump, deployed): water in this engine always comes through a pump, so a run "from a
hydrant or open water" is a run from the pump connected there. The lorry starts at that
end, drives along the line as it lays it (street and open areas only: never into a
building, fire, rubble or a crater) and stops where the hose stops.

:func:`lorry_problem` says why a lorry cannot lay a given line (None: it can);
:func:`start_lorry_line` starts it and lays the first stretch at once (the laying itself,
turn by turn, is :func:`.hoses.lorry_lay`, run in step 6 with the work in progress).
"""

from __future__ import annotations

import itertools
from typing import Final

from ....board.model import AreaKind, Location
from ....core.turn import TurnContext
from ..events import HoseStart
from ..reach import danger
from ..state import GameState
from ..units import STAND, HoseLine, UnitState, crew_of
from . import reach
from .hoses import lorry_lay, path_lengths, pump_capacity

# Compiled, ``AreaKind.WATER`` is two look-ups by name (the class in the module's
# globals, then the member) at every read; a Final is read from a C global.
_KIND_OPEN: Final = AreaKind.OPEN
_KIND_STREET: Final = AreaKind.STREET


def lays_areas(ctx: TurnContext, u: UnitState) -> int:
    """Areas the unit lays a turn as a hose-laying lorry (0: it is not one)."""
    return int(ctx.rules.units.get(u.type, {}).get("lays_areas", 0) or 0)


def street_path(ctx: TurnContext, state: GameState, path: list[Location]) -> str | None:
    """Why a lorry cannot lay along ``path`` (None: it can): street or open areas at ground
    level, each next to the one before, none burning or blocked by rubble or a crater."""
    for loc in path:
        if loc[1] != 0 or danger.area_kind(ctx, loc[0]) not in (_KIND_STREET, _KIND_OPEN):
            return f"§7: the lorry lays along open street only ({loc[0]} level {loc[1]})"
        if loc in state.fire:
            return "§4: no unit may enter a burning location"
        if loc[0] in state.rubble or loc[0] in state.craters:
            return f"§6: rubble or a crater blocks {loc[0]}"
    for a, b in itertools.pairwise(path):
        if b[0] not in danger.area_neighbours(ctx, a[0]):
            return f"§7: the hose cannot run from {a[0]} to {b[0]} (not neighbours)"
    return None


def lorry_problem(
    ctx: TurnContext,
    state: GameState,
    lorry: UnitState,
    pump: UnitState | None,
    path: list[Location],
    target: Location | None = None,
) -> str | None:
    """Why ``lorry`` cannot lay a line for ``pump`` along ``path`` (None: it can)."""
    if lays_areas(ctx, lorry) <= 0:
        return f"§11: {lorry.id} is not a hose-laying lorry"
    if not lorry.in_play or lorry.loc is None:
        return f"§7: {lorry.id} is not on the map"
    if len(path) < 2:
        return "§7: a lorry's line runs at least one area from its fixed end"
    if pump is None or pump.pumps <= 0 or not pump.in_play or pump.kind == STAND:
        return "§7: the line's fixed end is a pump standing where it starts"
    if not pump.deployed:
        return f"§7: {pump.id} is not deployed yet"
    if pump.loc != path[0]:
        return f"§7: the line starts at its pump ({pump.id} stands in {pump.loc})"
    if lorry.loc != path[0]:
        return f"§7: the lorry starts at the fixed end ({lorry.id} stands in {lorry.loc})"
    if any(h.lorry == lorry.id and h.plan for h in state.hoses.values()):
        return f"§7: {lorry.id} is already laying a line"
    why = street_path(ctx, state, path)
    if why is not None:
        return why
    if pump_capacity(state, pump) <= 0:
        return f"§8: every delivery pump of {pump.id} already feeds a line"
    need = path_lengths(ctx, path)
    if need > lorry.hose_left:
        return f"§11: the line needs {need} lengths, {lorry.id} has {lorry.hose_left}"
    if target is not None and reach.stream_range(ctx, path[-1], target) is None:
        return "§9: beyond 3 areas (levels included) a stream has no effect"
    return None


def start_lorry_line(
    ctx: TurnContext,
    state: GameState,
    lorry: UnitState,
    pump: UnitState,
    path: list[Location],
    target: Location | None,
) -> HoseLine:
    """Start the line (checked with :func:`lorry_problem`) and lay its first stretch now."""
    n = 1 + max((int(k[1:]) for k in state.hoses if k[1:].isdigit()), default=0)
    h = HoseLine(f"H{n}", pump.id, [path[0]], 1, target=target, lorry=lorry.id, stock=lorry.id)
    h.plan = list(path[1:])
    lorry.hose_left -= 1
    state.hoses[h.id] = h
    for s in crew_of(state.units, lorry.id):
        if s.loc == lorry.loc and s.hose is None:
            s.hose = h.id
            s.task = "aboard"  # rides with the lorry to the far end
            h.crew.append(s.id)
    ctx.note(HoseStart, at=path[0], hose=h.id, unit=pump.id, lorry=lorry.id, crew=h.crew)
    lorry.task = "lay"
    lorry_lay(ctx, state, lorry, h)
    return h
