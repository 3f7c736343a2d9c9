"""Speed, round 23b (issue 15): :func:`.jobs.best_job` takes the positions (and each fire's
positions) best bound first and leaves at the first that cannot beat the best so far, so
it asks the dear tests (``p_open``, the trap check) of few positions. Its answer must stay
the least key over every (position, fire) pair: pinned here against a plain sweep of all
of them, on real mid-game states, with short and long hoses (both of its walks: fewer
fires than positions, and more)."""

from __future__ import annotations

from pathlib import Path

from fireground.engine.games.blitz.autopilot import jobs
from fireground.engine.games.blitz.autopilot.priorities import (
    coverage,
    fire_priority,
    p_extinguish,
    p_heat,
    priority_locations,
)
from fireground.engine.games.blitz.autopilot.safety import too_hot, trapped
from fireground.engine.games.blitz.memos import (
    AP_P_IN,
    AP_PRIO,
    HEAT_MEMO,
    ROUTE_MEMO,
    SEARCH_MEMO,
    UNSAFE_MEMO,
)
from fireground.engine.games.blitz.reach import danger, foot
from fireground.engine.games.blitz.rules import hoses, reach
from fireground.engine.play.simulate import new_game
from fireground.engine.scenario.io import load_scenario

PATERNOSTER = Path(__file__).resolve().parents[3] / "examples" / "paternoster.fg.yaml"


def mid_game(turns: int, seed: int):
    game = new_game(load_scenario(PATERNOSTER), seed, log_events=False)
    game.run(turns)  # fires, heat and units spread over the map
    return game.ctx, game.state


MEMOS = (HEAT_MEMO, ROUTE_MEMO, SEARCH_MEMO, UNSAFE_MEMO, AP_PRIO, AP_P_IN)


def step6_memos(ctx) -> None:
    """Fresh memos as step 6 and the standing orders set them up."""
    for key in MEMOS:
        ctx.cache[key] = {}


def sweep(ctx, state, pump, stock, pri):
    """best_job's answer the plain way: every position the hoses reach, every fire in its
    range, the least (cover, priority, -chance, hose steps, position, fire)."""
    r = ctx.rules
    per = r.int("hose.steps_per_length")
    hyd = r.int("hose.hydrant_lengths") if (pump.source or "").startswith("hydrant:") else 0
    reserved = sum(
        hoses.path_lengths(ctx, [*h.path, *h.plan]) - h.lengths
        for h in state.hoses.values()
        if h.plan and h.stock == stock.id
    )
    max_len = min(stock.hose_left - reserved, r.int("hose.max_lengths") - hyd)
    if pump.loc is None or hoses.pump_capacity(state, pump) <= 0 or max_len <= 0:
        return None
    dist, prev = foot.foot_search(ctx, state, pump.loc, per * max_len, weight=2)
    cov = coverage(state)
    water = danger.water_area_set(ctx)
    best = None
    for x, d in dist.items():
        if x[0] in water or danger.unsafe(ctx, state, x) or too_hot(ctx, state, x):
            continue
        h = danger.heat(ctx, state, x)
        p_in = p_heat(ctx, h)
        if p_in > 0 and h > 0:
            p_in *= jobs._risk_weight(ctx, state, x)
        if p_in <= 0 or trapped(ctx, state, x):
            continue
        for t, rng in reach.in_range(ctx, x):
            if rng < 1 or t not in state.fire:
                continue
            p = p_extinguish(state.fire[t], r.int(f"firefighting.range.{rng}")) * p_in
            if p <= 0:
                continue
            key = (
                cov.get(t, 0) >= 2, fire_priority(ctx, state, t, pri), -round(p, 3), d, x, t
            )  # fmt: skip
            if best is None or key < best:
                best = key
    if best is None:
        return None
    x, t = best[4], best[5]
    return t, foot.path_to(prev, pump.loc, x)


def test_best_job_is_the_least_key_over_every_pair():
    """Every pump of four mid-game states, hoses of 1, 2, 4 lengths and its own, in and
    out of step 6's memos: best_job's answer is the plain sweep's."""
    walks = {"fewer fires": 0, "more fires": 0}
    found = 0
    for turns, seed in [(9, 11), (20, 11), (14, 3), (30, 5)]:
        ctx, state = mid_game(turns, seed)
        pri = priority_locations(ctx, state)
        pumps = [u for u in state.units.values() if u.loc is not None and u.pumps > 0]
        assert pumps and state.fire
        for pump in sorted(pumps, key=lambda u: u.id):
            old_left = pump.hose_left
            for left in sorted({1, 2, 4, old_left}):
                pump.hose_left = left
                for step6 in (False, True):
                    step6_memos(ctx)
                    if not step6:
                        for key in MEMOS:
                            del ctx.cache[key]
                    got = jobs.best_job(ctx, state, pump, pump, pri)
                    step6_memos(ctx)  # (the sweep asks afresh)
                    want = sweep(ctx, state, pump, pump, pri)
                    assert got == want, (turns, seed, pump.id, left, step6)
                    if got is not None:
                        found += 1
                        # which of best_job's two walks this was (no line is being laid)
                        per = ctx.rules.int("hose.steps_per_length")
                        dist, _ = foot.foot_search(ctx, state, pump.loc, per * left, weight=2)
                        fewer = len(state.fire) <= len(dist)
                        walks["fewer fires" if fewer else "more fires"] += 1
            pump.hose_left = old_left
    assert found >= 40 and min(walks.values()) >= 10, (found, walks)
