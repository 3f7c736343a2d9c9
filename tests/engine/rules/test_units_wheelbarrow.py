"""§11 wheelbarrow pump (carried by one fire team) and §7 towed pumps (a turn to deploy or
recover), with scripted dice: the primitives, the orders and the standing orders."""

from __future__ import annotations

import pytest
from test_units_world import add_hose, events, usetup, uworld

from fireground.engine.board.model import ForceUnit
from fireground.engine.games.blitz.orders.apply import give_order
from fireground.engine.games.blitz.orders.check import Order, OrderError, check
from fireground.engine.games.blitz.rules import equipment, water, wheelbarrow
from fireground.engine.games.blitz.rules import movement as mv

S00, O01, O02, S01, S02 = ("S00", 0), ("O01", 0), ("O02", 0), ("S01", 0), ("S02", 0)


def wb_world(rows=("SOO", "BBB"), wb_at="O01", hydrants=("O02",), fires=None, **kw):
    """A general appliance E1 in S00 and a wheelbarrow pump WB lying in ``wb_at``."""
    forces = [
        ForceUnit("E1", "general_appliance", area="S00"),
        ForceUnit("WB", "wheelbarrow_pump", area=wb_at),
        ForceUnit("OF", "officer", area="S00"),
    ]
    return uworld(list(rows), forces=forces, hydrants=list(hydrants), fires=fires, **kw)


def team_at(st, sid, loc):
    s = st.units[sid]
    s.loc, s.task = loc, "idle"
    return s


# -- primitives ------------------------------------------------------------------------------
def test_fire_team_picks_up_the_pump_where_it_stands():
    ctx, st = usetup(wb_world())
    wb, s = st.units["WB"], team_at(st, "E1.1", O01)
    assert wb.deployed and wb.moves == "carried"
    assert wheelbarrow.pick_up(ctx, st, s, wb)
    assert wheelbarrow.carrier_of(st, wb) is s and wheelbarrow.carried_pump(st, s) is wb
    assert not wb.deployed  # pumps nothing while on the move
    assert wb.to_log()["carried_by"] == "E1.1"
    (ev,) = events(ctx, "pick_up")
    assert ev["pump"] == "WB" and ev["unit"] == "E1.1"


def test_pick_up_refusals():
    ctx, st = usetup(wb_world())
    wb = st.units["WB"]
    far = team_at(st, "E1.1", S00)
    assert "is not where" in (wheelbarrow.pick_up_problem(st, far, wb) or "")
    assert not wheelbarrow.pick_up(ctx, st, far, wb) and wheelbarrow.carrier_of(st, wb) is None
    officer = st.units["OF"]
    officer.loc = O01
    assert "fire team" in (wheelbarrow.pick_up_problem(st, officer, wb) or "")
    s = team_at(st, "E1.2", O01)
    add_hose(st, "H1", "WB", [O01, O02], None)
    assert "taken up first" in (wheelbarrow.pick_up_problem(st, s, wb) or "")
    del st.hoses["H1"]
    assert wheelbarrow.pick_up(ctx, st, s, wb)
    other = team_at(st, "E1.3", O01)
    assert "already being carried" in (wheelbarrow.pick_up_problem(st, other, wb) or "")


def test_carrying_team_walks_at_foot_speed_with_the_pump():
    # six areas of open ground: the carrier walks as far as an empty-handed team (6 points)
    rows = ["SOOOOOOOO"]
    ctx, st = usetup(wb_world(rows=rows, wb_at="O01", hydrants=()))
    wb = st.units["WB"]
    s, free = team_at(st, "E1.1", O01), team_at(st, "E1.2", O01)
    assert wheelbarrow.pick_up(ctx, st, s, wb)
    assert mv.walk(ctx, st, s, ("O08", 0)) and mv.walk(ctx, st, free, ("O08", 0))
    assert s.loc == free.loc == ("O07", 0)
    assert wb.loc == s.loc and not wb.deployed


def test_set_down_connects_to_the_hydrant_with_the_teams_hose_and_feeds_one_line():
    ctx, st = usetup(wb_world())
    wb, e1 = st.units["WB"], st.units["E1"]
    s, t = team_at(st, "E1.1", O01), team_at(st, "E1.2", O02)
    wheelbarrow.pick_up(ctx, st, s, wb)
    assert (
        equipment.connect_problem(ctx, st, wb, "hydrant:O01") is not None
    )  # not deployed, no hydrant
    mv.relocate(ctx, st, s, O02)
    assert wb.loc == O02
    assert (
        wheelbarrow.set_down(ctx, st, wb) and wb.deployed and wheelbarrow.carrier_of(st, wb) is None
    )
    before = e1.hose_left
    assert equipment.connect(ctx, st, wb, "hydrant:O02")
    assert e1.hose_left == before - 1  # §7: the hydrant takes one length, from E1
    add_hose(st, "H1", "WB", [O02, ("B12", 0)], ("B12", 0), crew=["E1.1"])
    add_hose(st, "H2", "WB", [O02, ("B11", 0)], ("B11", 0), crew=["E1.2"])
    t.loc = ("B11", 0)
    water.step_water(ctx, st)
    assert [st.hoses["H1"].water, st.hoses["H2"].water] == [1, 0]  # one delivery pump


def test_a_carried_pump_feeds_nothing():
    ctx, st = usetup(wb_world())
    wb, s = st.units["WB"], team_at(st, "E1.1", O02)
    wb.loc = O02
    # never set down by a team, it has no hose for the hydrant's length
    assert "one length" in (equipment.connect_problem(ctx, st, wb, "hydrant:O02") or "")
    wb.source = "hydrant:O02"  # as if connected
    assert wheelbarrow.pick_up(ctx, st, s, wb) and wb.source is None  # it leaves its water
    add_hose(st, "H1", "WB", [O02, ("B12", 0)], ("B12", 0), crew=["E1.2"])
    wb.source = "hydrant:O02"  # even with a source, a pump on the move feeds nothing
    water.step_water(ctx, st)
    assert st.hoses["H1"].water == 0


def test_suction_only_from_ground_level():
    forces = [ForceUnit("WB", "wheelbarrow_pump", area="S00")]
    sc = uworld(["SBW"], forces=forces, water={"W02": 50}, levels={"B01": 2}, stairs=["B01"])
    ctx, st = usetup(sc)
    wb = st.units["WB"]
    wb.loc = ("B01", 1)
    assert "ground level" in (equipment.connect_problem(ctx, st, wb, "open:W02") or "")
    wb.loc = ("B01", 0)
    assert equipment.connect_problem(ctx, st, wb, "open:W02") is None


def test_carried_pump_leaves_a_burning_location_with_its_team():
    # fire in the team's location; it passes the heat test (2) into the next area
    ctx, st = usetup(wb_world(rows=("SOOO",), hydrants=()), [2])
    wb, s = st.units["WB"], team_at(st, "E1.1", O01)
    wheelbarrow.pick_up(ctx, st, s, wb)
    st.fire[O01] = 1
    mv.burn_out_vehicles(ctx, st)
    assert wb.status == "ok"
    mv.forced_exits(ctx, st)
    assert s.loc != O01 and wb.loc == s.loc and wb.status == "ok"


def test_a_lost_carrier_drops_the_pump():
    ctx, st = usetup(wb_world())
    wb, s = st.units["WB"], team_at(st, "E1.1", O01)
    wheelbarrow.pick_up(ctx, st, s, wb)
    s.status = "casualty"
    wheelbarrow.drop_stray_pumps(ctx, st)
    assert wheelbarrow.carrier_of(st, wb) is None and wb.deployed and wb.loc == O01
    assert "carried_by" not in wb.extra
    assert events(ctx, "set_down")[0]["pump"] == "WB"


# -- orders ----------------------------------------------------------------------------------
def test_carry_order_picks_up_walks_and_set_down_connects():
    ctx, st = usetup(wb_world())
    wb, s = st.units["WB"], team_at(st, "E1.1", O01)
    st.units["OF"].loc = O01
    give_order(ctx, st, Order("E1.1", "carry", pump="WB", to=O02), during_turn=True)
    from fireground.engine.games.blitz.orders.apply import apply_due

    apply_due(ctx, st)
    assert s.loc == O02 and wb.loc == O02 and wheelbarrow.carrier_of(st, wb) is s
    st.turn += 1
    give_order(ctx, st, Order("E1.1", "set_down", source="hydrant"), during_turn=True)
    apply_due(ctx, st)
    assert wb.deployed and wb.source == "hydrant:O02" and s.order is None


@pytest.mark.parametrize(
    ("order", "rule", "words"),
    [
        (Order("E1.1", "carry", pump="WB"), "§11", "is not where"),
        (Order("E1.1", "carry", pump="NOPE"), "orders", "no pump"),
        (Order("E1.1", "set_down"), "§11", "carries no pump"),
        (Order("WB", "move", to=S00), "§11", "carried by a fire team"),
    ],
)
def test_carry_order_refusals(order, rule, words):
    ctx, st = usetup(wb_world())
    team_at(st, "E1.1", S00)
    with pytest.raises(OrderError) as err:
        check(ctx, st, order)
    assert err.value.rule == rule and words in str(err.value)


def test_set_down_refuses_a_source_out_of_reach_and_lay_hose_while_carrying():
    ctx, st = usetup(wb_world())
    wb, s = st.units["WB"], team_at(st, "E1.1", O01)
    wheelbarrow.pick_up(ctx, st, s, wb)
    with pytest.raises(OrderError, match="§7") as err:  # the hydrant is in O02, not here
        check(ctx, st, Order("E1.1", "set_down", source="hydrant:O02"))
    assert "own area" in str(err.value)
    check(ctx, st, Order("E1.1", "set_down"))  # without water: allowed
    with pytest.raises(OrderError, match="set its pump down"):
        check(ctx, st, Order("E1.1", "lay_hose", path=(O01, O02)))
    assert wheelbarrow.carrier_of(st, wb) is s  # nothing changed


# -- standing orders -------------------------------------------------------------------------
def run_step6(ctx, st, turns):
    for _ in range(turns):
        st.turn += 1
        mv.step_movement(ctx, st)


def test_idle_team_fetches_carries_sets_down_and_lays_from_the_wheelbarrow():
    # E1 in the only street with a dry tank: its teams cannot lay from it; the wheelbarrow
    # pump lies a step away, a hydrant one step further, a fire of 1 next to the hydrant
    ctx, st = usetup(wb_world(fires={("B12", 0): 1}))
    st.units["E1"].water = 0
    st.turn = 0
    run_step6(ctx, st, 1)
    wb = st.units["WB"]
    assert wheelbarrow.carrier_of(st, wb) is st.units["E1.1"]
    assert [e["unit"] for e in events(ctx, "pick_up")] == ["E1.1"]  # only one team goes
    run_step6(ctx, st, 1)
    assert wb.loc == O02 and wb.deployed and wb.source == "hydrant:O02"
    (h,) = [h for h in st.hoses.values() if h.unit == "WB"]
    assert h.stock == "E1" and h.target == ("B12", 0)
    assert h.crew[0] == "E1.1"  # the carrier lays it (a second team may join it, §9 bonus)
    # no die was rolled: the scripted dice are empty and would have raised


def test_no_fetch_without_water_near_the_pump():
    ctx, st = usetup(wb_world(hydrants=(), fires={("B12", 0): 1}))
    st.units["E1"].water = 0
    st.turn = 0
    run_step6(ctx, st, 2)
    assert not events(ctx, "pick_up") and st.units["WB"].loc == O01


def test_no_fetch_while_the_appliance_can_feed_the_line():
    ctx, st = usetup(wb_world(fires={("B12", 0): 1}))
    st.turn = 0
    run_step6(ctx, st, 2)
    assert not events(ctx, "pick_up")
    assert any(h.unit == "E1" for h in st.hoses.values())


# -- towed pumps (§7: one turn to deploy or recover) -------------------------------------------
def test_small_pump_team_trailer_takes_a_turn_to_deploy_and_to_recover():
    sc = uworld(["SS"], forces=[ForceUnit("SP", "small_pump_team", area="S00")], hydrants=["S00"])
    ctx, st = usetup(sc)
    sp = st.units["SP"]
    assert not sp.deployed and sp.to_log()["deploy_left"] == 1
    assert "not deployed" in (equipment.connect_problem(ctx, st, sp, "hydrant:S00") or "")
    assert mv.drive(ctx, st, sp, "S01") and mv.drive(ctx, st, sp, "S00")  # hitched: drives
    assert equipment.deploy(ctx, st, sp) and not sp.deployed
    equipment.advance_work(ctx, st)
    assert sp.deployed and equipment.connect(ctx, st, sp, "hydrant:S00")
    assert not mv.drive(ctx, st, sp, "S01")  # set up: recover it first
    assert equipment.stow(ctx, st, sp) and not mv.drive(ctx, st, sp, "S01")
    equipment.advance_work(ctx, st)
    assert not sp.deployed and mv.drive(ctx, st, sp, "S01")


def test_small_pump_team_standing_orders_deploy_then_connect():
    sc = uworld(
        ["SS", "BB"],
        forces=[ForceUnit("SP", "small_pump_team", area="S00")],
        hydrants=["S00", "S01"],
        fires={("B11", 0): 1},
    )
    ctx, st = usetup(sc)
    st.turn = 0
    run_step6(ctx, st, 1)
    sp = st.units["SP"]
    assert [e["unit"] for e in events(ctx, "deploy")] == ["SP"]
    assert not sp.deployed and not events(ctx, "connect") and not st.hoses
    ctx.events = []
    run_step6(ctx, st, 1)
    assert sp.deployed and events(ctx, "deployed") and events(ctx, "connect")
    assert any(h.unit == "SP" for h in st.hoses.values())


def test_untowed_trailer_pump_does_not_drive_itself():
    sc = uworld(["SS"], forces=[ForceUnit("LP", "light_pump", area="S00")])
    ctx, st = usetup(sc)
    lp = st.units["LP"]
    assert lp.towed_by is None and not mv.drive(ctx, st, lp, "S01")
    with pytest.raises(OrderError, match="towing vehicle"):
        check(ctx, st, Order("LP", "move", to=S01))


def test_towed_trailer_goes_with_its_tow():
    sc = uworld(
        ["SS"],
        forces=[
            ForceUnit("AT", "auxiliary_towing_vehicle", area="S00"),
            ForceUnit("LP", "light_pump", area="S00"),
        ],
    )
    ctx, st = usetup(sc)
    assert st.units["LP"].towed_by == "AT"
    assert mv.drive(ctx, st, st.units["AT"], "S01") and st.units["LP"].loc == S01


def test_move_order_recovers_the_trailer_pump_before_driving():
    sc = uworld(
        ["SS"],
        forces=[
            ForceUnit("SP", "small_pump_team", area="S00"),
            ForceUnit("OF", "officer", area="S00"),
        ],
    )
    ctx, st = usetup(sc)
    sp = st.units["SP"]
    sp.deployed = True
    from fireground.engine.games.blitz.orders.apply import apply_due

    give_order(ctx, st, Order("SP", "move", to=S01), during_turn=True)
    apply_due(ctx, st)
    assert sp.loc == S00 and sp.task == "stow" and events(ctx, "stow")
    st.turn += 1
    equipment.advance_work(ctx, st)  # step 6 of the next turn: the trailer is hitched up ...
    apply_due(ctx, st)  # ... and the order drives it off
    assert sp.loc == S01 and not sp.deployed and sp.order is None
