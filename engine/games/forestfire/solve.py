"""The exact value of Forest Fire under best play, by expectiminimax with memoisation.

Fire maximises and the Chief minimises the expected result score of
:func:`~.evaluate.final_utility` (1 for a Fire total victory, 0.5 marginal, 0 a Chief
victory); a spray at a distance is a chance node (hit or miss with the exact chances of
the rules). Every decision of the step table is searched, the round cap included (the
round is part of the position), so the answer is the game's value, not an estimate.

Positions are memoised; at the start of a Fire turn the engines are put in a canonical
order (E1 and E2 are alike, so swapping them changes nothing). That is small enough for
short boards; the number of positions grows fast with the board's length.

``fixed`` lets one side play a given policy instead of its best, so the same search gives
how much a policy gives away against a best reply (its value against best play).
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from .evaluate import final_utility
from .rules import Rules
from .state import FIRE, FIRE_ACTION, Action, State
from .steps import legal_actions, outcomes

FixedPolicy = Callable[[State, list[Action], Rules], Action]


@dataclass(frozen=True)
class Solution:
    """The value of a position and what it took to find it."""

    value: float
    positions: int
    seconds: float


class Solver:
    """Expectiminimax over a position's whole game tree (see the module docstring)."""

    def __init__(self, rules: Rules, fixed: dict[str, FixedPolicy] | None = None,
                 limit: int = 50_000_000) -> None:  # fmt: skip
        self.rules = rules
        self.fixed = fixed or {}
        self.memo: dict[State, float] = {}
        self.limit = limit

    def key(self, st: State) -> State:
        if st.phase.kind == FIRE_ACTION and len(st.engines) > 1:
            return st._replace(engines=tuple(sorted(st.engines)))
        return st

    def value(self, st: State) -> float:
        """The value of ``st`` with both sides playing their best (or their fixed policy)."""
        if st.over:
            return final_utility(st.vp, self.rules)
        k = self.key(st)
        v = self.memo.get(k)
        if v is not None:
            return v
        if len(self.memo) >= self.limit:
            raise MemoryError(f"more than {self.limit:,} positions")
        rules = self.rules
        legal = legal_actions(st, rules)
        side = st.side
        fixed = self.fixed.get(side)
        if fixed is not None:
            legal = [fixed(st, legal, rules)]
        fire = side == FIRE
        best = -1.0 if fire else 2.0
        for a in legal:
            v = 0.0
            for p, nxt in outcomes(st, a, rules):
                v += p * self.value(nxt)
            if fire:
                if v > best:
                    best = v
                    if best >= 1.0:
                        break
            elif v < best:
                best = v
                if best <= 0.0:
                    break
        self.memo[k] = best
        return best

    def best_actions(self, st: State) -> list[tuple[Action, float]]:
        """Each legal decision of ``st`` with its value (best first for the side to move)."""
        out = [
            (a, sum(p * self.value(n) for p, n in outcomes(st, a, self.rules)))
            for a in legal_actions(st, self.rules)
        ]
        out.sort(key=lambda x: -x[1] if st.side == FIRE else x[1])
        return out


def solve(st: State, rules: Rules, fixed: dict[str, FixedPolicy] | None = None) -> Solution:
    """The exact value of ``st``, timed. Runs on a thread with a large stack: a game of 60
    rounds is a tree some thousands of decisions deep."""
    solver = Solver(rules, fixed)
    result: list[float] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            result.append(solver.value(st))
        except BaseException as e:  # handed to the caller's thread
            errors.append(e)

    old_limit = sys.getrecursionlimit()
    old_stack = threading.stack_size()
    t0 = time.perf_counter()
    try:
        sys.setrecursionlimit(max(old_limit, 200_000))
        threading.stack_size(512 * 1024 * 1024)
        th = threading.Thread(target=run)
        th.start()
        th.join()
    finally:
        threading.stack_size(old_stack)
        sys.setrecursionlimit(old_limit)
    if errors:
        raise errors[0]
    return Solution(result[0], len(solver.memo), time.perf_counter() - t0)
