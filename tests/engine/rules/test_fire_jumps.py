"""R-5 jumps at run time: the gap must not burn when the fire jumps (rubble or a vehicle makes
a street flammable, §1), and any flammable location beyond the gap may be the target."""

from __future__ import annotations

import pytest
from test_fire_world import put_unit, rules_of, setup, world

from fireground.engine.board.graph import build_graph
from fireground.engine.board.model import Wind
from fireground.engine.games.blitz.rules import fire
from fireground.engine.games.blitz.units import VEHICLE

B00 = ("B00", 0)


def run_spread(sc, dice, prep=None):
    ctx, st = setup(sc, dice)
    if prep:
        prep(st)
    fire.step_spread(ctx, st)
    return ctx, st


def test_graph_lists_jump_lines_with_their_gap_areas():
    g = build_graph(world(["BSSB", "SSSS"]))
    lines = dict(g.jump_lines(B00))
    assert lines[("S02", 0)] == ("S01",)  # a street beyond the gap is a candidate target
    assert lines[("B03", 0)] == ("S01", "S02")
    assert ("S01", 0) not in lines and ("S10", 0) not in lines  # adjacent: ordinary spread
    assert ("S11", 0) not in lines  # corner contact only: no gap between, so no jump
    # the building-to-building view with the wind applied is unchanged
    assert g.jump_targets(B00, Wind()) == []
    assert g.jump_targets(B00, Wind("W", True)) == [(("B03", 0), 2)]
    water = build_graph(world(["WSB"]))
    assert water.jump_lines(("W00", 0)) == []  # water never burns, so never jumps
    assert water.jump_lines(("B02", 0)) == []  # and is never a target


@pytest.mark.parametrize("what", ["vehicle", "wreck", "rubble", "fire"])
def test_no_jump_over_a_gap_that_can_burn(what):
    def prep(s):
        if what == "vehicle":
            put_unit(s, "E1", ("S01", 0), VEHICLE)
        elif what == "wreck":
            put_unit(s, "E1", ("S01", 0), VEHICLE).status = "burned_out"
        elif what == "rubble":
            s.rubble.add("S01")
        else:  # a road fire in the gap: streets burn only while flammable, so rubble too
            s.rubble.add("S01")
            s.fire[("S01", 0)] = 1

    ctx, st = run_spread(world(["BSB"], fires={B00: 5}), [6, 6, 6], prep)
    assert not rules_of(ctx.events, "jump") and ("B02", 0) not in st.fire


def test_a_destroyed_vehicle_leaves_the_gap_open():
    # only vehicles in play and burned-out wrecks make a street burn (see the coverage notes)
    def prep(s):
        put_unit(s, "E1", ("S01", 0), VEHICLE).status = "destroyed"

    ctx, st = run_spread(world(["BSB"], fires={B00: 5}), [1], prep)
    (ev,) = ctx.events
    assert ev["rule"] == "jump" and ("B02", 0) in st.fire


def test_water_is_always_a_gap():
    ctx, st = run_spread(world(["BWB"], fires={B00: 5}), [1])
    (ev,) = ctx.events
    assert ev["rule"] == "jump" and ev["to"] == {"area": "B02", "level": 0}
    assert ("B02", 0) in st.fire


def test_two_gap_jump_needs_both_gaps_clear():
    windy = Wind("W", True)  # towards the east: B03 is downwind of B00
    # rubble in the first gap: B00 rolls to spread into it, and cannot jump over it
    ctx, st = run_spread(
        world(["BSSB"], fires={B00: 5}, wind=windy), [6], lambda s: s.rubble.add("S01")
    )
    assert [e["rule"] for e in ctx.events] == ["spread"] and ("B03", 0) not in st.fire
    # rubble in the second: that street is now the target of a one-gap jump, B03 is not
    ctx, st = run_spread(
        world(["BSSB"], fires={B00: 5}, wind=windy), [2], lambda s: s.rubble.add("S02")
    )
    (ev,) = ctx.events
    assert ev["rule"] == "jump" and ev["to"] == {"area": "S02", "level": 0}
    assert ev["modifier"] == -1 and ("S02", 0) in st.fire and ("B03", 0) not in st.fire


def test_jump_to_a_vehicle_beyond_the_gap_burns_it_out():
    def prep(s):
        put_unit(s, "E1", ("S02", 0), VEHICLE)

    ctx, st = run_spread(world(["BSS"], fires={B00: 5}), [1], prep)
    (ev,) = rules_of(ctx.events, "jump")
    assert ev["to"] == {"area": "S02", "level": 0} and ev["ruling"] == "R-5"
    assert st.fire[("S02", 0)] == 1 and st.units["E1"].status == "burned_out"


def test_empty_street_beyond_the_gap_is_no_target():
    ctx, _ = run_spread(world(["BSS"], fires={B00: 5}), [])
    assert ctx.events == []


@pytest.mark.parametrize(("roll", "jumped"), [(1, True), (2, False)])
def test_a_burning_rubble_street_at_5_jumps_too(roll, jumped):
    # §3: "A fire of 5 may jump" — whatever burns; a rubble street is not capped at 1
    def prep(s):
        s.rubble.add("S00")
        s.fire[("S00", 0)] = 5

    ctx, st = run_spread(world(["SSB"]), [roll], prep)
    (ev,) = ctx.events
    assert ev["rule"] == "jump" and ev["from"] == {"area": "S00", "level": 0}
    assert (("B02", 0) in st.fire) is jumped


@pytest.mark.parametrize(
    ("guard", "jumped"), [("none", True), ("fight", False), ("damp", False), ("idle", True)]
)
def test_a_guarded_or_damp_street_with_a_vehicle_cannot_be_jumped_into(guard, jumped):
    # §3: a hose team fighting in the target (+1) or one level of damp there (+1) turns the
    # jump's roll of 1 into 2, and R-5 needs a modified 1: the vehicle is not burned out
    def prep(s):
        put_unit(s, "E1", ("S02", 0), VEHICLE)
        if guard == "damp":
            s.damp[("S02", 0)] = 1
        elif guard in ("fight", "idle"):  # a team in the street: only one at work counts
            put_unit(s, "T1", ("S02", 0), task=guard)

    ctx, st = run_spread(world(["BSS"], fires={B00: 5}), [1], prep)
    (ev,) = rules_of(ctx.events, "jump")
    assert ev["to"] == {"area": "S02", "level": 0} and ev["dice"] == [1]
    assert ev["modifier"] == (0 if jumped else 1) and ev["success"] is jumped
    assert (("S02", 0) in st.fire) is jumped
    assert (st.units["E1"].status == "burned_out") is jumped
    assert bool(ev.get("damp_loss")) is (guard == "damp")  # only the damp stopped it: lost


@pytest.mark.parametrize(("guard", "caught"), [("none", True), ("fight", False), ("damp", False)])
def test_a_guarded_or_damp_street_with_a_vehicle_is_harder_to_spread_into(guard, caught):
    # a spread from a fire of 3 next door into the vehicle's street on a roll of 3: +1 makes 4
    def prep(s):
        put_unit(s, "E1", ("S01", 0), VEHICLE)
        if guard == "damp":
            s.damp[("S01", 0)] = 1
        elif guard == "fight":
            put_unit(s, "T1", ("S01", 0), task="fight")

    ctx, st = run_spread(world(["BS"], fires={B00: 3}), [3], prep)
    (ev,) = rules_of(ctx.events, "spread")
    assert ev["to"] == {"area": "S01", "level": 0} and ev["success"] is caught
    assert (st.units["E1"].status == "burned_out") is caught
