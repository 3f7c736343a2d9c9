"""The autopilot's caution (issue 15): it keeps stands out of places the fire can cut off
this turn (policy thresholds in the ruleset), and it uses the hose-laying lorry."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from test_units_world import usetup, uworld

from fireground.engine.board.model import AreaKind, ForceUnit
from fireground.engine.games.blitz.autopilot import driver, safety
from fireground.engine.play.simulate import new_game
from fireground.engine.scenario.io import load_scenario

FIX = Path(__file__).resolve().parents[2] / "fixtures" / "round2"


def test_catch_chance_reads_the_spread_table():
    # B01 between fires of 2 (west) and 3 (east): it escapes both with (4/6)(3/6)
    ctx, st = usetup(uworld(["BBB"], fires={("B00", 0): 2, ("B02", 0): 3}))
    assert safety.catch_chance(ctx, st, ("B01", 0)) == pytest.approx(1 - (4 / 6) * (3 / 6))
    st.damp[("B01", 0)] = 1  # + damp to the die: (5/6)(4/6)
    assert safety.catch_chance(ctx, st, ("B01", 0)) == pytest.approx(1 - (5 / 6) * (4 / 6))


def stairs_world(fire, house_rules=None, dice=()):
    # a team on level 1 of B01; the only way out is down the stairs to (B01, 0), next to
    # a fire in B02 at ground level
    sc = uworld(
        ["SBB"],
        levels={"B01": 2, "B02": 1},
        stairs=["B01"],
        fires={("B02", 0): fire},
        forces=[ForceUnit("FP", "fire_party", area="B01", level=1)],
        house_rules=house_rules or {},
    )
    return usetup(sc, dice)


@pytest.mark.parametrize(("fire", "trap"), [(1, False), (2, True), (4, True)])
def test_a_way_out_next_to_a_likely_spread_is_a_trap(fire, trap):
    ctx, st = stairs_world(fire)  # the stairs' foot catches with fire/6; the trap is >= 0.3
    assert safety.trapped(ctx, st, ("B01", 1)) is trap


def test_a_stand_in_a_trap_walks_out_and_the_threshold_is_policy_data():
    ctx, st = stairs_world(2, dice=[2])  # the heat test at the stairs' foot: 2 >= 2
    driver.standing_orders(ctx, st)
    assert st.units["FP"].loc == ("S00", 0)  # down the stairs and out, before it is cut off
    ctx, st = stairs_world(2, {"policy.trap_chance": 0.5})  # a bolder house policy
    assert not safety.trapped(ctx, st, ("B01", 1))


def test_the_lorry_lays_a_long_street_run_on_standing_orders():
    sc = load_scenario(FIX / "lorry_run.fg.yaml")
    game = new_game(sc, seed=2)
    logs = game.run(8)
    starts = [e for lg in logs for e in lg.events if e["rule"] == "hose_start" and e.get("lorry")]
    assert starts and starts[0]["unit"] == "HP1"
    fights = [
        e for lg in logs for e in lg.events
        if e["rule"] == "extinguish" and e["hose"] == starts[0]["hose"]
    ]  # fmt: skip
    assert fights


def test_the_lorry_ends_its_run_in_a_street_it_can_drive_out_of():
    # the same run, but the area it ended in (S13, a stream's range 1 from the warehouse) is open
    # ground: the lorry stands where its line ends, and no road leads out of open ground
    # (vehicles drive along streets, reach.road_routes), so the run ends in S12, a street
    sc = load_scenario(FIX / "lorry_run.fg.yaml")
    areas = tuple(
        dataclasses.replace(a, kind=AreaKind.OPEN) if a.id == "S13" else a for a in sc.areas
    )
    game = new_game(dataclasses.replace(sc, areas=areas), seed=2)
    logs = game.run(8)
    laid = [e for lg in logs for e in lg.events if e["rule"] == "hose_laid" and e.get("lorry")]
    assert laid
    assert laid[0].at == ("S12", 0)
    assert game.state.units["HL1"].loc == ("S12", 0)


def test_the_lorry_waits_away_from_its_line_and_fetches_its_team_after():
    # once the run to S13 is laid, nothing needs the lorry there: it waits in S12, the
    # least exposed street (S13 has a street next to it with a building next door), while
    # its team plays from S13 and then makes the line up; it fetches the team at the pump
    sc = load_scenario(FIX / "lorry_run.fg.yaml")
    game = new_game(sc, seed=2)
    game.run(6)
    st = game.state
    assert st.units["HL1.1"].loc == ("S13", 0) and st.units["HL1.1"].task == "fight"
    assert st.units["HL1"].loc == ("S12", 0)
    game.run(18)  # the fire is out; the line is made up (two turns a length) by turn 22
    assert not st.hoses
    assert st.units["HL1"].loc == st.units["HL1.1"].loc == ("S1", 0)
    assert st.units["HL1.1"].task == "aboard"
