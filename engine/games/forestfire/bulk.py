"""The exact value of Forest Fire at the full round cap, with the graph listed in bulk.

The same method as :mod:`.layered` (the round-free graph of the game, evaluated once per
round from the cap back) with the graph listed by compiled kernels over integer-coded
positions (:mod:`.bulk_kernels`, numba) instead of the engine's step functions: some
hundred times faster, so boards of 5 and more squares can be solved at the spec's 60
rounds. The kernels are a second statement of the rules, pinned to the engine by a test
that builds both graphs and compares them position by position.

House rules flow through: the board's length, the engines' number, capacity and movement,
the wind, the spray range and needs, burn-out (and the 8 July variant), the VP and the
round cap. :func:`params` refuses what the kernels cannot hold: ``rounds.chief_first``,
``burn_out.at`` above 15 (four bits a square), a capacity above 15, more than three engines
or a board too long for a 63-bit key. The engines are the start's (the engine plays the
scenario's engines; ``engine.count`` is the default of a new file).

``held`` holds one side to a policy (as ``fixed`` of :func:`.layered.solve_layered`): the
graph is built for best play, then from the start every position of the held side that
can be reached keeps only the decision the policy takes (asked in round 1, as the graph has
no round); the value is what the policy secures against a best reply.
"""

from __future__ import annotations

import resource
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from .layered import SCORES
from .rules import Rules
from .state import (
    ACT,
    FIRE_ACTION,
    LOAD,
    PLACE,
    SPRAY,
    Action,
    Engine,
    Phase,
    State,
)
from .steps import legal_actions, outcomes

FixedPolicy = Callable[[State, list[Action], Rules], Action]

_KINDS = (FIRE_ACTION, LOAD, ACT, SPRAY)


class UnsupportedRules(ValueError):
    """A ruleset or a start the bulk kernels cannot hold (the message says which rule)."""


def _kernels() -> Any:
    try:
        from . import bulk_kernels
    except ImportError as e:  # numba is an optional dependency of the package
        raise UnsupportedRules("the bulk solver needs numba (pip install numba)") from e
    return bulk_kernels


def params(rules: Rules, engines: int, *, sort: bool = True) -> npt.NDArray[np.int64]:
    """The kernels' parameter vector for ``rules`` and a game of ``engines`` engines (the
    scenario's, as the engine plays them); :class:`UnsupportedRules` if it cannot be held
    (see the module docstring)."""
    bk = _kernels()
    n, e = rules.squares, engines
    if rules.chief_first:
        raise UnsupportedRules("rounds.chief_first is not supported by the bulk solver")
    if not 1 <= rules.burn_out_at <= 15:
        raise UnsupportedRules(f"burn_out.at must be 1-15 here, not {rules.burn_out_at}")
    if rules.capacity > 15:
        raise UnsupportedRules(f"engine.capacity must be 15 or less here, not {rules.capacity}")
    if not 1 <= e <= 3:
        raise UnsupportedRules(f"1-3 engines are supported here, not {e}")
    if n < 1 or n > 15 or 4 * n + 9 * e + 4 > 63:
        raise UnsupportedRules(f"a board of {n} squares with {e} engines does not fit a key")
    if rules.spray_range > 15:
        raise UnsupportedRules(f"spray.range must be 15 or less here, not {rules.spray_range}")
    p = np.zeros(bk.P_SIZE, dtype=np.int64)
    for pos, v in (
        (bk.P_N, n), (bk.P_E, e), (bk.P_CAP, rules.capacity), (bk.P_MOVE, rules.move),
        (bk.P_WIND, rules.wind_squares), (bk.P_RANGE, rules.spray_range),
        (bk.P_AT, rules.burn_out_at), (bk.P_RAT, rules.rightmost_at_total),
        (bk.P_VP_SQUARE, rules.vp_square), (bk.P_VP_TOWN, rules.vp_town),
        (bk.P_VP_ENGINE, rules.vp_engine), (bk.P_VP_WIN, rules.vp_win),
        (bk.P_VP_MARGINAL, rules.vp_marginal), (bk.P_SORT, int(sort)),
    ):  # fmt: skip
        p[pos] = v
    for d in range(rules.spray_range + 1):
        p[bk.P_NEED + d] = rules.need(d)
    return p


def _vp(burnt: tuple[bool, ...], engines: tuple[Engine, ...], rules: Rules) -> int:
    vp = sum(rules.vp_town if i == 0 else rules.vp_square for i, b in enumerate(burnt) if b)
    return vp + rules.vp_engine * sum(e.destroyed for e in engines)


def encode_state(st: State, rules: Rules, p: npt.NDArray[np.int64]) -> int:
    """The key of a position (Fire's turn or a Chief's decision; not over, not placing)."""
    bk = _kernels()
    if st.over or st.phase.kind == PLACE:
        raise UnsupportedRules("the bulk solver starts at a Fire turn or a Chief decision")
    if len(st.tokens) != rules.squares or len(st.engines) != p[_kernels().P_E]:
        raise UnsupportedRules("the position does not match the ruleset's board and engines")
    if any(t > 14 for t in st.tokens):
        raise UnsupportedRules("more than 14 tokens on a square do not fit a key")
    if any(e.water > 15 or not 1 <= e.square <= rules.squares for e in st.engines):
        raise UnsupportedRules("an engine off the board or with more than 15 water")
    if st.vp != _vp(st.burnt, st.engines, rules):
        raise UnsupportedRules("the VP are not the burnt squares' and lost engines' worth")
    i64 = np.int64
    tok = np.array([0 if b else t for t, b in zip(st.tokens, st.burnt, strict=True)], i64)
    burnt = np.array(st.burnt, i64)
    esq = np.array([e.square for e in st.engines], i64)
    ew = np.array([e.water for e in st.engines], i64)
    dead = np.array([e.destroyed for e in st.engines], i64)
    kind = _KINDS.index(st.phase.kind)
    codes = np.zeros(len(st.engines), i64)
    return int(bk.encode(tok, burnt, esq, ew, dead, kind, st.phase.engine, p, codes))


def decode_key(key: int, rules: Rules, p: npt.NDArray[np.int64]) -> State:
    """The position of a key, as :func:`.layered._key` would have it (round 1)."""
    bk = _kernels()
    n, e = rules.squares, int(p[bk.P_E])
    tok, burnt = np.zeros(n, np.int64), np.zeros(n, np.int64)
    esq, ew, dead = np.zeros(e, np.int64), np.zeros(e, np.int64), np.zeros(e, np.int64)
    kind, j = bk.decode(np.int64(key), p, tok, burnt, esq, ew, dead)
    engines = tuple(Engine(int(s), int(w), bool(d)) for s, w, d in zip(esq, ew, dead, strict=True))
    bt = tuple(bool(b) for b in burnt)
    phase = Phase(_KINDS[kind], engine=int(j)) if kind else Phase(FIRE_ACTION)
    return State(tuple(int(t) for t in tok), bt, engines, _vp(bt, engines, rules), 1, phase)


class BulkGraph:
    """The round-free graph from ``start`` (see :mod:`.bulk_kernels` for the arrays)."""

    def __init__(self, start: State, rules: Rules, *, sort: bool = True) -> None:
        bk = _kernels()
        self.rules = rules
        self.p = params(rules, len(start.engines), sort=sort)
        start_key = encode_state(start, rules, self.p)
        cap_n, cap_d, cap_e = 1 << 16, 1 << 18, 1 << 14
        self.keys = np.zeros(cap_n, np.int64)
        self.table = np.full(4 * cap_n, -1, np.int32)
        self.first = np.zeros(cap_n + 1, np.int64)
        self.out1 = np.zeros(cap_d, np.int32)
        self.out2 = np.zeros(cap_d, np.int32)
        self.cap1 = np.zeros(cap_d, np.int8)
        self.cap2 = np.zeros(cap_d, np.int8)
        self.pcode = np.zeros(cap_d, np.int8)
        ends = np.zeros(cap_e, np.int64)
        cnt = np.zeros(3, np.int64)
        bk.node_of(np.int64(start_key), self.keys, self.table, cnt)
        while True:
            status = bk.build(self.p, self.keys, self.table, cnt, self.first, self.out1,
                              self.out2, self.cap1, self.cap2, self.pcode, ends)  # fmt: skip
            if status == bk.DONE:
                break
            if status == bk.GROW_NODES:
                size = 2 * self.keys.size
                self.keys = _grown(self.keys, size)
                self.first = _grown(self.first, size + 1)
                self.table = np.full(4 * size, -1, np.int32)
                bk.rehash(self.keys, int(cnt[0]), self.table)
            elif status == bk.GROW_DECISIONS:
                size = 2 * self.out1.size
                self.out1 = _grown(self.out1, size)
                self.out2 = _grown(self.out2, size)
                self.cap1 = _grown(self.cap1, size)
                self.cap2 = _grown(self.cap2, size)
                self.pcode = _grown(self.pcode, size)
            else:
                ends = np.zeros(2 * ends.size, np.int64)
        self.n = int(cnt[0])
        self.m = int(cnt[2])
        self.keys = self.keys[: self.n].copy()
        self.first = self.first[: self.n + 1].copy()
        for name in ("out1", "out2", "cap1", "cap2", "pcode"):
            setattr(self, name, getattr(self, name)[: self.m].copy())
        # nodes in the order a pass evaluates them (see bulk_kernels.ranks)
        rank, fire = bk.ranks(self.keys, self.n, self.p)
        order = np.argsort(-rank, kind="stable")
        del rank
        new_id, self.first, self.out1, self.out2, self.cap1, self.cap2, self.pcode = (
            bk.renumber(order, self.first, self.out1, self.out2, self.cap1, self.cap2,
                        self.pcode)
        )  # fmt: skip
        self.fire = fire[order]
        self.keys = self.keys[order]
        self.table = np.full(self.table.size, -1, np.int32)
        bk.rehash(self.keys, self.n, self.table)
        self.start = int(new_id[0])
        self.passes = 0

    def evaluate(self, rounds: int, keep: npt.NDArray[np.bool_] | None = None) -> Any:
        """Every node's value with ``rounds`` rounds left (its own included)."""
        bk = _kernels()
        use = keep is not None
        values, self.passes = bk.evaluate(
            self.fire,
            self.first,
            self.out1,
            self.out2,
            self.cap1,
            self.cap2,
            self.pcode,
            rounds,
            np.array(SCORES),
            keep if use else np.ones(1, np.bool_),
            use,
        )
        return values

    def census(self) -> list[tuple[str, int, int, int]]:
        """Positions and decisions by phase: (phase kind, engine, positions, decisions)."""
        off = 4 * self.rules.squares + 9 * int(self.p[_kernels().P_E])
        phase = (self.keys >> off) & 15
        rows = np.diff(self.first)
        out = []
        for code in np.unique(phase):
            at = phase == code
            kind, eng = _KINDS[int(code) & 3], int(code) >> 2
            out.append((kind, eng, int(at.sum()), int(rows[at].sum())))
        return out

    def state(self, node: int) -> State:
        return decode_key(int(self.keys[node]), self.rules, self.p)

    def node(self, st: State) -> int | None:
        """The node of a position (as :func:`.layered._key` has it), None if not in the graph."""
        key = encode_state(st._replace(round=1), self.rules, self.p)
        v = int(_kernels().find(np.int64(key), self.keys, self.table))
        return v if v >= 0 else None

    def held(self, side: str, policy: FixedPolicy) -> npt.NDArray[np.bool_]:
        """Per decision, whether it stays when ``side`` plays ``policy`` (see the module
        docstring): from the start, each reachable position of ``side`` keeps the one
        decision whose outcomes are those of the policy's choice."""
        keep = np.ones(self.m, np.bool_)
        free = _free(self.rules)
        seen = np.zeros(self.n, np.bool_)
        seen[self.start] = True
        stack = [self.start]
        while stack:
            v = stack.pop()
            lo, hi = int(self.first[v]), int(self.first[v + 1])
            st = self.state(v)
            if st.side == side:
                d = lo + self._chosen(st, policy, free, lo, hi)
                keep[lo:hi] = False
                keep[d] = True
                decisions = [d]
            else:
                decisions = list(range(lo, hi))
            for d in decisions:
                for r in (int(self.out1[d]), int(self.out2[d])):
                    if r >= 0 and not seen[r >> 1]:
                        seen[r >> 1] = True
                        stack.append(r >> 1)
        return keep

    def _chosen(self, st: State, policy: FixedPolicy, free: Rules, lo: int, hi: int) -> int:
        """Which of the node's decisions the policy takes, by its outcomes."""
        legal = legal_actions(st, free)
        a = policy(st, legal, self.rules) if len(legal) > 1 else legal[0]
        outs = outcomes(st, a, free)
        while len(outs) == 1 and outs[0][1].phase.kind == PLACE:  # Fire places its tokens
            nxt = outs[0][1]
            legal = legal_actions(nxt, free)
            b = policy(nxt, legal, self.rules) if len(legal) > 1 else legal[0]
            outs = outcomes(nxt, b, free)
        want1 = self._ref(outs[0][1], st)
        want2 = self._ref(outs[1][1], st) if len(outs) > 1 else None
        for d in range(lo, hi):
            if int(self.out1[d]) != want1:
                continue
            if want2 is None if not self.pcode[d] else int(self.out2[d]) == want2:
                return d - lo
        raise AssertionError(f"the policy's decision {a!r} is not in the graph")

    def _ref(self, nxt: State, st: State) -> int:
        """The outcome reference the kernels give ``nxt``, reached from ``st``."""
        if nxt.over:
            return -1 - SCORES.index(_score(nxt.vp, self.rules))
        cross = int(nxt.round != st.round)
        key = encode_state(nxt._replace(round=1), self.rules, self.p)
        v = int(_kernels().find(np.int64(key), self.keys, self.table))
        if v < 0:
            raise AssertionError(f"the policy's outcome {nxt!r} is not in the graph")
        return 2 * v + cross


def _score(vp: int, rules: Rules) -> float:
    if vp >= rules.vp_win:
        return 1.0
    return 0.5 if vp >= rules.vp_marginal else 0.0


def _free(rules: Rules) -> Rules:
    import dataclasses

    return dataclasses.replace(rules, rounds_max=1 << 30)


def _grown(a: npt.NDArray[Any], size: int) -> npt.NDArray[Any]:
    out = np.zeros(size, a.dtype)
    out[: a.size] = a
    return out


@dataclass(frozen=True)
class BulkSolution:
    """The value of the start, with what it took: positions and decisions of the graph,
    rounds evaluated, passes run (fewer than the rounds when a pass changes nothing: every
    later one would repeat it), seconds (building the graph, then the passes) and the
    process's peak resident memory in MiB when it ended; ``cpu_seconds`` is the process's
    processor time for the whole solve (on a shared machine the wall-clock seconds are
    longer)."""

    value: float
    positions: int
    decisions: int
    rounds: int
    passes: int
    build_seconds: float
    pass_seconds: float
    peak_mib: float
    cpu_seconds: float = 0.0

    @property
    def seconds(self) -> float:
        return self.build_seconds + self.pass_seconds


def peak_mib() -> float:
    """The process's peak resident memory so far (MiB; Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def solve_bulk(st: State, rules: Rules, held: dict[str, FixedPolicy] | None = None,
               *, sort: bool = True) -> BulkSolution:  # fmt: skip
    """The exact value of ``st`` under best play (or with a side held to a policy)."""
    if st.over:
        return BulkSolution(_score(st.vp, rules), 0, 0, 0, 0, 0.0, 0.0, peak_mib())
    t0 = time.perf_counter()
    c0 = time.process_time()
    g = BulkGraph(st, rules, sort=sort)
    keep = None
    for side, pol in (held or {}).items():
        k = g.held(side, pol)
        keep = k if keep is None else keep & k
    t1 = time.perf_counter()
    rounds = rules.rounds_max - st.round + 1
    values = g.evaluate(rounds, keep)
    t2 = time.perf_counter()
    return BulkSolution(
        float(values[g.start]),
        g.n,
        g.m,
        rounds,
        g.passes,
        t1 - t0,
        t2 - t1,
        peak_mib(),
        time.process_time() - c0,
    )
