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


def test_a_line_laid_in_play_and_the_checks_reach_count_lengths_alike():
    """§7, one function: the lengths a line laid in play takes (``path_lengths``) and the
    lengths the checks' reach counts from open water (``MapGraph.hose_lengths``) agree for
    every line along a walk of Stepney's streets, 0 steps (a branch at the pump: one
    length) included; from a hydrant the reach adds the connecting length."""
    from fireground.engine.games.blitz.rules.hoses import path_lengths

    ctx = new_game(load_scenario(STEPNEY), 1).ctx
    g = ctx.graph
    walk, seen = [ctx.scenario.areas[0].id], set()
    while len(walk) < 12:  # a walk of distinct areas, level 0
        seen.add(walk[-1])
        nxt = [n for n in g.horizontal((walk[-1], 0)) if n[1] == 0 and n[0] not in seen]
        if not nxt:
            break
        walk.append(sorted(nxt)[0][0])
    assert len(walk) >= 6
    hyd = ctx.rules.int("hose.hydrant_lengths")
    for n in range(len(walk)):
        path = [(a, 0) for a in walk[: n + 1]]
        assert path_lengths(ctx, path) == g.hose_lengths(n, hydrant=False)
        assert g.hose_lengths(n) == g.hose_lengths(n, hydrant=False) + hyd
    assert path_lengths(ctx, [(walk[0], 0)]) == 1
