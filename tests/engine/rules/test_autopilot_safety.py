"""The autopilot keeps its vehicles out of the fire's reach (R-10, R-7 in spirit), guards
them, pitches ladders for upper floors it cannot reach by stairs, and packs up idle pumps
next to a fire."""

from __future__ import annotations

from test_units_world import add_hose, events, usetup, uworld

from fireground.engine.board.model import ForceUnit
from fireground.engine.core.dice import Dice
from fireground.engine.games.blitz.autopilot import parking
from fireground.engine.games.blitz.rules import movement
from fireground.engine.play.simulate import new_game


def rules_in(logs, rule):
    return [e for log in logs for e in log.events if e["rule"] == rule]


def test_parks_out_of_the_fires_reach_even_for_a_worse_hydrant():
    # the only hydrants: S05, right next to the burning B15, and S01, four areas off. The
    # old weighting (+3 for a hot street) parked at S05; a vehicle there makes the street
    # flammable and burns out as soon as the fire spreads in.
    sc = uworld(
        ["SSSSSSS", "BBBBBBB"],
        entries={"west": "S00"},
        hydrants=["S05", "S01"],
        fires={("B15", 0): 3},
        forces=[ForceUnit("E1", "general_appliance", entry="west")],
    )
    game = new_game(sc, seed=4)
    ctx, st = game.ctx, game.state
    assert parking.street_threat(ctx, st, "S05") == 1  # a neighbour burns
    assert parking.street_threat(ctx, st, "S04") == 2  # B14 is next to the fire
    assert parking.street_threat(ctx, st, "S01") > parking.THREAT_RANGE  # out of reach
    for seed in range(6):
        logs = new_game(sc, seed=seed).run(1)
        drive = rules_in(logs, "drive")
        assert drive and drive[0]["to"]["area"] == "S01"


def test_works_the_fire_when_only_a_one_length_line_reaches_it():
    sc = uworld(
        ["SS", "BB"],
        entries={"in": "S00"},
        hydrants=["S01"],
        fires={("B11", 0): 1},
        forces=[ForceUnit("E1", "general_appliance", entry="in")],
        house_rules={"hose.max_lengths": 1},
    )
    game = new_game(sc, seed=1)
    logs = game.run(1)
    # a fire two areas from its street, one length of hose: it does not drive off to keep
    # clear; every team lays a line from where it stands and plays on a fire
    st = game.state
    assert st.units["E1"].loc == ("S00", 0) and not rules_in(logs, "drive")
    targets = {h.target for h in st.hoses.values()}
    lit = {("B11", 0)} | {(e["to"]["area"], e["to"]["level"]) for e in rules_in(logs, "spread")
                          if e["success"]}  # fmt: skip
    assert len(rules_in(logs, "hose_start")) == 3 and targets and targets <= lit


def test_an_appliance_tied_down_next_to_a_growing_fire_slips_its_lines_and_pulls_back():
    sc = uworld(
        ["SSSSSS", "BBBBBB"],
        hydrants=["S03"],
        fires={("B13", 0): 2, ("B10", 0): 1},
        forces=[ForceUnit("E1", "general_appliance", area="S03")],
    )
    ctx, st = usetup(sc, Dice(5))
    st.fire_at_start = dict(st.fire)
    # its only line plays on the small fire at the far end; nothing plays on B13
    add_hose(st, "H1", "E1", [("S03", 0), ("S02", 0), ("S01", 0)], ("B10", 0), crew=["E1.1"])
    assert movement.tied_down(st, st.units["E1"])
    movement.step_movement(ctx, st)
    assert [e["hose"] for e in events(ctx, "hose_slipped")] == ["H1"]
    assert st.hoses["H1"].cut
    e1 = st.units["E1"]
    assert e1.loc is not None and e1.loc[0] != "S03"
    assert parking.street_threat(ctx, st, e1.loc[0]) >= 2
    assert any(e.get("cause") == "fire_near" for e in events(ctx, "withdraw"))


def test_a_line_turns_to_a_fire_next_to_its_own_appliance():
    sc = uworld(
        ["SSSSSS", "BBBBBB"],
        hydrants=["S03"],
        fires={("B13", 0): 1, ("B11", 0): 1},
        forces=[ForceUnit("E1", "general_appliance", area="S03")],
    )
    ctx, st = usetup(sc, Dice(2))
    st.fire_at_start = dict(st.fire)
    st.units["E1"].source = "hydrant:S03"
    h = add_hose(st, "H1", "E1", [("S03", 0), ("S02", 0)], ("B11", 0), crew=["E1.1"])
    movement.step_movement(ctx, st)
    assert h.target == ("B13", 0)  # heat 1 next to E1: guard it rather than pull back
    assert not events(ctx, "hose_slipped")


def test_pitches_a_ladder_for_an_upper_floor_without_stairs():
    sc = uworld(
        ["SSS", "BBB"],
        levels={"B11": 3},
        hydrants=["S01"],
        fires={("B11", 2): 2},
        forces=[ForceUnit("E1", "escape_carrying_unit", area="S01")],
    )
    game = new_game(sc, seed=3)
    logs = game.run(2)
    pitched = rules_in(logs, "pitch_ladder")
    assert pitched and pitched[0]["at"]["area"] == "B11" and pitched[0]["unit"] == "E1"


def test_no_ladder_where_the_stairs_serve():
    sc = uworld(
        ["SSS", "BBB"],
        levels={"B11": 3},
        stairs=["B11"],
        hydrants=["S01"],
        fires={("B11", 2): 2},
        forces=[ForceUnit("E1", "escape_carrying_unit", area="S01")],
    )
    logs = new_game(sc, seed=3).run(2)
    assert not rules_in(logs, "pitch_ladder")


def test_an_idle_skid_pump_next_to_a_fire_packs_up():
    sc = uworld(
        ["SSS", "BBB"],
        fires={("B11", 0): 1},
        forces=[ForceUnit("HP", "heavy_pump", area="S01")],
    )
    ctx, st = usetup(sc, Dice(1))
    hp = st.units["HP"]
    hp.deployed, hp.deploy_left = True, 0
    movement.step_movement(ctx, st)
    assert hp.task == "stow" and events(ctx, "stow")


def test_a_crew_inside_a_hot_building_steps_back_down_its_hose():
    sc = uworld(
        ["SSSSS", "BBBBB"],
        hydrants=["S02"],
        fires={("B13", 0): 2},
        forces=[ForceUnit("E1", "general_appliance", area="S02")],
    )
    ctx, st = usetup(sc, Dice(7))
    st.fire_at_start = dict(st.fire)
    st.units["E1"].source = "hydrant:S02"
    h = add_hose(st, "H1", "E1", [("S02", 0), ("B12", 0)], ("B13", 0), crew=["E1.1"])
    st.units["E1.1"].heat_seen = 2  # no re-test: the heat has not risen
    movement.step_movement(ctx, st)
    assert st.units["E1.1"].loc == ("S02", 0)  # out in the street, one step back
    assert h.path == [("S02", 0)] and h.target == ("B13", 0)  # range 2 from there


def test_a_crew_in_the_street_keeps_its_branch():
    sc = uworld(
        ["SSSSS", "BBBBB"],
        hydrants=["S02"],
        fires={("B13", 0): 3},
        forces=[ForceUnit("E1", "general_appliance", area="S02")],
    )
    ctx, st = usetup(sc, Dice(7))
    st.fire_at_start = dict(st.fire)
    st.units["E1"].source = "hydrant:S02"
    h = add_hose(st, "H1", "E1", [("S02", 0), ("S03", 0)], ("B13", 0), crew=["E1.1"])
    st.units["E1.1"].heat_seen = 3
    movement.step_movement(ctx, st)
    assert st.units["E1.1"].loc == ("S03", 0) and h.branch == ("S03", 0)
