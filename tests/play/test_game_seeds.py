"""``game_seeds`` works numpy's SeedSequence out in Python for a whole-number seed: the same
words as numpy gives, for small, large and multi-word seeds and any number of games."""

from __future__ import annotations

import random

import numpy as np
import pytest

from fireground.engine.play.montecarlo import game_seeds


def _numpy_seeds(seed: int | None, games: int) -> list[int]:
    words = np.random.SeedSequence(seed).generate_state(max(games, 1), dtype=np.uint64)
    return [int(w) for w in words[:games]]


_RNG = random.Random(20261128)
SEEDS = [
    *range(40),
    1940,
    1941,
    2**31 - 1,
    2**32 - 1,
    2**32,
    2**32 + 1,
    2**64 - 1,
    2**64,
    2**96 + 7,  # four words: the pool's size
    2**128 + 3,  # five words: one mixed in after the pool
    2**200 + 11,
    *(_RNG.getrandbits(_RNG.randint(1, 300)) for _ in range(60)),
]


@pytest.mark.parametrize("games", [0, 1, 2, 3, 20, 41, 400])
def test_the_same_words_as_numpy(games: int) -> None:
    for seed in SEEDS:
        assert game_seeds(seed, games) == _numpy_seeds(seed, games), seed


def test_other_seeds_are_numpy_s() -> None:
    # None: fresh entropy each call (different games); a negative seed: numpy's own error
    a, b = game_seeds(None, 3), game_seeds(None, 3)
    assert len(a) == 3 and a != b
    with pytest.raises(ValueError):
        game_seeds(-1, 3)
    assert game_seeds(np.int64(7), 5) == _numpy_seeds(7, 5)  # type: ignore[arg-type]


def test_a_game_s_seed_does_not_depend_on_the_count() -> None:
    assert game_seeds(1940, 400)[:20] == game_seeds(1940, 20)
