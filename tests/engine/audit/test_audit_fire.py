"""Rules audit, steps 1-4 (blitz-rules.md §1, §2, §3): scripted-dice cases the rules
helpers' own tests do not pin down. Each test names the spec line it checks."""

from __future__ import annotations

import pytest
from audit_world import evs, grid, play, stand, vehicle

from fireground.engine.board.model import Wind
from fireground.engine.games.blitz.rules import bombing, fire, ignition

B00, B01, B02, B03 = ("B00", 0), ("B01", 0), ("B02", 0), ("B03", 0)


def spread(sc, dice, prep=None):
    ctx, st = play(sc, dice)
    ctx.step = 1
    if prep:
        prep(st)
    fire.step_spread(ctx, st)
    return ctx, st


# -- §1 Flammable ------------------------------------------------------------------------------
@pytest.mark.parametrize(("roll", "caught"), [(3, True), (4, False)])
def test_destroyed_building_still_burns(roll, caught):
    # §1: "Building locations are flammable (destroyed ones too: rubble burns)."
    ctx, st = spread(grid(["BB"], fires={B00: 3}), [roll], lambda s: s.damage.update({B01: 5}))
    (ev,) = evs(ctx, "spread")
    assert ev["to"] == {"area": "B01", "level": 0}
    assert (B01 in st.fire) is caught


def test_burned_out_wreck_keeps_the_street_flammable():
    # §1 + R-10: vehicles burned out "stay as flammable wrecks".
    def prep(s):
        vehicle(s, "E1", ("S01", 0)).status = "burned_out"

    _ctx, st = spread(grid(["BS"], fires={B00: 3}), [1], prep)
    assert ("S01", 0) in st.fire


def test_street_without_a_vehicle_or_rubble_never_catches():
    # §1 / §3 Roads: an empty street (or open ground) is not flammable: no roll at all.
    ctx, st = spread(grid(["SBO"], fires={B01: 5}), [])
    assert ctx.events == [] and set(st.fire) == {B01}


# -- R-2 -------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("wind", "mod"),
    [
        (Wind("SW", True), -1),  # blows towards NE: B01 (due east) is exactly 45 degrees off
        (Wind("S", True), 0),  # blows towards N: due east is 90 degrees off
        (Wind("NE", True), 0),  # blows towards SW: upwind
    ],
)
def test_r2_downwind_is_within_45_degrees_inclusive(wind, mod):
    ctx, _ = spread(grid(["BB"], fires={B00: 2}, wind=wind), [6])
    (ev,) = evs(ctx, "spread")
    assert ev["modifier"] == mod
    assert ("R-2" in (ev.get("ruling") or "")) is (mod == -1)


# -- R-3 -------------------------------------------------------------------------------------------
def test_r3_fire_created_in_step_1_rolls_for_growth_in_step_2():
    # R-3: "A fire created in step 1 does not spread again in step 1, but does roll for
    # growth in step 2." Dice: spread 1 (B01 catches); growth B00 5+1, B01 5+1.
    ctx, st = play(grid(["BBB"], fires={B00: 3}), [1, 5, 5])
    ctx.step = 1
    fire.step_spread(ctx, st)
    assert st.fire == {B00: 3, B01: 1} and len(ctx.events) == 1  # B01 does not roll into B02
    ctx.step = 2
    fire.step_growth(ctx, st)
    grow = evs(ctx, "growth")
    assert [e["at"]["area"] for e in grow] == ["B00", "B01"]
    assert all(e["modifier"] == 1 for e in grow)  # each has a burning neighbour now
    assert st.fire == {B00: 4, B01: 2}
    assert ctx.dice.remaining == 0


def test_r3_oil_fires_started_in_step_1_do_not_spread_in_step_1():
    # B00 (fire 1) -> B01 oil (roll 2, R-4: 1): B01 goes to 5 and lights B02 at once;
    # neither B01 nor B02 rolls again this step, so exactly one die is used.
    ctx, st = spread(grid(["BBBB"], fires={B00: 1}, stores={B01: "oil"}), [2])
    assert st.fire == {B00: 1, B01: 5, B02: 1}
    assert ctx.dice.remaining == 0 and B03 not in st.fire


def test_r3_damp_is_read_at_the_start_of_step_1_and_each_failure_costs_one():
    # §3 Damp losses, twice in one step: both rolls into B01 face the full damp 3
    # both fail only because of it, so B01 loses two damp in step 4.
    sc = grid(["BBB"], fires={B00: 3, B02: 3})
    ctx, st = spread(sc, [1, 2], lambda s: s.damp.update({B01: 3}))
    rolls = evs(ctx, "spread")
    assert [e["modifier"] for e in rolls] == [3, 3]
    assert [e.get("damp_loss") for e in rolls] == [True, True]
    assert st.damp[B01] == 3  # nothing shows until step 4
    ctx.step = 4
    fire.step_damp(ctx, st)
    assert st.damp[B01] == 1


# -- §3 modifiers together ---------------------------------------------------------------------
@pytest.mark.parametrize(("roll", "caught", "loss"), [(3, True, False), (4, False, True)])
def test_all_spread_modifiers_add_up(roll, caught, loss):
    # damp 2 (+2), embers (-1), strong wind and B downwind (-1), petrol store (R-4, -1): -1.
    # Fire 2: roll 3 -> 2 spreads; roll 4 -> 3 fails, and without the damp (1) it would
    # have spread, so B01 loses a damp.
    sc = grid(["BB"], fires={B00: 2}, wind=Wind("W", True), stores={B01: "petrol"})

    def prep(s):
        s.damp[B01] = 2
        s.embers.add(B01)

    extra = [1] if caught else []  # a petrol tank that catches explodes: B00 rolls HE damage
    ctx, st = spread(sc, [roll, *extra], prep)
    ev = evs(ctx, "spread")[0]
    assert ev["modifier"] == -1 and ev["success"] is caught
    assert set((ev.get("ruling") or "").split(",")) == {"R-2", "R-4"}
    assert bool(ev.get("damp_loss")) is loss
    if caught:
        assert st.fire[B01] == 5 and B01 not in st.damp and B01 not in st.embers


@pytest.mark.parametrize(("roll", "caught"), [(2, True), (3, False)])
def test_hose_team_and_oil_store_cancel_out(roll, caught):
    # +1 hose team actively firefighting in B, -1 oil store: no net modifier.
    sc = grid(["BBS"], fires={B00: 2}, stores={B01: "oil"})
    ctx, st = spread(sc, [roll], lambda s: stand(s, "F", B01, task="fight"))
    ev = evs(ctx, "spread")[0]
    assert ev["modifier"] == 0 and (B01 in st.fire) is caught


# -- with modifiers -----------------------------------------------------------------
@pytest.mark.parametrize(("roll", "up", "loss"), [(3, True, False), (4, False, True)])
def test_r1_climb_takes_the_spread_modifiers(roll, up, loss):
    # R-1 is a spread "to (a, l+1)": damp there adds to the die and is lost on a near miss.
    sc = grid(["B"], levels={"B00": 2}, fires={B00: 4})
    ctx, st = spread(sc, [roll], lambda s: s.damp.update({("B00", 1): 1}))
    (ev,) = ctx.events
    assert ev["ruling"] == "R-1" and ev["modifier"] == 1
    assert (("B00", 1) in st.fire) is up and bool(ev.get("damp_loss")) is loss


@pytest.mark.parametrize(("roll", "jumped"), [(2, True), (3, False)])
def test_r5_jump_into_an_oil_store(roll, jumped):
    # R-5 "all spread modifiers apply": R-4's -1 for an oil store makes a 2 jump; the tank
    # then goes to fire 5 at once.
    ctx, st = spread(grid(["BSB"], fires={B00: 5}, stores={B02: "oil"}), [roll])
    (ev,) = evs(ctx, "jump")
    assert ev["modifier"] == -1 and set(ev["ruling"].split(",")) == {"R-5", "R-4"}
    assert st.fire.get(B02) == (5 if jumped else None)


def test_r5_no_jump_over_a_flammable_gap():
    # "The gap is one non-flammable area (street/open/water)". With rubble in S01 the
    # street is flammable (§1), so B00 may spread into S01 but may not jump to B02.
    ctx, _ = spread(grid(["BSB"], fires={B00: 5}), [6, 6], lambda s: s.rubble.add("S01"))
    assert [e["rule"] for e in ctx.events] == ["spread"]


def test_r5_jump_reaches_a_flammable_street_beyond_the_gap():
    # §3 Jump: "A fire of 5 may jump over a gap to a flammable location it is not adjacent
    # to." S02 holds rubble (flammable, §1) and lies beyond the one empty street S01.
    ctx, st = spread(grid(["BSS"], fires={B00: 5}), [1], lambda s: s.rubble.add("S02"))
    jumps = evs(ctx, "jump")
    assert len(jumps) == 1 and jumps[0]["to"] == {"area": "S02", "level": 0}
    assert ("S02", 0) in st.fire


# -- §3 Roads on open ground -----------------------------------------------------------------
def test_incendiary_on_open_ground_is_a_road_fire():
    # §3 Roads covers "street/open": capped at 1, goes out without embers after 5 turns.
    ctx, st = play(grid(["O"]), [], [(5, 5)])
    bombing.drop_bomb(ctx, st, "incendiary")
    assert st.fire == {("O00", 0): 1} and ("O00", 0) in st.street_fire_age
    for _ in range(4):
        fire.step_growth(ctx, st)
        assert st.fire == {("O00", 0): 1}
    fire.step_growth(ctx, st)
    assert not st.fire and not st.embers


# -- §3 Embers ---------------------------------------------------------------------------------
def test_reduced_below_one_a_building_fire_leaves_embers():
    # §3: "A fire reduced below 1 becomes embers" (and reignites on 2d6 = 12 in step 3).
    ctx, st = play(grid(["B"], fires={B00: 1}), [6, 6])
    assert ignition.reduce_fire(st, B00) == 0 and B00 in st.embers
    ctx.step = 3
    fire.step_reignite(ctx, st)
    assert st.fire == {B00: 1} and not st.embers
