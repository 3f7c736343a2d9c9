"""The autopilot keeps its vehicles out of a fire's jump (R-5): a vehicle makes its street
flammable (§1), so a fire of 5 across one empty street or open area can jump into it and
burn it out (R-10). These fail on the standing orders that only looked at the fires next
door."""

from __future__ import annotations

import pytest
from test_units_world import add_hose, events, usetup, uworld

from fireground.engine.board.model import ForceUnit
from fireground.engine.core.dice import Dice
from fireground.engine.games.blitz.autopilot import parking, safety
from fireground.engine.games.blitz.rules import firefighting, movement, water

# B00 burns at 5; O01 is an empty open area (the gap); S02..S06 a street running east.
ROW = ["BOSSSSS"]


def test_the_chance_of_a_jump_into_a_street_is_read_off_the_rules():
    sc = uworld(ROW, fires={("B00", 0): 5})
    ctx, st = usetup(sc)
    # one fire of 5, one gap: a modified roll of 1 jumps (1 in 6), nothing else reaches S02
    assert parking.street_risk(ctx, st, "S02") == pytest.approx(1 / 6)
    assert parking.street_risk(ctx, st, "S03") == 0  # two gaps, and no wind
    st.fire[("B00", 0)] = 4  # below jump.min_fire: no jump now, one once it grows
    ctx.cache.clear()
    assert parking.jump_chances(ctx, st)["S02"] == (0.0, True)
    assert parking.street_risk(ctx, st, "S02") == 0


def test_a_free_vehicle_in_jump_reach_of_a_fire_drives_out_of_it():
    sc = uworld(ROW, fires={("B00", 0): 5}, forces=[ForceUnit("DR", "despatch_rider", area="S02")])
    ctx, st = usetup(sc, Dice(3))
    st.fire_at_start = dict(st.fire)
    assert st.units["DR"].loc == ("S02", 0)
    movement.step_movement(ctx, st)
    loc = st.units["DR"].loc
    assert loc is not None and loc[0] != "S02"
    assert parking.street_risk(ctx, st, loc[0]) == 0
    assert events(ctx, "drive")


def test_an_appliance_parks_out_of_jump_reach_for_a_longer_line():
    # hydrants at S02 (two hose steps from the fire, but a jump away from it) and S05
    sc = uworld(
        ROW,
        hydrants=["S02", "S05"],
        entries={"east": "S06"},
        fires={("B00", 0): 5},
        forces=[ForceUnit("E1", "general_appliance", entry="east")],
    )
    ctx, st = usetup(sc, Dice(2))
    st.fire_at_start = dict(st.fire)
    movement.step_movement(ctx, st)  # it arrives at S06 and chooses where to park
    e1 = st.units["E1"]
    assert e1.loc is not None and e1.loc[0] != "S02"
    assert parking.street_risk(ctx, st, e1.loc[0]) == 0


def test_an_appliance_at_work_in_jump_reach_slips_its_line_and_pulls_back():
    sc = uworld(
        ["BOSSSSS", "...BBBB"],
        hydrants=["S02"],
        fires={("B00", 0): 5, ("B14", 0): 1},
        forces=[ForceUnit("E1", "general_appliance", area="S02")],
        house_rules={"policy.vehicle_withdraw_chance": 0.15},
    )
    ctx, st = usetup(sc, Dice(5))
    st.fire_at_start = dict(st.fire)
    add_hose(st, "H1", "E1", [("S02", 0), ("S03", 0), ("S04", 0)], ("B14", 0), crew=["E1.1"])
    assert movement.tied_down(st, st.units["E1"])
    movement.step_movement(ctx, st)
    assert [e["hose"] for e in events(ctx, "hose_slipped")] == ["H1"]
    e1 = st.units["E1"]
    assert e1.loc is not None and e1.loc[0] != "S02"
    assert parking.street_risk(ctx, st, e1.loc[0]) == 0


def test_a_free_vehicle_whose_way_out_a_collapse_may_close_drives_back_to_the_entry_side():
    # B12 burns at 5 with heavy damage: one more damage roll brings it down and its rubble
    # blocks S02, the only road between the despatch rider at S04 and the entry at S00
    sc = uworld(
        ["SSSSS", "..B.."],
        entries={"west": "S00"},
        fires={("B12", 0): 5},
        forces=[ForceUnit("DR", "despatch_rider", area="S04")],
    )
    ctx, st = usetup(sc, Dice(3))
    st.fire_at_start = dict(st.fire)
    st.damage[("B12", 0)] = 4
    assert parking.entry_side(ctx, st) == {"S00", "S01"}
    assert parking.street_risk(ctx, st, "S04") == 0  # nothing can reach the rider itself
    movement.step_movement(ctx, st)
    loc = st.units["DR"].loc
    assert loc is not None and loc[0] in ("S00", "S01")
    st.damage[("B12", 0)] = 2  # below policy.closing_damage: the road is not at stake
    assert parking.entry_side(ctx, st) == {"S00", "S01", "S02", "S03", "S04"}


def test_a_small_pump_team_set_up_where_its_street_may_catch_slips_its_line_and_recovers():
    sc = uworld(
        ["SSSSSS", "BBBBBB"],
        hydrants=["S03"],
        fires={("B13", 0): 2, ("B10", 0): 1},
        forces=[ForceUnit("SP", "small_pump_team", area="S03")],
    )
    ctx, st = usetup(sc, Dice(5))
    st.fire_at_start = dict(st.fire)
    sp = st.units["SP"]
    sp.deployed = True  # its trailer pump is set up in S03, next to B13 (a third to catch)
    crew = sorted(s.id for s in st.units.values() if s.parent == "SP")
    add_hose(st, "H1", "SP", [("S03", 0), ("S02", 0), ("S01", 0)], ("B10", 0), crew=crew[:1])
    movement.step_movement(ctx, st)
    assert [e["hose"] for e in events(ctx, "hose_slipped")] == ["H1"]
    assert sp.task == "stow"  # a turn to recover the pump, then it drives off


def _guarded(house_rules=None, damp=0):
    # E1 works from S02 (hydrant); its line plays from S02 on B00, a fire of 4 across the
    # open gap O01: once it grows to 5 it can jump into S02, where E1 stands
    sc = uworld(
        ROW,
        hydrants=["S02"],
        fires={("B00", 0): 4},
        forces=[ForceUnit("E1", "general_appliance", area="S02")],
        house_rules=house_rules or {},
    )
    ctx, st = usetup(sc, Dice(2))
    st.fire_at_start = dict(st.fire)
    st.units["E1"].source = "hydrant:S02"
    if damp:
        st.damp[("S02", 0)] = damp
    h = add_hose(st, "H1", "E1", [("S02", 0)], ("B00", 0), crew=["E1.1"])
    return ctx, st, h


def test_a_line_wets_down_its_appliances_street_before_a_fire_can_jump_into_it():
    ctx, st, h = _guarded()
    assert parking.threatened(ctx, st, ("S02", 0))  # a fire of 4 one jump away
    movement.step_movement(ctx, st)
    assert st.units["E1"].loc == ("S02", 0)
    assert h.target == ("S02", 0) and st.units["E1.1"].task == "damp"
    water.step_water(ctx, st)
    firefighting.step_firefighting(ctx, st)
    assert st.damp[("S02", 0)] == 1
    # the fire grows to 5: one level of damp turns a roll of 1 into 2, so no jump gets in
    st.fire[("B00", 0)] = 5
    ctx.cache.clear()
    assert parking.street_risk(ctx, st, "S02") == 0
    assert parking.jump_chances(ctx, st)["S02"] == (0.0, False)


def test_a_damp_street_or_the_policy_off_leaves_the_line_on_its_fire():
    # policy.guard_damp is 3: a street that damp is left alone; 0 turns the wetting off
    for house_rules, damp in (
        ({}, 3),
        ({"policy.guard_damp": 2}, 2),
        ({"policy.guard_damp": 0}, 0),
    ):
        ctx, st, h = _guarded(house_rules, damp)
        movement.step_movement(ctx, st)
        assert h.target == ("B00", 0) and st.units["E1.1"].task == "fight"


def test_a_hose_team_at_work_in_the_street_stops_the_jump_the_standing_orders_fear():
    sc = uworld(
        ROW, fires={("B00", 0): 5}, forces=[ForceUnit("E1", "general_appliance", area="S02")]
    )
    ctx, st = usetup(sc)
    assert parking.street_risk(ctx, st, "S02") == pytest.approx(1 / 6)
    add_hose(st, "H1", "E1", [("S02", 0)], ("B00", 0), crew=["E1.1"])  # fighting in S02
    ctx.cache.clear()
    assert parking.street_risk(ctx, st, "S02") == 0  # §3: +1, and R-5 needs a modified 1


def _set_up_pump(house_rules=None):
    # SP's trailer pump is set up in S03; nothing burns next to S03, but B13 (next to it)
    # has fires of 5 on two sides (B14, B23): it catches with 35 in 36 and then spreads
    # into S03 from fire 1 on a 1 (1 in 6), a chance of 0.162 within two spread steps
    sc = uworld(
        ["SSSSSS", "BBBBBB", "BBBBBB"],
        hydrants=["S03"],
        fires={("B23", 0): 5, ("B14", 0): 5, ("B10", 0): 1},
        forces=[ForceUnit("SP", "small_pump_team", area="S03")],
        house_rules=house_rules or {},
    )
    ctx, st = usetup(sc, Dice(5))
    st.fire_at_start = dict(st.fire)
    sp = st.units["SP"]
    sp.deployed = True
    crew = sorted(s.id for s in st.units.values() if s.parent == "SP")
    add_hose(st, "H1", "SP", [("S03", 0), ("S02", 0), ("S01", 0)], ("B10", 0), crew=crew[:1])
    return ctx, st, sp


def test_a_pump_that_takes_a_turn_to_pack_up_starts_before_its_street_can_catch():
    ctx, st, sp = _set_up_pump()
    assert parking.street_risk(ctx, st, "S03") == 0  # nothing next door burns yet
    assert parking.street_risk_two(ctx, st, "S03") == pytest.approx(1 - (1 - 35 / 36 / 6))
    movement.step_movement(ctx, st)
    assert [e["hose"] for e in events(ctx, "hose_slipped")] == ["H1"]
    assert sp.task == "stow"  # recovered this turn, so it can drive off before S03 catches


def test_with_pack_up_chance_off_the_set_up_pump_waits_for_the_fire_next_door():
    ctx, st, sp = _set_up_pump({"policy.pack_up_chance": 0})
    movement.step_movement(ctx, st)
    assert not events(ctx, "hose_slipped")
    assert sp.task != "stow"


def _crewless_pump(fire):
    # HP (a heavy pump: no crew of its own, two turns to pack up) stands set up and idle
    # in S03, next to B13
    sc = uworld(
        ["SSSSSS", "BBBBBB", "BBBBBB"],
        hydrants=["S03"],
        fires={fire: 3},
        forces=[ForceUnit("HP", "heavy_pump", area="S03")],
    )
    ctx, st = usetup(sc, Dice(5))
    st.fire_at_start = dict(st.fire)
    hp = st.units["HP"]
    hp.deployed = True
    return ctx, st, hp


def test_a_crewless_pump_packs_up_once_a_fire_is_two_spreads_from_its_street():
    # B23 burns, two spreads away (B13, then S03): no chance to catch next step, 1 in 12
    # within two, but no longer a street such a pump parks in
    ctx, st, hp = _crewless_pump(("B23", 0))
    assert parking.street_risk(ctx, st, "S03") == 0
    assert parking.street_threat(ctx, st, "S03") == 2
    assert not parking.out_of_reach(ctx, st, "S03")
    movement.step_movement(ctx, st)
    assert hp.task == "stow"


def test_a_crewless_pump_three_spreads_from_the_fire_stays_set_up():
    ctx, st, hp = _crewless_pump(("B22", 0))  # B13, B23 or B12, then S03
    assert parking.street_threat(ctx, st, "S03") == 3
    assert parking.out_of_reach(ctx, st, "S03")
    movement.step_movement(ctx, st)
    assert hp.task != "stow" and hp.deployed


def test_a_crewless_pump_does_not_set_up_where_it_would_pack_up_again():
    # the same heavy pump, packed, at the hydrant in S03 with B23 burning two spreads
    # away: set up, it would start packing up the next turn (out_of_reach fails), two
    # turns each way tied to a street the fire is coming to; it stays packed, free to move
    ctx, st, hp = _crewless_pump(("B23", 0))
    hp.deployed = False
    movement.step_movement(ctx, st)
    assert not hp.deployed and hp.task not in ("deploy", "stow")
    ctx, st, hp = _crewless_pump(("B22", 0))  # three spreads away: it sets up
    hp.deployed = False
    movement.step_movement(ctx, st)
    assert hp.task == "deploy"


def _dry_at_work(water, house_rules=None):
    # E1 works from S02 (no hydrant anywhere) on B16 with a line along the street; B12, a
    # fire of 1 next to S02, spreads into it on a 1 (a sixth: policy.vehicle_withdraw_chance)
    sc = uworld(
        ["SSSSSSS", "..B...B"],
        fires={("B12", 0): 1, ("B16", 0): 3},
        forces=[ForceUnit("E1", "general_appliance", area="S02")],
        house_rules=house_rules or {},
    )
    ctx, st = usetup(sc, Dice(5))
    st.fire_at_start = dict(st.fire)
    st.units["E1"].water = water
    path = [("S02", 0), ("S03", 0), ("S04", 0), ("S05", 0)]
    add_hose(st, "H1", "E1", path, ("B16", 0), crew=["E1.1"])
    assert parking.street_risk(ctx, st, "S02") == pytest.approx(1 / 6)
    movement.step_movement(ctx, st)
    return ctx, st


def test_an_appliance_with_a_dry_tank_pulls_back_from_a_lone_fire_next_door():
    ctx, st = _dry_at_work(0)  # no water to guard its street with: it does not wait
    assert [e["hose"] for e in events(ctx, "hose_slipped")] == ["H1"]
    e1 = st.units["E1"]
    assert e1.loc is not None and e1.loc[0] != "S02"
    assert parking.street_risk(ctx, st, e1.loc[0]) == 0


def test_an_appliance_with_water_guards_its_street_from_a_lone_fire_next_door():
    # (with policy.withdraw_unguarded off: since round 14 it runs from a fire none of its
    # lines can reach, below)
    ctx, st = _dry_at_work(10, {"policy.withdraw_unguarded": 0})
    assert not events(ctx, "hose_slipped")
    assert st.units["E1"].loc == ("S02", 0)


def _emptied(water):
    # B00 burns at 3 across the open gap O01 from S02 (a jump line, once it reaches 5, and
    # O01 takes its rubble); S03..S07 nothing can reach. No hydrant, no open water.
    sc = uworld(
        ["BOSSSSSS"],
        fires={("B00", 0): 3},
        forces=[ForceUnit("E1", "general_appliance", area="S02")],
    )
    ctx, st = usetup(sc, Dice(5))
    st.fire_at_start = dict(st.fire)
    st.units["E1"].water = water
    movement.step_movement(ctx, st)
    return ctx, st


def test_an_appliance_that_has_emptied_its_tank_drives_to_the_least_exposed_street():
    ctx, st = _emptied(0)
    assert parking.exposure(ctx, "S02") > parking.exposure(ctx, "S03") == (0, 0, 0)
    assert st.units["E1"].loc == ("S03", 0)  # the nearest street the fire cannot reach


def test_an_appliance_with_water_in_its_tank_stays_near_the_fire():
    _ctx, st = _emptied(10)
    assert st.units["E1"].loc == ("S02", 0)


def test_a_vehicle_in_the_gap_does_not_shield_the_street_behind_it_from_a_jump():
    # B00 burns at 5; the despatch rider in S01 makes the gap flammable for now, but it
    # drives off (opening the jump into S02) or burns (and its wreck spreads on)
    sc = uworld(
        ["BSSSSS"], fires={("B00", 0): 5}, forces=[ForceUnit("DR", "despatch_rider", area="S01")]
    )
    ctx, st = usetup(sc)
    assert parking.jump_chances(ctx, st).get("S02") == (pytest.approx(1 / 6), False)
    st.rubble.add("S01")  # rubble stays: the gap burns, the fire spreads rather than jumps
    ctx.cache.clear()
    assert "S02" not in parking.jump_chances(ctx, st)


def _on_reserve(house_rules=None):
    # E1 on its tank (2 points left) in S02, the only street; B00 burns at 4 across the
    # open gap O01: once it grows to 5 it can jump into S02, where E1 stands
    sc = uworld(
        ["BOS"],
        fires={("B00", 0): 4},
        forces=[ForceUnit("E1", "general_appliance", area="S02")],
        house_rules=house_rules,
    )
    ctx, st = usetup(sc, Dice(5))
    st.fire_at_start = dict(st.fire)
    st.units["E1"].water = 2
    movement.step_movement(ctx, st)
    return ctx, st


def test_an_appliance_down_to_its_tanks_reserve_wets_its_own_street_instead_of_the_fire():
    _ctx, st = _on_reserve({"policy.tank_reserve": 3})
    assert [(h.path, h.target) for h in st.hoses.values()] == [([("S02", 0)], ("S02", 0))]


def test_with_no_tank_reserve_the_last_water_goes_on_the_fire():
    _ctx, st = _on_reserve({"policy.tank_reserve": 0})
    assert {h.target for h in st.hoses.values()} == {("B00", 0)}  # every team on the fire


def test_an_appliance_on_its_reserve_far_from_the_fire_still_puts_it_on_the_fire():
    # E1 on its tank (2 points left) in S04, four areas from B00 burning at 1: no fire can
    # spread or jump near its street soon, so the reserve is not held back for it
    sc = uworld(
        ["BSSSS"],
        fires={("B00", 0): 1},
        forces=[ForceUnit("E1", "general_appliance", area="S04")],
        house_rules={"policy.tank_reserve": 3},
    )
    ctx, st = usetup(sc, Dice(5))
    st.fire_at_start = dict(st.fire)
    st.units["E1"].water = 2
    assert parking.out_of_reach(ctx, st, "S04")
    movement.step_movement(ctx, st)
    assert {h.target for h in st.hoses.values()} == {("B00", 0)}


def _idle_vehicle(kind):
    # B00 stands next to S01 (where the vehicle waits) and could spread into it or drop its
    # rubble there; a fire of 1 burns at B08, far off; S02..S07 run east, S03 on no
    # building and out of any jump line. No casualty, nobody working.
    sc = uworld(
        ["BSSSSSSSB"],
        fires={("B08", 0): 1},
        forces=[ForceUnit("V1", kind, area="S01")],
    )
    ctx, st = usetup(sc, Dice(4))
    st.fire_at_start = dict(st.fire)
    movement.step_movement(ctx, st)
    return ctx, st


@pytest.mark.parametrize(
    "kind",
    [
        "despatch_rider",
        "ambulance",
        "canteen_truck",
        "heavy_rescue",
        "heavy_pump",  # packed, with no water to pump from (round 12)
    ],
)
def test_a_vehicle_with_no_work_near_the_fire_waits_in_the_least_exposed_street(kind):
    ctx, st = _idle_vehicle(kind)
    loc = st.units["V1"].loc
    assert loc is not None and loc[0] != "S01"
    assert parking.exposure(ctx, "S01") > parking.exposure(ctx, loc[0])
    assert parking.exposure(ctx, loc[0]) == min(
        parking.exposure(ctx, f"S0{i}") for i in range(1, 8)
    )


def _canteen_and_crews():
    # a fire of 2 burns at B00; a fire party waits idle in S02, two spreads from it by
    # B01 (no heat there, no chance to catch next step 1, but a vehicle parked there makes
    # the street one the fire can reach by the turn after); the canteen truck waits in S06
    sc = uworld(
        ["BBSSSSSSB"],
        fires={("B00", 0): 2},
        forces=[
            ForceUnit("P1", "fire_party", area="S02"),
            ForceUnit("C1", "canteen_truck", area="S06"),
        ],
    )
    ctx, st = usetup(sc, Dice(4))
    st.fire_at_start = dict(st.fire)
    return ctx, st


def test_the_canteen_feeds_crews_only_in_a_street_beyond_the_fires_reach():
    ctx, st = _canteen_and_crews()
    assert parking.street_risk(ctx, st, "S02") == 0 and not parking.out_of_reach(ctx, st, "S02")
    movement.step_movement(ctx, st)
    assert st.units["P1"].loc == ("S02", 0)  # the crews stayed
    assert st.units["C1"].loc is not None and st.units["C1"].loc[0] != "S02"


def test_the_canteen_drives_to_crews_waiting_out_of_the_fires_reach():
    ctx, st = _canteen_and_crews()
    st.units["P1"].loc = ("S05", 0)  # three spreads and more from B00
    assert parking.out_of_reach(ctx, st, "S05")
    movement.step_movement(ctx, st)
    assert st.units["C1"].loc == ("S05", 0)


def _nowhere_safe(area):
    # B00 burns at 1 next to S01 (a spread of 1 in 6 into a vehicle there); S02 has no
    # building next to it (the least exposed street) but fires of 5 a jump away on two
    # sides, B04 across O03 and B22 across O12 (1 - (5/6)^2 = 0.31): no street in reach
    # cannot catch next step 1
    sc = uworld(
        ["BSSOB", "..O..", "..B.."],
        fires={("B00", 0): 1, ("B04", 0): 5, ("B22", 0): 5},
        forces=[ForceUnit("DR", "despatch_rider", area=area)],
    )
    ctx, st = usetup(sc, Dice(4))
    st.fire_at_start = dict(st.fire)
    assert parking.exposure(ctx, "S02") < parking.exposure(ctx, "S01")
    assert 0 < parking.street_risk(ctx, st, "S01") < parking.street_risk(ctx, st, "S02")
    movement.step_movement(ctx, st)
    return st.units["DR"].loc


@pytest.mark.parametrize("area", ["S01", "S02"])
def test_with_no_street_free_of_risk_a_free_vehicle_waits_in_the_least_likely_to_catch(area):
    # round 14: not in the least exposed street, which is the more likely to catch now
    assert _nowhere_safe(area) == ("S01", 0)


def _cut(house_rules=None, damage=2):
    # E1 works from S04 (hydrant) on B14, a fire of 1 next to it; B12 burns at 5 with
    # damage ``damage``: its collapse would drop rubble into S02, the only road from S04 and
    # S03 (both next to a fire) to S00 and S01, two spreads and more from every fire
    sc = uworld(
        ["SSSSS", "..BBB"],
        hydrants=["S04"],
        fires={("B12", 0): 5, ("B13", 0): 1, ("B14", 0): 1},
        forces=[ForceUnit("E1", "general_appliance", area="S04")],
        house_rules=house_rules or {},
    )
    ctx, st = usetup(sc, Dice(2))
    st.fire_at_start = dict(st.fire)
    st.damage[("B12", 0)] = damage
    st.units["E1"].source = "hydrant:S04"
    add_hose(st, "H1", "E1", [("S04", 0)], ("B14", 0), crew=["E1.1"])
    return ctx, st


def test_an_appliance_at_work_pulls_back_before_a_collapse_cuts_its_street_off():
    ctx, st = _cut()
    assert parking.cut_soon(ctx, st, st.units["E1"]) == {"S00", "S01"}
    movement.step_movement(ctx, st)
    assert [e["hose"] for e in events(ctx, "hose_slipped")] == ["H1"]
    e1 = st.units["E1"]
    assert e1.loc is not None and e1.loc[0] in ("S00", "S01")


@pytest.mark.parametrize(("house_rules", "damage"), [({"policy.cutoff_damage": 0}, 2), ({}, 1)])
def test_an_appliance_at_work_stays_when_no_collapse_forecast_cuts_it_off(house_rules, damage):
    # the policy off, or B12 too little damaged to count (policy.cutoff_damage 2): the
    # lone fire of 1 next to S04 has a line on it, so E1 keeps working there
    ctx, st = _cut(house_rules, damage)
    assert parking.cut_soon(ctx, st, st.units["E1"]) == set()
    movement.step_movement(ctx, st)
    assert not events(ctx, "hose_slipped")
    assert st.units["E1"].loc == ("S04", 0)


def test_an_appliance_pulls_back_from_a_lone_fire_next_door_its_lines_cannot_reach():
    # as _dry_at_work(10), but its line's branch at S05 is four steps from B12: no line of
    # its own can turn to guard S02 (R-15: range 3), so the lone fire of 1 is run from
    ctx, st = _dry_at_work(10, {"policy.withdraw_unguarded": 1})
    assert [e["hose"] for e in events(ctx, "hose_slipped")] == ["H1"]
    e1 = st.units["E1"]
    assert e1.loc is not None and e1.loc[0] != "S02"


def _left_behind(house_rules=None, cut=True, away=False, wait="S06"):
    # as _emptied(0): E1 stands dry in S02, across the open gap O01 from B00 (a fire of 3).
    # Its line H1 lies slipped along S02-S04 with nobody on it or making it up, and its
    # teams are aboard (``away``: one waits idle at S06): ``parking.engaged`` still counts
    # it at work, by its line
    sc = uworld(
        ["BOSSSSSS"],
        fires={("B00", 0): 3},
        forces=[ForceUnit("E1", "general_appliance", area="S02")],
        house_rules=house_rules or {},
    )
    ctx, st = usetup(sc, Dice(5))
    st.fire_at_start = dict(st.fire)
    e1 = st.units["E1"]
    e1.water = 0
    h = add_hose(st, "H1", "E1", [("S02", 0), ("S03", 0), ("S04", 0)], None)
    h.cut = cut
    crews = sorted(uid for uid, s in st.units.items() if s.parent == "E1" and s.kind != e1.kind)
    for uid in crews:
        st.units[uid].loc, st.units[uid].task = ("S02", 0), "aboard"
    if away:
        st.units[crews[0]].loc, st.units[crews[0]].task = (wait, 0), "idle"
    assert parking.engaged(st, e1)
    assert parking.left_behind(st, e1, [st.units[uid] for uid in crews]) == (cut and not away)
    movement.step_movement(ctx, st)
    return ctx, st


def test_a_dry_appliance_held_only_by_a_slipped_line_drives_to_the_least_exposed_street():
    # round 15: its line, left lying, does not hold it at work (``policy.free_left_behind``)
    ctx, st = _left_behind()
    assert parking.exposure(ctx, "S02") > parking.exposure(ctx, "S03") == (0, 0, 0)
    assert st.units["E1"].loc == ("S03", 0)


@pytest.mark.parametrize(
    ("house_rules", "cut", "away"),
    [
        ({"policy.free_left_behind": 0}, True, False),
        ({}, False, False),
        ({"policy.free_left_behind": 1}, True, True),
    ],
)
def test_an_appliance_with_a_line_still_laid_or_a_team_away_stays_at_work(house_rules, cut, away):
    # the policy off, H1 not slipped (its pump may still feed it), or a team of its own
    # away from it with ``policy.free_left_behind`` 1 (it would walk after it): E1 stays
    _ctx, st = _left_behind(house_rules, cut, away)
    assert st.units["E1"].loc == ("S02", 0)


@pytest.mark.parametrize(("wait", "to"), [("S06", "S03"), ("S03", "S04")])
def test_a_dry_appliance_left_behind_shelters_while_its_team_waits_where_it_is(wait, to):
    # round 15b (``policy.free_left_behind`` 2): a team waits idle away from E1 where the
    # fire cannot reach it; E1 shelters all the same, in the nearest least exposed street
    # where no stand waits (S03, else S04), and the team stays where it is
    ctx, st = _left_behind(away=True, wait=wait)
    team = sorted(
        uid for uid, s in st.units.items() if s.parent == "E1" and s.kind != st.units["E1"].kind
    )[0]
    assert not safety.exposed(ctx, st, (wait, 0))
    assert st.units["E1"].loc == (to, 0)
    assert st.units[team].loc == (wait, 0)


def test_a_team_away_from_a_dry_appliance_left_behind_walks_back_with_the_policy_at_1():
    # the same team with ``policy.free_left_behind`` 1: E1 stays, the team walks back to it
    _ctx, st = _left_behind({"policy.free_left_behind": 1}, away=True)
    team = sorted(
        uid for uid, s in st.units.items() if s.parent == "E1" and s.kind != st.units["E1"].kind
    )[0]
    assert st.units["E1"].loc == ("S02", 0)
    assert st.units[team].loc != ("S06", 0)
