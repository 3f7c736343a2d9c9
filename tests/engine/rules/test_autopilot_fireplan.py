"""The firefighting plan, round 10 (issue 15): with ``policy.hold_back_fire`` a fire that
can spread nowhere (every neighbour burning, destroyed or unable to burn) gets lines last,
and a line on one turns to a fire in its range that can still spread."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from test_units_world import add_hose, usetup, uworld

from fireground.engine.board.model import ForceUnit
from fireground.engine.games.blitz.autopilot import driver, priorities
from fireground.engine.games.blitz.reach import danger
from fireground.engine.games.blitz.rules import ignition
from fireground.engine.play.simulate import new_game
from fireground.engine.scenario.io import load_scenario

BASELINE = Path(__file__).resolve().parents[3] / "benchmarks" / "baseline_examples"


def lost_world(hold: float, fire: int = 1):
    # two rows of houses under the street; all burn but the east end (B13, B23): B10, B11,
    # B20 and B21 have only fires and an empty street round them, B12 and B22 touch a
    # house that has not caught
    fires = {(f"B{r}{c}", 0): fire for r in (1, 2) for c in range(3)}
    sc = uworld(
        ["SSSSSS", "BBBB..", "BBBB.."],
        fires=fires,
        hydrants=["S05"],
        forces=[ForceUnit("E1", "general_appliance", area="S05")],
        house_rules={"policy.hold_back_fire": hold},
    )
    return usetup(sc)


def test_a_fire_with_nothing_left_to_catch_is_a_lost_cause():
    ctx, st = lost_world(1)
    lost = {f for f in st.fire if priorities.lost_cause(ctx, st, f)}
    assert lost == {("B10", 0), ("B11", 0), ("B20", 0), ("B21", 0)}
    pri = priorities.priority_locations(ctx, st)
    assert priorities.fire_priority(ctx, st, ("B11", 0), pri) == priorities.LOST_CAUSE
    assert priorities.fire_priority(ctx, st, ("B12", 0), pri) == 1


def test_a_vehicle_or_an_unburnt_house_next_door_is_something_to_save():
    ctx, st = lost_world(1)
    st.units["E1"].loc = ("S01", 0)  # a vehicle makes its street one that burns (§3 Roads)
    assert not priorities.lost_cause(ctx, st, ("B11", 0))
    ctx, st = lost_world(1)
    del st.fire[("B21", 0)]  # B21 no longer burns: B11 and B20 could spread into it
    assert not priorities.lost_cause(ctx, st, ("B11", 0))
    st.damage[("B21", 0)] = ctx.rules.int("damage.destroyed")  # ... unless it is destroyed
    assert priorities.lost_cause(ctx, st, ("B11", 0))


@pytest.mark.parametrize(("hold", "fire", "lost"), [(0, 1, False), (3, 2, False), (3, 3, True)])
def test_the_policy_sets_the_smallest_lost_cause(hold, fire, lost):
    ctx, st = lost_world(hold, fire)
    assert priorities.lost_cause(ctx, st, ("B11", 0)) is lost


@pytest.mark.parametrize(("hold", "target"), [(1, ("B12", 0)), (0, ("B11", 0))])
def test_a_line_on_a_lost_cause_turns_to_a_fire_that_can_spread(hold, target):
    ctx, st = lost_world(hold)
    crew = sorted(u for u in st.units if st.units[u].parent == "E1")[0]
    path = [("S05", 0), ("S04", 0), ("S03", 0), ("S02", 0)]
    h = add_hose(st, "H1", "E1", path, ("B11", 0), crew=[crew], lengths=2)
    driver.standing_orders(ctx, st)
    assert h.target == target  # B12 is in range (1) from S02, B11 at 2
    assert st.units[crew].task == "fight"


def lost_one_by_one(ctx, st, least):
    """The lost causes as the rule reads, fire by fire: at ``least`` or more, and every
    neighbour burning, destroyed or unable to burn."""
    gone = ctx.rules.int("damage.destroyed")
    vehicles = ignition.vehicle_areas(st)
    return {
        f
        for f, v in st.fire.items()
        if 0 < least <= v
        and all(
            nb in st.fire
            or st.damage.get(nb, 0) >= gone
            or not ignition.is_flammable(ctx, st, nb, vehicles)
            for nb in ctx.graph.neighbours(f)
        )
    }


@pytest.mark.parametrize("hold", [1, 4])
def test_the_sweep_finds_each_fires_own_answer_through_a_game(hold):
    """:func:`priorities.lost_causes` walks the fires when they are few and the map read
    backwards when they are many: both give the fire-by-fire answer at every turn of a
    game that goes from a few fires to most of the map."""
    sc = load_scenario(BASELINE / "paternoster.fg.yaml")
    sc = replace(sc, house_rules={**sc.house_rules, "policy.hold_back_fire": hold})
    game = new_game(sc, 7, log_events=False)
    ctx, st = game.ctx, game.state
    near = danger.neighbours_of(ctx)
    few = many = 0
    for _ in range(40):
        game.step()
        want = lost_one_by_one(ctx, st, hold)
        assert set(priorities.lost_causes(ctx, st)) == want
        assert {f for f in st.fire if priorities.lost_cause(ctx, st, f)} == want
        if 4 * len(st.fire) <= len(near) - len(st.fire):
            few += 1
        elif want:
            many += 1
    assert few >= 3 and many >= 10  # both ways were asked, the second with lost causes


def test_a_fire_off_the_map_has_nothing_to_catch():
    ctx, st = lost_world(1)
    st.fire[("B12", 3)] = 2  # no such level: no neighbour
    assert priorities.lost_causes(ctx, st) == lost_one_by_one(ctx, st, 1)
    assert ("B12", 3) in priorities.lost_causes(ctx, st)
