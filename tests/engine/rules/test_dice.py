"""Dice: seeded, independent of global randomness, scripted for tests."""

from __future__ import annotations

import random

import pytest

from fireground.engine.core.dice import Dice, DiceExhausted, ScriptedDice


def test_same_seed_same_rolls_and_points():
    a, b = Dice(42), Dice(42)
    assert a.d6(50) == b.d6(50)
    assert a.point((0, 0, 10, 5)) == b.point((0, 0, 10, 5))


def test_global_random_does_not_leak():
    a = Dice(3)
    first = a.d6(20)
    random.seed(99)
    random.random()
    assert Dice(3).d6(20) == first


def test_faces_uniform_chi_square():
    n = 60000
    rolls = Dice(1).d6(n)
    counts = [rolls.count(f) for f in range(1, 7)]
    expected = n / 6
    chi2 = sum((c - expected) ** 2 / expected for c in counts)
    assert chi2 < 20.5  # 5 degrees of freedom: p = 0.001


def test_points_inside_bounds():
    d = Dice(5)
    for _ in range(1000):
        x, y = d.point((-3, 2, 7, 4))
        assert -3 <= x <= 7 and 2 <= y <= 4


def test_scripted_plays_back_and_runs_out():
    d = ScriptedDice([1, 2, 3], points=[(1.0, 2.0)])
    assert d.d6(2) == [1, 2] and d.remaining == 1
    assert d.point((0, 0, 1, 1)) == (1.0, 2.0)
    with pytest.raises(DiceExhausted):
        d.d6(2)
    with pytest.raises(DiceExhausted):
        d.point((0, 0, 1, 1))


def test_scripted_refuses_impossible_faces():
    with pytest.raises(ValueError):
        ScriptedDice([7])


def test_uniform_is_the_same_stream_as_die():
    """Hot loops test ``uniform() * 6 >= k - 1`` for ``die() >= k``: the same rolls, in the
    same order, and the stream goes on exactly where die() would have left it."""
    a, b = Dice(9), Dice(9)
    u = a.uniform()
    xs = [u() for _ in range(5000)]
    assert [int(x * 6) + 1 for x in xs] == [b.die() for _ in range(5000)]
    for k in range(0, 8):
        assert [x * 6 >= k - 1 for x in xs[:500]] == [int(x * 6) + 1 >= k for x in xs[:500]]
    assert a.d6(3) == b.d6(3) and a.getstate() == b.getstate()


def test_scripted_uniform_gives_the_scripted_faces():
    d = ScriptedDice([1, 6, 3])
    u = d.uniform()
    assert [int(u() * 6) + 1 for _ in range(3)] == [1, 6, 3]
    with pytest.raises(DiceExhausted):
        u()
