"""Step 10 of the turn: crew status (§10).

A stand counts a turn of activity whenever it is on the map doing anything but resting,
waiting or riding. After ``fatigue.tired_after`` such turns it is Tired, after
``exhausted_after`` Exhausted. A rest of 1d6 x 2 turns (rule ``rest``; halved, rounded up,
beside a canteen truck that still has rations, one ration per stand-turn) recovers one step.
"""

from __future__ import annotations

from ....core.turn import TurnContext
from ..events import Fatigue, Rest
from ..state import GameState
from ..units import FATIGUE, RESTING_TASKS, STAND, UnitState


def canteen_for(state: GameState, u: UnitState) -> UnitState | None:
    """A canteen truck with rations in the stand's area."""
    if u.loc is None:
        return None
    for c in state.units_in_area(u.loc[0]):
        if c.type == "canteen_truck" and c.rations > 0:
            return c
    return None


def start_rest(ctx: TurnContext, state: GameState, u: UnitState) -> None:
    """Roll how long a rest will take (rule ``rest``)."""
    r = ctx.rules
    turns = ctx.roll(Rest, dice=r.int("fatigue.rest_dice"), at=u.loc, unit=u.id)
    turns *= r.int("fatigue.rest_factor")
    if canteen_for(state, u) is not None:
        div = r.int("fatigue.canteen_divisor")
        turns = -(-turns // div)
    u.rest_left = max(turns, 1)
    u.task = "rest"


def step_fatigue(ctx: TurnContext, state: GameState) -> None:
    r = ctx.rules
    tired, exhausted = r.int("fatigue.tired_after"), r.int("fatigue.exhausted_after")
    for uid in state.unit_ids():
        u = state.units[uid]
        if u.kind != STAND or not u.in_play:
            continue
        if u.task == "rest":
            if u.rest_left <= 0:
                start_rest(ctx, state, u)
            canteen = canteen_for(state, u)
            if canteen is not None:
                canteen.rations -= 1
            u.rest_left -= 1
            if u.rest_left <= 0:
                step = max(u.fatigue - 1, 0)
                u.status = FATIGUE[step]
                u.active_turns = (0, tired, exhausted)[step]
                u.task = "idle"
                ctx.note(Fatigue, at=u.loc, unit=u.id, status=u.status, cause="rest")
            continue
        if u.task in RESTING_TASKS:
            continue
        u.active_turns += 1
        new = 2 if u.active_turns >= exhausted else 1 if u.active_turns >= tired else 0
        if new > u.fatigue:
            u.status = FATIGUE[new]
            ctx.note(Fatigue, at=u.loc, unit=u.id, status=u.status)
