"""Damage, collapse, rubble and escape (step 7) with scripted dice."""

from __future__ import annotations

import pytest
from test_fire_world import put_unit, rules_of, setup, world

from fireground.engine.games.blitz.rules import damage
from fireground.engine.games.blitz.units import VEHICLE

B00, B01 = ("B00", 0), ("B01", 0)


def step7(sc, dice, prep=None):
    ctx, st = setup(sc, dice)
    ctx.step = 7
    if prep:
        prep(st)
    damage.step_damage(ctx, st)
    return ctx, st


@pytest.mark.parametrize(("roll", "dmg"), [(6, 2), (5, 1)])
def test_collapse_roll_at_fire_5(roll, dmg):
    ctx, st = step7(world(["B"], fires={B00: 5}), [roll])
    assert st.damage_at(B00) == dmg
    (ev,) = ctx.events
    assert ev["rule"] == "collapse_roll" and ev["need"] == ">=6"


def test_no_collapse_roll_below_5():
    ctx, _ = step7(world(["B"], fires={B00: 4}), [])
    assert ctx.events == []


def test_no_collapse_roll_for_road_or_destroyed():
    sc = world(["BS"], fires={B00: 5, ("S01", 0): 5})
    ctx, _ = step7(sc, [], prep=lambda s: s.damage.update({B00: 5}))
    assert ctx.events == []


def test_destroyed_collapses_levels_above_and_spreads_rubble():
    sc = world(["BBS"], levels={"B00": 3}, fires={B00: 5})
    # damage 4 + a 6 = destroyed; levels 1 and 2 fall; rubble: B01 +1 damage
    ctx, st = step7(sc, [6], prep=lambda s: s.damage.update({B00: 4}))
    assert [st.damage_at(("B00", lv)) for lv in range(3)] == [5, 5, 5]
    (col,) = rules_of(ctx.events, "collapse")
    assert col["levels"] == [0, 1, 2]
    assert st.damage_at(B01) == 2
    assert "S02" not in st.rubble  # not adjacent to B00


def test_rubble_on_street_and_escape_rolls():
    sc = world(["BS", "SS"], levels={"B00": 2}, fires={("B00", 1): 5})

    def prep(s):
        s.damage[("B00", 1)] = 4
        put_unit(s, "E1", ("S01", 0), VEHICLE)
        put_unit(s, "F1", ("S10", 0))

    # collapse roll 6; rubble S01: vehicle escape 6 -> out; rubble S10: stand 2 -> buried
    ctx, st = step7(sc, [6, 6, 2], prep=prep)
    assert st.rubble == {"S01", "S10"}
    assert st.units["E1"].in_play and st.units["E1"].loc == ("S11", 0)
    assert st.units["F1"].status == "casualty"
    (cas,) = st.casualties
    assert cas.status == "buried" and cas.origin == "F1" and cas.loc == ("S10", 0)
    evs = rules_of(ctx.events, "escape")
    assert [e["need"] for e in evs] == [">=6", ">=3"]
    # only the destroyed level, level 1, since level 0 below stays intact
    assert st.damage_at(("B00", 0)) == 1


@pytest.mark.parametrize(("roll", "ok"), [(5, False), (6, True)])
def test_vehicle_escape_on_six(roll, ok):
    sc = world(["BS", ".S"], fires={B00: 5})

    def prep(s):
        s.damage[B00] = 4
        put_unit(s, "E1", ("S01", 0), VEHICLE)

    _, st = step7(sc, [6, roll], prep=prep)
    assert st.units["E1"].in_play is ok
    assert st.units["E1"].status == ("ok" if ok else "destroyed")


@pytest.mark.parametrize(("roll", "ok"), [(3, True), (2, False)])
def test_stand_escape_on_three(roll, ok):
    sc = world(["BB", "SS"], fires={B00: 5})

    def prep(s):
        s.damage[B00] = 4
        put_unit(s, "F1", B01)

    _, st = step7(sc, [6, roll], prep=prep)
    assert st.units["F1"].in_play is ok
    if ok:
        assert st.units["F1"].loc == ("S11", 0)


@pytest.mark.parametrize(("roll", "ok"), [(3, True), (2, False)])
def test_one_escape_roll_from_a_ground_collapse_into_the_rubble(roll, ok):
    # §6: a stand in a collapsing ground level rolls once to get out; the street it gets out
    # to is struck by the same collapse's rubble, and it does not roll again for that.
    sc = world(["BS"], fires={B00: 5})

    def prep(s):
        s.damage[B00] = 4
        put_unit(s, "F1", B00)

    ctx, st = step7(sc, [6, roll], prep=prep)  # ScriptedDice: a third roll would fail
    assert "S01" in st.rubble and len(rules_of(ctx.events, "escape")) == 1
    f1 = st.units["F1"]
    assert f1.in_play is ok and (f1.loc == ("S01", 0) if ok else f1.status == "casualty")


def test_a_new_collapse_is_a_new_escape_roll():
    # F1 gets out of B00 into B01, whose rubble damage brings it down too: that is another
    # collapse, so F1 rolls again (out to S02; B00 is destroyed and cannot be an exit).
    sc = world(["BBS"], fires={B00: 5})

    def prep(s):
        s.damage.update({B00: 4, B01: 4})
        put_unit(s, "F1", B00)

    ctx, st = step7(sc, [6, 3, 4], prep=prep)
    assert [e["at"] for e in rules_of(ctx.events, "escape")] == [
        {"area": "B00", "level": 0},
        {"area": "B01", "level": 0},
    ]
    assert st.units["F1"].in_play and st.units["F1"].loc == ("S02", 0)


def test_trapped_without_escape_route():
    sc = world(["BB"], fires={B00: 5})

    def prep(s):
        s.damage[B00] = 4
        put_unit(s, "F1", B01)

    ctx, st = step7(sc, [6], prep=prep)  # B01's only neighbour is the collapsing B00
    assert st.units["F1"].status == "casualty" and rules_of(ctx.events, "trapped")


def test_rubble_chain_collapse():
    sc = world(["BBB"], fires={B00: 5})

    def prep(s):
        s.damage.update({B00: 4, B01: 4})

    ctx, st = step7(sc, [6], prep=prep)
    assert st.damage_at(B01) == 5  # rubble from B00 destroys B01 ...
    assert st.damage_at(("B02", 0)) == 2  # ... whose rubble strikes B02
    assert len(rules_of(ctx.events, "collapse")) == 2


def test_heavy_damage_makes_occupants_casualties():
    sc = world(["B"], occupants={B00: 3}, fires={B00: 5})
    _ctx, st = step7(sc, [6], prep=lambda s: s.damage.update({B00: 3}))
    assert st.damage_at(B00) == 4
    assert [c.status for c in st.casualties] == ["buried"] * 3
    assert not st.occupants


def test_heavy_damage_at_start_hurts_occupants_in_step7():
    sc = world(["B"], occupants={B00: 2})
    _, st = step7(sc, [], prep=lambda s: s.damage.update({B00: 4}))
    assert len(st.casualties) == 2


def test_occupants_below_heavy_are_safe():
    sc = world(["B"], occupants={B00: 2})
    _, st = step7(sc, [], prep=lambda s: s.damage.update({B00: 3}))
    assert not st.casualties and st.occupants[B00] == 2


def test_collapse_buries_occupants():
    sc = world(["B"], levels={"B00": 2}, occupants={("B00", 1): 2}, fires={B00: 5})
    _, st = step7(sc, [6], prep=lambda s: s.damage.update({B00: 4}))
    assert sum(1 for c in st.casualties if c.loc == ("B00", 1)) == 2


def test_damage_never_decreases():
    ctx, st = setup(world(["B"]), [])
    st.damage[B00] = 3
    damage.set_damage(ctx, st, B00, 2)
    assert st.damage[B00] == 3


@pytest.mark.parametrize("logged", [True, False])
def test_buildings_still_standing_are_kept_for_one_state_only(logged):
    """Step 7 keeps the buildings not yet destroyed from one step to the next (when fires
    outnumber them it walks those instead of the fires): for another state object it looks
    again, so a building destroyed in one state still rolls in a copy made before."""
    sc = world(["BBSS"], fires={B00: 5, B01: 5, ("S02", 0): 5, ("S03", 0): 5})
    ctx, st = setup(sc, [6, 1, 1, 6, 1])
    ctx.log_events = logged
    ctx.step = 7
    st.damage[B00] = 4
    before = st.copy()
    damage.step_damage(ctx, st)  # B00 rolls 6: destroyed; B01 rolls 1
    assert st.damage_at(B00) == 5 and st.damage_at(B01) == 2  # B01: +1 from the rubble
    damage.step_damage(ctx, st)  # only B01 rolls (1): B00 is down
    assert ctx.dice.remaining == 2
    damage.step_damage(ctx, before)  # the copy's B00 still stands at 4: it rolls (6) again
    assert before.damage_at(B00) == 5 and before.damage_at(B01) == 2
    assert ctx.dice.remaining == 0


@pytest.mark.parametrize("seed", range(6))
def test_fire_off_the_map_rolls_in_sorted_order(seed):
    """Step 7 sorts the fires at 5 by their ranks on the map; a fire off it (no rank) makes
    it sort the locations themselves: the same rolls in the same order either way."""
    from fireground.engine.core.dice import Dice

    sc = world(["BB", "BB"], fires={B00: 5, ("B10", 0): 5})
    got = []
    for extra in (("B11", 3), None):  # with a level the map does not have, and without
        ctx, st = setup(sc, Dice(seed))
        ctx.log_events = False
        ctx.step = 7
        if extra is not None:
            st.fire[extra] = 5
        damage.step_damage(ctx, st)
        got.append(({k: v for k, v in st.damage.items() if k != extra}, extra in st.damage))
    # the off-map location rolls last (("B11", 3) sorts after B00 and B10): the two on the
    # map get the same dice
    assert got[0][0] == got[1][0]
