"""Spray hits against the exact chances of the rules (2.2): 3+ at distance 1, 5+ at 2."""

from __future__ import annotations

import math

import pytest

from fireground.engine.core.dice import Dice
from fireground.engine.games.forestfire.rules import load_rules
from fireground.engine.games.forestfire.state import ACT, Action, Engine, Phase, State
from fireground.engine.games.forestfire.steps import apply, hit_chance

R = load_rules()


@pytest.mark.slow
@pytest.mark.parametrize(("distance", "exact"), [(1, 4 / 6), (2, 2 / 6)])
def test_spray_hit_rate_matches_the_exact_chance(distance: int, exact: float) -> None:
    st = State((0,) * 4 + (1,) + (0,) * 6, (False,) * 11, (Engine(5 - distance, 1),), 0, 1,
               Phase(ACT))  # fmt: skip
    assert hit_chance(st, Action("spray", 5), R) == pytest.approx(exact)
    dice = Dice(20261124)
    n = 20_000
    hits = 0
    for _ in range(n):
        _, ev = apply(st, Action("spray", 5), R, dice, check=False)
        assert ev[0]["need"] == (3 if distance == 1 else 5)
        hits += ev[0]["success"]
    # 4.5 standard errors: a fair die fails this about once in 150,000 runs, while a
    # die off by one face (e.g. 4+ instead of 3+, a change of 1/6) misses it by 50 errors.
    tol = 4.5 * math.sqrt(exact * (1 - exact) / n)
    assert abs(hits / n - exact) < tol
