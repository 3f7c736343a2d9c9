"""Step 8: water sources, pumps, the two-appliance hydrant limit and the 14-length limit."""

from __future__ import annotations

import pytest
from test_units_world import add_hose, events, usetup, uworld

from fireground.engine.board.model import ForceUnit
from fireground.engine.games.blitz.rules import equipment, water

S00, S01, B = ("S00", 0), ("S01", 0), ("B02", 0)


def game(forces=None, **kw):
    forces = forces or [ForceUnit("E1", "general_appliance", area="S00")]
    ctx, st = usetup(uworld(["SSB"], forces=forces, **kw))
    return ctx, st


def test_tank_feeds_lines_and_runs_dry():
    ctx, st = game()
    e1 = st.units["E1"]
    e1.water = 3
    add_hose(st, "H1", "E1", [S00, S01], B, ["E1.1"])
    add_hose(st, "H2", "E1", [S00, S01], B, ["E1.2"])
    water.step_water(ctx, st)
    assert (st.hoses["H1"].water, st.hoses["H2"].water, e1.water) == (1, 1, 1)
    water.step_water(ctx, st)
    assert (st.hoses["H1"].water, st.hoses["H2"].water, e1.water) == (1, 0, 0)
    assert events(ctx, "no_water")[0]["hose"] == "H2"
    water.step_water(ctx, st)
    assert e1.water == 0 and st.hoses["H1"].water == 0


def test_one_line_per_delivery_pump():
    ctx, st = game([ForceUnit("HU", "heavy_unit", area="S00")])  # one pump
    st.units["HU"].water = 5
    add_hose(st, "H1", "HU", [S00, S01], B, ["HU.1"])
    add_hose(st, "H2", "HU", [S00, S01], B, ["HU.2"])
    water.step_water(ctx, st)
    assert [st.hoses[h].water for h in ("H1", "H2")] == [1, 0]


def test_hydrant_gives_its_pressure_a_turn():
    ctx, st = game(hydrants=["S00"], pressure={"S00": 2})
    e1 = st.units["E1"]
    assert equipment.connect(ctx, st, e1, "hydrant:S00")
    assert e1.hose_left == 9  # one length to connect
    e1.water = 0
    for i in range(3):
        add_hose(st, f"H{i}", "E1", [S00, S01], B, [f"E1.{i + 1}"])
    water.step_water(ctx, st)
    assert [st.hoses[f"H{i}"].water for i in range(3)] == [1, 1, 0]
    water.step_water(ctx, st)  # a hydrant is not used up
    assert [st.hoses[f"H{i}"].water for i in range(3)] == [1, 1, 0]


def test_tank_tops_up_a_short_hydrant():
    ctx, st = game(hydrants=["S00"], pressure={"S00": 1})
    e1 = st.units["E1"]
    equipment.connect(ctx, st, e1, "hydrant:S00")
    add_hose(st, "H1", "E1", [S00, S01], B, ["E1.1"])
    add_hose(st, "H2", "E1", [S00, S01], B, ["E1.2"])
    water.step_water(ctx, st)
    assert [st.hoses[h].water for h in ("H1", "H2")] == [1, 1] and e1.water == 9


def test_only_two_appliances_on_a_hydrant():
    forces = [ForceUnit(f"E{i}", "general_appliance", area="S00") for i in (1, 2, 3)]
    ctx, st = game(forces, hydrants=["S00"])
    assert equipment.connect(ctx, st, st.units["E1"], "hydrant:S00")
    assert equipment.connect(ctx, st, st.units["E2"], "hydrant") is False  # needs the full name
    assert equipment.connect(ctx, st, st.units["E2"], "hydrant:S00")
    why = equipment.connect_problem(ctx, st, st.units["E3"], "hydrant:S00")
    assert why is not None and "two appliances" in why


def test_failed_mains_and_lost_hydrants_give_nothing():
    ctx, st = game(hydrants=["S00"], mains="failed")
    assert "mains" in equipment.connect_problem(ctx, st, st.units["E1"], "hydrant:S00")
    ctx, st = game(hydrants=["S00"])
    e1 = st.units["E1"]
    equipment.connect(ctx, st, e1, "hydrant:S00")
    e1.water = 0
    st.hydrants_lost.add("S00")  # lost after connecting (an HE bomb)
    add_hose(st, "H1", "E1", [S00, S01], B, ["E1.1"])
    water.step_water(ctx, st)
    assert st.hoses["H1"].water == 0


def test_open_water_by_suction_is_used_up_and_never_negative():
    ctx, st = usetup(
        uworld(["WSB"], forces=[ForceUnit("E1", "general_appliance", area="S01")], water={"W00": 2})
    )
    e1 = st.units["E1"]
    e1.water = 0
    assert equipment.connect(ctx, st, e1, "open:W00") and e1.hose_left == 10  # no hose length
    add_hose(st, "H1", "E1", [S01], ("B02", 0), ["E1.1"])
    add_hose(st, "H2", "E1", [S01], ("B02", 0), ["E1.2"])
    add_hose(st, "H3", "E1", [S01], ("B02", 0), ["E1.3"])
    water.step_water(ctx, st)
    assert st.water_left["W00"] == 0
    assert [st.hoses[h].water for h in ("H1", "H2", "H3")] == [1, 1, 0]
    water.step_water(ctx, st)
    assert st.water_left["W00"] == 0 and all(h.water == 0 for h in st.hoses.values())


def test_suction_needs_the_bank():
    ctx, st = usetup(
        uworld(["WSS"], forces=[ForceUnit("E1", "general_appliance", area="S02")], water={"W00": 9})
    )
    assert "bank" in equipment.connect_problem(ctx, st, st.units["E1"], "open:W00")


def test_dam_feeds_a_pump_next_to_it():
    forces = [
        ForceUnit("E1", "general_appliance", area="S00"),
        ForceUnit("D", "mobile_dam_unit", area="S01"),
    ]
    ctx, st = game(forces)
    dam, e1 = st.units["D"], st.units["E1"]
    assert "not a deployed dam" in equipment.connect_problem(ctx, st, e1, "dam:D")
    equipment.deploy(ctx, st, dam)
    for _ in range(3):
        equipment.advance_work(ctx, st)
    assert equipment.connect(ctx, st, e1, "dam:D")
    e1.water = 0
    add_hose(st, "H1", "E1", [S00, S01], B, ["E1.1"])
    water.step_water(ctx, st)
    assert (
        st.hoses["H1"].water == 1
        and dam.water == ctx.rules.units["mobile_dam_unit"]["dam_points"] - 1
    )


@pytest.mark.parametrize(
    ("lengths", "hydrant", "wet"),
    [(14, False, True), (15, False, False), (13, True, True), (14, True, False)],
)
def test_fourteen_lengths_at_most(lengths, hydrant, wet):
    ctx, st = game(hydrants=["S00"])
    e1 = st.units["E1"]
    if hydrant:
        equipment.connect(ctx, st, e1, "hydrant:S00")
    add_hose(st, "H1", "E1", [S00, S01], B, ["E1.1"], lengths=lengths)
    water.step_water(ctx, st)
    assert (st.hoses["H1"].water == 1) is wet
    assert bool(events(ctx, "no_pressure")) is not wet


def test_lines_still_being_laid_or_unaimed_take_no_water():
    ctx, st = game()
    h = add_hose(st, "H1", "E1", [S00], B, ["E1.1"])
    h.plan = [S01]
    add_hose(st, "H2", "E1", [S00], None, ["E1.2"])
    water.step_water(ctx, st)
    assert st.units["E1"].water == 10 and all(x.water == 0 for x in st.hoses.values())
