"""Step 9 of the turn (first half): streams, damping down, embers and fire parties (§4, §9).

Hose lines with water play in id order, each on its target, one roll each, so a fire can be
beaten down several steps in a turn (the next stream faces the lowered fire). A stream on a
location that is not burning damps it down instead. A fire team standing at the branch of a
charged line has water in its own location: embers there all go out on a 6 (§3; a stream
played on embers farther off only damps them). Fire parties try once on a fire 1 next to
them, then refill.
"""

from __future__ import annotations

from typing import Final

from ....board.model import AreaKind, Location
from ....core.turn import TurnContext
from ..events import DampDown, EmbersOut, Extinguish, FireParty, Refill
from ..reach import danger
from ..state import GameState
from ..units import HoseLine, UnitState
from . import ignition, reach
from .modifiers import crew_at_branch, stream_parts, total

# Compiled, ``AreaKind.WATER`` is two look-ups by name (the class in the module's
# globals, then the member) at every read; a Final is read from a C global.
_KIND_BUILDING: Final = AreaKind.BUILDING


def stream_modifier(ctx: TurnContext, state: GameState, h: HoseLine, rng: int) -> int:
    """§9's modifier of a stream (the parts: :func:`.modifiers.stream_parts`)."""
    return total(stream_parts(ctx, state, h, rng))


def step_firefighting(ctx: TurnContext, state: GameState) -> None:
    r = ctx.rules
    damp_add, damp_max = r.int("firefighting.damp_add"), r.int("firefighting.damp_max")
    wet: set[Location] = set()  # where a fire team stands with water (embers, §3)
    for hid in sorted(state.hoses):
        h = state.hoses[hid]
        if h.water <= 0 or h.cut or not h.path:
            continue
        if crew_at_branch(state, h):
            wet.add(h.branch)
        if h.target is None:
            continue
        rng = reach.stream_range(ctx, h.branch, h.target)
        if rng is None:
            continue
        fire = state.fire.get(h.target)
        if fire is not None:
            mod = stream_modifier(ctx, state, h, rng)
            ok, _ = ctx.test(
                Extinguish, f">={fire}", modifier=mod, at=h.target, hose=h.id, range=rng
            )
            if ok:
                ignition.reduce_fire(state, h.target)
        else:
            before = state.damp.get(h.target, 0)
            after = min(before + damp_add, damp_max)
            if after > before:
                state.damp[h.target] = after
            ctx.note(DampDown, at=h.target, hose=h.id, damp=after)
    embers_on = r.int("embers.put_out_on")
    for loc in sorted(state.embers & wet):
        ok, _ = ctx.test(EmbersOut, f">={embers_on}", at=loc)
        if ok:
            state.embers.discard(loc)
    fire_parties(ctx, state)


def refill_point(ctx: TurnContext, state: GameState, loc: Location) -> bool:
    """§9: a fire party refills at a working hydrant or at any building's ground level."""
    a = ctx.scenario.area_by_id.get(loc[0])
    if a is None:
        return False
    if a.kind is _KIND_BUILDING and loc[1] == 0:
        return True
    return (
        ctx.scenario.mains != "failed"
        and loc[0] not in state.hydrants_lost
        and loc[0] in danger.hydrant_areas(ctx)
    )


def party_targets(ctx: TurnContext, state: GameState, loc: Location) -> list[Location]:
    """Fires a fire party can tackle from ``loc``: its own location first, then neighbours."""
    top = ctx.rules.int("fire_party.max_fire")
    cands = [loc, *danger.neighbours(ctx, loc)]
    return [c for c in cands if 0 < state.fire.get(c, 0) <= top]


def fire_parties(ctx: TurnContext, state: GameState) -> None:
    r = ctx.rules
    on, turns = r.int("fire_party.on"), r.int("fire_party.refill_turns")
    for uid in state.unit_ids():
        u = state.units[uid]
        if u.role != "fire_party" or not u.in_play or u.loc is None:
            continue
        if u.charged:
            targets = party_targets(ctx, state, u.loc)
            if not targets:
                continue
            ok, _ = ctx.test(FireParty, f">={on}", at=targets[0], unit=u.id)
            if ok:
                ignition.reduce_fire(state, targets[0], state.fire[targets[0]])
            u.charged = False
            u.extra["refill"] = 0
            u.task = "refill"
        elif refill_point(ctx, state, u.loc) and not reach_moved(state, u):
            u.extra["refill"] = int(u.extra.get("refill", 0)) + 1
            if u.extra["refill"] >= turns:
                u.charged = True
                u.task = "idle"
                ctx.note(Refill, at=u.loc, unit=u.id)


def reach_moved(state: GameState, u: UnitState) -> bool:
    """A party that walked this turn has not spent it refilling."""
    return bool(u.extra.get("acted") == state.turn)
