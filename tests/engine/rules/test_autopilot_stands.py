"""The stands on foot keep out of a collapse's way, fire parties refill where the fire is
not about to spread, crews whose vehicle is lost walk out toward an entry, and fires
where casualties lie come first (issue 15: the autopilot plays like a fire officer)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_units_world import add_hose, usetup, uworld

from fireground.engine.board.model import ForceUnit
from fireground.engine.core.dice import Dice
from fireground.engine.games.blitz.autopilot import driver, parking, priorities, safety, teams


def collapse_world(damage: int, house_rules: dict[str, float] | None = None):
    # B11 burns at 5 (it rolls for damage in step 7); the officer waits in S01, the street
    # next to it, where the rubble of B11 would fall (S00 and S02 only touch its corners)
    sc = uworld(
        ["SSS", "BBB"],
        fires={("B11", 0): 5},
        forces=[ForceUnit("OF", "officer", area="S01")],
        house_rules=house_rules or {},
    )
    ctx, st = usetup(sc)
    st.damage[("B11", 0)] = damage
    return ctx, st


def test_the_collapse_zone_is_the_building_and_the_ground_next_door():
    ctx, st = collapse_world(4)
    assert safety.collapse_zone(ctx, st, ("S01", 0))
    assert safety.collapse_zone(ctx, st, ("B10", 0))  # next door: rubble strikes its ground
    assert not safety.collapse_zone(ctx, st, ("S00", 0))  # a corner only
    ctx, st = collapse_world(3)  # two rolls from coming down: not yet
    assert not safety.collapse_zone(ctx, st, ("S01", 0))


def test_the_rubble_chain_widens_the_zone():
    # B10's ground is at 4: B11's rubble (+1) brings it down too, and its rubble strikes O20
    sc = uworld(["SSS", "BBB", "O.."], fires={("B11", 0): 5})
    ctx, st = usetup(sc)
    st.damage[("B11", 0)] = 4
    st.damage[("B10", 0)] = 4
    assert safety.collapse_zone(ctx, st, ("O20", 0))
    st.damage[("B10", 0)] = 3
    assert not safety.collapse_zone(ctx, st, ("O20", 0))


@pytest.mark.parametrize(("damage", "house_rules", "leaves"), [
    (4, None, True),
    (3, None, False),
    (4, {"policy.collapse_damage": 5}, False),  # a bolder house policy: never
])  # fmt: skip
def test_a_stand_steps_out_of_a_collapses_way(damage, house_rules, leaves):
    # (with no refuge: this map has no haven and no entry, and since round 6 an officer
    # with a fire of 5 next to it and no way out waits where the fire is least anyway)
    ctx, st = collapse_world(damage, {"policy.refuge_damage": 0, **(house_rules or {})})
    driver.standing_orders(ctx, st)
    loc = st.units["OF"].loc
    assert (loc != ("S01", 0)) is leaves
    if leaves:
        assert loc is not None and not safety.collapse_zone(ctx, st, loc)


def test_a_fire_party_refills_where_the_fire_is_not_about_to_spread():
    # empty, it would refill in B11 next to the fire (any building's ground level serves);
    # B11 catches with 1/6 this turn, more than policy.idle_chance, so it goes to B10
    sc = uworld(
        ["SSS", "BBB"],
        fires={("B12", 0): 1},
        forces=[ForceUnit("FP", "fire_party", area="B11")],
    )
    ctx, st = usetup(sc)
    st.units["FP"].charged = False
    assert safety.exposed(ctx, st, ("B11", 0)) and not safety.exposed(ctx, st, ("B10", 0))
    driver.standing_orders(ctx, st)
    assert st.units["FP"].loc == ("B10", 0) and st.units["FP"].task == "refill"
    ctx, st = usetup(replace(sc, house_rules={"policy.idle_chance": 0.2}))
    st.units["FP"].charged = False
    driver.standing_orders(ctx, st)  # 1/6 is under a bolder limit: it refills there
    assert st.units["FP"].loc == ("B11", 0) and st.units["FP"].task == "refill"


def test_a_crew_whose_vehicle_is_lost_walks_out_toward_the_entry():
    sc = uworld(
        ["SSSSS", "BBBBB"],
        entries={"west": "S00"},
        fires={("B14", 0): 2},
        forces=[ForceUnit("E1", "general_appliance", area="S04")],
    )
    ctx, st = usetup(sc)
    st.units["E1"].status = "burned_out"
    crew = [u for u in st.units.values() if u.parent == "E1"]
    assert crew
    for u in crew:
        u.task = "idle"
    driver.standing_orders(ctx, st)
    # the old orders stepped one area out of the heat (S03) and waited for the fire there
    assert [u.loc for u in crew] == [("S00", 0)] * len(crew)


def test_a_fire_where_a_casualty_lies_comes_first():
    sc = uworld(["SSS", "BBB"], fires={("B10", 0): 2, ("B12", 0): 2})
    ctx, st = usetup(sc)
    st.add_casualty(("B12", 0), "buried")
    pri = priorities.priority_locations(ctx, st)
    assert priorities.fire_priority(ctx, st, ("B12", 0), pri) == 0
    assert priorities.fire_priority(ctx, st, ("B10", 0), pri) == 1
    st.casualties[0].status = "dead"  # the dead wait: no rush for them
    pri = priorities.priority_locations(ctx, st)
    assert priorities.fire_priority(ctx, st, ("B12", 0), pri) == 1


def haven_world(forces, fires):
    # a row of houses, the street in front, and one yard (O20) that touches only the
    # street: nothing next to the yard can burn while no vehicle or rubble is in it
    return uworld(
        ["BBBBBBB", "SSSSSSS", "O......"],
        entries={"east": "S16"},
        fires=fires,
        forces=forces,
    )


def test_the_havens_are_the_open_ground_with_no_building_next_to_it():
    ctx, st = usetup(haven_world([], {("B04", 0): 2}))
    assert safety.haven_areas(ctx) == {"O20"}
    assert safety.shelters(ctx, st) == [("O20", 0)]
    st.rubble.add("S10")  # rubble next door burns: the yard is no shelter now
    assert safety.shelters(ctx, st) == []


def test_a_crew_whose_vehicle_is_lost_waits_in_a_haven():
    # the entry (S16) is three areas off, the yard four; the old orders went to the entry,
    # a street with houses along it, where the fire (or rubble) finds the crew later
    sc = haven_world([ForceUnit("E1", "general_appliance", area="S13")], {("B04", 0): 2})
    ctx, st = usetup(sc)
    st.units["E1"].status = "burned_out"
    crew = [u for u in st.units.values() if u.parent == "E1"]
    for u in crew:
        u.task = "idle"
    driver.standing_orders(ctx, st)
    assert [u.loc for u in crew] == [("O20", 0)] * len(crew)
    st.turn += 1
    driver.standing_orders(ctx, st)  # and it stays there
    assert [u.loc for u in crew] == [("O20", 0)] * len(crew)


@pytest.mark.parametrize("kind", ["fire_party", "officer", "rescue_team"])
def test_a_stand_with_nothing_to_do_next_to_a_fire_goes_to_a_haven(kind):
    # a fire of 3 is no work for a fire party (fires of 1 only), an officer waits for
    # orders, and a rescue team has nobody to dig out: all used to wait in S13, next to
    # the fire, until it closed round them (the rescue team until round 7)
    sc = haven_world([ForceUnit("X", kind, area="S13")], {("B03", 0): 3})
    ctx, st = usetup(sc)
    driver.standing_orders(ctx, st)
    assert st.units["X"].loc == ("O20", 0)
    # with the fire away from it, it stays where it is
    ctx, st = usetup(haven_world([ForceUnit("X", kind, area="S13")], {("B00", 0): 3}))
    driver.standing_orders(ctx, st)
    assert st.units["X"].loc == ("S13", 0)


#: the sure way back as measured in round 4 of docs/autopilot.md: on, whether or not the
#: lines hold the fire round the crews (the default asks that too: round 5, below)
WAY_BACK = {"policy.way_back_turns": 2.0, "policy.way_back_watch": 0}


def closing_world(house_rules=None, dice=()):
    # an appliance in S14 and a fire of 3 in B02: every way from S14 to the yard O20 (the
    # only haven) passes next to the fire (S12, B01, B03), so the fire is closing round
    # the appliance's crews
    sc = uworld(
        ["BBBBB", "SSSSS", "O...."],
        fires={("B02", 0): 3},
        forces=[ForceUnit("E1", "general_appliance", area="S14")],
        house_rules={**WAY_BACK, **(house_rules or {})},
    )
    ctx, st = usetup(sc, dice)
    crew = sorted((u for u in st.units.values() if u.parent == "E1"), key=lambda u: u.id)
    return ctx, st, crew


def test_cut_off_when_no_way_to_a_haven_keeps_clear_of_the_fire():
    ctx, st, _ = closing_world()
    assert safety.cut_off(ctx, st, ("S14", 0))
    assert not safety.cut_off(ctx, st, ("S10", 0))  # the yard is a step away
    ctx, st, _ = closing_world({"policy.way_back_heat": 3})  # a bolder officer: S12 will do
    assert not safety.cut_off(ctx, st, ("S14", 0))
    ctx, st, _ = closing_world({"policy.way_back_turns": 0.5})  # 3 points of walking
    assert not safety.cut_off(ctx, st, ("S11", 0))  # the yard is 2 points away
    assert safety.cut_off(ctx, st, ("S10", 0)) is False
    ctx, st, _ = closing_world({"policy.way_back_turns": 0.0})  # off
    assert not safety.cut_off(ctx, st, ("S14", 0))


@pytest.mark.parametrize(("house_rules", "leaves"), [
    (None, True),
    ({"policy.way_back_heat": 3}, False),  # the old orders: the crews go to work
])  # fmt: skip
def test_crews_make_for_a_haven_before_the_fire_closes_round_them(house_rules, leaves):
    ctx, st, crew = closing_world(house_rules, dice=[6] * 40)  # every heat test passes
    driver.standing_orders(ctx, st)
    if leaves:
        assert all(u.hose is None for u in crew)
        assert all(u.loc is not None and u.loc[0] in ("S10", "S11", "O20") for u in crew)
    else:
        assert any(u.hose is not None for u in crew)
    if leaves:  # and they wait there while the appliance's street is cut off
        st.turn += 1
        driver.standing_orders(ctx, st)
        assert all(u.loc == ("O20", 0) for u in crew)
        st.turn += 1
        driver.standing_orders(ctx, st)
        assert all(u.loc == ("O20", 0) for u in crew)


def test_a_crew_cut_off_from_its_appliance_goes_to_a_haven():
    # the appliance waits in S16, but S14 burns (rubble) and B05 with it: no way there on
    # foot. The old orders tried the walk every turn and left the crew in S13, next to
    # the fire, until the fire closed round it; now it waits in the yard (round 5)
    sc = haven_world([ForceUnit("E1", "general_appliance", area="S16")],
                     {("B03", 0): 2, ("B05", 0): 5})  # fmt: skip
    ctx, st = usetup(sc)
    st.rubble.add("S14")
    st.fire[("S14", 0)] = 3
    crew = [u for u in st.units.values() if u.parent == "E1"]
    for u in crew:
        u.loc, u.task = ("S13", 0), "idle"
    driver.standing_orders(ctx, st)
    assert [u.loc for u in crew] == [("O20", 0)] * len(crew)


@pytest.mark.parametrize(("fire", "leaves"), [("B10", True), ("B16", False)])
def test_a_crew_leaves_a_slipped_line_whose_pump_end_is_next_to_the_fire(fire, leaves):
    # the appliance pulled back from S00 to S05 and slipped its line; the crew that makes
    # a line up ends at its pump end (S00): with a fire next to S00 it leaves the line
    # where it lies and walks back to its appliance instead
    sc = uworld(["SSSSSSS", "BBBBBBB"], fires={(fire, 0): 3},
                forces=[ForceUnit("E1", "general_appliance", area="S05")])  # fmt: skip
    ctx, st = usetup(sc)
    s = min((u for u in st.units.values() if u.parent == "E1"), key=lambda u: u.id)
    path = [("S00", 0), ("S01", 0), ("S02", 0), ("B12", 0)]
    h = add_hose(st, "H1", "E1", path, None, crew=[s.id], lengths=2)
    h.cut, h.recover_left, s.task = True, 3, "recover"
    driver.standing_orders(ctx, st)
    if leaves:
        assert s.hose is None and s.loc == ("S05", 0)
        assert h.crew == [] and h.recover_left == 0  # nobody makes it up
    else:
        assert s.hose == "H1" and s.task == "recover" and h.recover_left == 3


def test_a_fire_party_that_cannot_get_to_a_refill_point_goes_to_a_haven():
    # empty in S11, next to a fire of 1: the nearest refill point out of the fire's way is
    # B04, through S12 (heat 3), whose heat test fails (a 1); the old orders left it in
    # S11 to try again, next to the fire; now it waits in the yard (round 5)
    sc = haven_world([ForceUnit("FP", "fire_party", area="S11")], {("B01", 0): 1, ("B02", 0): 3})
    ctx, st = usetup(sc, [1] * 10)
    st.units["FP"].charged = False
    driver.standing_orders(ctx, st)
    assert st.units["FP"].loc == ("O20", 0)


def test_the_crews_stay_where_the_lines_hold_the_fire_round_them():
    # round 5: the default asks whether the force holds the fire round the crews first;
    # the fires within two steps of S14 that no line plays on must add up to more than
    # policy.way_back_hold (5) before they make for the yard
    ctx, st, crew = closing_world({"policy.way_back_watch": 2})
    assert not safety.cut_off(ctx, st, ("S14", 0))  # B02 is three steps off
    st.fire[("B03", 0)] = 3
    assert not safety.cut_off(ctx, st, ("S14", 0))  # 3 unfought within two steps
    st.fire[("B04", 0)] = 3
    assert safety.cut_off(ctx, st, ("S14", 0))  # 6: the fire is not held there
    add_hose(st, "H1", "E1", [("S14", 0)], ("B04", 0), crew=[crew[0].id])
    assert not safety.cut_off(ctx, st, ("S14", 0))  # a line on B04: 3 unfought again
    ctx, st, _ = closing_world({"policy.way_back_watch": 2, "policy.way_back_hold": 2})
    st.fire[("B03", 0)] = 3
    assert safety.cut_off(ctx, st, ("S14", 0))  # a more cautious officer


@pytest.mark.parametrize(("house_rules", "goes_to"), [
    (None, ("S11", 0)),
    ({"policy.refuge_damage": 0}, ("S12", 0)),  # the old orders: nowhere to go, it stays
])  # fmt: skip
def test_a_stand_with_no_way_out_waits_where_the_fire_is_least(house_rules, goes_to):
    # round 6: a street between two rows of houses, no haven, no entry: the officer in
    # S12 (a fire of 3 next to it) has nowhere to go, and the old orders left it there;
    # now it waits within a turn's walk where nothing can burn and the fire next to it is
    # least (S11 and S14 have none; S11 is nearer)
    sc = uworld(["BBBBB", "SSSSS", "BBBBB"], fires={("B02", 0): 3, ("B23", 0): 2},
                forces=[ForceUnit("OF", "officer", area="S12")],
                house_rules=house_rules or {})  # fmt: skip
    ctx, st = usetup(sc, [6] * 20)
    assert safety.shelters(ctx, st) == []
    driver.standing_orders(ctx, st)
    assert st.units["OF"].loc == goes_to


@pytest.mark.parametrize(("house_rules", "stays"), [
    (None, False),
    ({"policy.refuge_damage": 4}, True),  # damage 3 is no risk to a bolder officer
])  # fmt: skip
def test_the_refuge_keeps_clear_of_a_damaged_building_burning_upstairs(house_rules, stays):
    # B11's upper floor burns at 5 and is damaged 3: two rolls from coming down, when its
    # rubble strikes S01, though no fire is next to S01 on the ground
    sc = uworld(["SSS", "BBB"], levels={"B11": 2}, fires={("B11", 1): 5},
                forces=[ForceUnit("OF", "officer", area="S01")],
                house_rules=house_rules or {})  # fmt: skip
    ctx, st = usetup(sc)
    st.damage[("B11", 1)] = 3
    spot = safety.refuge(ctx, st, st.units["OF"])
    assert (spot == ("S01", 0)) is stays
    assert spot is not None and spot[0] in ("S00", "S01", "S02")


@pytest.mark.parametrize(("house_rules", "stays"), [
    (None, False),
    ({"policy.refuge_damage": 3}, True),  # rounds 6 to 11: an undamaged building was no risk
])  # fmt: skip
def test_the_refuge_keeps_clear_of_any_building_burning_hard_enough_to_roll(house_rules, stays):
    # round 12 (policy.refuge_damage 1): B11's upper floor burns at 5 and is not damaged
    # yet, but it rolls for damage every turn (step 7) and comes down in time; a stand
    # with nowhere to go does not wait in S01, where its rubble would strike
    sc = uworld(["SSS", "BBB"], levels={"B11": 2}, fires={("B11", 1): 5},
                forces=[ForceUnit("OF", "officer", area="S01")],
                house_rules=house_rules or {})  # fmt: skip
    ctx, st = usetup(sc)
    assert st.damage_at(("B11", 1)) == 1
    spot = safety.refuge(ctx, st, st.units["OF"])
    assert (spot == ("S01", 0)) is stays
    assert spot is not None and spot[0] in ("S00", "S01", "S02")


@pytest.mark.parametrize(("house_rules", "leaves"), [
    (None, True),
    ({"policy.refuge_damage": 3}, False),  # rounds 6 to 11
])  # fmt: skip
def test_a_stand_leaves_a_street_an_undamaged_burning_building_may_close(house_rules, leaves):
    # round 12: as in round 11's test, B03 burns at 5 over S13, the one way from S11 to
    # the yard O16, but it is not damaged yet; it rolls for damage every turn, so its
    # rubble may close S13 within the forecast's turns: the officer in S11 leaves
    sc = uworld(["BBBBBB.", "SSSSSSO"], fires={("B03", 0): 5},
                forces=[ForceUnit("OF", "officer", area="S11")],
                house_rules=house_rules or {})  # fmt: skip
    ctx, st = usetup(sc, [6] * 20)
    assert st.damage_at(("B03", 0)) == 1
    assert safety.shelters(ctx, st) == [("O16", 0)]
    assert safety.pocket(ctx, st, ("S11", 0)) is leaves
    assert not safety.pocket(ctx, st, ("S14", 0))  # east of the closing place


def test_a_fire_party_does_not_refill_between_the_fires():
    # round 6: empty in S11, at a hydrant, next to a fire of 4. An empty street cannot
    # burn, so the old orders refilled there, where the fire closes round it and the
    # rubble of the building next door falls; now it walks to a refill point with
    # fires next to it adding up to policy.retreat_heat (3) or less
    sc = uworld(["BBBBB", "SSSSS"], fires={("B01", 0): 4}, hydrants=["S11", "S14"],
                forces=[ForceUnit("FP", "fire_party", area="S11")])  # fmt: skip
    ctx, st = usetup(sc, [6] * 10)
    st.units["FP"].charged = False
    assert not safety.exposed(ctx, st, ("S11", 0)) and not safety.calm(ctx, st, ("S11", 0))
    driver.standing_orders(ctx, st)
    fp = st.units["FP"]
    assert fp.loc != ("S11", 0) and fp.task == "refill"
    assert fp.loc is not None and safety.calm(ctx, st, fp.loc)


@pytest.mark.parametrize(("house_rules", "leaves"), [
    (None, True),
    ({"policy.pocket_turns": 0}, False),  # the old orders: no fire next to it, it stays
    # a bolder officer looking two turns ahead (round 7's default): 11 in 36 is no forecast
    ({"policy.pocket_turns": 2, "policy.pocket_chance": 0.4}, False),
    # ... looking four turns ahead (round 8's default): a 6 in four rolls, 1 - (5/6)^4
    # (0.52), is more than 0.4
    ({"policy.pocket_chance": 0.4}, True),
])  # fmt: skip
def test_a_stand_with_nothing_to_do_leaves_before_the_fire_closes_its_way(house_rules, leaves):
    # round 7: a street between two rows of houses; its only way out, to the yard O16 at
    # the east end, passes S13, between B03 (fire 3) and B23 (fire 2): heat 5 now, so
    # the officer in S11, with no fire next to it, waited. Each fire grows within two
    # turns with 11 in 36 (a 6 on either roll, §3; no neighbour burns), more than
    # policy.pocket_chance (0.3): then S13 is heat 7, which no stand passes, and S10-S12
    # a pocket; the officer leaves while it still can
    sc = uworld(["BBBBBB.", "SSSSSSO", "BBBBBB."], fires={("B03", 0): 3, ("B23", 0): 2},
                forces=[ForceUnit("OF", "officer", area="S11")],
                house_rules=house_rules or {})  # fmt: skip
    ctx, st = usetup(sc, [6] * 20)
    assert safety.shelters(ctx, st) == [("O16", 0)]
    assert safety.pocket(ctx, st, ("S11", 0)) is leaves
    assert not safety.pocket(ctx, st, ("S14", 0))  # east of the closing place
    driver.standing_orders(ctx, st)
    assert (st.units["OF"].loc == ("O16", 0)) is leaves


@pytest.mark.parametrize(("house_rules", "stays"), [
    (None, True),
    ({"policy.pocket_turns": 0}, False),  # the old orders: back to the appliance
])  # fmt: skip
def test_a_crew_does_not_walk_back_into_a_pocket(house_rules, stays):
    # round 7: the same street; the appliance waits in S11, west of S13, which the fire
    # may close within two turns; its crews are in S15, east of it, with a way out to
    # the yard. The old orders walked them back through S13 (heat 5, every test passed
    # here) into the pocket; now they wait where they are
    sc = uworld(["BBBBBB.", "SSSSSSO", "BBBBBB."], fires={("B03", 0): 3, ("B23", 0): 2},
                forces=[ForceUnit("E1", "general_appliance", area="S11")],
                house_rules=house_rules or {})  # fmt: skip
    ctx, st = usetup(sc, [6] * 40)
    crew = [u for u in st.units.values() if u.parent == "E1"]
    for u in crew:
        u.loc, u.task = ("S15", 0), "idle"
    driver.standing_orders(ctx, st)
    assert all((u.loc == ("S15", 0)) is stays for u in crew)
    assert all(u.loc == ("S11", 0) for u in crew) is not stays


@pytest.mark.parametrize(("house_rules", "clears"), [
    (None, True),
    ({"policy.stray_crews": 0}, False),  # the old orders: it waits next to the fire
])  # fmt: skip
def test_a_crew_left_alone_when_its_appliance_pulls_back_keeps_clear_of_the_fire(
    house_rules, clears
):
    # round 8: E1, dry in S02, slips its line and pulls back from B12 (fire 1, next to
    # S02; parking.withdraw), and its orders end there: its second team, idle in S06 next
    # to B16 (fire 3), was told nothing and waited there until the fire closed round it.
    # Now a team its appliance's orders leave alone keeps clear of the fire like any
    # stand with nothing to do (safety.stand_clear): to the nearest haven, S05
    sc = uworld(["SSSSSSS", "..B...B"], fires={("B12", 0): 1, ("B16", 0): 3},
                forces=[ForceUnit("E1", "general_appliance", area="S02")],
                house_rules=house_rules or {})  # fmt: skip
    ctx, st = usetup(sc, Dice(5))
    st.fire_at_start = dict(st.fire)
    st.units["E1"].water = 0
    path = [("S02", 0), ("S03", 0), ("S04", 0), ("S05", 0)]
    add_hose(st, "H1", "E1", path, ("B16", 0), crew=["E1.1"])
    away = st.units["E1.2"]
    away.loc, away.task = ("S06", 0), "idle"
    assert ("S05", 0) in safety.shelters(ctx, st)
    driver.standing_orders(ctx, st)
    assert st.units["E1"].loc != ("S02", 0)  # it pulled back
    assert (away.loc == ("S05", 0)) is clears
    assert (away.loc == ("S06", 0)) is not clears


@pytest.mark.parametrize(("house_rules", "steps_off"), [
    (None, True),
    ({"policy.crew_off_chance": 0}, False),  # the old orders: aboard, in the street that may burn
])  # fmt: skip
def test_crews_step_off_a_street_where_their_appliance_may_burn_with_nowhere_to_go(
    house_rules, steps_off
):
    # round 9: E1, dry, in S10 below B00 (fire 1); every street it can reach (S10-S12)
    # lies below a fire of 1, so each may catch next turn with 1/6 (§3) and it has
    # nowhere safer to drive. The vehicle makes S10 a place that burns (§1, R-10): its
    # idle teams step off into S11, an empty street that cannot burn
    sc = uworld(["BBB", "SSS"], fires={("B00", 0): 1, ("B01", 0): 1, ("B02", 0): 1},
                forces=[ForceUnit("E1", "general_appliance", area="S10")],
                house_rules=house_rules or {})  # fmt: skip
    ctx, st = usetup(sc, Dice(5))
    st.fire_at_start = dict(st.fire)
    st.units["E1"].water = 0
    crew = [st.units["E1.1"], st.units["E1.2"]]
    for s in crew:
        s.task = "idle"
    assert teams.stranded(ctx, st, "S10") is steps_off
    driver.standing_orders(ctx, st)
    assert st.units["E1"].loc == ("S10", 0)
    assert all((s.loc == ("S11", 0)) is steps_off for s in crew)
    assert all((s.loc == ("S10", 0)) is not steps_off for s in crew)
    if steps_off:  # nor does it walk back while the appliance is stranded there
        st.turn += 1
        driver.standing_orders(ctx, st)
        assert all(s.loc == ("S11", 0) for s in crew)


def test_a_vehicle_with_a_safe_street_in_reach_is_not_stranded():
    # S13 lies below no fire: E1 can drive there, so its teams stay with it
    sc = uworld(["BBB.", "SSSS"], fires={("B00", 0): 1, ("B01", 0): 1, ("B02", 0): 1},
                forces=[ForceUnit("E1", "general_appliance", area="S10")])  # fmt: skip
    ctx, st = usetup(sc)
    assert parking.street_risk(ctx, st, "S13") == 0
    assert not teams.stranded(ctx, st, "S10")


@pytest.mark.parametrize(("rubble", "leaves"), [(1, True), (0, False)])
def test_a_stand_leaves_a_street_that_rubble_may_close(rubble, leaves):
    # round 11 (policy.pocket_rubble): the street with houses on one side; B03 burns at 5 (it rolls for
    # damage, step 7) and is damaged 3 (policy.refuge_damage): its collapse would strike
    # S13, the only way from S11 to the yard O16, and make it a street that burns (§6).
    # The heat there (5) is less than no stand passes (7), so the old forecast kept S13
    # open and the officer in S11 waited; now S13 closes and it leaves while it can
    sc = uworld(["BBBBBB.", "SSSSSSO"], fires={("B03", 0): 5},
                forces=[ForceUnit("OF", "officer", area="S11")],
                house_rules={"policy.pocket_rubble": rubble})  # fmt: skip
    ctx, st = usetup(sc, [6] * 20)
    st.damage[("B03", 0)] = 3
    assert safety.shelters(ctx, st) == [("O16", 0)]
    assert safety.pocket(ctx, st, ("S11", 0)) is leaves
    assert not safety.pocket(ctx, st, ("S14", 0))  # east of the closing place
