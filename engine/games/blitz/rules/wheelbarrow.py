"""The wheelbarrow pump (§11): carried by one fire team, set down ready to pump."""

from __future__ import annotations

from ....core.turn import TurnContext
from ..events import PickUp, SetDown
from ..memos import CARRIED_UNITS
from ..state import GameState
from ..units import STAND, UnitState
from .equipment import disconnect


# -- the wheelbarrow pump (§11: carried by one fire team) -----------------------------------
def carrier_of(state: GameState, pump: UnitState) -> UnitState | None:
    """The stand carrying ``pump`` (in play), or None when it stands on the ground."""
    sid = pump.extra.get("carried_by")
    s = state.units.get(sid) if isinstance(sid, str) else None
    return s if s is not None and s.in_play else None


def carried_pump(
    state: GameState, s: UnitState, ctx: TurnContext | None = None
) -> UnitState | None:
    """The pump the stand ``s`` carries, if any (``ctx``: the game's, to remember which
    units can be carried at all)."""
    sid = s.id
    for p in state.units.values() if ctx is None else _carried_by_hand(state, ctx):
        # only a pump carried by hand is ever picked up (``pick_up_problem``, the one way
        # ``carried_by`` is set): the other units are passed over on a plain field, with no
        # lookup in ``extra``
        if p.moves == "carried" and p.extra.get("carried_by") == sid and p.in_play:
            return p
    return None


def _carried_by_hand(state: GameState, ctx: TurnContext) -> list[UnitState]:
    """The units of ``state`` carried by hand (``moves`` is ``carried``), remembered
    in the game's cache for this dict of units (a unit's ``moves`` is its catalogue's, for
    the whole game). Round 23: a stand's every step (``movement.relocate``) asks for the
    pump it carries, and most maps have no such pump, so no unit is looked at."""
    units = state.units
    hit: tuple[dict[str, UnitState], int, list[UnitState]] | None = ctx.cache.get(CARRIED_UNITS)
    if hit is None or hit[0] is not units or hit[1] != len(units):
        pumps = [u for u in units.values() if u.moves == "carried"]  # (the dict's order)
        hit = (units, len(units), pumps)
        ctx.cache[CARRIED_UNITS] = hit
    for p in hit[2]:
        if units.get(p.id) is not p:  # a unit replaced in the dict: look again
            ctx.cache.pop(CARRIED_UNITS, None)
            return _carried_by_hand(state, ctx)
    return hit[2]


def pick_up_problem(state: GameState, s: UnitState, pump: UnitState) -> str | None:
    """Why fire team ``s`` cannot pick up ``pump`` (None: it can)."""
    if not s.in_play or s.loc is None or s.kind != STAND:
        return "the unit is not a personnel stand on the map"
    if s.type != "fire_team" or s.parent is None:
        return f"§11: a wheelbarrow pump is carried by a fire team, not {s.id}"
    if pump.moves != "carried":
        return f"§11: {pump.id} is not carried by hand"
    if not pump.in_play or pump.loc != s.loc:
        return f"§11: {pump.id} is not where {s.id} stands"
    if pump.extra.get("carried_by") is not None:
        return f"§11: {pump.id} is already being carried"
    if carried_pump(state, s) is not None:
        return f"§11: {s.id} already carries a pump"
    if s.hose is not None or s.carrying:
        return f"§11: {s.id} has its hands full (a hose line or a casualty)"
    if any(h.unit == pump.id for h in state.hoses.values()):
        return f"§7: the lines from {pump.id} must be taken up first"
    return None


def pick_up(ctx: TurnContext, state: GameState, s: UnitState, pump: UnitState) -> bool:
    """Fire team ``s`` picks up the wheelbarrow pump where it stands (it leaves its water
    source and pumps nothing while carried). Costs no movement points."""
    if pick_up_problem(state, s, pump) is not None:
        return False
    disconnect(ctx, state, pump)
    pump.extra["carried_by"] = s.id
    pump.deployed = False
    pump.task = "carry"
    ctx.note(PickUp, at=s.loc, unit=s.id, pump=pump.id)
    return True


def set_down(ctx: TurnContext, state: GameState, pump: UnitState) -> bool:
    """Put a carried pump down where its team stands: ready to pump at once (the rules
    give no deploy time for it); its hose comes from the team's appliance."""
    s = carrier_of(state, pump)
    sid = pump.extra.pop("carried_by", None)
    if sid is None:
        return False
    pump.deployed = True
    pump.task = "idle"
    carrier = s or state.units.get(str(sid))
    if carrier is not None and carrier.parent is not None:
        pump.extra["stock"] = carrier.parent
    ctx.note(SetDown, at=pump.loc, unit=str(sid), pump=pump.id)
    return True


def drop_stray_pumps(ctx: TurnContext, state: GameState) -> None:
    """A pump whose carrier is lost, or was moved apart from it (a collapse), is dropped."""
    for uid in state.unit_ids():
        p = state.units[uid]
        if not p.extra or p.extra.get("carried_by") is None:
            continue  # (most units keep nothing in ``extra``)
        s = carrier_of(state, p)
        if s is None or s.loc != p.loc:
            set_down(ctx, state, p)
