"""Step 6 with scripted dice: heat, R-10, R-7, arrivals, driving, walking, hoses, ladders."""

from __future__ import annotations

import pytest
from test_units_world import events, usetup, uworld

from fireground.engine.board.model import ForceUnit
from fireground.engine.games.blitz.reach import danger, foot
from fireground.engine.games.blitz.rules import equipment, hoses
from fireground.engine.games.blitz.rules import movement as mv
from fireground.engine.games.blitz.units import HoseLine, Ladder

B00, B01, B02 = ("B00", 0), ("B01", 0), ("B02", 0)


def stand(st, uid, loc, **kw):
    from fireground.engine.games.blitz.units import STAND, UnitState

    u = UnitState(uid, "fire_team", STAND, loc, **kw)
    st.units[uid] = u
    return u


# -- heat ----------------------------------------------------------------------------------
def test_heat_is_the_sum_of_neighbouring_fires():
    ctx, st = usetup(uworld(["BBB"], fires={B00: 3, B02: 2}))
    assert danger.heat(ctx, st, B01) == 5 and danger.heat(ctx, st, B00) == 0


@pytest.mark.parametrize(
    ("fires", "dice", "ok", "rolled"),
    [
        ({B00: 1}, [], True, False),  # a sum of 1 always passes, no die
        ({B00: 4, B02: 3}, [], False, False),  # 7 or more always fails, no die
        ({B00: 3, B02: 1}, [4], True, True),  # 1d6 >= 4
        ({B00: 3, B02: 1}, [3], False, True),
    ],
)
def test_heat_test(fires, dice, ok, rolled):
    ctx, st = usetup(uworld(["BBB"], fires=fires), dice)
    u = stand(st, "T", ("B01", 0))
    assert danger.heat_test(ctx, st, u, B01) is ok
    evs = events(ctx, "heat")
    assert len(evs) == int(rolled)
    if rolled:
        assert evs[0]["need"] == ">=4" and evs[0]["success"] is ok


# -- R-10 ----------------------------------------------------------------------------------
def test_r10_stand_leaves_a_burning_location():
    ctx, st = usetup(uworld(["BBB"], fires={B00: 4, B01: 2}), [2])
    u = stand(st, "T", B01)
    mv.forced_exits(ctx, st)
    assert u.loc == B02 and u.status == "ok"
    (ev,) = events(ctx, "heat")
    assert ev["need"] == ">=2" and ev["success"]
    assert events(ctx, "forced_exit")[0]["ruling"] == "R-10"


def test_r10_stand_that_cannot_leave_becomes_a_casualty():
    ctx, st = usetup(uworld(["BBB"], fires={B00: 4, B01: 2}), [1])
    u = stand(st, "T", B01)
    mv.forced_exits(ctx, st)
    assert u.status == "casualty" and not u.in_play
    assert [(c.loc, c.status, c.origin) for c in st.casualties] == [(B01, "found", "T")]


def test_r10_vehicle_in_a_burning_street_is_burned_out():
    sc = uworld(["SS"], forces=[ForceUnit("E1", "general_appliance", area="S00")])
    ctx, st = usetup(sc)
    st.fire[("S00", 0)] = 1
    mv.burn_out_vehicles(ctx, st)
    assert st.units["E1"].status == "burned_out"
    assert st.units["E1.1"].status == "ok"  # the crew leaves on foot instead


# -- heat re-test and R-7 ------------------------------------------------------------------
@pytest.mark.parametrize(("roll", "stays"), [(3, True), (2, False)])
def test_rising_heat_needs_a_new_test(roll, stays):
    ctx, st = usetup(uworld(["BBB"], fires={B00: 3}), [roll])
    u = stand(st, "T", B01, heat_seen=1)
    mv.heat_retests(ctx, st)
    assert (u.loc == B01) is stays
    if not stays:
        assert u.loc == B02  # withdrew to a cool neighbour (sum 0: no die)
    assert len(events(ctx, "heat")) == 1


def test_steady_heat_needs_no_test():
    ctx, st = usetup(uworld(["BBB"], fires={B00: 3}))
    u = stand(st, "T", B01, heat_seen=3)
    mv.heat_retests(ctx, st)
    assert u.loc == B01 and not ctx.events


def test_r7_withdraw_from_heavy_damage():
    ctx, st = usetup(uworld(["BBB"]))
    st.damage[B01] = 4
    u = stand(st, "T", B01)
    mv.self_preservation(ctx, st)
    assert u.loc == B00 and events(ctx, "withdraw")[0]["ruling"] == "R-7"


def test_r7_withdraw_from_next_to_a_fire_5_in_a_heavy_damaged_location():
    ctx, st = usetup(uworld(["BBBB"], fires={B00: 5}))
    st.damage[B00] = 4
    u = stand(st, "T", B01)
    v = stand(st, "V", ("B03", 0))
    assert danger.unsafe(ctx, st, B01) and not danger.unsafe(ctx, st, B02)
    mv.self_preservation(ctx, st)
    assert u.loc == B02 and v.loc == ("B03", 0)


def test_r7_does_not_trigger_below_heavy_damage():
    ctx, st = usetup(uworld(["BBB"], fires={B00: 5}))
    st.damage[B00] = 3
    assert not danger.unsafe(ctx, st, B01)


# -- arrivals ------------------------------------------------------------------------------
def test_units_arrive_at_their_entry_on_their_turn():
    sc = uworld(
        ["SSB"], entries={"from the east": "S01"},
        forces=[ForceUnit("E1", "escape_carrying_unit", entry="from the east", arrives=2)],
    )  # fmt: skip
    ctx, st = usetup(sc)
    mv.arrivals(ctx, st)
    assert st.units["E1"].loc is None
    st.turn = 2
    mv.arrivals(ctx, st)
    assert st.units["E1"].loc == ("S01", 0) and st.units["E1.2"].loc == ("S01", 0)
    assert events(ctx, "arrive")[0]["unit"] == "E1"


def test_arrival_waits_while_the_entry_burns():
    sc = uworld(
        ["SS"], entries={"in": "S00"}, forces=[ForceUnit("E1", "general_appliance", entry="in")]
    )
    ctx, st = usetup(sc)
    st.fire[("S00", 0)] = 1
    mv.arrivals(ctx, st)
    assert st.units["E1"].loc is None
    del st.fire[("S00", 0)]
    mv.arrivals(ctx, st)
    assert st.units["E1"].loc == ("S00", 0)


# -- vehicles ------------------------------------------------------------------------------
def test_vehicle_drives_any_distance_with_its_crew():
    sc = uworld(["SSSSS"], forces=[ForceUnit("E1", "general_appliance", area="S00")])
    ctx, st = usetup(sc)
    assert mv.drive(ctx, st, st.units["E1"], "S04")
    assert st.units["E1"].loc == ("S04", 0) and st.units["E1.3"].loc == ("S04", 0)


@pytest.mark.parametrize("block", ["rubble", "crater", "fire"])
def test_vehicle_cannot_cross_rubble_craters_or_fire(block):
    sc = uworld(["SSSSS"], forces=[ForceUnit("E1", "general_appliance", area="S00")])
    ctx, st = usetup(sc)
    if block == "rubble":
        st.rubble.add("S02")
    elif block == "crater":
        st.craters.add("S02")
    else:
        st.fire[("S02", 0)] = 1
    assert not mv.drive(ctx, st, st.units["E1"], "S04")
    assert st.units["E1"].loc == ("S00", 0)
    assert mv.drive(ctx, st, st.units["E1"], "S01")


def test_vehicle_with_a_hose_out_stays():
    sc = uworld(["SSS"], forces=[ForceUnit("E1", "general_appliance", area="S00")])
    ctx, st = usetup(sc)
    st.hoses["H1"] = HoseLine("H1", "E1", [("S00", 0)], 1)
    assert not mv.drive(ctx, st, st.units["E1"], "S02")


# -- on foot -------------------------------------------------------------------------------
def test_foot_points_areas_and_stairs():
    sc = uworld(["SBB"], levels={"B01": 6, "B02": 6}, stairs=["B01"])
    ctx, st = usetup(sc)
    u = stand(st, "T", ("S00", 0))
    assert mv.walk(ctx, st, u, ("B01", 5))  # 1 area + 5 levels = 6 points
    assert u.loc == ("B01", 5)
    u2 = stand(st, "T2", ("S00", 0))
    mv.walk(ctx, st, u2, ("B02", 5))  # 7 points: one short
    assert u2.loc == ("B01", 5)


def test_ladder_costs_two_points_a_level():
    sc = uworld(["SB"], levels={"B01": 3})
    ctx, st = usetup(sc)
    st.units["L"] = lad = stand(st, "L", ("S00", 0))
    lad.ladders = [Ladder(2, at="S00", face="B01", height=2)]
    u = stand(st, "T", ("S00", 0))
    links = {lk[0]: lk for lk in foot.foot_links(ctx, ("S00", 0), foot.ladder_links(st))}
    # 2 points a level, the step into the area included
    assert links[("B01", 2)][1] == 2 * 2 and links[("B01", 1)][1] == 2
    assert mv.walk(ctx, st, u, ("B01", 2)) and u.loc == ("B01", 2)


def test_walk_stops_at_a_failed_heat_test():
    ctx, st = usetup(uworld(["SBBB"], fires={("B03", 0): 3}), [1])
    u = stand(st, "T", ("S00", 0))
    mv.walk(ctx, st, u, B02)
    assert u.loc == B01 and events(ctx, "heat")[0]["success"] is False


def test_no_walking_into_fire():
    ctx, st = usetup(uworld(["SBB"], fires={B01: 1}))
    u = stand(st, "T", ("S00", 0))
    assert not mv.walk(ctx, st, u, B01)


# -- hoses ---------------------------------------------------------------------------------
def _pump_and_team(rows, **kw):
    sc = uworld(rows, forces=[ForceUnit("E1", "general_appliance", area="S00")], **kw)
    ctx, st = usetup(sc)
    team = st.units["E1.1"]
    team.task = "idle"
    return ctx, st, st.units["E1"], team


def test_hose_grows_one_length_a_turn_horizontally():
    ctx, st, e1, team = _pump_and_team(["SSSSSS"])
    route = [(f"S0{i}", 0) for i in range(6)]
    h = hoses.start_hose(ctx, st, [team], e1, route, None, e1)
    assert e1.hose_left == 9 and h.lengths == 1
    hoses.lay_hoses(ctx, st)
    assert h.branch == ("S02", 0) and team.loc == ("S02", 0) and h.lengths == 1
    st.turn += 1
    hoses.lay_hoses(ctx, st)
    assert h.branch == ("S04", 0) and h.lengths == 2 and e1.hose_left == 8
    st.turn += 1
    hoses.lay_hoses(ctx, st)
    assert h.branch == ("S05", 0) and not h.plan and h.lengths == 3


def test_hose_by_stairs_two_levels_a_turn():
    ctx, st, e1, team = _pump_and_team(["SB"], levels={"B01": 5}, stairs=["B01"])
    route = [("S00", 0), ("B01", 0), ("B01", 1), ("B01", 2), ("B01", 3)]
    h = hoses.start_hose(ctx, st, [team], e1, route, None, e1)
    hoses.lay_hoses(ctx, st)
    assert h.branch == ("B01", 1)
    hoses.lay_hoses(ctx, st)
    assert h.branch == ("B01", 3) and h.lengths == 2


def test_hose_by_ladder_half_a_length_a_turn():
    ctx, st, e1, team = _pump_and_team(["SB"], levels={"B01": 3})
    e1.ladders[0].at, e1.ladders[0].face, e1.ladders[0].height = "S00", "B01", 1
    route = [("S00", 0), ("B01", 1)]  # 1 area + 1 level by ladder: 3 laying points
    h = hoses.start_hose(ctx, st, [team], e1, route, None, e1)
    hoses.lay_hoses(ctx, st)
    assert h.branch == ("S00", 0) and h.progress == 2
    hoses.lay_hoses(ctx, st)
    assert h.branch == ("B01", 1) and team.loc == ("B01", 1)


def test_hose_stops_when_the_appliance_runs_out_of_lengths():
    ctx, st, e1, team = _pump_and_team(["SSSSSS"])
    e1.hose_left = 2
    route = [(f"S0{i}", 0) for i in range(6)]
    h = hoses.start_hose(ctx, st, [team], e1, route, None, e1)
    for _ in range(3):
        hoses.lay_hoses(ctx, st)
    assert h.lengths == 2 and e1.hose_left == 0 and h.branch == ("S04", 0) and not h.plan


def test_hose_needs_its_crew_at_the_advancing_end():
    ctx, st, e1, team = _pump_and_team(["SSSS"])
    h = hoses.start_hose(ctx, st, [team], e1, [(f"S0{i}", 0) for i in range(4)], None, e1)
    team.loc = ("S03", 0)
    hoses.lay_hoses(ctx, st)
    assert h.branch == ("S00", 0)


def test_recovering_takes_two_turns_a_length():
    ctx, st, e1, team = _pump_and_team(["SSSSS"])
    h = HoseLine("H1", "E1", [(f"S0{i}", 0) for i in range(5)], 2, crew=["E1.1"], stock="E1")
    st.hoses["H1"] = h
    e1.hose_left = 8
    hoses.recover_hose(ctx, st, h)
    for _ in range(3):
        equipment.advance_work(ctx, st)
    assert "H1" in st.hoses
    equipment.advance_work(ctx, st)
    assert "H1" not in st.hoses and e1.hose_left == 10 and team.loc == ("S00", 0)


def test_hose_laying_lorry_lays_six_street_areas_a_turn():
    sc = uworld(["SSSSSSSSS"], forces=[ForceUnit("HL", "hose_laying_lorry", area="S00")])
    ctx, st = usetup(sc)
    lorry = st.units["HL"]
    h = HoseLine("H1", "X", [("S00", 0)], 1, lorry="HL", stock="HL")
    h.plan = [(f"S0{i}", 0) for i in range(1, 9)]
    st.hoses["H1"] = h
    equipment.advance_work(ctx, st)
    assert h.branch == ("S06", 0) and lorry.loc == ("S06", 0) and h.lengths == 3


# -- ladders and deploying ------------------------------------------------------------------
def test_ladder_takes_a_turn_to_pitch():
    ctx, st, e1, _team = _pump_and_team(["SB"], levels={"B01": 4})
    assert equipment.can_pitch(ctx, st, e1, "S00") is not None  # not a building
    assert equipment.pitch_ladder(ctx, st, e1, "B01")
    assert not foot.ladder_links(st)
    equipment.advance_work(ctx, st)
    assert {t for t, _ in foot.ladder_links(st)[("S00", 0)]} == {("B01", 1)}  # rating 1


def test_pitching_needs_a_fire_team_there():
    ctx, st, e1, _team = _pump_and_team(["SB"], levels={"B01": 4})
    for s in ("E1.1", "E1.2", "E1.3"):
        st.units[s].loc = ("B01", 0)
    assert "fire team" in equipment.can_pitch(ctx, st, e1, "B01")


def test_hook_ladder_climbs_a_level_a_turn():
    ctx, st, e1, _team = _pump_and_team(["SB"], levels={"B01": 4})
    e1.ladders = [Ladder(3, hook=True)]
    equipment.pitch_ladder(ctx, st, e1, "B01")
    heights = []
    for _ in range(4):
        equipment.advance_work(ctx, st)
        heights.append(e1.ladders[0].height)
    assert heights == [1, 2, 3, 3]


@pytest.mark.parametrize(
    ("utype", "turns"), [("light_pump", 1), ("heavy_pump", 2), ("mobile_dam_unit", 3)]
)
def test_deploy_times(utype, turns):
    ctx, st = usetup(uworld(["SS"], forces=[ForceUnit("P", utype, area="S00")]))
    p = st.units["P"]
    assert not p.deployed and equipment.deploy(ctx, st, p)
    for _ in range(turns - 1):
        equipment.advance_work(ctx, st)
        assert not p.deployed
    equipment.advance_work(ctx, st)
    assert p.deployed
    if utype == "mobile_dam_unit":
        assert p.water == ctx.rules.units[utype]["dam_points"]


def test_deployed_pump_cannot_drive_off():
    ctx, st = usetup(uworld(["SS"], forces=[ForceUnit("P", "heavy_pump", area="S00")]))
    p = st.units["P"]
    p.deployed = True
    assert not mv.drive(ctx, st, p, "S01")
    assert equipment.stow(ctx, st, p)
    equipment.advance_work(ctx, st)
    equipment.advance_work(ctx, st)
    assert not p.deployed and mv.drive(ctx, st, p, "S01")
