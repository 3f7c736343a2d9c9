"""Step 8 of the turn: water supply and pressure (§8).

Each pump (an appliance, or a deployed trailer/skid pump) feeds at most one laid, aimed hose
line per delivery pump, one water point each. The water comes from its source:

* a hydrant in its area, while the mains work and the hydrant stands: up to the hydrant's
  pressure in points a turn, for at most two appliances (the first two by id);
* open water next to it (drawn by suction, no hose) or a deployed dam: points are used up;
* its own tank (on-board water), used up; the tank also tops up a short hydrant.

A line longer than ``hose.max_lengths`` (the hydrant's connecting length included) gives no
pressure. Water never goes below zero.
"""

from __future__ import annotations

from typing import Final

from ....board.model import FeatureType
from ....core.turn import TurnContext
from ..events import NoPressure, NoWater
from ..memos import HYDRANT_PRESSURE
from ..state import GameState
from ..units import HoseLine, UnitState
from .reach import stream_range

# Compiled, ``AreaKind.WATER`` is two look-ups by name (the class in the module's
# globals, then the member) at every read; a Final is read from a C global.
_FEATURE_HYDRANT: Final = FeatureType.HYDRANT


def hydrant_pressure(ctx: TurnContext, area: str) -> int:
    """The pressure of an area's hydrants (summed over the scenario's features once per
    game, by area)."""
    by_area: dict[str, int] | None = ctx.cache.get(HYDRANT_PRESSURE)
    if by_area is None:
        by_area = {}
        for f in ctx.scenario.features:
            if f.type is _FEATURE_HYDRANT:
                by_area[f.area] = by_area.get(f.area, 0) + (f.pressure or 0)
        ctx.cache[HYDRANT_PRESSURE] = by_area
    return by_area.get(area, 0)


def hydrant_feeds(ctx: TurnContext, state: GameState) -> dict[str, int]:
    """Pressure each connected pump gets this turn (two appliances a hydrant, by id)."""
    limit = ctx.rules.int("water.hydrant_appliances")
    out: dict[str, int] = {}
    users: dict[str, list[str]] = {}
    for uid in state.unit_ids():
        u = state.units[uid]
        if u.source is not None and u.source.startswith("hydrant:") and u.in_play:
            users.setdefault(u.source.split(":", 1)[1], []).append(uid)
    for area, ids in users.items():
        working = ctx.scenario.mains != "failed" and area not in state.hydrants_lost
        for i, uid in enumerate(ids):
            out[uid] = hydrant_pressure(ctx, area) if working and i < limit else 0
    return out


def effective_lengths(ctx: TurnContext, pump: UnitState, h: HoseLine) -> int:
    """A line's lengths for the pressure limit, with the hydrant's connecting length."""
    extra = (
        ctx.rules.int("hose.hydrant_lengths") if (pump.source or "").startswith("hydrant:") else 0
    )
    return h.lengths + extra


def wanting(state: GameState, pump: UnitState) -> list[HoseLine]:
    """The laid, aimed lines of a pump that get water, one per delivery pump (by id)."""
    lines = [
        state.hoses[k]
        for k in sorted(state.hoses)
        if state.hoses[k].unit == pump.id
        and not state.hoses[k].cut
        and not state.hoses[k].plan
        and not state.hoses[k].recover_left
        and state.hoses[k].target is not None
    ]
    return lines[: max(pump.pumps, 0)]


def step_water(ctx: TurnContext, state: GameState) -> None:
    per_hose = ctx.rules.int("water.per_hose")
    max_len = ctx.rules.int("hose.max_lengths")
    hoses = state.hoses
    for h in hoses.values():
        h.water = 0
    # every pump's lines as :func:`wanting` lists them (by id), found in one walk of the
    # lines: nothing below changes which lines are laid, aimed, whole or whose they are
    laid: dict[str, list[HoseLine]] = {}
    for k in sorted(hoses):
        h = hoses[k]
        if not h.cut and not h.plan and not h.recover_left and h.target is not None:
            laid.setdefault(h.unit, []).append(h)
    feeds = hydrant_feeds(ctx, state)
    for uid in state.unit_ids():
        pump = state.units[uid]
        if pump.pumps <= 0 or not pump.deployed or not pump.in_play:
            continue
        lines = laid.get(uid)
        if not lines:
            continue
        lines = lines[: max(pump.pumps, 0)]
        hydrant = feeds.get(uid, 0)
        for h in lines:
            assert h.target is not None
            if stream_range(ctx, h.branch, h.target) is None:
                continue  # a branch beyond range of its target uses no water
            if effective_lengths(ctx, pump, h) > max_len:
                ctx.note(NoPressure, at=h.branch, hose=h.id, lengths=h.lengths)
                continue
            got = _draw(state, pump, per_hose, hydrant)
            if got is None:
                ctx.note(NoWater, at=h.branch, hose=h.id, unit=pump.id)
                continue
            hydrant = got
            h.water = per_hose


def _draw(state: GameState, pump: UnitState, need: int, hydrant: int) -> int | None:
    """Take ``need`` points for one line; the hydrant points left, or None if dry."""
    src = pump.source or "tank"
    kind, _, ref = src.partition(":")
    if kind == "hydrant" and hydrant >= need:
        return hydrant - need
    if kind == "open" and state.water_left.get(ref, 0) >= need:
        state.water_left[ref] -= need
        return hydrant
    if kind == "dam":
        dam = state.units.get(ref)
        if dam is not None and dam.in_play and dam.water >= need:
            dam.water -= need
            return hydrant
    if pump.water >= need:  # the tank: the only source, or topping up
        pump.water -= need
        return hydrant
    return None
