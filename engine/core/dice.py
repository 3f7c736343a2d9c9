"""Dice: the only source of chance in the engine.

:class:`Dice` wraps its own :class:`random.Random` (never the global one), so a seed
reproduces a game exactly. :class:`ScriptedDice` plays back a fixed sequence for tests and
raises :class:`DiceExhausted` when a test rolls more than it scripted.

>>> Dice(7).d6(2) == Dice(7).d6(2)
True
>>> ScriptedDice([6, 1]).d6(2)
[6, 1]
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

Bounds = tuple[float, float, float, float]


class DiceExhausted(RuntimeError):
    """A scripted dice ran out of scripted values."""


class Dice:
    """Seeded six-sided dice, plus uniform table points for bomb drops (R-6)."""

    def __init__(self, seed: int | None = 0) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def d6(self, n: int = 1) -> list[int]:
        """``n`` six-sided dice, each 1..6."""
        r = self._rng.random
        return [int(r() * 6) + 1 for _ in range(n)]

    def die(self) -> int:
        """One six-sided die: the same value ``d6(1)[0]`` would give, without the list."""
        return int(self._rng.random() * 6) + 1

    def uniform(self) -> Callable[[], float]:
        """For hot loops: a source of numbers in [0, 1) of which :meth:`die` is
        ``int(x * 6) + 1``, drawing from the same stream, so that ``die() >= k`` is
        ``x * 6 >= k - 1`` with no call to :meth:`die` per roll."""
        return self._rng.random

    def point(self, bounds: Bounds) -> tuple[float, float]:
        """A uniformly random point of the rectangle ``(minx, miny, maxx, maxy)``."""
        minx, miny, maxx, maxy = bounds
        r = self._rng.random
        return (minx + (maxx - minx) * r(), miny + (maxy - miny) * r())

    def getstate(self) -> object:
        return self._rng.getstate()

    def setstate(self, state: object) -> None:
        self._rng.setstate(state)  # type: ignore[arg-type]


class ScriptedDice(Dice):
    """Dice that return scripted values in order (for tests).

    ``rolls`` feeds :meth:`d6` one die at a time; ``points`` feeds :meth:`point`.
    """

    def __init__(
        self, rolls: Iterable[int] = (), points: Iterable[tuple[float, float]] = ()
    ) -> None:
        super().__init__(None)
        self.rolls = list(rolls)
        self.points = list(points)
        for v in self.rolls:
            if not 1 <= v <= 6:
                raise ValueError(f"scripted die {v} is not 1..6")
        self._i = 0
        self._p = 0

    def d6(self, n: int = 1) -> list[int]:
        if self._i + n > len(self.rolls):
            raise DiceExhausted(
                f"scripted dice used up: wanted {n} more after {self._i} of {len(self.rolls)}"
            )
        out = self.rolls[self._i : self._i + n]
        self._i += n
        return out

    def die(self) -> int:
        return self.d6(1)[0]

    def uniform(self) -> Callable[[], float]:
        """The scripted dice as :meth:`Dice.uniform` numbers (the middle of each sixth)."""
        return lambda: (self.die() - 0.5) / 6

    def point(self, bounds: Bounds) -> tuple[float, float]:
        if self._p >= len(self.points):
            raise DiceExhausted(f"scripted points used up after {self._p}")
        p = self.points[self._p]
        self._p += 1
        return p

    @property
    def remaining(self) -> int:
        """Scripted dice not yet rolled."""
        return len(self.rolls) - self._i
