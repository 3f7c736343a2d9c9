"""Rules round 2 (issue 15): the rulings R-11 to R-15 and the hose-laying lorry, each with a
case that failed before the fix (scripted dice where a roll is involved)."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import pytest
from test_units_world import add_hose, events, usetup, uworld

from fireground.engine.board.model import Area, ForceUnit
from fireground.engine.games.blitz.orders.apply import Order, OrderError, apply_due, give_order
from fireground.engine.games.blitz.reach import foot
from fireground.engine.games.blitz.rules import bombing, equipment, water
from fireground.engine.games.blitz.rules import movement as mv
from fireground.engine.games.blitz.units import Ladder
from fireground.engine.play.simulate import new_game

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "round2"


def rules_in(logs, rule):
    return [e for log in logs for e in log.events if e["rule"] == rule]


# -- rescue and medical crews work in wrecked buildings ---------------------------------
def wreck(forces, damage=4, fires=None, **kw):
    sc = uworld(["SBB", "SBB"], forces=forces, entries={"in": "S00"}, fires=fires or {}, **kw)
    ctx, st = usetup(sc)
    st.damage[("B01", 0)] = damage
    return ctx, st


@pytest.mark.parametrize("damage", [4, 5])
def test_r11_rescue_team_stays_with_its_casualty_in_a_wreck(damage):
    ctx, st = wreck([ForceUnit("RT", "rescue_team", area="B01")], damage)
    st.add_casualty(("B01", 0), "buried")
    mv.self_preservation(ctx, st)
    assert st.units["RT"].loc == ("B01", 0)
    assert not events(ctx, "withdraw")


def test_r11_other_units_and_idle_rescuers_still_withdraw():
    forces = [ForceUnit("RT", "rescue_team", area="B01"), ForceUnit("FP", "fire_party", area="B01")]
    ctx, st = wreck(forces)
    mv.self_preservation(ctx, st)  # nobody to rescue here: R-7 as written
    assert st.units["RT"].loc != ("B01", 0) and st.units["FP"].loc != ("B01", 0)
    ctx, st = wreck(forces)
    st.add_casualty(("B01", 0), "buried")
    mv.self_preservation(ctx, st)
    assert st.units["RT"].loc == ("B01", 0) and st.units["FP"].loc != ("B01", 0)


def test_r11_rescuers_leave_when_a_neighbour_burns_at_5():
    ctx, st = wreck([ForceUnit("RT", "rescue_team", area="B01")], fires={("B02", 0): 5})
    st.add_casualty(("B01", 0), "buried")
    mv.self_preservation(ctx, st)
    assert st.units["RT"].loc != ("B01", 0)
    ctx, st = wreck([ForceUnit("RT", "rescue_team", area="B01")], fires={("B02", 0): 4})
    st.add_casualty(("B01", 0), "buried")
    mv.self_preservation(ctx, st)
    assert st.units["RT"].loc == ("B01", 0)  # a fire of 4 next door: it stays


@pytest.mark.parametrize(
    ("unit", "status"),
    [("ambulance", "badly_injured"), ("mortuary_van", "dead"), ("heavy_rescue", "located")],
)
def test_r11_medical_and_heavy_rescue_crews_stay_at_work(unit, status):
    ctx, st = wreck([ForceUnit("V", unit, area="S00")])
    crew = st.units["V.1"]
    crew.loc, crew.task = ("B01", 0), "idle"
    st.add_casualty(("B01", 0), status)
    mv.self_preservation(ctx, st)
    assert crew.loc == ("B01", 0)


def test_r11_rescue_team_in_a_collapsed_building_searches_every_turn():
    # before R-11 it walked out every other turn, so it rolled every second turn
    sc = uworld(["SBB", "SBB"], forces=[ForceUnit("RT", "rescue_team", area="B01")])
    for seed in range(6):
        game = new_game(sc, seed=seed)
        game.state.damage[("B01", 0)] = 5
        game.state.add_casualty(("B01", 0), "buried")
        for log in game.run(8):
            rolls = [e for e in log.events if e["rule"] in ("rescue", "dig_out")]
            assert rolls, f"seed {seed} turn {log.turn}: no rescue roll"
            if any(e["rule"] == "casualty_status" for e in log.events) or any(
                e["dice"] == [4] for e in rolls if e["rule"] == "rescue"
            ):
                break  # found, or waiting for a Heavy Rescue that never comes


def test_r11_rescue_in_a_wreck_digs_out_and_carries_off_statistics():
    # end to end: a rescue team and an ambulance at a collapsed building with one casualty.
    # Search: each turn 1/6 free, 1/6 needs a 6 on later rolls, 1/6 Heavy Rescue (none
    # here), 1/2 nothing. P(found within 10 turns) is computed exactly below and compared
    # with 300 games (4 sigma); before R-11 the team rolled every other turn at best.
    sc = uworld(
        ["SSS", "SBB"],
        forces=[
            ForceUnit("RT", "rescue_team", area="S10"),
            ForceUnit("AMB", "ambulance", area="S01"),
        ],
        entries={"in": "S00"},
    )
    turns, games = 10, 300
    found = carried = 0
    for seed in range(games):
        game = new_game(replace(sc), seed=seed)
        game.state.damage[("B12", 0)] = 5
        game.state.add_casualty(("B12", 0), "buried")
        game.run(turns)
        c = game.state.casualties[0]
        found += c.status not in ("buried", "located")
        carried += c.evacuated
    # exact: the team walks in on turn 1 (S10 -> B11 -> B12) and rolls on turns 1..10.
    # states: buried B, located-dig D; per roll from B: 1/6 found, 1/6 -> D, 4/6 (1-3 and
    # the 4 that waits for Heavy Rescue, which never comes) stays unfound; from D: 1/6 found.
    b, d, h = 1.0, 0.0, 0.0
    for _ in range(turns):
        b, d, h = b * 3 / 6, d * 5 / 6 + b / 6, h + b / 6
    p = 1 - b - d - h
    sigma = math.sqrt(p * (1 - p) / games)
    assert abs(found / games - p) <= 4 * sigma, (found, p)
    assert carried > 0  # the ambulance crew carries the injured off (R-11 lets it in)


# -- ladder climbs ----------------------------------------------------------------------
def turntable(levels=5):
    sc = uworld(
        ["SB"],
        levels={"B01": levels},
        forces=[ForceUnit("TL", "turntable_ladder_unit", area="S00")],
    )
    ctx, st = usetup(sc)
    st.units["TL"].ladders = [Ladder(4, at="S00", face="B01", height=4)]
    team = st.units["TL.1"]
    team.task = "idle"
    return ctx, st, team


def test_r12_a_ladder_level_costs_two_points_the_step_in_included():
    ctx, st, _team = turntable()
    links = {lk[0]: lk[1] for lk in foot.foot_links(ctx, ("S00", 0), foot.ladder_links(st))}
    assert [links[("B01", lv)] for lv in (1, 2, 3, 4)] == [2, 4, 6, 8]


def test_r12_a_stand_climbs_a_turntable_ladder_to_level_3_in_one_turn():
    ctx, st, team = turntable()
    assert mv.walk(ctx, st, team, ("B01", 3))
    assert team.loc == ("B01", 3)


def test_r12_level_4_takes_until_step_6_of_the_next_turn():
    ctx, st, team = turntable()
    mv.walk(ctx, st, team, ("B01", 4))
    assert team.loc == ("S00", 0) and team.extra.get("climb") == ["B01", 4]
    assert events(ctx, "climb")[0]["ruling"] == "R-12"
    st.turn += 1
    mv.finish_climbs(ctx, st)
    assert team.loc == ("B01", 4) and "climb" not in team.extra


def test_r12_a_climb_is_lost_when_the_ladder_is_struck():
    ctx, st, team = turntable()
    mv.walk(ctx, st, team, ("B01", 4))
    equipment.strike_ladders(ctx, st, st.units["TL"])
    st.turn += 1
    mv.finish_climbs(ctx, st)
    assert team.loc == ("S00", 0)


# -- the officer's reach counts levels --------------------------------------------------
def officer_game(officer_at, messenger=False):
    forces = [
        ForceUnit("E1", "general_appliance", area="S00"),
        ForceUnit("OFF", "officer", area=officer_at[0], level=officer_at[1]),
    ]
    if messenger:
        forces.append(ForceUnit("MB", "messenger_boy", area="S00"))
    sc = uworld(["SB"], forces=forces, levels={"B01": 8}, stairs=["B01"])
    ctx, st = usetup(sc)
    st.turn = 0
    team = st.units["E1.1"]
    team.loc, team.task = ("B01", 7), "idle"
    return ctx, st


def test_r13_officer_in_the_street_cannot_order_a_team_seven_floors_up():
    ctx, st = officer_game(("S00", 0))
    with pytest.raises(OrderError) as exc:
        give_order(ctx, st, Order("E1.1", "rest"))
    assert exc.value.rule == "R-9"
    ctx, st = officer_game(("S00", 0), messenger=True)
    assert give_order(ctx, st, Order("E1.1", "rest")) == 2  # by messenger: a turn later


@pytest.mark.parametrize("at", [("B01", 7), ("B01", 6)])
def test_r13_officer_on_the_same_floor_or_one_stair_away_orders_at_once(at):
    ctx, st = officer_game(at)
    assert give_order(ctx, st, Order("E1.1", "rest")) == 1


# -- a player's order stands ------------------------------------------------------------
def test_r14_an_ordered_ladder_is_not_struck_by_standing_orders():
    sc = uworld(
        ["SSS", "BBB"],
        forces=[
            ForceUnit("E1", "escape_carrying_unit", area="S01"),
            ForceUnit("OFF", "officer", area="S01"),
        ],
        levels={"B11": 3},
    )
    game = new_game(sc, seed=1)
    ctx, st = game.ctx, game.state
    game.run(1)  # the units arrive
    give_order(ctx, st, Order("E1", "pitch_ladder", face="B11"))
    logs = game.run(3)
    assert not rules_in(logs, "ladder_struck")
    (ld,) = st.units["E1"].ladders
    assert ld.at == "S01" and ld.face == "B11" and ld.ready


# -- a line out of range uses no water; one blast, one roll ------------------------------
def test_r15_a_line_beyond_range_draws_no_water():
    sc = uworld(["SSSSSB"], forces=[ForceUnit("E1", "general_appliance", area="S00")])
    ctx, st = usetup(sc)
    st.fire[("B05", 0)] = 2
    path = [(f"S0{i}", 0) for i in range(2)]
    h = add_hose(st, "H1", "E1", path, ("B05", 0), crew=["E1.1"])
    tank = st.units["E1"].water
    water.step_water(ctx, st)
    assert h.water == 0 and st.units["E1"].water == tank  # range 4: no water drawn
    h.path.append(("S02", 0))
    st.units["E1.1"].loc = ("S02", 0)
    water.step_water(ctx, st)
    assert h.water == 1 and st.units["E1"].water == tank - 1  # range 3: it plays


def test_r15_a_stand_escaping_a_collapse_into_the_blast_rolls_once():
    # A (tall, west) touches B (the impact) and C (north of B); C touches B and A.
    sc = uworld(["BBB"], forces=[ForceUnit("RT", "rescue_team", area="B00")])
    shapes = {
        "B00": ((0, 0), (10, 0), (10, 20), (0, 20)),
        "B01": ((10, 0), (20, 0), (20, 10), (10, 10)),
        "B02": ((10, 10), (20, 10), (20, 20), (10, 20)),
    }
    sc = replace(sc, areas=tuple(Area(a.id, a.kind, shapes[a.id], a.building) for a in sc.areas))
    # he_damage(B00)=5 (destroyed), he_personnel(RT)=6 (escapes the blast), escape from the
    # collapse 3 (into B02), he_damage(B02)=1; RT must not roll he_personnel again
    ctx, st = usetup(sc, [5, 6, 3, 1, 1, 1, 1, 1])
    bombing.he_blast(ctx, st, "B01")
    assert [e["unit"] for e in events(ctx, "he_personnel")] == ["RT"]
    assert st.units["RT"].loc == ("B02", 0)


# -- the hose-laying lorry --------------------------------------------------------------------
def lorry_world(n=12, target_fire=True):
    row = "S" * n
    sc = uworld(
        [row, "." * (n - 1) + "B"],
        forces=[
            ForceUnit("HP", "heavy_pump", area="S00"),
            ForceUnit("HL", "hose_laying_lorry", area="S00"),
            ForceUnit("OFF", "officer", area="S00"),
        ],
        water={"S00": 1000},
    )
    ctx, st = usetup(sc)
    st.turn = 0
    st.units["HP"].deployed, st.units["HP"].deploy_left = True, 0
    st.units["HL.1"].task = "aboard"
    if target_fire:
        st.fire[(f"B1{n - 1}", 0)] = 2
    return ctx, st


def test_lorry_lays_six_areas_a_turn_on_an_order_and_its_team_plays_at_the_end():
    ctx, st = lorry_world()
    path = [(f"S0{i}", 0) for i in range(12)]
    order = Order("HL", "lay_hose", path=tuple(path), at=("B111", 0))
    give_order(ctx, st, order)
    st.turn = 1
    apply_due(ctx, st)
    h = next(h for h in st.hoses.values() if h.lorry == "HL")
    assert h.unit == "HP" and h.branch == ("S06", 0) and st.units["HL"].loc == ("S06", 0)
    assert st.units["HL.1"].loc == ("S06", 0)
    st.turn = 2
    equipment.advance_work(ctx, st)
    assert h.branch == ("S011", 0) and not h.plan and h.lengths == 6
    assert st.units["HL.1"].task == "fight" and st.units["HL.1"].loc == ("S011", 0)
    assert st.units["HL"].hose_left == 4


def test_lorry_order_refusals():
    ctx, st = lorry_world()
    with pytest.raises(OrderError, match="open street"):
        give_order(ctx, st, Order("HL", "lay_hose", path=(("S00", 0), ("S01", 0), ("B111", 0))))
    with pytest.raises(OrderError, match="fixed end"):
        give_order(ctx, st, Order("HL", "lay_hose", path=(("S01", 0), ("S02", 0))))
    st.units["HL"].hose_left = 2
    with pytest.raises(OrderError, match="lengths"):
        give_order(ctx, st, Order("HL", "lay_hose", path=tuple((f"S0{i}", 0) for i in range(8))))


# -- section 13: the dam's capacity, the mortuary lorry, the Heavy Unit ------------------------
@pytest.mark.parametrize(("points", "filled"), [(10, 10), (20, 20), (None, 20)])
def test_the_mobile_dam_holds_what_the_scenario_sets(points, filled):
    sc = uworld(["SS"], forces=[ForceUnit("MD", "mobile_dam_unit", area="S00", dam_points=points)])
    ctx, st = usetup(sc)
    dam = st.units["MD"]
    assert equipment.deploy(ctx, st, dam)
    for _ in range(3):
        equipment.advance_work(ctx, st)
    assert dam.deployed and dam.water == filled


def test_dam_points_load_save_and_refuse(tmp_path):
    from fireground.engine.core.errors import ScenarioError
    from fireground.engine.scenario.io import load_scenario, save_scenario

    src = (FIXTURES / "lorry_run.fg.yaml").read_text()
    dam = src.replace(
        "  - {id: HL1",
        "  - {id: MD1, type: mobile_dam_unit, area: S2, dam_points: 10}\n  - {id: HL1",
    )
    path = tmp_path / "dam.fg.yaml"
    path.write_text(dam)
    sc = load_scenario(path)
    assert {f.id: f.dam_points for f in sc.forces}["MD1"] == 10
    save_scenario(sc, tmp_path / "again.fg.yaml")
    assert "dam_points: 10" in (tmp_path / "again.fg.yaml").read_text()
    for bad, why in ((dam.replace("dam_points: 10", "dam_points: 15"), "dam_points"),
                     (src.replace("{id: HL1, type: hose_laying_lorry, area: S1}",
                                  "{id: HL1, type: hose_laying_lorry, area: S1, dam_points: 10}"),
                      "only to a mobile_dam_unit")):  # fmt: skip
        path.write_text(bad)
        with pytest.raises(ScenarioError, match=why):
            load_scenario(path)


def test_the_mortuary_unit_is_a_lorry_carrying_eight():
    from fireground.engine.core.ruleset import load_ruleset

    spec = load_ruleset().units["mortuary_van"]
    assert spec["name"] == "Mortuary Lorry" and spec["carries"] == 8 and spec["vehicle"]
