"""Player orders (§7, R-9): an API and an orders file for ``fireground simulate --orders``.

An order names a unit and what it is to do: ``move``, ``pitch_ladder``, ``lay_hose``,
``connect``, ``stream``, ``damp_down``, ``rescue``, ``rest``, ``withdraw``, ``carry`` (a fire
team picks up the wheelbarrow pump ``pump`` where it stands and, with ``to``, carries it
there at foot speed) or ``set_down`` (it puts the pump down where it stands and, with
``source``, connects it to water).
:func:`give_order` checks it against the state now and raises :class:`OrderError` naming the
rule it breaks (the state is left unchanged); an accepted order waits in the state and takes
effect at step 6 of the next turn when the officer stands within one area of the unit, or a
turn later when a messenger must carry it (R-9). It is checked again when it takes effect.
A unit keeps a player's order until it is done (arrived, the fire out, the rest over), then
goes back to its standing orders.

The orders file (YAML or JSON)::

    orders:
      - {turn: 1, unit: E1, order: move, to: R3}
      - {turn: 2, unit: E1, order: connect, source: hydrant}
      - {turn: 2, unit: E1.1, order: lay_hose, path: [R3, S1], at: {area: S2, level: 1}}
      - {turn: 5, unit: E1.1, order: stream, at: {area: S2, level: 0}}
      - {turn: 5, unit: E1.2, order: carry, pump: WB1, to: S4}
      - {turn: 6, unit: E1.2, order: set_down, source: hydrant}
      - {turn: 7, unit: HL1, order: lay_hose, path: [S4, S5, S6, S7], at: {area: S8, level: 0}}

``lay_hose`` given to a hose-laying lorry lays its line along open street from the pump at
the path's start, 6 areas a turn (:mod:`.rules.lorry`).

A location is ``AREA`` (level 0), ``[AREA, LEVEL]`` or ``{area: AREA, level: LEVEL}``.

The order type and its checks live in :mod:`.check`, the file reader in :mod:`.file`;
callers import them from there.
"""

from __future__ import annotations

from typing import Any

from ....core.turn import TurnContext
from ..events import OrderEvent
from ..memos import ORDER_BOOK
from ..reach import danger, foot
from ..rules import acting, equipment, hoses, reach, wheelbarrow
from ..rules import movement as mv
from ..rules.lorry import lays_areas, start_lorry_line
from ..state import GameState
from ..units import STAND, UnitState
from .check import (
    MESSENGERS,
    Order,
    OrderError,
    check,
    home_pump,
    lorry_pump,
    ordered_unit,
    source_name,
)
from .file import OrderBook


# -- the API ---------------------------------------------------------------------------------
def give_order(
    ctx: TurnContext, state: GameState, order: Order, *, during_turn: bool = False
) -> int:
    """Check ``order`` now and queue it; the turn whose step 6 carries it out (R-9).

    Between turns (the default) an order from the officer on the spot takes effect in the
    next turn's step 6, one by messenger a turn later; given during a turn's step 6
    (``during_turn``, as the orders file does) the officer's takes effect at once.
    Raises :class:`OrderError` (state unchanged) when the rules do not allow it.
    """
    u = ordered_unit(state, order)
    check(ctx, state, order)
    delay = delivery_delay(ctx, state, u)
    due = state.turn + (0 if during_turn else 1) + delay
    pending: list[dict[str, Any]] = state.extra.setdefault("pending_orders", [])
    pending.append({**order.to_dict(), "due": due})
    return due


def delivery_delay(ctx: TurnContext, state: GameState, u: UnitState) -> int:
    """R-9: 0 with the officer within one area, 1 by messenger; else OrderError.

    R-13: within one area is the unit's own location or one step from it in the map graph
    (a neighbouring area on the same level, a level by stairwell or a pitched ladder)."""
    assert u.loc is not None
    ladders = foot.ladder_links(state, ctx).get(u.loc, [])
    near = {u.loc, *danger.neighbours(ctx, u.loc), *(top for top, lvl in ladders if lvl <= 1)}
    officers = [o for o in state.units.values() if o.type == "officer" and o.in_play]
    if any(o.loc in near for o in officers):
        return 0
    if any(m.type in MESSENGERS and m.in_play for m in state.units.values()):
        return 1
    raise OrderError(
        "R-9", f"no officer within one area of {u.id} and no messenger to carry the order"
    )


# -- carrying orders out (step 6) ------------------------------------------------------------
def apply_due(ctx: TurnContext, state: GameState) -> None:
    """Step 6: orders due now take effect (checked again); standing player orders go on."""
    book: OrderBook | None = ctx.cache.get(ORDER_BOOK)
    if book is not None:
        _give_from_book(ctx, state, book)
    pending: list[dict[str, Any]] = state.extra.get("pending_orders", [])
    due = [d for d in pending if d["due"] <= state.turn]
    state.extra["pending_orders"] = [d for d in pending if d["due"] > state.turn]
    for d in due:
        order = Order.from_dict({k: v for k, v in d.items() if k != "due"})
        try:
            check(ctx, state, order)
        except OrderError as exc:
            ctx.note(OrderEvent, unit=order.unit, order=order.kind, refused=str(exc))
            continue
        ctx.note(OrderEvent, unit=order.unit, order=order.kind)
        start(ctx, state, order)
    for uid in state.unit_ids():
        u = state.units[uid]
        if u.order is not None and u.in_play:
            carry_on(ctx, state, u)
        elif u.order is not None:
            u.order = None


def start(ctx: TurnContext, state: GameState, order: Order) -> None:
    u = state.units[order.unit]
    k = order.kind
    u.order = order.to_dict()
    if k != "pitch_ladder":
        u.extra.pop("held_ladders", None)  # a new order replaces the old one
    if k == "pitch_ladder":
        if equipment.pitch_ladder(ctx, state, u, order.face or ""):
            # the ladder stays up, standing orders do not strike it (see
            # autopilot.parking.strike_spare_ladders), until the unit is given a new order
            held = tuple(u.extra.get("held_ladders", ()))
            u.extra["held_ladders"] = (*held, order.face or "")
            u.extra["held_since"] = state.turn
        u.order = None
    elif k == "connect":
        equipment.connect(ctx, state, u, source_name(u, order.source or "tank"))
        u.order = None
    elif k == "lay_hose" and lays_areas(ctx, u):
        pump = lorry_pump(state, order)
        assert pump is not None
        start_lorry_line(ctx, state, u, pump, list(order.path), order.at)
    elif k == "lay_hose":
        stock = state.units[u.parent or ""]
        pump = state.units.get(order.pump or "") or home_pump(state, stock)
        assert pump is not None
        hoses.start_hose(ctx, state, [u], pump, list(order.path), order.at, stock)
    elif k in ("stream", "damp_down"):
        h = state.hoses[u.hose or ""]
        h.target = order.at
        u.task = "fight" if k == "stream" else "damp"
    elif k == "rest":
        hoses.leave_hose(state, u)
        u.task = "rest"
    elif k == "withdraw":
        line = state.hoses.get(u.hose or "") if u.kind == STAND else None
        if line is not None:
            hoses.recover_hose(ctx, state, line)
        u.task = "withdraw"
    elif k == "rescue":
        u.task = "move"
    elif k == "carry":
        pump = state.units[order.pump or ""]
        if pump.extra.get("carried_by") != u.id:
            wheelbarrow.pick_up(ctx, state, u, pump)
        if order.to is None:
            u.order = None
    elif k == "set_down":
        pump = wheelbarrow.carried_pump(state, u)
        assert pump is not None
        wheelbarrow.set_down(ctx, state, pump)
        if order.source is not None:
            equipment.connect(ctx, state, pump, source_name(pump, order.source))
        u.order = None


def carry_on(ctx: TurnContext, state: GameState, u: UnitState) -> None:
    """One turn of a player's order in force; clears it when done."""
    assert u.order is not None and u.loc is not None
    o = Order.from_dict(u.order)
    k = o.kind
    done = False
    if k in ("move", "carry") and o.to is not None:
        if u.kind == STAND:
            if u.loc != o.to and not acting.acted(state, u):
                u.task = "move"
                mv.walk(ctx, state, u, o.to)
            done = u.loc == o.to
        else:
            done = u.loc[0] == o.to[0] or (
                not _packing(ctx, state, u) and mv.drive(ctx, state, u, o.to[0])
            )
            if done:
                u.extra["hold"] = True  # stays where the player put it while work is in reach
        if done and u.task == "move":
            u.task = "idle"
    elif k == "lay_hose" and lays_areas(ctx, u):
        done = not any(h.lorry == u.id and h.plan for h in state.hoses.values())
    elif k == "lay_hose":
        h = state.hoses.get(u.hose or "")
        done = h is None or (not h.plan and (h.target is None or h.target not in state.fire))
    elif k in ("stream", "damp_down"):
        h = state.hoses.get(u.hose or "")
        done = h is None or h.target != o.at or (k == "stream" and o.at not in state.fire)
    elif k == "rest":
        done = u.task != "rest"
    elif k == "rescue" and o.at is not None:
        if u.loc != o.at:
            mv.walk(ctx, state, u, o.at)
        if u.loc == o.at:
            u.task = "rescue"
        done = not any(
            c.loc == o.at and c.status in ("buried", "located") for c in state.casualties
        )
    elif k == "withdraw":
        if u.kind == STAND:
            h = state.hoses.get(u.hose or "")
            if h is None:
                home = state.units.get(u.parent or "")
                goal = o.to or (home.loc if home is not None else None)
                if goal is not None and u.loc != goal:
                    mv.walk(ctx, state, u, goal)
                done = goal is None or u.loc == goal
        else:
            to = o.to[0] if o.to is not None else _nearest_entry(ctx, state, u)
            done = to is None or (not _packing(ctx, state, u) and mv.drive(ctx, state, u, to))
        if done:
            u.task = "idle"
    else:
        done = True
    if done:
        u.order = None


def _packing(ctx: TurnContext, state: GameState, u: UnitState) -> bool:
    """A vehicle whose pump or dam is set up recovers it before driving (§7: a turn for a
    towed pump, two for a skid pump); whether it is still packing up."""
    if u.task == "stow":
        return True
    if u.deployed and equipment.sets_up(ctx, u) and u.task != "deploy":
        return equipment.stow(ctx, state, u)
    return False


def _nearest_entry(ctx: TurnContext, state: GameState, u: UnitState) -> str | None:
    assert u.loc is not None
    routes = reach.road_routes(ctx, state, u.loc[0])
    exits = [a for a in mv.entry_areas(ctx) if a in routes]
    return min(exits, key=lambda a: (len(routes[a]), a)) if exits else None


# -- orders from the file (step 6) -----------------------------------------------------------
def _give_from_book(ctx: TurnContext, state: GameState, book: OrderBook) -> None:
    """A refused order does not stop the game: it is reported on stderr and logged as an
    ``order`` event with ``refused``."""
    import sys

    for order in book.for_turn(state.turn):
        try:
            give_order(ctx, state, order, during_turn=True)
        except OrderError as exc:
            print(f"{order.where}: order refused: {exc}", file=sys.stderr)
            ctx.note(OrderEvent, unit=order.unit, order=order.kind, refused=str(exc))


__all__ = [
    "give_order",
]
