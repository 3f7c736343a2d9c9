"""Maps with forces for the rules-units tests, and the unit factory's own tests.

``uworld`` builds on rules-core's grid maps (``test_fire_world.world``): each character is a
10 cm square (``B`` building, ``S`` street, ``O`` open, ``W`` water, ``.`` nothing), id =
letter + row + column. It adds entries, water, forces and the mains.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from test_fire_world import setup, world

from fireground.engine.board.model import Feature, FeatureType, ForceUnit, Scenario
from fireground.engine.core.dice import Dice
from fireground.engine.core.ruleset import load_ruleset
from fireground.engine.core.turn import TurnContext
from fireground.engine.games.blitz.state import GameState
from fireground.engine.games.blitz.units import STAND, VEHICLE, HoseLine, make_units


def uworld(
    rows: Sequence[str],
    *,
    forces: Iterable[ForceUnit] = (),
    entries: dict[str, str] | None = None,
    water: dict[str, int] | None = None,
    pressure: dict[str, int] | None = None,
    mains: str = "working",
    **kw: Any,
) -> Scenario:
    sc = world(rows, **kw)
    feats = list(sc.features)
    for name, area in (entries or {}).items():
        feats.append(Feature(FeatureType.ENTRY, area, name=name))
    for area, pts in (water or {}).items():
        feats.append(Feature(FeatureType.WATER, area, points=pts, name=area))
    if pressure:
        feats = [
            replace(f, pressure=pressure[f.area])
            if f.type is FeatureType.HYDRANT and f.area in pressure
            else f
            for f in feats
        ]
    return replace(sc, features=tuple(feats), forces=tuple(forces), mains=mains)


def usetup(sc: Scenario, dice: Dice | Sequence[int] = ()) -> tuple[TurnContext, GameState]:
    ctx, st = setup(sc, dice)
    st.turn = 1
    return ctx, st


def events(ctx: TurnContext, rule: str) -> list[dict[str, Any]]:
    return [e for e in ctx.events if e["rule"] == rule]


def add_hose(
    st: GameState,
    hid: str,
    pump: str,
    path: list[tuple[str, int]],
    target: tuple[str, int] | None,
    crew: Iterable[str] = (),
    lengths: int | None = None,
) -> HoseLine:
    h = HoseLine(hid, pump, list(path), lengths or 1, crew=list(crew), target=target, stock=pump)
    st.hoses[hid] = h
    for c in crew:
        st.units[c].hose = hid
        st.units[c].task = "fight"
        st.units[c].loc = path[-1]
    return h


# -- the factory -------------------------------------------------------------------------------
def test_appliance_gets_its_fire_teams_and_equipment():
    sc = uworld(["SS"], forces=[ForceUnit("E1", "escape_carrying_unit", area="S00")])
    units = make_units(sc, load_ruleset())
    assert sorted(units) == ["E1", "E1.1", "E1.2"]
    e = units["E1"]
    assert (e.kind, e.pumps, e.water, e.hose_left) == (VEHICLE, 4, 10, 10)
    assert [(ld.rating, ld.hook) for ld in e.ladders] == [(2, False)]
    assert all(units[s].kind == STAND and units[s].task == "aboard" for s in ("E1.1", "E1.2"))
    assert units["E1.1"].loc == ("S00", 0) and units["E1.1"].parent == "E1"


def test_every_catalogue_unit_can_be_made():
    rules = load_ruleset()
    forces = [ForceUnit(f"U{i}", t, entry="in") for i, t in enumerate(rules.units)]
    units = make_units(uworld(["S"], forces=forces), rules)
    for i, t in enumerate(rules.units):
        spec = rules.units[t]
        u = units[f"U{i}"]
        assert u.pumps == spec["pumps"] and u.hose_left == spec["hose_lengths"]
        assert u.loc is None  # waits for its entry
        crews = [x for x in units.values() if x.parent == u.id]
        extra = rules.get(f"rescue.crews.{t}", 0)
        assert len(crews) == spec["fire_teams"] + extra


def test_rescue_and_medical_vehicles_get_foot_crews():
    forces = [ForceUnit("A1", "ambulance", area="S00"), ForceUnit("HR", "heavy_rescue", area="S00")]
    units = make_units(uworld(["S"], forces=forces), load_ruleset())
    assert units["A1.1"].type == "ambulance_crew" and units["HR.1"].type == "heavy_rescue_crew"


def test_towed_pump_hitches_to_a_tow_arriving_with_it():
    forces = [
        ForceUnit("AT", "auxiliary_towing_vehicle", entry="in", arrives=2),
        ForceUnit("LP", "light_pump", entry="in", arrives=2),
        ForceUnit("MP", "medium_pump", entry="in", arrives=3),
    ]
    units = make_units(uworld(["S"], forces=forces), load_ruleset())
    assert units["LP"].towed_by == "AT" and units["MP"].towed_by is None
    assert not units["LP"].deployed and units["LP"].deploy_left == 1


def test_copy_is_deep_and_log_has_the_fields():
    sc = uworld(["SS"], forces=[ForceUnit("E1", "general_appliance", area="S00")])
    units = make_units(sc, load_ruleset())
    c = units["E1"].copy()
    c.ladders[0].at = "S01"
    c.extra["x"] = 1
    assert units["E1"].ladders[0].at is None and "x" not in units["E1"].extra
    log = units["E1.1"].to_log()
    assert log["fatigue"] == "ok" and log["task"] == "aboard" and log["area"] == "S00"
    h = HoseLine("H1", "E1", [("S00", 0), ("S01", 0)], 1, target=("S01", 0))
    assert h.copy() == h and h.copy() is not h
    assert h.to_log()["target"] == {"area": "S01", "level": 0} and h.steps == 1
