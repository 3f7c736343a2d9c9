"""The standing orders' driver: one call a turn (step 6, after the player's orders) walks
every unit without an order and hands it to the orders of its kind (the policy in short:
the package's docstring; the long form: docs/autopilot.md).

A module of its own, not the package's ``__init__``, so that it is compiled (mypyc
compiles no package ``__init__`` here: ``scripts/build_native.py``): the driver's calls
into the orders and the safety checks are then direct calls of compiled code, where an
interpreted driver paid the interpreter's frames and the generic call protocol for each.

A call keeps memos of its own in ``ctx.cache`` (the fire's reach to each street, the
fires sorted, the safety forecasts...): :func:`open_call` sets them up as the call starts
and :func:`close_call` drops them when it ends, so no answer outlives the state it was
worked out on.
"""

from __future__ import annotations

from typing import Any, Final

from ....core.memo import Memo
from ....core.turn import TurnContext
from ..memos import (
    AP_BURNS,
    AP_CATCH,
    AP_CUT,
    AP_FALLING,
    AP_FIGHT,
    AP_FIRES,
    AP_JUMP,
    AP_LOST,
    AP_OK,
    AP_P_IN,
    AP_POCKET,
    AP_PRIO,
    AP_REFUGE_ZONE,
    AP_RETREAT,
    AP_SIDE,
    AP_SMALL,
    AP_SOURCES,
    AP_THREAT,
    AP_TRAP,
    AP_VEHICLES,
    AP_WAYBACK,
    AP_ZONE,
)
from ..state import GameState
from ..units import STAND, VEHICLE
from .casualties import (
    carrier_orders,
    crew_vehicle_orders,
    doctor_orders,
    rescue_sites,
    rescuer_orders,
)
from .lorry import lorry_orders
from .parking import keep_clear, shelter
from .priorities import priority_locations
from .safety import burns_memo, collapse_zone, get_out, pocket, retreat, trapped
from .support import (
    canteen_orders,
    dam_orders,
    fire_party_orders,
    officer_orders,
    pump_orders,
)
from .teams import appliance_orders, crews_off, orphan_orders, stray_crews

__all__ = [
    "close_call",
    "open_call",
    "standing_orders",
]

#: the memos a call of the standing orders keeps (set up by :func:`open_call`)
CALL_MEMOS: Final[tuple[Memo[Any], ...]] = (
    AP_THREAT,
    AP_VEHICLES,
    AP_PRIO,
    AP_FIRES,
    AP_JUMP,
    AP_SMALL,
    AP_P_IN,
    AP_BURNS,
    AP_CATCH,
    AP_FIGHT,
    AP_TRAP,
    AP_OK,
    AP_WAYBACK,
    AP_POCKET,
    AP_RETREAT,
    AP_ZONE,
    AP_FALLING,
    AP_REFUGE_ZONE,
    AP_SIDE,
    AP_CUT,
    AP_SOURCES,
    AP_LOST,
)


def standing_orders(ctx: TurnContext, state: GameState) -> None:
    """Give every unit that has no player's order its standing orders for this turn."""
    if not any(u.in_play for u in state.units.values()):
        return
    open_call(ctx)
    try:
        _standing_orders(ctx, state)
    finally:
        close_call(ctx)


def open_call(ctx: TurnContext) -> None:
    """Set up the memos of one call of the standing orders (the state as the call starts)."""
    cache = ctx.cache
    cache[AP_THREAT] = {}  # the fire's reach to each street, worked out once a call
    cache[AP_VEHICLES] = None  # streets a vehicle makes flammable, as the call starts
    cache[AP_PRIO] = {}  # each fire's priority (the call keeps one ``pri``)
    cache[AP_FIRES] = None  # the fires, sorted, as the call starts
    cache[AP_SMALL] = None  # the fires a fire party can tackle
    cache[AP_P_IN] = {}  # best_job's chances at building positions
    cache[AP_BURNS] = burns_memo(ctx)  # safety: areas that can burn (vehicles as it starts)
    cache[AP_CATCH] = {}  # safety: each location's chance to catch next step 1
    cache[AP_FIGHT] = None  # safety: where hose teams fight, as the call starts
    cache[AP_TRAP] = {}  # safety: burnable locations with no safe way out
    cache[AP_OK] = {}  # safety: locations a way out may pass
    cache[AP_JUMP] = None  # parking: the chance of a jump into each street
    cache[AP_ZONE] = None  # safety: where a collapse can strike
    cache[AP_FALLING] = None  # safety: ... the locations that may come down
    cache[AP_REFUGE_ZONE] = None  # safety: ... with the refuge's wider margin
    cache[AP_SIDE] = None  # parking: the streets on the entries' side
    cache[AP_CUT] = None  # parking: the streets forecast rubble may close
    cache[AP_SOURCES] = {}  # priorities: the open fires, by the fires with two lines
    cache[AP_LOST] = None  # priorities: the lost causes (fire fixed, vehicles as first asked)
    cache[AP_WAYBACK] = {}  # safety: places with no sure way to a haven
    cache[AP_POCKET] = None  # safety: the pocket forecast (open places, goals)
    cache[AP_RETREAT] = ({}, {})  # safety: where retreat walks from each place (ladders, goals)


def close_call(ctx: TurnContext) -> None:
    """Drop the memos of a call of the standing orders: the next call starts afresh."""
    cache = ctx.cache
    for key in CALL_MEMOS:
        cache.pop(key, None)


def _standing_orders(ctx: TurnContext, state: GameState) -> None:
    pri = priority_locations(ctx, state)
    if state.fire:
        _leave_traps(ctx, state)
    for uid in state.unit_ids():
        u = state.units[uid]
        if u.order is not None or not u.in_play:  # (the cheaper test first)
            continue
        if u.parent is not None:
            home = state.units.get(u.parent)
            if home is None or not home.in_play:
                orphan_orders(ctx, state, u)  # its vehicle is lost: keep safe
            continue
        if u.kind == VEHICLE and u.role not in ("appliance", "pump") and keep_clear(ctx, state, u):
            continue  # appliances weigh the heat when they choose where to park
        if u.role in ("appliance",) or (u.kind == VEHICLE and u.role == "support"):
            if u.type == "canteen_truck":
                canteen_orders(ctx, state, u)
            elif u.type == "mobile_dam_unit":
                dam_orders(ctx, state, u)
            elif u.type == "hose_laying_lorry":
                lorry_orders(ctx, state, u, pri)
            else:
                appliance_orders(ctx, state, u, pri)
        elif u.role == "pump":
            pump_orders(ctx, state, u, pri)
        elif u.role == "fire_party":
            fire_party_orders(ctx, state, u)
        elif u.role in ("officer", "messenger") and u.kind == STAND:
            officer_orders(ctx, state, u)
        elif u.role == "messenger":
            shelter(ctx, state, u)  # a despatch rider carries orders from wherever it waits
        elif u.role == "rescue":
            if u.kind == STAND:
                rescuer_orders(ctx, state, u)
            else:
                crew_vehicle_orders(ctx, state, u, rescue_sites(ctx, state))
        elif u.role == "medical":
            if u.type == "doctor":
                doctor_orders(ctx, state, u)
            elif u.kind == VEHICLE:
                carrier_orders(ctx, state, u)
    stray_crews(ctx, state)  # fire teams their appliance's orders left alone (round 8)
    crews_off(ctx, state)  # stands by a vehicle that may burn where it stands (round 9)


def _leave_traps(ctx: TurnContext, state: GameState) -> None:
    """Every stand on standing orders in a place the fire can cut off this turn or where a
    collapse can strike gets out first (:mod:`.safety`): back down its hose, or out into
    the street (a crew whose vehicle is lost: toward the nearest entry).

    Stands walking out change none of what the checks read (the fire, the ladders, the
    snapshots the call keeps), so each place's answers are asked once: most stands share
    a place with the rest of their crew."""
    # (places read as objects, ``Any``: compiled, a ``Location`` would be unboxed from the
    # unit and boxed anew for every look-up)
    cut: dict[Any, bool] = {}  # a collapse's way or a trap, by place
    closing: dict[Any, bool] = {}  # a pocket, by place
    for uid in state.unit_ids():
        u = state.units[uid]
        loc: Any = u.loc
        if u.kind != STAND or loc is None or u.order is not None or not u.in_play:
            continue
        if u.task == "aboard" or (u.hose is not None and state.hoses.get(u.hose) is not None
                                  and state.hoses[u.hose].plan):  # fmt: skip
            continue  # riding, or laying (the layer's heat test decides)
        home = state.units.get(u.parent) if u.parent is not None else None
        lost = home is not None and not home.in_play
        out = cut.get(loc)
        if out is None:
            out = cut[loc] = collapse_zone(ctx, state, loc) or trapped(ctx, state, loc)
        if not out:
            if (
                u.hose is None and u.task in ("idle", "refill")
                and (home is None or home.loc != loc)
            ):  # fmt: skip
                shut = closing.get(loc)
                if shut is None:
                    shut = closing[loc] = pocket(ctx, state, loc)
                if shut:
                    retreat(ctx, state, u)  # nothing to do where the fire may close round it
            continue
        if not (lost and retreat(ctx, state, u)):  # a crew with no vehicle walks out
            get_out(ctx, state, u)
