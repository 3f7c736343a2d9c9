"""The exact value of Forest Fire by layers, one round at a time, from the round cap back.

The round enters the rules only through the round cap (FF-6), so a position's value with
``k`` rounds left (its own included) depends on the positions of the next round with
``k - 1`` rounds left, and on nothing else of the round. The solver therefore

1. builds once the graph of every position the start can reach *with the round left
   out* (positions within one round are a DAG: a Fire turn, then each engine's decisions,
   every step using up tokens to place, water or engines), each decision with its
   outcomes and their chances (:func:`~.steps.outcomes`, so the rules are the engine's);
   an outcome that starts the next round is a *crossing*, kept with the terminal score
   the same decision reaches when it is taken in the last round (the round cap ends the
   game before the next Fire turn's engines-lost step);
2. evaluates the graph ``rounds.max - round + 1`` times with numpy, each pass one round
   (the previous pass's values stand behind the crossings; the first pass uses the cap
   scores), inside a pass the positions ordered by their height above the crossings so
   that every maximum (Fire), minimum (Chief) and chance average reads finished values.

The positions are memoised without the round, with the engines in a canonical order at
the start of a Fire turn (E1 and E2 are alike). ``fixed`` holds one side to a policy: that
side's positions keep only the decision the policy takes (asked in round 1 of the rules,
as the graph has no round), so the value is what the policy secures against a best reply.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations_with_replacement

import numpy as np

from ...core.collector import collector_paused
from .evaluate import final_utility
from .rules import Rules
from .state import FIRE, FIRE_ACTION, PLACE, Action, Engine, State
from .steps import legal_actions, outcomes, place_squares

FixedPolicy = Callable[[State, list[Action], Rules], Action]

#: The three result scores a finished game can have (Chief victory, marginal, total).
SCORES = (0.0, 0.5, 1.0)


@dataclass(frozen=True)
class LayeredSolution:
    """The value of the start, with what it took: positions in the round-free graph,
    decisions, rounds evaluated and seconds (building the graph, then the passes)."""

    value: float
    positions: int
    decisions: int
    rounds: int
    build_seconds: float
    pass_seconds: float

    @property
    def seconds(self) -> float:
        return self.build_seconds + self.pass_seconds


def _key(st: State) -> State:
    st = st._replace(round=1)
    if any(e.destroyed for e in st.engines):  # a lost engine's square matters to nothing
        st = st._replace(engines=tuple(_LOST if e.destroyed else e for e in st.engines))
    if st.phase.kind == FIRE_ACTION and len(st.engines) > 1:
        return st._replace(engines=tuple(sorted(st.engines)))
    return st


_LOST = Engine(1, 0, True)


def fire_turn_ends(st: State, a: Action, rules: Rules) -> list[State]:
    """The positions Fire's decision ``a`` can lead to once its turn is over: one for
    wind and grow, one per split of the tokens for an intensify (each split once: the
    multisets of the squares :func:`~.steps.place_squares` allows), each split placed up
    to its last token and that one played through :func:`~.steps.outcomes`, which runs
    the end of the turn."""
    nxt = outcomes(st, a, rules)[0][1]
    if nxt.phase.kind != PLACE:
        return [nxt]
    squares = place_squares(nxt, rules)
    out = []
    for split in combinations_with_replacement(squares, nxt.phase.left):
        tokens = list(nxt.tokens)
        for sq in split[:-1]:
            tokens[sq - 1] += 1
        last = nxt._replace(tokens=tuple(tokens), phase=nxt.phase._replace(left=1, low=split[-1]))
        out.append(outcomes(last, Action("place", split[-1]), rules)[0][1])
    return out


class Graph:
    """The round-free game graph from a start position (see the module docstring).

    Outcome references index the vector ``[this pass (n) | previous pass (n) | SCORES]``.
    """

    def __init__(self, start: State, rules: Rules,
                 fixed: dict[str, FixedPolicy] | None = None) -> None:  # fmt: skip
        self.rules = rules
        free = dataclasses.replace(rules, rounds_max=1 << 30)
        capped = dataclasses.replace(rules, rounds_max=1)
        fixed = fixed or {}
        # Fire's turn is one max over its ends unless Fire plays a policy (whose splits
        # are its own decisions) or the round ends after it (``rounds.chief_first``)
        flatten = FIRE not in fixed and not rules.chief_first
        index: dict[State, int] = {}
        states: list[State] = []
        # per decision: its node, two outcomes (ref, chance) and the refs in the last round
        act_node: list[int] = []
        probs: list[tuple[float, float]] = []
        intra: list[list[int]] = []  # per node, the nodes of this round its outcomes reach
        score_ref = {s: i for i, s in enumerate(SCORES)}  # offset later by 2n

        def node(st: State) -> int:
            k = _key(st)
            i = index.get(k)
            if i is None:
                i = len(states)
                index[k] = i
                states.append(k)
                intra.append([])
            return i

        start = start._replace(round=1)
        if start.over:
            raise ValueError("the start position is already over")
        node(start)
        # refs during the build: ("n", i) this round, ("p", i) next round, ("s", j) a score;
        # per decision o1, o2, then o1 and o2 when it is taken in the last round
        raw: list[tuple[tuple[str, int], ...]] = []
        i = 0
        while i < len(states):
            st = states[i]
            legal = legal_actions(st, free)
            pol = fixed.get(st.side)
            if pol is not None and len(legal) > 1:
                legal = [pol(st, legal, rules)]
            if st.phase.kind == FIRE_ACTION and flatten:
                # Fire's turn in one step: its decision, then the split of an intensify
                ends = {
                    _key(e) if not e.over else e: e
                    for a in legal
                    for e in fire_turn_ends(st, a, free)
                }
                moves: list[tuple[Action | None, list[tuple[float, State]]]] = [
                    (None, [(1.0, e)]) for e in ends.values()]  # fmt: skip
            else:
                moves = [(a, outcomes(st, a, free)) for a in legal]
            for a, outs in moves:
                cap_outs: list[tuple[float, State]] | None = None
                row: list[tuple[str, int]] = []
                cap_row: list[tuple[str, int]] = []
                ps: list[float] = []
                for j, (p, nxt) in enumerate(outs):
                    ps.append(p)
                    if nxt.round != st.round:  # the next round begins (or would)
                        if a is None:
                            # Fire's turn with no engine left to act ends the round; the
                            # next turn's engines-lost step has nothing to take
                            cap_vp = nxt.vp
                        else:
                            if cap_outs is None:
                                cap_outs = outcomes(st, a, capped)
                            cap_vp = cap_outs[j][1].vp
                        cap_row.append(("s", score_ref[final_utility(cap_vp, rules)]))
                        if nxt.over:
                            row.append(("s", score_ref[final_utility(nxt.vp, rules)]))
                        else:
                            row.append(("p", node(nxt)))
                    else:
                        if nxt.over:
                            r = ("s", score_ref[final_utility(nxt.vp, rules)])
                        else:
                            c = node(nxt)
                            intra[i].append(c)
                            r = ("n", c)
                        row.append(r)
                        cap_row.append(r)
                if len(ps) == 1:
                    ps.append(0.0)
                    row.append(("s", 0))
                    cap_row.append(("s", 0))
                act_node.append(i)
                raw.append((row[0], row[1], cap_row[0], cap_row[1]))
                probs.append((ps[0], ps[1]))
            i += 1
        n = len(states)
        # heights: 0 for a node whose decisions all cross or end, else 1 + its highest child
        height = [-1] * n
        for root in range(n):
            if height[root] >= 0:
                continue
            stack = [root]
            while stack:
                v = stack[-1]
                pending = [c for c in intra[v] if height[c] < 0]
                if pending:
                    stack.extend(pending)
                    continue
                stack.pop()
                if height[v] < 0:
                    height[v] = 1 + max((height[c] for c in intra[v]), default=-1)
        order = sorted(range(n), key=lambda v: height[v])
        new_id = [0] * n
        for k, v in enumerate(order):
            new_id[v] = k

        def ref(r: tuple[str, int]) -> int:
            kind, x = r
            if kind == "n":
                return new_id[x]
            if kind == "p":
                return n + new_id[x]
            return 2 * n + x

        # decisions grouped by node in the new order
        m = len(act_node)
        act_order = sorted(range(m), key=lambda d: new_id[act_node[d]])
        self.n = n
        self.m = m
        self.o1 = np.array([ref(raw[d][0]) for d in act_order], dtype=np.int64)
        self.o2 = np.array([ref(raw[d][1]) for d in act_order], dtype=np.int64)
        self.o1_cap = np.array([ref(raw[d][2]) for d in act_order], dtype=np.int64)
        self.o2_cap = np.array([ref(raw[d][3]) for d in act_order], dtype=np.int64)
        self.p1 = np.array([probs[d][0] for d in act_order])
        self.p2 = np.array([probs[d][1] for d in act_order])
        owner = np.array([new_id[act_node[d]] for d in act_order], dtype=np.int64)
        self.first_act = np.searchsorted(owner, np.arange(n + 1))
        self.fire = np.array([states[v].side == FIRE for v in order])
        heights = np.array([height[v] for v in order], dtype=np.int64)
        self.bounds = np.searchsorted(heights, np.arange(heights.max() + 2))
        self.start = new_id[0]
        self.states = [states[v] for v in order]

    def evaluate(self, rounds: int) -> np.ndarray:
        """Every position's value with ``rounds`` rounds left (its own included)."""
        n = self.n
        vec = np.empty(2 * n + len(SCORES))
        vec[2 * n :] = SCORES
        vec[n : 2 * n] = 0.0
        for k in range(1, rounds + 1):
            o1, o2 = (self.o1_cap, self.o2_cap) if k == 1 else (self.o1, self.o2)
            if k > 1:
                vec[n : 2 * n] = vec[:n]
            for h in range(len(self.bounds) - 1):
                lo, hi = self.bounds[h], self.bounds[h + 1]
                if lo == hi:
                    continue
                a0, a1 = self.first_act[lo], self.first_act[hi]
                av = self.p1[a0:a1] * vec[o1[a0:a1]] + self.p2[a0:a1] * vec[o2[a0:a1]]
                starts = self.first_act[lo:hi] - a0
                best = np.maximum.reduceat(av, starts)
                worst = np.minimum.reduceat(av, starts)
                vec[lo:hi] = np.where(self.fire[lo:hi], best, worst)
        return vec[:n].copy()


def solve_layered(st: State, rules: Rules,
                  fixed: dict[str, FixedPolicy] | None = None) -> LayeredSolution:  # fmt: skip
    """The exact value of ``st`` under best play (or with a side held to ``fixed``)."""
    if st.over:
        return LayeredSolution(final_utility(st.vp, rules), 0, 0, 0, 0.0, 0.0)
    t0 = time.perf_counter()
    with collector_paused():  # millions of small tuples and no cycles
        g = Graph(st, rules, fixed)
    t1 = time.perf_counter()
    rounds = rules.rounds_max - st.round + 1
    values = g.evaluate(rounds)
    t2 = time.perf_counter()
    return LayeredSolution(float(values[g.start]), g.n, g.m, rounds, t1 - t0, t2 - t1)
