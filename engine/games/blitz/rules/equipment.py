"""Getting equipment to work (§7, §8): pumps and dams deployed and stowed, ladders pitched
and climbing, pumps connected to their water source; and step 6's work in progress."""

from __future__ import annotations

from typing import Final

from ....board.model import AreaKind, FeatureType
from ....core.turn import TurnContext
from ..events import Connect, Deploy, Deployed, LadderUp, PitchLadder, Stow, Stowed
from ..reach import danger
from ..state import GameState
from ..units import Ladder, UnitState, crew_of
from .acting import mark
from .hoses import finish_recovery, lorry_lay

# Compiled, ``AreaKind.WATER`` is two look-ups by name (the class in the module's
# globals, then the member) at every read; a Final is read from a C global.
_FEATURE_HYDRANT: Final = FeatureType.HYDRANT
_FEATURE_WATER: Final = FeatureType.WATER
_KIND_BUILDING: Final = AreaKind.BUILDING
_KIND_OPEN: Final = AreaKind.OPEN
_KIND_STREET: Final = AreaKind.STREET


# -- 5. work in progress --------------------------------------------------------------------
def advance_work(ctx: TurnContext, state: GameState) -> None:
    """Deploying pumps and dams, ladders going up, hoses being taken up."""
    hook_rate = ctx.rules.int("ladders.hook_levels")
    for uid in state.unit_ids():
        u = state.units[uid]
        if not u.ladders and u.task != "stow" and (u.deployed or u.task != "deploy"):
            continue  # nothing in progress (the usual case)
        if not u.in_play:
            continue
        if u.task == "stow":
            u.deploy_left -= 1
            if u.deploy_left <= 0:
                u.deploy_left = int(ctx.rules.units.get(u.type, {}).get("deploy_turns", 0) or 0)
                u.deployed = False
                u.task = "idle"
                u.towed_by = u.extra.get("tow")
                ctx.note(Stowed, at=u.loc, unit=u.id)
        if not u.deployed and u.task == "deploy":
            u.deploy_left -= 1
            if u.deploy_left <= 0:
                u.deployed = True
                u.deploy_left = 0
                u.task = "idle"
                dam = u.extra.get("dam_points") or ctx.rules.units.get(u.type, {}).get("dam_points")
                if dam:
                    u.water = int(dam)
                ctx.note(Deployed, at=u.loc, unit=u.id)
        for ld in u.ladders:
            if ld.at is None or ld.face is None:
                continue
            top = ctx.scenario.top_level(ld.face)
            if ld.pitch_left > 0:
                ld.pitch_left -= 1
                if ld.pitch_left == 0:
                    ld.height = min(ld.rating, top) if not ld.hook else min(hook_rate, top)
                    ctx.note(LadderUp, at=(ld.face, ld.height), unit=u.id)
            elif ld.hook and ld.height < min(ld.rating, top):
                ld.height = min(ld.height + hook_rate, ld.rating, top)
                ctx.note(LadderUp, at=(ld.face, ld.height), unit=u.id)
    for hid in sorted(state.hoses):
        h = state.hoses[hid]
        if h.recover_left:
            h.recover_left -= 1
            if h.recover_left <= 0:
                finish_recovery(ctx, state, h)
        elif h.lorry is not None and h.plan:
            lorry = state.units.get(h.lorry)
            if lorry is not None and lorry.in_play:
                lorry_lay(ctx, state, lorry, h)


def sets_up(ctx: TurnContext, u: UnitState) -> bool:
    """Whether the unit's pump or dam takes turns to deploy and recover (§7)."""
    return bool(ctx.rules.units.get(u.type, {}).get("deploy_turns"))


def stow(ctx: TurnContext, state: GameState, u: UnitState) -> bool:
    """Start packing up a deployed pump or dam (as long as deploying); its lines must be
    gone or slipped (a cut line is uncoupled: its crew makes it up where it lies)."""
    if not u.deployed or u.task == "stow" or not u.in_play:
        return False
    if any(h.unit == u.id and not h.cut for h in state.hoses.values()):
        return False
    disconnect(ctx, state, u)
    u.deploy_left = int(ctx.rules.units.get(u.type, {}).get("deploy_turns", 0) or 0)
    u.task = "stow"
    u.water = 0 if ctx.rules.units.get(u.type, {}).get("dam_points") else u.water
    ctx.note(Stow, at=u.loc, unit=u.id)
    return True


def deploy(ctx: TurnContext, state: GameState, u: UnitState) -> bool:
    """Start deploying a trailer/skid pump or a dam (its turns count from the next step 6)."""
    if u.deployed or u.task == "deploy" or not u.in_play:
        return False
    turns = int(ctx.rules.units.get(u.type, {}).get("deploy_turns", 0) or 0)
    u.deploy_left = turns
    u.task = "deploy"
    if u.towed_by is not None:
        u.extra["tow"] = u.towed_by
    u.towed_by = None
    ctx.note(Deploy, at=u.loc, unit=u.id, turns=turns)
    mark(state, u)
    return True


# -- ladders --------------------------------------------------------------------------------
def can_pitch(ctx: TurnContext, state: GameState, u: UnitState, face: str) -> str | None:
    """Why ``u`` cannot pitch a ladder against building area ``face`` (None: it can)."""
    if u.loc is None or not u.in_play:
        return "§7: the unit is not on the map"
    at = u.loc[0]
    if danger.area_kind(ctx, at) not in (_KIND_STREET, _KIND_OPEN):
        return "§7: a ladder stands in a street or open area"
    if danger.area_kind(ctx, face) is not _KIND_BUILDING:
        return "§7: a ladder is pitched against a building area"
    if face not in danger.area_neighbours(ctx, at):
        return "§7: the building must be next to the ladder's area"
    if not any(ld.at is None for ld in u.ladders):
        return "§11: the unit has no free ladder"
    if not any(s.loc == u.loc for s in crew_of(state.units, u.id)):
        return "§7: a fire team must be present to pitch a ladder"
    return None


def pitch_ladder(ctx: TurnContext, state: GameState, u: UnitState, face: str) -> bool:
    if can_pitch(ctx, state, u, face) is not None:
        return False
    assert u.loc is not None
    free: list[Ladder] = [ld for ld in u.ladders if ld.at is None]
    ld = max(free, key=lambda x: (x.rating, not x.hook))
    ld.at, ld.face, ld.height = u.loc[0], face, 0
    ld.pitch_left = ctx.rules.int("ladders.pitch_turns") if not ld.hook else 1
    ctx.note(PitchLadder, at=(face, 0), unit=u.id, rating=ld.rating, hook=ld.hook)
    return True


def strike_ladders(ctx: TurnContext, state: GameState, u: UnitState) -> None:
    for ld in u.ladders:
        if ld.at is not None:
            ld.at = ld.face = None
            ld.height = ld.pitch_left = 0


# -- water connections ----------------------------------------------------------------------
def hydrant_users(state: GameState, area: str) -> list[str]:
    source = f"hydrant:{area}"
    return sorted(u.id for u in state.units.values() if u.source == source and u.in_play)


def hydrant_user_count(state: GameState, area: str) -> int:
    """``len(hydrant_users(state, area))``, without the list."""
    source = f"hydrant:{area}"
    n = 0
    for u in state.units.values():
        if u.source == source and u.in_play:
            n += 1
    return n


def connect_problem(ctx: TurnContext, state: GameState, pump: UnitState, source: str) -> str | None:
    """Why ``pump`` cannot draw on ``source`` (None: it can). Sources: ``tank``,
    ``hydrant:AREA``, ``open:AREA``, ``dam:UNIT``."""
    if not pump.in_play or pump.loc is None:
        return "the unit is not on the map"
    if pump.pumps <= 0:
        return "§8: the unit has no delivery pump"
    if not pump.deployed:
        return "§7: the pump is not deployed yet"
    here = pump.loc[0]
    kind, _, ref = source.partition(":")
    if kind == "tank":
        return None
    if kind == "hydrant":
        if not any(f.type is _FEATURE_HYDRANT and f.area == ref for f in ctx.scenario.features):
            return f"§8: there is no hydrant in {ref}"
        if ref != here:
            return "§7: an appliance connects to a hydrant in its own area"
        if ctx.scenario.mains == "failed" or ref in state.hydrants_lost:
            return "§8: the hydrant gives no water (mains failed or hydrant lost)"
        users = [x for x in hydrant_users(state, ref) if x != pump.id]
        if len(users) >= ctx.rules.int("water.hydrant_appliances"):
            return "§8: two appliances already draw on this hydrant"
        stock = lengths_stock(state, pump)
        if stock is None or stock.hose_left < ctx.rules.int("hose.hydrant_lengths"):
            return "§7: connecting to a hydrant takes one length of hose"
        return None
    if kind == "open":
        if not any(f.type is _FEATURE_WATER and f.area == ref for f in ctx.scenario.features):
            return f"§8: {ref} holds no open water"
        if ref != here and ref not in danger.area_neighbours(ctx, here):
            return "§8: the suction pipe reaches open water from a bank next to it"
        if pump.loc[1] != 0:
            return "§8: the suction pipe reaches open water from ground level only"
        return None
    if kind == "dam":
        dam = state.units.get(ref)
        if dam is None or not dam.in_play or not dam.deployed or "dam" not in dam.type:
            return f"§8: {ref} is not a deployed dam"
        assert dam.loc is not None
        if dam.loc[0] != here and dam.loc[0] not in danger.area_neighbours(ctx, here):
            return "§8: the dam must be in the pump's area or next to it"
        return None
    return f"§8: unknown water source {source!r}"


def lengths_stock(state: GameState, pump: UnitState) -> UnitState | None:
    """The unit whose hose a pump uses: its own, else its towing vehicle's (a wheelbarrow
    pump: the appliance of the fire team that set it down)."""
    if pump.hose_left > 0:
        return pump
    stock = pump.extra.get("stock")
    if pump.moves == "carried" and isinstance(stock, str) and stock in state.units:
        return state.units[stock]
    if pump.towed_by is not None and pump.towed_by in state.units:
        return state.units[pump.towed_by]
    return pump if pump.role == "appliance" else None


def connect(ctx: TurnContext, state: GameState, pump: UnitState, source: str) -> bool:
    if connect_problem(ctx, state, pump, source) is not None:
        return False
    if pump.source != source:
        disconnect(ctx, state, pump)
        if source.startswith("hydrant:"):
            stock = lengths_stock(state, pump)
            assert stock is not None
            stock.hose_left -= ctx.rules.int("hose.hydrant_lengths")
    pump.source = None if source == "tank" else source
    ctx.note(Connect, at=pump.loc, unit=pump.id, source=source)
    return True


def disconnect(ctx: TurnContext, state: GameState, pump: UnitState) -> None:
    """Leave the water source; a hydrant's connecting length goes back on the appliance."""
    if pump.source is not None and pump.source.startswith("hydrant:"):
        stock = lengths_stock(state, pump)
        if stock is not None:
            stock.hose_left += ctx.rules.int("hose.hydrant_lengths")
    pump.source = None
