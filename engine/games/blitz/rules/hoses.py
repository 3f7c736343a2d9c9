"""Hose lines (§7): their lengths, starting a line, laying it (by hand or by lorry), a
stand leaving it, and taking it up again."""

from __future__ import annotations

import itertools
from typing import Final

from ....board.hose import line_lengths
from ....board.model import AreaKind, Location
from ....core.turn import TurnContext
from ..events import HoseLaid, HoseRecovered, HoseShort, HoseStart
from ..reach import danger, foot
from ..state import GameState
from ..units import HoseLine, UnitState, path_steps
from .acting import mark

# Compiled, ``AreaKind.WATER`` is two look-ups by name (the class in the module's
# globals, then the member) at every read; a Final is read from a C global.
_KIND_OPEN: Final = AreaKind.OPEN
_KIND_STREET: Final = AreaKind.STREET


# -- hoses ----------------------------------------------------------------------------------
def path_lengths(ctx: TurnContext, path: list[Location]) -> int:
    """Lengths a line along ``path`` takes (§7, :func:`~....board.hose.line_lengths`)."""
    steps = sum(path_steps(a, b) for a, b in itertools.pairwise(path))
    return line_lengths(steps, ctx.rules.int("hose.steps_per_length"))


def pump_capacity(state: GameState, pump: UnitState) -> int:
    """Hoses a pump can still take (one per delivery pump)."""
    used = sum(1 for h in state.hoses.values() if h.unit == pump.id and not h.cut)
    return pump.pumps - used


def leave_hose(state: GameState, u: UnitState) -> None:
    if u.hose is not None and u.hose in state.hoses:
        h = state.hoses[u.hose]
        if u.id in h.crew:
            h.crew.remove(u.id)
    u.hose = None
    if u.task in ("fight", "damp", "lay"):
        u.task = "idle"


def start_hose(
    ctx: TurnContext,
    state: GameState,
    stands: list[UnitState],
    pump: UnitState,
    route: list[Location],
    target: Location | None,
    stock: UnitState,
) -> HoseLine:
    """A new line from ``pump`` (route[0] is its location) laid by ``stands`` along ``route``.

    Lengths come from ``stock`` as the line grows.
    """
    n = 1 + max((int(k[1:]) for k in state.hoses if k[1:].isdigit()), default=0)
    h = HoseLine(f"H{n}", pump.id, [route[0]], 1, stock=stock.id, target=target)
    h.plan = list(route[1:])
    stock.hose_left -= 1
    state.hoses[h.id] = h
    for s in stands:
        leave_hose(state, s)
        s.hose = h.id
        s.task = "lay" if h.plan else ("fight" if target in state.fire else "damp")
        h.crew.append(s.id)
    ctx.note(HoseStart, at=route[0], hose=h.id, unit=pump.id, crew=[s.id for s in stands])
    return h


def lay_hoses(ctx: TurnContext, state: GameState) -> None:
    """Hoses grow at their advancing end: 2 laying points a turn (1 per area or level by
    stairs, 2 per level by ladder); the crew walks with the end and takes the heat test."""
    r = ctx.rules
    for hid in sorted(state.hoses):
        h = state.hoses[hid]
        if not h.plan or h.cut or h.lorry is not None:
            continue  # a lorry's line is laid by the lorry (lorry_lay)
        crew = [state.units[c] for c in h.crew if c in state.units]
        lead = next((s for s in crew if s.in_play and s.loc == h.branch), None)
        if lead is None:
            continue
        points = r.int("hose.lay_points") + h.progress
        h.progress = 0
        while h.plan:
            nxt = h.plan[0]
            link = foot.link_between(ctx, state, h.branch, nxt)
            if link is None or not foot.passable(ctx, state, nxt):
                h.plan = []
                break
            if link[3] > points:
                h.progress = points
                break
            stock = state.units.get(h.stock or "")
            new_len = path_lengths(ctx, [*h.path, nxt])
            if stock is None or new_len - h.lengths > stock.hose_left:
                ctx.note(HoseShort, at=h.branch, hose=h.id)
                h.plan = []
                break
            if not danger.heat_test(ctx, state, lead, nxt):
                break
            points -= link[3]
            stock.hose_left -= new_len - h.lengths
            h.lengths = new_len
            h.path.append(nxt)
            h.plan.pop(0)
            for s in crew:
                if s.in_play and s.loc == h.path[-2]:
                    s.loc = nxt
                    mark(state, s)
        if not h.plan:
            for s in crew:
                if s.in_play and s.task == "lay":
                    s.task = "fight" if h.target in state.fire else "damp"
            ctx.note(HoseLaid, at=h.branch, hose=h.id, lengths=h.lengths)


def lorry_lay(ctx: TurnContext, state: GameState, lorry: UnitState, h: HoseLine) -> None:
    """A hose-laying lorry lays up to its rate of street/open areas a turn along its plan;
    its crew on the line rides with it and mans the branch once the line is laid."""
    rate = int(ctx.rules.units.get(lorry.type, {}).get("lays_areas", 0) or 0)
    laid = 0
    crew = [state.units[c] for c in h.crew if c in state.units]
    while h.plan and laid < rate:
        nxt = h.plan[0]
        kind = danger.area_kind(ctx, nxt[0])
        if kind not in (_KIND_STREET, _KIND_OPEN) or nxt in state.fire:
            h.plan = []
            break
        if nxt[0] in state.rubble or nxt[0] in state.craters:
            h.plan = []  # §6: rubble and craters stop a vehicle
            break
        new_len = path_lengths(ctx, [*h.path, nxt])
        if new_len - h.lengths > lorry.hose_left:
            h.plan = []
            break
        lorry.hose_left -= new_len - h.lengths
        h.lengths = new_len
        h.path.append(nxt)
        h.plan.pop(0)
        laid += 1
        for s in crew:
            if s.in_play and s.loc == lorry.loc:
                s.loc = nxt
        lorry.loc = nxt
    mark(state, lorry)
    if not h.plan and crew:
        for s in crew:
            if s.in_play and s.loc == h.branch and s.task in ("aboard", "lay"):
                s.task = "fight" if h.target in state.fire else "damp"
                mark(state, s)
        lorry.task = "idle"
        ctx.note(HoseLaid, at=h.branch, hose=h.id, lengths=h.lengths, lorry=lorry.id)


def recover_hose(ctx: TurnContext, state: GameState, h: HoseLine) -> None:
    """Start taking up a line: recover_turns per length (§7)."""
    if not h.recover_left:
        h.recover_left = ctx.rules.int("hose.recover_turns") * max(h.lengths, 1)
        h.plan = []
        h.target = None
        for c in h.crew:
            if c in state.units:
                state.units[c].task = "recover"


def finish_recovery(ctx: TurnContext, state: GameState, h: HoseLine) -> None:
    stock = state.units.get(h.stock or "")
    if stock is not None and stock.in_play:
        stock.hose_left += h.lengths
    for c in h.crew:
        s = state.units.get(c)
        if s is not None and s.in_play:
            s.hose = None
            s.task = "idle"
            s.loc = h.path[0]
    ctx.note(HoseRecovered, at=h.path[0], hose=h.id, lengths=h.lengths)
    del state.hoses[h.id]
