"""Rules audit, steps 5-10 and the turn (blitz-rules.md §2, §4-§11, R-7..R-10): scripted
cases the rules helpers' own tests leave open. Each test names the spec line it checks."""

from __future__ import annotations

import pytest
from audit_world import evs, grid, hose, play, stand, vehicle

from fireground.engine.board.model import ForceUnit
from fireground.engine.core.ruleset import load_ruleset, unit_types
from fireground.engine.core.turn import play_turn
from fireground.engine.games.blitz.reach import foot
from fireground.engine.games.blitz.rules import bombing, damage, equipment, movement, rescue
from fireground.engine.games.blitz.rules import firefighting as ff
from fireground.engine.games.blitz.steps import steps
from fireground.engine.games.blitz.units import EQUIPMENT, STAND, HoseLine, UnitState
from fireground.engine.play.simulate import new_game

B00, B01, B02 = ("B00", 0), ("B01", 0), ("B02", 0)


# -- §2 the sequence of a turn ----------------------------------------------------------------
def test_the_ten_steps_run_in_the_order_of_section_2():
    names = [(n, f.__module__.rsplit(".", 1)[-1], f.__name__) for n, f in steps()]
    assert names == [
        (1, "fire", "step_spread"),
        (2, "fire", "step_growth"),
        (3, "fire", "step_reignite"),
        (4, "fire", "step_damp"),
        (5, "bombing", "step_bombing"),
        (6, "movement", "step_movement"),
        (7, "damage", "step_damage"),
        (8, "water", "step_water"),
        (9, "firefighting", "step_firefighting"),
        (9, "rescue", "step_rescue"),
        (10, "fatigue", "step_fatigue"),
    ]


def test_events_of_a_busy_turn_come_in_step_order_with_the_log_fields():
    # turn log: every roll is one event with raw dice, summed modifier, need and success
    sc = grid(
        ["SSSSS", "BBBBB"],
        fires={("B11", 0): 5, ("B13", 0): 2},
        hydrants={"S02": 3},
        entries={"in": "S00"},
        forces=[ForceUnit("E1", "general_appliance", entry="in")],
        bombing=True,
    )
    game = new_game(sc, seed=4)
    for _ in range(6):
        log = game.step()
        numbers = [e["step"] for e in log.events]
        assert numbers == sorted(numbers)
        for e in log.events:
            assert {"step", "rule", "dice", "modifier", "need", "success"} <= set(e)
            assert all(1 <= d <= 6 for d in e["dice"])


# -- §4 / R-10 -------------------------------------------------------------------------------
def test_r10_stand_leaves_into_any_neighbour_it_can_enter_by_the_heat_test():
    # R-10: a stand in a location that caught "must leave in step 6 to a neighbour they can
    # enter by the heat test; a stand that cannot becomes a casualty". B00 is heavy-damaged
    # but cool (heat = B01's fire 1: passes without a die), so the stand gets out there.
    ctx, st = play(grid(["BBB"], fires={B01: 1, B02: 5}))
    st.damage[B00] = 4
    u = stand(st, "T", B01)
    movement.forced_exits(ctx, st)
    assert u.in_play and u.loc == B00


def test_r10_stand_with_no_enterable_neighbour_is_a_casualty():
    ctx, st = play(grid(["BBB"], fires={B00: 5, B01: 1, B02: 5}))
    u = stand(st, "T", B01)
    movement.forced_exits(ctx, st)
    assert u.status == "casualty" and evs(ctx, "trapped")[0]["ruling"] == "R-10"


# -- §5 HE in the impact area -----------------------------------------------------------------
def test_he_destroys_vehicles_and_equipment_in_the_impact_area():
    # §5 HE: "everyone in it is killed; vehicles and equipment destroyed"
    ctx, st = play(grid(["SS"]), [2], [(5, 5)])
    vehicle(st, "E1", ("S00", 0))
    st.units["P1"] = UnitState("P1", "light_pump", EQUIPMENT, ("S00", 0))
    stand(st, "F1", ("S00", 0))
    bombing.drop_bomb(ctx, st, "he")
    assert st.units["E1"].status == "destroyed" and st.units["P1"].status == "destroyed"
    assert st.units["F1"].status == "dead"
    assert [(c.status, c.origin) for c in st.casualties] == [("dead", "F1")]
    assert "S00" in st.craters and len(evs(ctx, "he_damage")) == 1  # S01 rolls 2: no crater
    assert "S01" not in st.craters


# -- §6 -----------------------------------------------------------------------------------------
def test_heavy_damage_makes_a_personnel_stand_a_casualty():
    # §6: "4 heavy (all occupants become casualties)" — stands as well as civilians
    ctx, st = play(grid(["BS"], fires={B00: 5}), [6])
    st.damage[B00] = 3
    u = stand(st, "F", B00)
    damage.step_damage(ctx, st)
    assert st.damage_at(B00) == 4 and u.status == "casualty"
    assert [(c.loc, c.status) for c in st.casualties] == [(B00, "buried")]


@pytest.mark.parametrize(("roll", "out"), [(3, True), (2, False)])
def test_unit_in_a_collapsing_location_rolls_to_escape(roll, out):
    # §6: "Units in a collapsing ... location roll to escape to an adjacent location:
    # ... personnel stand 3-6; otherwise they become buried casualties." Upper level, so
    # the party-wall neighbour (B01, 1) is not struck by the rubble (ground levels only).
    sc = grid(["BB"], levels={"B00": 2, "B01": 2}, fires={("B00", 1): 5})
    ctx, st = play(sc, [6, roll])
    st.damage[("B00", 1)] = 4
    u = stand(st, "F", ("B00", 1))
    damage.step_damage(ctx, st)
    assert st.damage_at(("B00", 1)) == 5 and st.damage_at(B00) == 1
    (ev,) = evs(ctx, "escape")
    assert ev["need"] == ">=3" and ev["success"] is out
    if out:
        assert u.in_play and u.loc == ("B01", 1)
    else:
        assert u.status == "casualty" and st.casualties[0].status == "buried"


# -- §7 -----------------------------------------------------------------------------------------
def test_r7_vehicle_drives_away_from_a_fire_5_in_a_heavy_damaged_building():
    # R-7 applies to every unit: the appliance next to the fire of 5 in a heavy-damaged
    # building withdraws along the street to a safe area.
    sc = grid(
        ["SSSS", "B..."],
        fires={("B10", 0): 5},
        forces=[ForceUnit("E1", "general_appliance", area="S00")],
    )
    ctx, st = play(sc)
    st.damage[("B10", 0)] = 4
    movement.self_preservation(ctx, st)
    assert st.units["E1"].loc == ("S01", 0)
    assert evs(ctx, "withdraw")[0]["ruling"] == "R-7"


def test_r7_vehicle_stays_below_heavy_damage():
    sc = grid(
        ["SSSS", "B..."],
        fires={("B10", 0): 5},
        forces=[ForceUnit("E1", "general_appliance", area="S00")],
    )
    ctx, st = play(sc)
    st.damage[("B10", 0)] = 3
    movement.self_preservation(ctx, st)
    assert st.units["E1"].loc == ("S00", 0) and not ctx.events


def test_towed_pump_recovers_in_one_turn():
    # §7: "Towed pumps: 1 turn to deploy or recover."
    ctx, st = play(grid(["SS"], forces=[ForceUnit("P", "light_pump", area="S00")]))
    p = st.units["P"]
    p.deployed = True
    assert equipment.stow(ctx, st, p)
    equipment.advance_work(ctx, st)
    assert not p.deployed and p.task == "idle"


@pytest.mark.parametrize("block", ["fire", "building"])
def test_hose_laying_lorry_stops_off_open_street(block):
    # §7: the lorry lays "along open street": not into fire, not into a building
    row = "SSBSS" if block == "building" else "SSSSS"
    sc = grid([row], forces=[ForceUnit("HL", "hose_laying_lorry", area="S00")])
    ctx, st = play(sc)
    if block == "fire":
        st.fire[("S02", 0)] = 1
    h = HoseLine("H1", "X", [("S00", 0)], 1, lorry="HL", stock="HL")
    h.plan = [(row[i] + f"0{i}", 0) for i in range(1, 5)]
    st.hoses["H1"] = h
    equipment.advance_work(ctx, st)
    assert h.branch == ("S01", 0) and not h.plan and st.units["HL"].loc == ("S01", 0)


def test_ladder_reaches_only_up_to_its_rating():
    # §7 Ladders: "reaches that area's levels up to its rating" (wheeled escape: level 2)
    sc = grid(
        ["SB"], levels={"B01": 5}, forces=[ForceUnit("E1", "escape_carrying_unit", area="S00")]
    )
    ctx, st = play(sc)
    assert equipment.pitch_ladder(ctx, st, st.units["E1"], "B01")
    equipment.advance_work(ctx, st)

    tops = sorted(t for t, _ in foot.ladder_links(st)[("S00", 0)])
    assert tops == [("B01", 1), ("B01", 2)]


# -- §9 embers and streams -----------------------------------------------------------------------
def _line(rows, branch, target, crew=True):
    sc = grid(rows, forces=[ForceUnit("E1", "general_appliance", area="S00")])
    ctx, st = play(sc, [6])
    ctx.step = 9
    for s in ("E1.1", "E1.2", "E1.3"):
        st.units[s].task = "idle"
    hose(st, "H1", "E1", [("S00", 0), branch], target, ["E1.1"] if crew else [])
    return ctx, st


def test_embers_out_with_a_fire_team_and_water_in_the_location():
    # §3: "A fire team with water in the location can put out all its embers with a 6"
    ctx, st = _line(["SBB"], B01, B02)
    st.embers.add(B01)
    ff.step_firefighting(ctx, st)
    assert evs(ctx, "embers_out")[0]["need"] == ">=6" and B01 not in st.embers


def test_no_embers_out_from_an_unmanned_branch():
    # No fire team at all: the embers may be damped but not put out.
    ctx, st = _line(["SBB"], B01, B02, crew=False)
    st.embers.add(B02)
    ff.step_firefighting(ctx, st)
    assert not evs(ctx, "embers_out") and B02 in st.embers


def test_no_embers_out_where_the_team_does_not_stand():
    # Source: "require a fire team in the same area with water". The team is at B01,
    # the embers at B02 (its stream's target, range 1).
    ctx, st = _line(["SBB"], B01, B02)
    st.embers.add(B02)
    ff.step_firefighting(ctx, st)
    assert not evs(ctx, "embers_out") and B02 in st.embers


def test_stream_on_its_own_branch_location_does_not_crash():
    # A line damping its own branch location (orders.check allows it: range 0 <= 3) whose
    # location then catches and whose crew has gone: step 9 must still play it.
    ctx, st = _line(["SBB"], B01, B01, crew=False)
    st.fire[B01] = 2
    ff.step_firefighting(ctx, st)
    assert len(evs(ctx, "extinguish")) == 1


# -- §9 rescue ------------------------------------------------------------------------------------
def test_rescue_team_rolls_once_per_turn_however_many_are_buried():
    # §9: "Per buried casualty, one roll per rescue team per turn" (source: "only one roll
    # per turn per rescue team is allowed")
    sc = grid(["SB"], forces=[ForceUnit("RT", "rescue_team", area="B01")])
    ctx, st = play(sc, [1])
    for _ in range(3):
        st.add_casualty(B01, "buried")
    rescue.step_rescue(ctx, st)
    assert len(evs(ctx, "rescue")) == 1 and ctx.dice.remaining == 0


# -- §10 ------------------------------------------------------------------------------------------
def test_activity_is_counted_only_for_stands():
    from fireground.engine.games.blitz.rules import fatigue

    ctx, st = play(grid(["SS"], forces=[ForceUnit("E1", "general_appliance", area="S00")]))
    e1 = st.units["E1"]
    e1.task = "drive"
    st.units["E1.1"].task = "fight"
    fatigue.step_fatigue(ctx, st)
    assert e1.active_turns == 0 and st.units["E1.1"].active_turns == 1


# -- §11 and R-8 ---------------------------------------------------------------------------------
def test_section_11_special_columns():
    units = load_ruleset().units
    assert units["canteen_truck"]["rations"] == 40
    assert units["mobile_dam_unit"]["dam_points"] in (10, 20)
    assert units["mobile_dam_unit"]["deploy_turns"] == 3
    assert units["hose_laying_lorry"]["lays_areas"] == 6
    assert units["heavy_pump"]["deploy_turns"] == units["extra_heavy_pump"]["deploy_turns"] == 2
    assert units["light_pump"]["deploy_turns"] == units["medium_pump"]["deploy_turns"] == 1
    assert units["ambulance"]["carries"] == 3 and units["mortuary_van"]["carries"] == 8
    assert units["wheelbarrow_pump"]["moves"] == "carried"
    assert units["general_appliance"]["special"]  # towing attachment noted


def test_r8_small_pump_team_pumps_and_no_water_unit():
    units = load_ruleset().units
    assert units["small_pump_team"]["pumps"] == units["light_pump"]["pumps"] == 2
    assert not any("water_unit" in t for t in unit_types())


def test_small_pump_team_feeds_two_lines():
    # R-8 in play: two delivery pumps, so two lines, the third gets nothing
    sc = grid(["SSB"], forces=[ForceUnit("SP", "small_pump_team", area="S00")])
    ctx, st = play(sc)
    sp = st.units["SP"]
    sp.water = 5
    sp.deployed = True  # §7: its trailer pump has had its turn to deploy
    for i in (1, 2, 3):
        st.units[f"SP.{i}"] = UnitState(f"SP.{i}", "fire_team", STAND, ("S01", 0), parent="SP")
        hose(st, f"H{i}", "SP", [("S00", 0), ("S01", 0)], B02, [f"SP.{i}"], water=0)
    from fireground.engine.games.blitz.rules import water

    water.step_water(ctx, st)
    assert [st.hoses[f"H{i}"].water for i in (1, 2, 3)] == [1, 1, 0]


# -- a whole turn -------------------------------------------------------------------------------
def test_play_turn_runs_every_step_on_a_quiet_map():
    # nothing burns, no bombing: a turn makes no roll at all (no hidden dice)
    sc = grid(["SB"], forces=[ForceUnit("E1", "general_appliance", area="S00")])
    ctx, st = play(sc)
    st.turn = 0
    log = play_turn(ctx, st, steps())
    assert log.turn == 1 and all(e["dice"] == [] for e in log.events)


# -- §9 carrying casualties -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("utype", "wanted", "other", "capacity", "turns"),
    [
        ("ambulance", "badly_injured", "dead", 3, 16),
        ("mortuary_van", "dead", "lightly_injured", 8, 36),
    ],
)
def test_carriers_take_their_own_casualties_up_to_capacity(utype, wanted, other, capacity, turns):
    # §9: ambulance crews carry the injured (an ambulance holds 3), mortuary crews the dead
    # (a mortuary lorry holds 8), out through an entry
    from fireground.engine.games.blitz.autopilot.driver import standing_orders
    from fireground.engine.games.blitz.units import Casualty

    sc = grid(["SSSB"], entries={"in": "S00"}, forces=[ForceUnit("A1", utype, entry="in")])
    ctx, st = play(sc)
    st.casualties = [Casualty(f"C{i}", ("B03", 0), wanted) for i in range(10)]
    st.casualties.append(Casualty("X", ("B03", 0), other))
    most = 0
    for turn in range(1, turns + 1):
        st.turn = turn
        movement.arrivals(ctx, st)
        standing_orders(ctx, st)
        most = max(most, len(st.units["A1"].carrying))
    out = [c for c in st.casualties if c.evacuated]
    assert most == capacity and len(out) == capacity
    assert all(c.status == wanted for c in out)
    assert st.casualties[-1].carried_by is None and not st.casualties[-1].evacuated
