"""Players for either side of Forest Fire: ``random``, ``greedy`` and ``search``.

A policy is called with the state, the legal decisions and the rules, and returns one of
the decisions. Each owns its random source, seeded by the game (never the game's dice), so
a game with the same seed replays byte for byte.

- ``random``: any legal decision, uniformly.
- ``greedy``: one-step look-ahead: the decision whose result (averaged over a spray's
  hit and miss) has the best :func:`~.evaluate.utility` for its side.
- ``search``: Monte Carlo search over the spray dice: for each legal decision it plays
  continuations (the same dice streams for every decision, so they are compared on equal
  luck) until the deciding side's turn comes round again, one round later for Fire (12
  continuations), two rounds later for the Chief (160: the Chief's choices differ only
  over rounds, as water is brought to the front before the fire's stacks grow), scores
  each and takes the best mean. Fire's continuations are ``greedy`` on both sides and
  scored by :func:`~.evaluate.utility`. The Chief's are scored by
  :func:`~.evaluate.search_score` (the result band, then Fire's VP: a Chief victory at 1
  VP is better than one at 5), and in half of them Fire plays at random instead of
  ``greedy``, so that the Chief does not stake the game on one model of its opponent;
  and the Chief keeps ``greedy``'s own choice unless another decision scores clearly
  better (by ``chief_margin``), since a two-round look-ahead judged by an estimate can
  prefer a decision for a gain the estimate invents. This is one step of policy
  improvement over ``greedy``; its move budget (``budget`` decisions played in rollouts,
  shared among the candidates) bounds the time per decision. The rollouts' dice (and the
  random Fire's choices) are seeded from the position and the policy's seed, so its
  choice is a function of the position.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable

from .evaluate import search_score, utility
from .rules import Rules
from .state import CHIEF, FIRE, Action, State
from .steps import legal_actions, outcomes, play_out

Policy = Callable[[State, list[Action], Rules], Action]


class RandomPolicy:
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def __call__(self, st: State, legal: list[Action], rules: Rules) -> Action:
        return legal[self.rng.randrange(len(legal))]


def greedy_choice(st: State, legal: list[Action], rules: Rules) -> Action:
    """The decision with the best one-step value for the side to move (first on ties)."""
    if len(legal) == 1:
        return legal[0]
    sign = 1.0 if st.side == FIRE else -1.0
    best, best_v = legal[0], -2.0
    for a in legal:
        v = sum(p * utility(s, rules) for p, s in outcomes(st, a, rules)) * sign
        if v > best_v + 1e-12:
            best, best_v = a, v
    return best


class GreedyPolicy:
    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        pass

    def __call__(self, st: State, legal: list[Action], rules: Rules) -> Action:
        return greedy_choice(st, legal, rules)


class _StreamDice:
    """Dice from a private random source (a rollout's luck, not the game's)."""

    def __init__(self, rng: random.Random) -> None:
        self.r = rng.random

    def die(self) -> int:
        return int(self.r() * 6) + 1


class SearchPolicy:
    """Monte Carlo search with greedy rollouts (see the module docstring)."""

    name = "search"

    def __init__(self, seed: int = 0, rollouts: int = 12, budget: int = 6000,
                 rounds_ahead: int = 1, chief: tuple[int, int, int] = (160, 200_000, 2),
                 chief_vp_weight: float = 0.1, chief_margin: float = 0.05,
                 chief_random_fire: float = 0.5) -> None:  # fmt: skip
        self.seed = seed
        #: (rollouts, budget, rounds_ahead) per side: the Chief looks two rounds ahead
        #: with 160 rollouts (one round of greedy continuations cannot tell its choices
        #: apart: the fire's threat to the town and the engines builds over rounds)
        self.settings = {FIRE: (rollouts, budget, rounds_ahead), CHIEF: chief}
        #: how much Fire's VP count besides the result band, per side (the Chief prefers
        #: a Chief victory at 1 VP to one at 5: the band alone cannot tell them apart)
        self.vp_weight = {FIRE: 0.0, CHIEF: chief_vp_weight}
        #: how much better (in search score) a decision must look than ``greedy``'s for
        #: the side to leave ``greedy``'s choice, per side
        self.margin = {FIRE: 0.0, CHIEF: chief_margin}
        #: the share of the Chief's rollouts in which Fire plays at random, not greedy
        self.random_fire = chief_random_fire
        #: greedy's choice per position met in rollouts (greedy is deterministic, and
        #: rollouts meet the same positions again and again)
        self._memo: dict[State, Action] = {}

    def __call__(self, st: State, legal: list[Action], rules: Rules) -> Action:
        if len(legal) == 1:
            return legal[0]
        sign = 1.0 if st.side == FIRE else -1.0
        # The rollouts' luck depends on the position and the policy's seed only, so the
        # choice is a function of the position (the exact solver can replay it).
        rollouts, budget, rounds_ahead = self.settings[st.side]
        rng = random.Random(zlib.crc32(repr(st).encode()) ^ self.seed)
        seeds = [rng.getrandbits(32) for _ in range(rollouts)]
        horizon = st.round + rounds_ahead
        me = st.side
        per_action = max(1, budget // len(legal))
        best, best_v = legal[0], -2.0
        values: dict[Action, float] = {}
        for a in legal:
            total = 0.0
            steps_left = per_action
            n = 0
            for k, sd in enumerate(seeds):
                if steps_left <= 0 and n:
                    break
                wild = me == CHIEF and k < self.random_fire * len(seeds)
                v, used = self._rollout(st, a, rules, sd, horizon, me, wild)
                steps_left -= used
                total += v
                n += 1
            v = sign * total / n
            values[a] = v
            if v > best_v + 1e-12:
                best, best_v = a, v
        margin = self.margin[me]
        if margin:
            base = self._greedy(st, rules)
            if best_v - values[base] <= margin:
                return base
        return best

    def _greedy(self, st: State, rules: Rules) -> Action:
        """``greedy``'s choice in ``st``, memoised (greedy is deterministic)."""
        choice = self._memo.get(st)
        if choice is None:
            choice = greedy_choice(st, legal_actions(st, rules), rules)
            if len(self._memo) > 200_000:
                self._memo.clear()
            self._memo[st] = choice
        return choice

    def _rollout(
        self,
        st: State,
        a: Action,
        rules: Rules,
        seed: int,
        horizon: int,
        me: str,
        wild: bool = False,
    ) -> tuple[float, int]:
        """One continuation after ``a``: greedy play (Fire's decisions at random from the
        continuation's own stream when ``wild``) until the deciding side's turn comes
        round again ``rounds_ahead`` rounds later (or the game ends)."""
        rng = random.Random(seed)
        dice = _StreamDice(rng)
        s = play_out(st, a, rules, dice)
        used = 1
        while not s.over and (s.round < horizon or s.side != me):
            if s.round > horizon:
                break
            if wild and s.side == FIRE:
                legal = legal_actions(s, rules)
                choice = legal[int(rng.random() * len(legal))]
            else:
                choice = self._greedy(s, rules)
            s = play_out(s, choice, rules, dice)
            used += 1
        return search_score(s, rules, self.vp_weight[me]), used


POLICIES: dict[str, type[RandomPolicy] | type[GreedyPolicy] | type[SearchPolicy]] = {
    "random": RandomPolicy,
    "greedy": GreedyPolicy,
    "search": SearchPolicy,
}


def make_policy(name: str, seed: int) -> Policy:
    """A fresh policy by name (``random``, ``greedy``, ``search``)."""
    if name not in POLICIES:
        raise KeyError(name)
    p: Policy = POLICIES[name](seed)
    return p
