"""Small hand-built maps for the rules audit (independent of the rules helpers' fixtures).

A map is a list of rows; each character is one 10 cm square: ``B`` building, ``S`` street,
``O`` open ground, ``W`` water, ``.`` no area. An area's id is its letter, row and column
(``B01`` = row 0, column 1); row 0 lies furthest north, column 0 furthest west.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

from fireground.engine.board.graph import build_graph
from fireground.engine.board.model import (
    Area,
    AreaKind,
    Building,
    Feature,
    FeatureType,
    ForceUnit,
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
from fireground.engine.games.blitz.units import STAND, VEHICLE, HoseLine, UnitState

Loc = tuple[str, int]
_KIND = {"B": AreaKind.BUILDING, "S": AreaKind.STREET, "O": AreaKind.OPEN, "W": AreaKind.WATER}


def grid(
    rows: Sequence[str],
    *,
    levels: dict[str, int] | None = None,
    stairs: Iterable[str] = (),
    stores: dict[Loc, str] | None = None,
    hydrants: dict[str, int] | None = None,
    water: dict[str, int] | None = None,
    occupants: dict[Loc, int] | None = None,
    fires: dict[Loc, int] | None = None,
    forces: Iterable[ForceUnit] = (),
    entries: dict[str, str] | None = None,
    wind: Wind | None = None,
    bombing: bool = False,
    house_rules: dict[str, Any] | None = None,
) -> Scenario:
    """A scenario on a grid of 10 cm squares (see the module docstring)."""
    levels = levels or {}
    areas: list[Area] = []
    buildings: list[Building] = []
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == ".":
                continue
            aid = f"{ch}{r}{c}"
            x0, y0 = 10.0 * c, -10.0 * r
            square = ((x0, y0), (x0 + 10, y0), (x0 + 10, y0 + 10), (x0, y0 + 10))
            bid = None
            if ch == "B":
                bid = f"bld_{aid}"
                buildings.append(Building(bid, levels=levels.get(aid, 1)))
            areas.append(Area(aid, _KIND[ch], square, building=bid))
    feats = [Feature(FeatureType.STAIRWELL, a) for a in stairs]
    feats += [
        Feature(FeatureType.STORE, a, level=lv, material=Material(m))
        for (a, lv), m in (stores or {}).items()
    ]
    feats += [Feature(FeatureType.HYDRANT, a, pressure=p) for a, p in (hydrants or {}).items()]
    feats += [Feature(FeatureType.WATER, a, points=p, name=a) for a, p in (water or {}).items()]
    feats += [
        Feature(FeatureType.OCCUPANTS, a, level=lv, count=n)
        for (a, lv), n in (occupants or {}).items()
    ]
    feats += [Feature(FeatureType.ENTRY, a, name=n) for n, a in (entries or {}).items()]
    start = Start(fires=tuple(LocationValue(a, lv, f) for (a, lv), f in (fires or {}).items()))
    return Scenario(
        name="audit",
        buildings=tuple(buildings),
        areas=tuple(areas),
        features=tuple(feats),
        forces=tuple(forces),
        wind=wind or Wind(),
        bombing=bombing,
        start=start,
        house_rules=house_rules or {},
    )


def play(
    sc: Scenario, dice: Dice | Sequence[int] = (), points: Sequence[tuple[float, float]] = ()
) -> tuple[TurnContext, GameState]:
    """A turn context and the initial state (turn 1); a list of dice becomes ScriptedDice."""
    rules = load_ruleset(sc.ruleset, sc.house_rules)
    d = dice if isinstance(dice, Dice) else ScriptedDice(dice, points)
    ctx = TurnContext(sc, build_graph(sc), rules, d, policies=policies())
    st = initial_state(sc, rules)
    st.turn = 1
    return ctx, st


def stand(st: GameState, uid: str, loc: Loc, task: str = "idle", **kw: Any) -> UnitState:
    """A lone fire-team stand placed on the map."""
    u = UnitState(uid, "fire_team", STAND, loc, task=task, **kw)
    st.units[uid] = u
    return u


def vehicle(st: GameState, uid: str, loc: Loc, utype: str = "general_appliance") -> UnitState:
    u = UnitState(uid, utype, VEHICLE, loc)
    st.units[uid] = u
    return u


def hose(
    st: GameState,
    hid: str,
    pump: str,
    path: list[Loc],
    target: Loc | None,
    crew: Iterable[str] = (),
    water: int = 1,
) -> HoseLine:
    """A laid line with ``crew`` at its branch (the last location of ``path``)."""
    h = HoseLine(hid, pump, list(path), 1, water=water, crew=list(crew), target=target)
    h.stock = pump
    st.hoses[hid] = h
    for c in crew:
        u = st.units[c]
        u.hose, u.task, u.loc = hid, "fight", path[-1]
    return h


def evs(ctx: TurnContext, rule: str) -> list[dict[str, Any]]:
    return [e for e in ctx.events if e["rule"] == rule]


def assert_binomial(hits: int, n: int, p: Fraction) -> None:
    """``hits`` out of ``n`` is within 4 standard deviations of ``n * p`` (exact when p is
    0 or 1). A false alarm happens about once in 16,000 checks; a rule off by one pip
    (a shift of 1/6) at n = 2000 is more than 14 sigma away for any p, so it is caught."""
    if p in (0, 1):
        assert hits == n * p, f"{hits}/{n}, expected exactly {p}"
        return
    pf = float(p)
    sd = math.sqrt(n * pf * (1 - pf))
    z = (hits - n * pf) / sd
    assert abs(z) <= 4, f"{hits}/{n} vs exact p={p} ({z:+.1f} sigma)"
