"""BLITZ!'s turn-log events: one frozen class per rule the log names (scenario-format.md,
"Turn log"), on the common base :class:`~fireground.engine.core.events.Event`.

A class's own fields are the "where and who" of its event, in the order the log writes
them; a location is an ``(area, level)`` tuple here and ``{"area":…,"level":…}`` in the
log. ``outcome`` fields are what a roll decided, written after it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ...board.model import Location
from ...core.events import Event, event_classes


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class Arrive(Event):
    """``arrive`` (no roll)."""

    rule: ClassVar[str] = "arrive"
    at: Location | None = None
    unit: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class BombDrop(Event):
    """``bomb_drop`` (no roll)."""

    rule: ClassVar[str] = "bomb_drop"
    at: Location | None = None
    bomb: Any = None
    point: Any = None
    result: Any = None
    redrops: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class BombLoad(Event):
    """``bomb_load`` (a table roll)."""

    rule: ClassVar[str] = "bomb_load"
    outcome: ClassVar[tuple[str, ...]] = ("he", "incendiary")
    he: int | None = None
    incendiary: int | None = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class BombRun(Event):
    """``bomb_run`` (a table roll)."""

    rule: ClassVar[str] = "bomb_run"
    outcome: ClassVar[tuple[str, ...]] = ("result",)
    result: str | None = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class BurnOut(Event):
    """``burn_out`` (no roll)."""

    rule: ClassVar[str] = "burn_out"
    at: Location | None = None
    unit: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class CasualtyStatus(Event):
    """``casualty_status`` (a test)."""

    rule: ClassVar[str] = "casualty_status"
    at: Location | None = None
    casualty: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class Climb(Event):
    """``climb`` (no roll): a unit climbs (a fire climbing is :class:`FireClimb`)."""

    rule: ClassVar[str] = "climb"
    from_: Location | None = None
    to: Location | None = None
    unit: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class Collapse(Event):
    """``collapse`` (no roll)."""

    rule: ClassVar[str] = "collapse"
    at: Location | None = None
    levels: Any = None
    cause: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class CollapseRoll(Event):
    """``collapse_roll`` (a test)."""

    rule: ClassVar[str] = "collapse_roll"
    at: Location | None = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class Connect(Event):
    """``connect`` (no roll)."""

    rule: ClassVar[str] = "connect"
    at: Location | None = None
    unit: Any = None
    source: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class Crater(Event):
    """``crater`` (no roll)."""

    rule: ClassVar[str] = "crater"
    at: Location | None = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class DampDown(Event):
    """``damp_down`` (no roll)."""

    rule: ClassVar[str] = "damp_down"
    at: Location | None = None
    hose: Any = None
    damp: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class DampLoss(Event):
    """``damp_loss`` (no roll)."""

    rule: ClassVar[str] = "damp_loss"
    at: Location | None = None
    damp: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class Deploy(Event):
    """``deploy`` (no roll)."""

    rule: ClassVar[str] = "deploy"
    at: Location | None = None
    unit: Any = None
    turns: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class Deployed(Event):
    """``deployed`` (no roll)."""

    rule: ClassVar[str] = "deployed"
    at: Location | None = None
    unit: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class DigOut(Event):
    """``dig_out`` (a table roll, a test)."""

    rule: ClassVar[str] = "dig_out"
    at: Location | None = None
    casualty: Any = None
    unit: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class Drive(Event):
    """``drive`` (no roll)."""

    rule: ClassVar[str] = "drive"
    from_: Location | None = None
    to: Location | None = None
    unit: Any = None
    route: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class EmbersOut(Event):
    """``embers_out`` (a test)."""

    rule: ClassVar[str] = "embers_out"
    at: Location | None = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class Escape(Event):
    """``escape`` (a test)."""

    rule: ClassVar[str] = "escape"
    at: Location | None = None
    unit: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class Evacuated(Event):
    """``evacuated`` (no roll)."""

    rule: ClassVar[str] = "evacuated"
    at: Location | None = None
    unit: Any = None
    casualty: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class Extinguish(Event):
    """``extinguish`` (a test)."""

    rule: ClassVar[str] = "extinguish"
    at: Location | None = None
    hose: Any = None
    range: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class Fatigue(Event):
    """``fatigue`` (no roll)."""

    rule: ClassVar[str] = "fatigue"
    at: Location | None = None
    unit: Any = None
    status: Any = None
    cause: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class FireClimb(Event):
    """``climb`` (a test): a fire climbs to the level above (R-1), a spread by another name."""

    rule: ClassVar[str] = "climb"
    outcome: ClassVar[tuple[str, ...]] = ("damp_loss",)
    from_: Location | None = None
    to: Location | None = None
    damp_loss: bool | None = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class FireParty(Event):
    """``fire_party`` (a test)."""

    rule: ClassVar[str] = "fire_party"
    at: Location | None = None
    unit: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class ForcedExit(Event):
    """``forced_exit`` (no roll)."""

    rule: ClassVar[str] = "forced_exit"
    from_: Location | None = None
    to: Location | None = None
    unit: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class Growth(Event):
    """``growth`` (a test)."""

    rule: ClassVar[str] = "growth"
    at: Location | None = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class HeDamage(Event):
    """``he_damage`` (a table roll)."""

    rule: ClassVar[str] = "he_damage"
    at: Location | None = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class HeEquipment(Event):
    """``he_equipment`` (a test)."""

    rule: ClassVar[str] = "he_equipment"
    at: Location | None = None
    unit: Any = None
    hose: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class HeKilled(Event):
    """``he_killed`` (no roll)."""

    rule: ClassVar[str] = "he_killed"
    at: Location | None = None
    unit: Any = None
    origin: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class HePersonnel(Event):
    """``he_personnel`` (a test)."""

    rule: ClassVar[str] = "he_personnel"
    at: Location | None = None
    unit: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class Heat(Event):
    """``heat`` (a test)."""

    rule: ClassVar[str] = "heat"
    at: Location | None = None
    unit: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class HeavyDamage(Event):
    """``heavy_damage`` (no roll)."""

    rule: ClassVar[str] = "heavy_damage"
    at: Location | None = None
    civilians: Any = None
    units: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class HoseLaid(Event):
    """``hose_laid`` (no roll)."""

    rule: ClassVar[str] = "hose_laid"
    at: Location | None = None
    hose: Any = None
    lengths: Any = None
    lorry: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class HoseRecovered(Event):
    """``hose_recovered`` (no roll)."""

    rule: ClassVar[str] = "hose_recovered"
    at: Location | None = None
    hose: Any = None
    lengths: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class HoseSevered(Event):
    """``hose_severed`` (no roll)."""

    rule: ClassVar[str] = "hose_severed"
    at: Location | None = None
    hose: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class HoseShort(Event):
    """``hose_short`` (no roll)."""

    rule: ClassVar[str] = "hose_short"
    at: Location | None = None
    hose: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class HoseSlipped(Event):
    """``hose_slipped`` (no roll)."""

    rule: ClassVar[str] = "hose_slipped"
    at: Location | None = None
    hose: Any = None
    unit: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class HoseStart(Event):
    """``hose_start`` (no roll)."""

    rule: ClassVar[str] = "hose_start"
    at: Location | None = None
    hose: Any = None
    unit: Any = None
    lorry: Any = None
    crew: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class HydrantLost(Event):
    """``hydrant_lost`` (no roll)."""

    rule: ClassVar[str] = "hydrant_lost"
    at: Location | None = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class Jump(Event):
    """``jump`` (a test)."""

    rule: ClassVar[str] = "jump"
    outcome: ClassVar[tuple[str, ...]] = ("damp_loss",)
    from_: Location | None = None
    to: Location | None = None
    damp_loss: bool | None = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class LadderStruck(Event):
    """``ladder_struck`` (no roll)."""

    rule: ClassVar[str] = "ladder_struck"
    at: Location | None = None
    unit: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class LadderUp(Event):
    """``ladder_up`` (no roll)."""

    rule: ClassVar[str] = "ladder_up"
    at: Location | None = None
    unit: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class NoPressure(Event):
    """``no_pressure`` (no roll)."""

    rule: ClassVar[str] = "no_pressure"
    at: Location | None = None
    hose: Any = None
    lengths: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class NoWater(Event):
    """``no_water`` (no roll)."""

    rule: ClassVar[str] = "no_water"
    at: Location | None = None
    hose: Any = None
    unit: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class OilSpread(Event):
    """``oil_spread`` (no roll)."""

    rule: ClassVar[str] = "oil_spread"
    from_: Location | None = None
    to: Location | None = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class OilStore(Event):
    """``oil_store`` (no roll)."""

    rule: ClassVar[str] = "oil_store"
    at: Location | None = None
    fire: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class OrderEvent(Event):
    """``order`` (no roll)."""

    rule: ClassVar[str] = "order"
    unit: Any = None
    order: Any = None
    refused: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class PetrolStore(Event):
    """``petrol_store`` (no roll)."""

    rule: ClassVar[str] = "petrol_store"
    at: Location | None = None
    fire: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class PickUp(Event):
    """``pick_up`` (no roll)."""

    rule: ClassVar[str] = "pick_up"
    at: Location | None = None
    unit: Any = None
    pump: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class PitchLadder(Event):
    """``pitch_ladder`` (no roll)."""

    rule: ClassVar[str] = "pitch_ladder"
    at: Location | None = None
    unit: Any = None
    rating: Any = None
    hook: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class Refill(Event):
    """``refill`` (no roll)."""

    rule: ClassVar[str] = "refill"
    at: Location | None = None
    unit: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class Reignite(Event):
    """``reignite`` (a test)."""

    rule: ClassVar[str] = "reignite"
    at: Location | None = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class Rescue(Event):
    """``rescue`` (a table roll)."""

    rule: ClassVar[str] = "rescue"
    at: Location | None = None
    casualty: Any = None
    unit: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class Rest(Event):
    """``rest`` (a table roll)."""

    rule: ClassVar[str] = "rest"
    at: Location | None = None
    unit: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class RoadBurnout(Event):
    """``road_burnout`` (no roll)."""

    rule: ClassVar[str] = "road_burnout"
    at: Location | None = None
    age: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class Rubble(Event):
    """``rubble`` (no roll)."""

    rule: ClassVar[str] = "rubble"
    from_: Location | None = None
    to: Location | None = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class SetDown(Event):
    """``set_down`` (no roll)."""

    rule: ClassVar[str] = "set_down"
    at: Location | None = None
    unit: Any = None
    pump: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class Spread(Event):
    """``spread`` (a test)."""

    rule: ClassVar[str] = "spread"
    outcome: ClassVar[tuple[str, ...]] = ("damp_loss",)
    from_: Location | None = None
    to: Location | None = None
    damp_loss: bool | None = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class Stow(Event):
    """``stow`` (no roll)."""

    rule: ClassVar[str] = "stow"
    at: Location | None = None
    unit: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class Stowed(Event):
    """``stowed`` (no roll)."""

    rule: ClassVar[str] = "stowed"
    at: Location | None = None
    unit: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class Trapped(Event):
    """``trapped`` (no roll)."""

    rule: ClassVar[str] = "trapped"
    at: Location | None = None
    unit: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class Walk(Event):
    """``walk`` (no roll)."""

    rule: ClassVar[str] = "walk"
    from_: Location | None = None
    to: Location | None = None
    unit: Any = None


@dataclass(kw_only=True, repr=False, eq=False, init=False)
class Withdraw(Event):
    """``withdraw`` (no roll)."""

    rule: ClassVar[str] = "withdraw"
    at: Location | None = None
    to: Location | None = None
    unit: Any = None
    cause: Any = None


#: every BLITZ! event class
ALL: tuple[type[Event], ...] = event_classes(globals())
