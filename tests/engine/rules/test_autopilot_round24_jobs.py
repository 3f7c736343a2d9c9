"""Speed, round 24 (issue 15): :func:`.jobs.best_job` rounds its chances with
:func:`.jobs.round3` (arithmetic, no decimal string) instead of the builtin ``round(p, 3)``,
and :func:`.jobs.next_target` picks its fire in a loop instead of ``min`` with a key
lambda. Both must give exactly what they replaced: ``round3`` the builtin's double (sign
of a zero included) on chances of every kind, near the halves most of all;
``next_target`` the old ``min``'s pick from every branch on the map of real mid-game
states (``best_job`` itself is pinned against a sweep with the builtin ``round`` in
``test_autopilot_round23_jobs.py``)."""

from __future__ import annotations

import math
import random
from pathlib import Path

from fireground.engine.games.blitz.autopilot import jobs
from fireground.engine.games.blitz.autopilot.priorities import (
    coverage,
    fire_priority,
    p_extinguish,
    p_heat,
    priority_locations,
)
from fireground.engine.games.blitz.memos import AP_PRIO, HEAT_MEMO, UNSAFE_MEMO
from fireground.engine.games.blitz.rules import reach
from fireground.engine.games.blitz.units import HoseLine
from fireground.engine.play.simulate import new_game
from fireground.engine.scenario.io import load_scenario

PATERNOSTER = Path(__file__).resolve().parents[3] / "examples" / "paternoster.fg.yaml"


def same(a: float, b: float) -> bool:
    """The same double, the sign of a zero included."""
    return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)


def test_round3_is_the_builtin_round():
    rng = random.Random(24)
    values = [rng.random() for _ in range(200_000)]
    # the thousandths and the halves between them, and the doubles either side of each
    # (where the product's last bit decides which way the builtin goes)
    for k in range(1001):
        for x in (k / 1000, (k + 0.5) / 1000):
            values += [x, math.nextafter(x, 0.0), math.nextafter(x, 1.0)]
            values += [x + d for d in (1e-12, -1e-12, 1e-15, -1e-15)]
    # the chances best_job rounds: p_extinguish by fire and range modifier, times the
    # heat test's chance and the risk weights on a position
    sure = [p_extinguish(f, m) for f in range(0, 12) for m in range(-3, 4)]
    into = [(7 - h) / 6 for h in range(0, 8)] + [1.0, 0.0]
    weights = [1.0, jobs.RISKY, jobs.RISKY / 2, jobs.P_IN_MAX]
    values += [a * b * w for a in sure for b in into for w in weights]
    values += [0.0, -0.0, 1.0, 1.0000001, 2.5, -0.0005, -0.3, 1e-300, 5e-324]
    bad = [v for v in values if not same(jobs.round3(v), round(v, 3))]
    assert not bad, bad[:10]


def mid_game(turns: int, seed: int):
    game = new_game(load_scenario(PATERNOSTER), seed, log_events=False)
    game.run(turns)  # fires, heat and units spread over the map
    return game.ctx, game.state


def old_next_target(ctx, state, h, pri, wet=True):
    """next_target as it was before round 24 (min with a key lambda)."""
    cands = reach.in_range(ctx, h.branch)
    fires = [(loc, r) for loc, r in cands if loc in state.fire and r >= 1]
    if fires:
        cov = coverage(state)
        return min(
            fires,
            key=lambda lr: (
                cov.get(lr[0], 0) >= 2,
                fire_priority(ctx, state, lr[0], pri),
                -p_extinguish(state.fire[lr[0]], ctx.rules.int(f"firefighting.range.{lr[1]}")),
                lr[0],
            ),
        )[0]
    return jobs.next_target(ctx, state, h, pri, wet)  # (no fire in range: not changed)


def test_next_target_picks_as_min_did():
    """From every location of four mid-game maps as a branch, with lines already on some
    fires (so the cover field decides some picks): the same pick, in and out of step 6's
    memos."""
    picked = covered = 0
    for turns, seed in [(9, 11), (20, 11), (14, 3), (30, 5)]:
        ctx, state = mid_game(turns, seed)
        pri = priority_locations(ctx, state)
        assert state.fire
        # two more lines on each of a few fires: those are covered (cover 2 or more)
        for i, t in enumerate(sorted(state.fire)[::7]):
            for j in range(2):
                hid = f"test-{i}-{j}"
                state.hoses[hid] = HoseLine(id=hid, unit="none", path=[t], target=t)
        cov = coverage(state)
        for step6 in (False, True):
            for key in (HEAT_MEMO, UNSAFE_MEMO, AP_PRIO):
                if step6:
                    ctx.cache[key] = {}
                else:
                    ctx.cache.pop(key, None)
            for branch in ctx.graph.locations:
                h = HoseLine(id="probe", unit="none", path=[branch], target=None)
                want = old_next_target(ctx, state, h, pri)
                got = jobs.next_target(ctx, state, h, pri)
                assert got == want, (turns, seed, branch, step6)
                if got is not None and got in state.fire:
                    picked += 1
                    if any(cov.get(t, 0) >= 2 for t, r in reach.in_range(ctx, branch)):
                        covered += 1
    assert picked >= 200 and covered >= 20, (picked, covered)


def test_heat_chances_are_in_round3s_fast_range():
    """round3's arithmetic covers 0 to 1: the chances best_job rounds lie there (the rest
    would only be slower, through the builtin)."""
    ctx, _ = mid_game(1, 1)
    for h in range(0, 10):
        assert 0.0 <= p_heat(ctx, h) <= 1.0
    assert jobs.P_IN_MAX <= 1.0
