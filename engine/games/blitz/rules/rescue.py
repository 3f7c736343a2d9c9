"""Step 9 of the turn (second half): search, digging, casualty status, carrying (§9).

* A rescue team (or a rescue vehicle's crew) in a location with no fire rolls once a turn
  for one buried casualty there: 1-3 not found; 4 located but Heavy Rescue must dig; 5
  located, and a later 6 digs it out; 6 found.
* A Heavy Rescue crew with a casualty that needs it digs for 1d6 x 5 turns, then finds it.
* Each casualty found rolls its status: 1d6 (+1 with a doctor in its area): 1-4 dead,
  5 badly injured, 6+ lightly injured.
* Ambulance and mortuary crews carry casualties (step 6, 2 areas a turn) to their vehicle,
  which takes them off the map at an entry (the autopilot drives it).
"""

from __future__ import annotations

from ....board.model import Location
from ....core.turn import TurnContext
from ..events import CasualtyStatus, DigOut, Rescue
from ..state import GameState
from ..units import STAND, Casualty, UnitState
from . import modifiers

SEARCHERS = frozenset({"rescue_team", "heavy_rescue"})


def root_type(state: GameState, u: UnitState) -> str:
    """The type of the unit a stand belongs to (its own type for a foot unit)."""
    if u.parent is not None and u.parent in state.units:
        return state.units[u.parent].type
    return u.type


def rescuers_at(state: GameState, loc: Location) -> list[UnitState]:
    return [
        u
        for u in state.units_at(loc)
        if u.kind == STAND and root_type(state, u) in SEARCHERS and u.task != "rest"
    ]


def step_rescue(ctx: TurnContext, state: GameState) -> None:
    r = ctx.rules
    dig_on = r.int("rescue.dig_on")
    by_loc: dict[Location, list[Casualty]] = {}
    for c in state.casualties:
        if c.status in ("buried", "located") and not c.evacuated:
            by_loc.setdefault(c.loc, []).append(c)
    for loc in sorted(by_loc):
        if loc in state.fire:
            continue  # §9: rescue starts only where the fire is out
        teams = rescuers_at(state, loc)
        if not teams:
            continue
        cas = sorted(by_loc[loc], key=lambda c: c.id)
        heavy_teams = [t for t in teams if root_type(state, t) == "heavy_rescue"]
        for t in teams:
            t.task = "rescue"
        # Heavy Rescue digs first: one casualty per heavy crew
        for t in heavy_teams:
            hc = next((x for x in cas if x.status == "located" and x.need == "heavy"), None)
            if hc is None:
                continue
            if hc.dig_left == 0:
                pips = ctx.roll(DigOut, dice=r.int("rescue.heavy_dice"), at=loc, casualty=hc.id)
                hc.dig_left = pips * r.int("rescue.heavy_turns_per_pip")
            hc.dig_left -= 1
            if hc.dig_left <= 0:
                hc.dig_left = 0
                _found(ctx, state, hc)
            teams = [x for x in teams if x is not t]
        # the others: a dig roll for a casualty that only needs digging, else a search
        for t in teams:
            dc = next((x for x in cas if x.status == "located" and x.need == "dig"), None)
            if dc is not None:
                ok, _ = ctx.test(DigOut, f">={dig_on}", at=loc, casualty=dc.id, unit=t.id)
                if ok:
                    _found(ctx, state, dc)
                continue
            bc = next((x for x in cas if x.status == "buried"), None)
            if bc is None:
                continue
            score = ctx.roll(Rescue, at=loc, casualty=bc.id, unit=t.id)
            result = str(r[f"rescue.search.{score}"])
            if result == "free":
                _found(ctx, state, bc)
            elif result in ("heavy", "dig"):
                bc.status, bc.need = "located", result
    for c in sorted(state.casualties, key=lambda c: c.id):
        if c.status == "found":
            casualty_status(ctx, state, c)


def _found(ctx: TurnContext, state: GameState, c: Casualty) -> None:
    c.status, c.need, c.dig_left = "found", "", 0


def casualty_status(ctx: TurnContext, state: GameState, c: Casualty) -> None:
    """§9: 1d6 (+1 with a doctor): dead, badly injured or lightly injured."""
    r = ctx.rules
    mod = modifiers.total(modifiers.casualty_parts(ctx, state, c.loc))
    _, total = ctx.test(
        CasualtyStatus, f">={r.int('casualty.dead_max') + 1}", modifier=mod, at=c.loc,
        casualty=c.id,
    )  # fmt: skip
    if total <= r.int("casualty.dead_max"):
        c.status = "dead"
    elif total <= r.int("casualty.badly_injured_max"):
        c.status = "badly_injured"
    else:
        c.status = "lightly_injured"
