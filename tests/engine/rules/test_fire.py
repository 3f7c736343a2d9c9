"""Fire rules (steps 1-4) with scripted dice: every rule and modifier hit and missed."""

from __future__ import annotations

import pytest
from test_fire_world import put_unit, rules_of, setup, world

from fireground.engine.board.model import Wind
from fireground.engine.core.dice import DiceExhausted
from fireground.engine.games.blitz.rules import fire, ignition
from fireground.engine.games.blitz.units import VEHICLE

B00, B01, B02, B03 = ("B00", 0), ("B01", 0), ("B02", 0), ("B03", 0)


def run_spread(sc, dice, prep=None):
    ctx, st = setup(sc, dice)
    if prep:
        prep(st)
    fire.step_spread(ctx, st)
    return ctx, st


# -- basic spread ------------------------------------------------------------------------------
@pytest.mark.parametrize(("roll", "caught"), [(3, True), (4, False), (1, True)])
def test_spread_rolls_fire_or_less(roll, caught):
    ctx, st = run_spread(world(["BB"], fires={B00: 3}), [roll])
    assert (B01 in st.fire) is caught
    (ev,) = rules_of(ctx.events, "spread")
    assert ev["need"] == "<=3" and ev["dice"] == [roll] and ev["success"] is caught
    assert ev["from"] == {"area": "B00", "level": 0} and ev["to"] == {"area": "B01", "level": 0}
    if caught:
        assert st.fire[B01] == 1


def test_new_fire_does_not_spread_in_the_same_step():
    # B01 catches from B00; B01 must not roll into B02 this step (one die only)
    ctx, st = run_spread(world(["BBB"], fires={B00: 5}), [1])
    assert st.fire == {B00: 5, B01: 1}
    assert len(ctx.events) == 1


def test_no_further_rolls_once_caught():
    # B00 and B02 both touch B01: the first success ends the rolling into B01
    ctx, st = run_spread(world(["BBB"], fires={B00: 2, B02: 2}), [1])
    assert B01 in st.fire and len(rules_of(ctx.events, "spread")) == 1


def test_second_source_rolls_after_first_fails():
    ctx, st = run_spread(world(["BBB"], fires={B00: 2, B02: 2}), [6, 2])
    evs = rules_of(ctx.events, "spread")
    assert [e["success"] for e in evs] == [False, True] and B01 in st.fire


def test_spread_is_in_sorted_order():
    ctx, _ = run_spread(world(["BBB", "B.B"], fires={B00: 1, B02: 1}), [6, 6, 6, 6])
    order = [(e["from"]["area"], e["to"]["area"]) for e in ctx.events]
    assert order == sorted(order)


# -- modifiers -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("roll", "caught", "loss"),
    [(1, True, False), (2, False, True), (3, False, True), (4, False, False)],
)
def test_damp_modifier_and_damp_loss(roll, caught, loss):
    sc = world(["BB"], fires={B00: 3})
    ctx, st = run_spread(sc, [roll], prep=lambda s: s.damp.update({B01: 2}))
    (ev,) = ctx.events
    assert ev["modifier"] == 2 and ev["success"] is caught
    assert ev.get("damp_loss", False) is loss
    if caught:
        assert B01 not in st.damp  # fire takes all the damp
    else:
        assert st.damp[B01] == 2  # the loss only shows in step 4
        ctx.step = 4
        fire.step_damp(ctx, st)
        assert st.damp.get(B01, 0) == (1 if loss else 2)


def test_damp_loss_to_zero_removes_damp():
    ctx, st = run_spread(world(["BB"], fires={B00: 1}), [1], prep=lambda s: s.damp.update({B01: 1}))
    fire.step_damp(ctx, st)
    assert B01 not in st.damp


@pytest.mark.parametrize(("roll", "caught"), [(3, True), (4, False)])
def test_embers_minus_one(roll, caught):
    ctx, st = run_spread(world(["BB"], fires={B00: 2}), [roll], prep=lambda s: s.embers.add(B01))
    assert ctx.events[0]["modifier"] == -1
    assert (B01 in st.fire) is caught
    assert (B01 in st.embers) is not caught


@pytest.mark.parametrize(("task", "mod", "caught"), [("fight", 1, False), ("idle", 0, True)])
def test_hose_team_plus_one(task, mod, caught):
    sc = world(["BBS"], fires={B00: 3})
    ctx, st = run_spread(sc, [3], prep=lambda s: put_unit(s, "F1", B01, task=task))
    assert ctx.events[0]["modifier"] == mod and (B01 in st.fire) is caught


@pytest.mark.parametrize(
    ("wind", "roll", "mod", "caught"),
    [
        (Wind("W", True), 3, -1, True),  # blows east: B01 is downwind of B00
        (Wind("W", False), 3, 0, False),  # not strong: no modifier
        (Wind("E", True), 3, 0, False),  # blows west: upwind
    ],
)
def test_strong_downwind(wind, roll, mod, caught):
    ctx, _st = run_spread(world(["BB"], fires={B00: 2}, wind=wind), [roll])
    ev = ctx.events[0]
    assert ev["modifier"] == mod and ev["success"] is caught
    assert (ev.get("ruling") == "R-2") is (mod == -1)


def test_downwind_never_vertical():
    sc = world(["B"], levels={"B00": 2}, stairs=["B00"], wind=Wind("N", True), fires={B00: 1})
    ctx, _ = run_spread(sc, [2])
    assert ctx.events[0]["modifier"] == 0


# -- stores ---------------------------------------------------------------------------------------
def test_oil_store_r4_then_fire5_and_automatic_spread():
    sc = world(["BBB", "B.."], fires={B00: 1}, stores={B01: "oil"})
    ctx, st = run_spread(sc, [2, 6])  # 2-1 = 1 <= 1: catches; B10 stays out (6)
    ev = rules_of(ctx.events, "spread")[0]
    assert ev["modifier"] == -1 and ev["ruling"] == "R-4" and ev["success"]
    assert st.fire[B01] == 5
    assert st.fire[B02] == 1  # automatic, no roll
    assert [e["to"]["area"] for e in rules_of(ctx.events, "oil_spread")] == ["B02"]
    assert ("B10", 0) not in st.fire
    assert ctx.dice.remaining == 0


def test_oil_store_missed():
    sc = world(["BB"], fires={B00: 1}, stores={B01: "oil"})
    _, st = run_spread(sc, [3])
    assert B01 not in st.fire


def test_petrol_store_explodes():
    sc = world(["BBB"], fires={B00: 1}, stores={B01: "petrol"})
    # spread 2 (-1 => 1), then HE damage rolls for B00 and B02 neighbours: 3 and 6
    ctx, st = run_spread(sc, [2, 3, 6])
    assert st.fire[B01] == 5
    assert st.damage[B01] == 5
    assert st.damage[B00] == 4 and st.damage[B02] == 5  # B00: 3, +1 from B01's rubble
    assert [e["at"]["area"] for e in rules_of(ctx.events, "he_damage")] == ["B00", "B02"]


def test_petrol_store_missed():
    sc = world(["BB"], fires={B00: 1}, stores={B01: "petrol"})
    _, st = run_spread(sc, [3])
    assert B01 not in st.fire and not st.damage


# -- streets, rubble and vehicles ------------------------------------------------------------------
def test_no_spread_into_empty_street():
    ctx, st = run_spread(world(["BS"], fires={B00: 5}), [])
    assert ctx.events == [] and len(st.fire) == 1


def test_spread_into_rubble_street():
    _ctx, st = run_spread(world(["BS"], fires={B00: 2}), [2], prep=lambda s: s.rubble.add("S01"))
    assert ("S01", 0) in st.fire


def test_spread_into_vehicle_street_burns_it_out():
    sc = world(["BS"], fires={B00: 2})
    ctx, st = run_spread(sc, [2], prep=lambda s: put_unit(s, "E1", ("S01", 0), VEHICLE))
    assert ("S01", 0) in st.fire
    assert st.units["E1"].status == "burned_out"
    assert rules_of(ctx.events, "burn_out")[0]["ruling"] == "R-10"


def test_no_spread_into_water():
    ctx, _ = run_spread(world(["BW"], fires={B00: 5}), [])
    assert ctx.events == []


# -- vertical and R-1 --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("fire_", "rolls", "up"), [(4, [4], True), (4, [5], False), (3, [], False)]
)
def test_r1_climb_without_stairwell(fire_, rolls, up):
    sc = world(["B"], levels={"B00": 3}, fires={B00: fire_})
    ctx, st = run_spread(sc, rolls)
    assert (("B00", 1) in st.fire) is up
    if rolls:
        (ev,) = ctx.events
        assert ev["rule"] == "climb" and ev["ruling"] == "R-1" and ev["need"] == f"<={fire_}"


def test_stairwell_spreads_up_and_down():
    sc = world(["B"], levels={"B00": 3}, stairs=["B00"], fires={("B00", 1): 1})
    ctx, st = run_spread(sc, [1, 2])
    assert [e["to"]["level"] for e in ctx.events] == [0, 2]
    assert B00 in st.fire and ("B00", 2) not in st.fire
    assert all(e["rule"] == "spread" for e in ctx.events)


def test_party_wall_links_upper_levels():
    sc = world(["BB"], levels={"B00": 2, "B01": 2}, fires={("B00", 1): 1})
    _ctx, st = run_spread(sc, [1])
    assert ("B01", 1) in st.fire


# -- jumps (R-5) ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("roll", "jumped"), [(1, True), (2, False)])
def test_jump_one_gap(roll, jumped):
    ctx, st = run_spread(world(["BSB"], fires={B00: 5}), [roll])
    (ev,) = ctx.events
    assert ev["rule"] == "jump" and ev["need"] == "<=1" and ev["ruling"] == "R-5"
    assert (B02 in st.fire) is jumped


def test_fire_below_5_does_not_jump():
    ctx, _ = run_spread(world(["BSB"], fires={B00: 4}), [])
    assert ctx.events == []


def test_two_gap_jump_only_downwind():
    calm = world(["BSSB"], fires={B00: 5})
    ctx, _ = run_spread(calm, [])
    assert ctx.events == []
    windy = world(["BSSB"], fires={B00: 5}, wind=Wind("W", True))
    ctx, st = run_spread(windy, [2])  # strong downwind -1: 2-1 = 1 jumps
    (ev,) = ctx.events
    assert ev["modifier"] == -1 and ev["ruling"] == "R-5,R-2" and B03 in st.fire


def test_jump_modifiers_apply():
    ctx, _st = run_spread(
        world(["BSB"], fires={B00: 5}), [1], prep=lambda s: s.damp.update({B02: 1})
    )
    (ev,) = ctx.events
    assert ev["modifier"] == 1 and not ev["success"] and ev["damp_loss"]


def test_jump_target_level_is_capped():
    sc = world(["BSB"], levels={"B00": 3, "B02": 2}, fires={("B00", 2): 5})
    ctx, _ = run_spread(sc, [6])
    assert ctx.events[0]["to"] == {"area": "B02", "level": 1}


# -- growth -------------------------------------------------------------------------------------------
def grow(sc, dice, prep=None):
    ctx, st = setup(sc, dice)
    if prep:
        prep(st)
    ctx.step = 2
    fire.step_growth(ctx, st)
    return ctx, st


@pytest.mark.parametrize(("roll", "grew"), [(6, True), (5, False)])
def test_growth_on_six(roll, grew):
    ctx, st = grow(world(["B"], fires={B00: 2}), [roll])
    assert st.fire[B00] == (3 if grew else 2)
    assert ctx.events[0]["need"] == ">=6" and ctx.events[0]["modifier"] == 0


@pytest.mark.parametrize(("roll", "grew"), [(5, True), (4, False)])
def test_growth_neighbour_burning(roll, grew):
    ctx, st = grow(world(["BB"], fires={B00: 2, B01: 1}), [roll, 1])
    assert ctx.events[0]["modifier"] == 1
    assert st.fire[B00] == (3 if grew else 2)


@pytest.mark.parametrize(("roll", "grew"), [(5, True), (4, False)])
def test_growth_wood_store(roll, grew):
    ctx, st = grow(world(["B"], fires={B00: 2}, stores={B00: "wood"}), [roll])
    assert ctx.events[0]["modifier"] == 1 and (st.fire[B00] == 3) is grew


def test_growth_both_bonuses_and_cap():
    ctx, st = grow(world(["BB"], fires={B00: 4, B01: 5}, stores={B00: "wood"}), [4])
    assert ctx.events[0]["modifier"] == 2 and st.fire == {B00: 5, B01: 5}
    assert len(ctx.events) == 1  # a fire of 5 does not roll


def test_growth_uses_house_rule():
    _ctx, st = grow(world(["B"], fires={B00: 1}, house_rules={"growth.on": 5}), [5])
    assert st.fire[B00] == 2


# -- reignition ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(("dice", "lit"), [([6, 6], True), ([6, 5], False)])
def test_reignite_on_12(dice, lit):
    ctx, st = setup(world(["B"]), dice)
    st.embers.add(B00)
    fire.step_reignite(ctx, st)
    assert (st.fire.get(B00) == 1) is lit and (B00 in st.embers) is not lit
    assert ctx.events[0]["rule"] == "reignite" and ctx.events[0]["need"] == ">=12"


def test_reignite_oil_store_goes_to_five():
    ctx, st = setup(world(["B"], stores={B00: "oil"}), [6, 6])
    st.embers.add(B00)
    fire.step_reignite(ctx, st)
    assert st.fire[B00] == 5


# -- roads -------------------------------------------------------------------------------------------
def test_road_fire_capped_and_burns_out_without_embers():
    from fireground.engine.games.blitz.rules.bombing import incendiary

    ctx, st = setup(world(["SB"]), [1])
    incendiary(ctx, st, ("S00", 0))
    assert st.fire[("S00", 0)] == 1 and st.street_fire_age[("S00", 0)] == 0
    fire.step_spread(ctx, st)  # spreads normally into the building
    assert st.fire[B01] == 1
    for _turn in range(4):
        st.fire.pop(B01, None)
        fire.step_growth(ctx, st)  # no roll: a road fire cannot grow
        assert st.fire[("S00", 0)] == 1
    fire.step_growth(ctx, st)
    assert ("S00", 0) not in st.fire and ("S00", 0) not in st.embers
    assert rules_of(ctx.events, "road_burnout")


def test_reduce_fire_to_embers_and_road_out():
    st = setup(world(["BS"]))[1]
    st.fire = {B00: 2, ("S01", 0): 1}
    st.street_fire_age[("S01", 0)] = 1
    assert ignition.reduce_fire(st, B00) == 1
    assert ignition.reduce_fire(st, B00) == 0 and B00 in st.embers
    assert ignition.reduce_fire(st, ("S01", 0)) == 0 and ("S01", 0) not in st.embers


def test_scripted_dice_catch_extra_rolls():
    with pytest.raises(DiceExhausted):
        run_spread(world(["BB"], fires={B00: 3}), [])


@pytest.mark.parametrize("seed", range(6))
def test_quiet_growth_matches_logged_with_a_fire_off_the_map(seed):
    """The quiet growth works by each fire's rank on the map; a fire off it (no rank) makes
    it take the logged walk's rolls: the same dice, the same fires, either way."""
    from fireground.engine.core.dice import Dice

    sc = world(["BBS", "BBS"], fires={B00: 3, ("B01", 0): 1, ("B10", 0): 4})
    fires = {}
    for logged in (True, False):
        ctx, st = setup(sc, Dice(seed))
        ctx.log_events = logged
        st.fire[("B11", 3)] = 2  # a level the map does not have
        ctx.step = 2
        fire.step_growth(ctx, st)
        fires[logged] = (dict(st.fire), ctx.dice.getstate())
    assert fires[True] == fires[False]
