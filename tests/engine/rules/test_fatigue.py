"""Step 10 crew status: tired after 30 active turns, exhausted after 60, rest 1d6 x 2."""

from __future__ import annotations

import pytest
from test_units_world import events, usetup, uworld

from fireground.engine.board.model import ForceUnit
from fireground.engine.games.blitz.rules import fatigue
from fireground.engine.games.blitz.units import STAND, UnitState


def crew(task="fight", active=0, status="ok", dice=(), canteen=False):
    forces = [ForceUnit("CT", "canteen_truck", area="S00")] if canteen else []
    ctx, st = usetup(uworld(["SB"], forces=forces), dice)
    ctx.step = 10
    st.units["T"] = u = UnitState("T", "fire_team", STAND, ("S00", 0), task=task,
                                   active_turns=active, status=status)  # fmt: skip
    return ctx, st, u


@pytest.mark.parametrize(("active", "status"), [(28, "ok"), (29, "tired"), (59, "exhausted")])
def test_tired_after_30_exhausted_after_60(active, status):
    ctx, st, u = crew(active=active, status="tired" if active >= 30 else "ok")
    fatigue.step_fatigue(ctx, st)
    assert u.active_turns == active + 1 and u.status == status


@pytest.mark.parametrize("task", ["idle", "rest", "aboard"])
def test_idle_riding_or_resting_is_not_activity(task):
    ctx, st, u = crew(task=task, active=29, dice=[6])
    fatigue.step_fatigue(ctx, st)
    assert u.active_turns == 29 and u.status == "ok"


def test_first_turn_of_tiredness_is_logged():
    ctx, st, _u = crew(active=29)
    fatigue.step_fatigue(ctx, st)
    assert events(ctx, "fatigue")[0]["status"] == "tired"


def test_rest_1d6_x2_turns_recovers_one_step():
    ctx, st, u = crew(task="rest", active=60, status="exhausted", dice=[2])
    turns = 0
    while u.task == "rest":
        fatigue.step_fatigue(ctx, st)
        turns += 1
    assert turns == 4 and u.status == "tired" and u.active_turns == 30
    (ev,) = events(ctx, "rest")
    assert ev["dice"] == [2] and ev["need"] == "table"


@pytest.mark.parametrize(("roll", "turns"), [(3, 3), (1, 1), (6, 6)])
def test_canteen_halves_the_rest_rounded_up(roll, turns):
    ctx, st, u = crew(task="rest", active=30, status="tired", dice=[roll], canteen=True)
    rations = st.units["CT"].rations
    n = 0
    while u.task == "rest":
        fatigue.step_fatigue(ctx, st)
        n += 1
    assert n == turns and u.status == "ok" and u.active_turns == 0
    assert st.units["CT"].rations == rations - turns


def test_empty_canteen_does_not_help():
    ctx, st, u = crew(task="rest", active=30, status="tired", dice=[3], canteen=True)
    st.units["CT"].rations = 0
    n = 0
    while u.task == "rest":
        fatigue.step_fatigue(ctx, st)
        n += 1
    assert n == 6
