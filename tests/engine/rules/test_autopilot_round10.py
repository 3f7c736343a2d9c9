"""Round 10 (issue 15): with ``policy.park_dry_reach`` set (on by default since round 11, at 7),
an appliance does not park on its tank within the fire's reach when there is more fire
than its tank holds and a street with water serves the fire too; its crews do not ride with it into a street that may burn
with them (``policy.ride_risk``)."""

from __future__ import annotations

from test_units_world import usetup, uworld

from fireground.engine.board.model import ForceUnit, Location
from fireground.engine.core.dice import Dice
from fireground.engine.games.blitz.autopilot import parking
from fireground.engine.games.blitz.rules import movement
from fireground.engine.play.simulate import new_game

#: a fire of 5 in B13 with more next to it: 11 in all, more than a general appliance's
#: tank of 10 points
BIG: dict[Location, int] = {("B13", 0): 5, ("B12", 0): 5, ("B11", 0): 1}


def _choice(fires: dict[Location, int], house_rules: dict[str, object]) -> tuple[str, int]:
    # a terrace: the appliance stands at the only hydrant, S09, seven hose steps from the
    # fire in B13; S05 is three hose steps from it with only the tank, and the fire is
    # three spreads from it (B15, B14, then B13), within reach; the dry streets nearer
    # still are next to a fire or one spread from one (+12, +3)
    sc = uworld(
        ["SSSSSSSSSS", "BBBBBBBBBB"],
        hydrants=["S09"],
        fires=fires,
        forces=[ForceUnit("E1", "general_appliance", area="S09")],
        house_rules=house_rules,
    )
    game = new_game(sc, seed=3)
    ctx, st = game.ctx, game.state
    u = st.units["E1"]
    assert parking.street_threat(ctx, st, "S05") == parking.THREAT_RANGE  # within reach
    return parking.choose_parking(ctx, st, u, set()) or "", parking.dry_penalty(ctx, st, u, "S05")


#: the parking penalty at round 10's 12 (the default is 7 since round 11: at 12 it costs the
#: bundled examples locations, docs/autopilot.md, *Units lost, round 10* and *round 11*)
ON: dict[str, object] = {"policy.park_dry_reach": 12}
#: the parking penalty off: any dry street costs ``PARK_DRY`` (main before round 11)
OFF: dict[str, object] = {"policy.park_dry_reach": 0}


def test_with_more_fire_than_its_tank_holds_it_keeps_to_the_hydrant() -> None:
    street, penalty = _choice(BIG, ON)
    assert penalty == 12  # S05's tank alone costs policy.park_dry_reach
    assert street == "S09"  # 7 hose steps at the hydrant beat 3 + 12 on the tank


def test_by_default_it_keeps_to_the_hydrant_too() -> None:
    # round 11: the default (7) is enough here: 7 hose steps at the hydrant beat 3 + 7
    street, penalty = _choice(BIG, {})
    assert penalty > parking.PARK_DRY  # the penalty is on without a house rule
    assert street == "S09"


def test_with_the_policy_off_it_drives_to_the_nearer_dry_street() -> None:
    street, penalty = _choice(BIG, OFF)
    assert penalty == parking.PARK_DRY  # the +3 of any dry street, as before round 10
    assert street == "S05"  # 3 + 3 beats 7


def test_a_tank_that_holds_more_than_the_fire_still_parks_near_it() -> None:
    street, penalty = _choice({("B13", 0): 1}, ON)
    assert penalty == parking.PARK_DRY
    assert street == "S05"


def test_a_dry_street_out_of_the_fires_reach_costs_only_the_old_penalty() -> None:
    sc = uworld(
        ["SSSSSSSSSS", "BBBBBBBBBB"],
        hydrants=["S09"],
        fires={("B16", 0): 5, ("B17", 0): 5, ("B18", 0): 5},
        forces=[ForceUnit("E1", "general_appliance", area="S09")],
        house_rules=ON,
    )
    game = new_game(sc, seed=3)
    ctx, st = game.ctx, game.state
    assert parking.street_threat(ctx, st, "S01") > parking.THREAT_RANGE
    assert parking.dry_penalty(ctx, st, st.units["E1"], "S01") == parking.PARK_DRY


def _ride(house_rules: dict[str, object]) -> tuple[list[str], tuple[str, int]]:
    # an appliance with a dry tank at S00 can work only where there is water: the hydrant
    # in S03, next to a fire of 2 in B13 (a spread into a vehicle there on 1-2: 1/3)
    sc = uworld(
        ["SSSS", "BBBB"],
        hydrants=["S03"],
        fires={("B13", 0): 2},
        forces=[ForceUnit("E1", "general_appliance", area="S00")],
        house_rules=house_rules,
    )
    ctx, st = usetup(sc, Dice(5))
    st.fire_at_start = dict(st.fire)
    e1 = st.units["E1"]
    e1.water = 0
    assert parking.street_risk(ctx, st, "S03") >= 0.3
    movement.step_movement(ctx, st)
    crews = sorted(s.id for s in st.units.values() if s.parent == "E1" and s.loc == e1.loc)
    assert e1.loc is not None
    return crews, e1.loc


def test_crews_do_not_ride_into_a_street_that_may_burn_with_them() -> None:
    crews, at = _ride({})
    assert at == ("S03", 0)  # the appliance drives to the water ...
    assert crews == []  # ... and its crews stay behind in S00, to walk after it


def test_with_the_policy_off_the_crews_ride_with_it() -> None:
    crews, at = _ride({"policy.ride_risk": 0})
    assert at == ("S03", 0)
    assert crews == ["E1.1", "E1.2", "E1.3"]
