"""Bombing (step 5) with scripted dice and scripted impact points."""

from __future__ import annotations

import pytest
from test_fire_world import put_unit, rules_of, setup, world

from fireground.engine.core.dice import ScriptedDice
from fireground.engine.games.blitz.rules import bombing
from fireground.engine.games.blitz.units import EQUIPMENT, STAND, VEHICLE, HoseLine

B00, B01 = ("B00", 0), ("B01", 0)


def scripted(sc, rolls, points=()):
    ctx, st = setup(sc, ScriptedDice(rolls, points))
    ctx.step = 5
    return ctx, st


@pytest.mark.parametrize(
    ("dice", "result"),
    [([1, 1], "all_clear"), ([1, 2], "all_clear"), ([2, 2], "nothing"), ([5, 6], "nothing")],
)
def test_bomb_run_table(dice, result):
    ctx, st = scripted(world(["B"], bombing=True), dice)
    bombing.step_bombing(ctx, st)
    (ev,) = ctx.events
    assert ev["rule"] == "bomb_run" and ev["result"] == result and ev["need"] == "table"
    assert st.all_clear is (result == "all_clear")


def test_all_clear_stops_bombing():
    ctx, st = scripted(world(["B"], bombing=True), [])
    st.all_clear = True
    bombing.step_bombing(ctx, st)
    assert ctx.events == []


def test_bombing_off():
    ctx, st = scripted(world(["B"], bombing=False), [])
    bombing.step_bombing(ctx, st)
    assert ctx.events == []


def test_stick_on_12_drops_load():
    # 6+6 stick; load 1 = 2 incendiaries, both on B00 (the whole table)
    ctx, st = scripted(world(["B"], bombing=True), [6, 6, 1], [(5, 5), (2, 2)])
    bombing.step_bombing(ctx, st)
    assert [e["rule"] for e in ctx.events] == ["bomb_run", "bomb_load", "bomb_drop", "bomb_drop"]
    assert st.fire == {B00: 1}  # the second lands on a burning location: unchanged


@pytest.mark.parametrize(
    ("face", "he", "inc"), [(1, 0, 2), (2, 1, 0), (3, 0, 4), (4, 2, 0), (5, 0, 6), (6, 3, 6)]
)
def test_bomb_load_table(face, he, inc):
    sc = world(["W"])  # water: bombs have no effect, no further rolls
    ctx, st = scripted(sc, [face], [(5, 5)] * (he + inc))
    assert bombing.drop_stick(ctx, st) == (he, inc)
    drops = rules_of(ctx.events, "bomb_drop")
    assert [d["bomb"] for d in drops] == ["he"] * he + ["incendiary"] * inc


def test_r6_redrop_outside_every_area():
    sc = world(["B.", ".B"])  # table bounds include two empty squares
    ctx, st = scripted(sc, [], [(15, 5), (5, -5), (3, 3)])
    loc = bombing.drop_bomb(ctx, st, "incendiary")
    assert loc == B00
    (ev,) = ctx.events
    assert ev["redrops"] == 2 and ev["ruling"] == "R-6" and ev["point"] == [3, 3]


def test_incendiary_hits_top_level_and_relights_embers():
    sc = world(["B"], levels={"B00": 3})
    ctx, st = scripted(sc, [], [(5, 5)])
    st.embers.add(("B00", 2))
    bombing.drop_bomb(ctx, st, "incendiary")
    assert st.fire == {("B00", 2): 1} and not st.embers


def test_incendiary_on_water_and_street():
    ctx, st = scripted(world(["WS"]), [], [(5, 5), (15, 5)])
    bombing.drop_bomb(ctx, st, "incendiary")
    assert not st.fire
    bombing.drop_bomb(ctx, st, "incendiary")
    assert st.fire == {("S01", 0): 1} and st.street_fire_age == {("S01", 0): 0}


def test_incendiary_on_rubble_street_is_a_normal_fire():
    ctx, st = scripted(world(["S"]), [], [(5, 5)])
    st.rubble.add("S00")
    bombing.drop_bomb(ctx, st, "incendiary")
    assert st.fire == {("S00", 0): 1} and not st.street_fire_age


def test_he_destroys_area_kills_and_severs():
    sc = world(["SBS"], levels={"B01": 2}, hydrants=["S00"], occupants={("B01", 1): 2})
    ctx, st = scripted(sc, [1, 1], [(15, 5)])
    put_unit(st, "F1", ("B01", 1))
    st.hoses["H1"] = HoseLine("H1", "E1", [("S00", 0), ("B01", 0), ("B01", 1)])
    bombing.drop_bomb(ctx, st, "he")
    assert st.damage == {("B01", 0): 5, ("B01", 1): 5}
    assert st.units["F1"].status == "dead"
    assert sorted(c.status for c in st.casualties) == ["dead", "dead", "dead"]
    assert st.hoses["H1"].cut
    # neighbours S00 and S02 roll for damage (1 = nothing on a street) and rubble lands there
    assert [e["at"]["area"] for e in rules_of(ctx.events, "he_damage")] == ["S00", "S02"]
    assert st.rubble == {"S00", "S02"} and not st.craters


def test_he_on_street_makes_crater_and_loses_hydrant():
    sc = world(["BSB"], hydrants=["S01"])
    ctx, st = scripted(sc, [2, 6], [(15, 5)])
    bombing.drop_bomb(ctx, st, "he")
    assert st.craters == {"S01"} and st.hydrants_lost == {"S01"}
    assert st.damage_at(B00) == 2 and st.damage_at(("B02", 0)) == 5


@pytest.mark.parametrize(("roll", "crater"), [(5, True), (4, False)])
def test_he_neighbour_street_crater(roll, crater):
    ctx, st = scripted(world(["BS"]), [roll], [(5, 5)])
    bombing.drop_bomb(ctx, st, "he")
    assert ("S01" in st.craters) is crater


def test_he_damage_never_improves():
    ctx, st = scripted(world(["BB"]), [2], [(5, 5)])
    st.damage[B01] = 3
    bombing.drop_bomb(ctx, st, "he")
    assert st.damage_at(B01) == 4  # 3 from the roll never lowers it; +1 from rubble


def test_he_damage_all_levels_of_neighbour():
    sc = world(["BB"], levels={"B00": 2, "B01": 3})
    ctx, st = scripted(sc, [3, 2], [(5, 5)])
    bombing.drop_bomb(ctx, st, "he")
    assert [e["at"]["level"] for e in rules_of(ctx.events, "he_damage")] == [0, 1]
    assert st.damage_at(("B01", 1)) == 2
    assert st.damage_at(B01) == 4  # 3, then +1 from the rubble
    assert st.damage_at(("B01", 2)) == 1


@pytest.mark.parametrize(("roll", "escaped"), [(6, True), (5, False)])
def test_he_personnel(roll, escaped):
    ctx, st = scripted(world(["BS"]), [1, roll, 3], [(5, 5)])
    put_unit(st, "F1", ("S01", 0), STAND)
    bombing.drop_bomb(ctx, st, "he")
    (ev,) = rules_of(ctx.events, "he_personnel")
    assert ev["need"] == ">=6" and ev["success"] is escaped
    if escaped:  # then the rubble of the blast: escape roll 3 succeeds (street has no exit)
        assert st.units["F1"].status in ("ok", "casualty")
    else:
        assert st.units["F1"].status == "casualty"
        assert st.casualties[0].status == "found"


@pytest.mark.parametrize(("roll", "lost"), [(3, True), (4, False)])
def test_he_equipment_and_hoses(roll, lost):
    sc = world(["BS", ".S"])
    ctx, st = scripted(sc, [1, roll, roll, roll, 6, 6], [(5, 5)])
    put_unit(st, "E1", ("S01", 0), VEHICLE)
    put_unit(st, "P1", ("S01", 0), EQUIPMENT)
    st.hoses["H1"] = HoseLine("H1", "E1", [("S11", 0), ("S01", 0)])
    bombing.drop_bomb(ctx, st, "he")
    evs = rules_of(ctx.events, "he_equipment")
    assert len(evs) == 3 and all(e["need"] == "<=3" for e in evs)
    assert (st.units["E1"].status == "knocked_out") is lost
    assert (st.units["P1"].status == "knocked_out") is lost
    assert st.hoses["H1"].cut is lost


def test_drop_sticks_seeds_a_start():
    ctx, st = scripted(world(["BB"]), [1, 1], [(5, 5), (15, 5), (5, 5), (15, 5)])
    bombing.drop_sticks(ctx, st, 2)
    assert st.fire == {B00: 1, B01: 1}
