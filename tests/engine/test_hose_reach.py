"""The autopilot's hose reach (§7, §9), one formula for parking and the wheelbarrow pump."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from fireground.engine.games.blitz.reach.hose_steps import hose_reach
from fireground.engine.play.simulate import new_game
from fireground.engine.scenario.io import load_scenario

STEPNEY = Path(__file__).resolve().parents[2] / "examples" / "stepney.fg.yaml"


def test_hose_reach_lays_all_but_the_branch_length_then_adds_the_stream_capped_by_the_rules():
    ctx = new_game(load_scenario(STEPNEY), 1).ctx
    per = ctx.rules.int("hose.steps_per_length")
    stream = ctx.rules.int("firefighting.max_range")
    cap = per * ctx.rules.int("hose.max_lengths")
    assert hose_reach(ctx, 3) == min(per * 2 + stream, cap)
    assert hose_reach(ctx, 1) == hose_reach(ctx, 2) == min(per + stream, cap)  # at least one
    assert hose_reach(ctx, 10_000) == cap


def test_a_house_rule_moves_the_reach():
    sc = load_scenario(STEPNEY)
    longer = replace(sc, house_rules={**sc.house_rules, "firefighting.max_range": 1})
    ctx = new_game(longer, 1).ctx
    assert ctx.rules.int("firefighting.max_range") == 1
    per = ctx.rules.int("hose.steps_per_length")
    assert hose_reach(ctx, 2) == min(per + 1, per * ctx.rules.int("hose.max_lengths"))
