"""Tiny hand-made maps for the rules tests (rules-core): build a scenario from a grid.

Each character of a row is one 10 cm square area: ``B`` building, ``S`` street, ``O`` open,
``W`` water, ``.`` nothing. The area id is the letter plus row and column (``B01``); row 0
is the northern row.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from fireground.engine.board.graph import build_graph
from fireground.engine.board.model import (
    Area,
    AreaKind,
    Building,
    Feature,
    FeatureType,
    LocationValue,
    Material,
    Scenario,
    Start,
    Wind,
)
from fireground.engine.core.dice import Dice, ScriptedDice
from fireground.engine.core.ruleset import load_ruleset
from fireground.engine.core.turn import TurnContext
from fireground.engine.games.blitz.state import GameState, initial_state
from fireground.engine.games.blitz.steps import policies
from fireground.engine.games.blitz.units import STAND, VEHICLE, UnitState

KINDS = {"B": AreaKind.BUILDING, "S": AreaKind.STREET, "O": AreaKind.OPEN, "W": AreaKind.WATER}


def world(
    rows: Sequence[str],
    *,
    levels: dict[str, int] | None = None,
    stairs: Iterable[str] = (),
    stores: dict[tuple[str, int], str] | None = None,
    hydrants: Iterable[str] = (),
    occupants: dict[tuple[str, int], int] | None = None,
    wind: Wind | None = None,
    fires: dict[tuple[str, int], int] | None = None,
    bombing: bool = False,
    house_rules: dict[str, Any] | None = None,
) -> Scenario:
    levels = levels or {}
    areas: list[Area] = []
    buildings: list[Building] = []
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == ".":
                continue
            aid = f"{ch}{r}{c}"
            x, y = 10.0 * c, -10.0 * r
            poly = ((x, y), (x + 10, y), (x + 10, y + 10), (x, y + 10))
            kind = KINDS[ch]
            bid = None
            if kind is AreaKind.BUILDING:
                bid = f"b{aid}"
                buildings.append(Building(bid, levels=levels.get(aid, 1)))
            areas.append(Area(aid, kind, poly, building=bid))
    feats: list[Feature] = [Feature(FeatureType.STAIRWELL, a) for a in stairs]
    for (a, lvl), mat in (stores or {}).items():
        feats.append(Feature(FeatureType.STORE, a, level=lvl, material=Material(mat)))
    feats += [Feature(FeatureType.HYDRANT, a, pressure=3) for a in hydrants]
    for (a, lvl), n in (occupants or {}).items():
        feats.append(Feature(FeatureType.OCCUPANTS, a, level=lvl, count=n))
    start = Start(fires=tuple(LocationValue(a, lv, f) for (a, lv), f in (fires or {}).items()))
    return Scenario(
        name="test",
        buildings=tuple(buildings),
        areas=tuple(areas),
        features=tuple(feats),
        wind=wind or Wind(),
        bombing=bombing,
        start=start,
        house_rules=house_rules or {},
    )


def setup(scenario: Scenario, dice: Dice | Sequence[int] = ()) -> tuple[TurnContext, GameState]:
    """A context (with scripted dice when given a list) and the initial state."""
    rules = load_ruleset(scenario.ruleset, scenario.house_rules)
    d = dice if isinstance(dice, Dice) else ScriptedDice(dice)
    ctx = TurnContext(scenario, build_graph(scenario), rules, d, policies=policies())
    ctx.step = 1
    return ctx, initial_state(scenario, rules)


def put_unit(
    state: GameState, uid: str, loc: tuple[str, int], kind: str = STAND, task: str = "idle"
) -> UnitState:
    utype = "general_appliance" if kind == VEHICLE else "fire_team"
    u = UnitState(uid, utype, kind, loc, task=task)
    state.units[uid] = u
    return u


def rules_of(events: list[dict[str, Any]], rule: str) -> list[dict[str, Any]]:
    return [e for e in events if e["rule"] == rule]
