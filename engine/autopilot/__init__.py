"""Standing orders (§7): what every unit without a player's order does in step 6.

The policy, in short (docs/autopilot.md has the long form):

* an appliance with nothing in hand drives along clear streets to the parking street that
  best serves the fires nobody yet fights (fires next to stores, occupants and objectives
  first; then nearness, water at hand and a cool street), connects to the best water
  there (hydrant, open water, dam, else its tank) and sends its fire teams out;
* each fire team lays a line from its pump to the branch position that gives the best
  chance against a fire in range (range bonus times the chance to pass the heat test),
  then plays on it; when that fire is out it takes another in range, puts out embers,
  damps down neighbours of fires it cannot reach, and finally takes its line up so the
  appliance can move on; an exhausted team rests;
* fire parties attack fires of 1 next to them and refill; rescue teams and crews go to
  buried casualties once the fire there is out; ambulance and mortuary crews carry the
  found to their vehicle, which drives them out through an entry; a doctor goes where
  casualties are being found; the canteen follows the busiest appliance; a mobile dam
  deploys next to an appliance running on its tank; trailer and skid pumps deploy (the small
  pump team deploys its own trailer pump, a turn, and recovers it before driving on);
* an idle fire team with hose on its appliance fetches a free wheelbarrow pump lying within
  a turn's walk when water is close to it and a fire within hose reach of that water,
  carries it there, sets it down, connects it and lays a line from it.

Every unit also preserves itself (R-7, in the movement step).
"""

from __future__ import annotations

from ..state import GameState
from ..turn import TurnContext
from ..units import STAND, VEHICLE
from .casualties import PARK_NEAR_TURNS, _carrier, _crew_vehicle, _doctor, _rescue_sites, _rescuer
from .jobs import P_IN_MAX, RISKY, best_job, feeding_pump
from .lorry import lorry_orders
from .parking import (
    PARK_DOWNWIND,
    PARK_DRY,
    PARK_HOT,
    PARK_NEAR,
    PARK_TRAPPED,
    THREAT_RANGE,
    WITHDRAW_HEAT,
    choose_parking,
    choose_water,
    keep_clear,
    ladder_face,
    parking_penalty,
    pump_of,
    street_threat,
    strike_spare_ladders,
    withdraw,
)
from .priorities import coverage, fire_priority, priority_locations
from .safety import get_out, trapped
from .support import _canteen, _dam, _fire_party, _pump
from .teams import BACK_OFF_HEAT, _appliance, _orphan, step_clear
from .wheelbarrow import CARRY_TURNS, FETCH_TURNS

__all__ = [
    "BACK_OFF_HEAT",
    "CARRY_TURNS",
    "FETCH_TURNS",
    "PARK_DOWNWIND",
    "PARK_DRY",
    "PARK_HOT",
    "PARK_NEAR",
    "PARK_NEAR_TURNS",
    "PARK_TRAPPED",
    "P_IN_MAX",
    "RISKY",
    "THREAT_RANGE",
    "WITHDRAW_HEAT",
    "best_job",
    "choose_parking",
    "choose_water",
    "coverage",
    "feeding_pump",
    "fire_priority",
    "keep_clear",
    "ladder_face",
    "parking_penalty",
    "priority_locations",
    "pump_of",
    "standing_orders",
    "step_clear",
    "street_threat",
    "strike_spare_ladders",
    "withdraw",
]


def standing_orders(ctx: TurnContext, state: GameState) -> None:
    """Give every unit that has no player's order its standing orders for this turn."""
    if not any(u.in_play for u in state.units.values()):
        return
    ctx.cache["ap_threat"] = {}  # the fire's reach to each street, worked out once a call
    ctx.cache["ap_vehicles"] = None  # streets a vehicle makes flammable, as the call starts
    ctx.cache["ap_prio"] = {}  # each fire's priority (the call keeps one ``pri``)
    ctx.cache["ap_fires"] = None  # the fires, sorted, as the call starts
    ctx.cache["ap_small"] = None  # the fires a fire party can tackle
    ctx.cache["ap_p_in"] = {}  # best_job's chances at building positions
    ctx.cache["ap_catch"] = {}  # safety: each location's chance to catch next step 1
    ctx.cache["ap_trap"] = {}  # safety: burnable locations with no safe way out
    ctx.cache["ap_ok"] = {}  # safety: locations a way out may pass
    try:
        _standing_orders(ctx, state)
    finally:
        for key in ("ap_threat", "ap_vehicles", "ap_prio", "ap_fires", "ap_small", "ap_p_in",
                    "ap_catch", "ap_trap", "ap_ok"):  # fmt: skip
            ctx.cache.pop(key, None)


def _standing_orders(ctx: TurnContext, state: GameState) -> None:
    pri = priority_locations(ctx, state)
    if state.fire:
        _leave_traps(ctx, state)
    for uid in sorted(state.units):
        u = state.units[uid]
        if not u.in_play or u.order is not None:
            continue
        if u.parent is not None:
            home = state.units.get(u.parent)
            if home is None or not home.in_play:
                _orphan(ctx, state, u)  # its vehicle is lost: keep safe
            continue
        if u.kind == VEHICLE and u.role not in ("appliance", "pump") and keep_clear(ctx, state, u):
            continue  # appliances weigh the heat when they choose where to park
        if u.role in ("appliance",) or (u.kind == VEHICLE and u.role == "support"):
            if u.type == "canteen_truck":
                _canteen(ctx, state, u)
            elif u.type == "mobile_dam_unit":
                _dam(ctx, state, u)
            elif u.type == "hose_laying_lorry":
                lorry_orders(ctx, state, u, pri)
            else:
                _appliance(ctx, state, u, pri)
        elif u.role == "pump":
            _pump(ctx, state, u, pri)
        elif u.role == "fire_party":
            _fire_party(ctx, state, u)
        elif u.role == "rescue":
            if u.kind == STAND:
                _rescuer(ctx, state, u)
            else:
                _crew_vehicle(ctx, state, u, _rescue_sites(ctx, state))
        elif u.role == "medical":
            if u.type == "doctor":
                _doctor(ctx, state, u)
            elif u.kind == VEHICLE:
                _carrier(ctx, state, u)


def _leave_traps(ctx: TurnContext, state: GameState) -> None:
    """Every stand on standing orders in a place the fire can cut off this turn gets out
    first (:mod:`.safety`): back down its hose, or out into the street."""
    for uid in sorted(state.units):
        u = state.units[uid]
        if u.kind != STAND or not u.in_play or u.order is not None or u.loc is None:
            continue
        if u.task == "aboard" or (u.hose is not None and state.hoses.get(u.hose) is not None
                                  and state.hoses[u.hose].plan):  # fmt: skip
            continue  # riding, or laying (the layer's heat test decides)
        if trapped(ctx, state, u.loc):
            get_out(ctx, state, u)
