"""The numba kernels of :mod:`.bulk`: Forest Fire's round-free graph listed in bulk.

A second statement of the rules of :mod:`.steps` over integer-coded positions, pinned to
the engine by ``tests/games/forestfire/test_bulk_solver.py`` (the same positions, decisions,
outcomes and chances as :class:`~.layered.Graph` builds with the engine's own functions).

A position is one ``int64`` (:func:`encode`): four bits a square (its tokens, 15 = burnt),
nine bits an engine (square - 1, water, lost; a lost engine is coded as in the town with
no water, since nothing reads a lost engine's square), then the phase (Fire's turn, or the
Chief's load / act / spray of engine ``j``). The VP are not stored: they are the burnt
squares' and the lost engines' worth. At the start of Fire's turn the engines are sorted
(``P_SORT``), as :func:`~.layered._key` does.

:func:`build` expands the positions in the order they are found (node 0 the start), each
with its decisions in compressed rows: per decision two outcome references and a chance
code. A reference ``r >= 0`` is node ``r >> 1``, in this round (``r & 1 == 0``) or in the
next (a *crossing*); ``r < 0`` is the score ``SCORES[-r - 1]``. A crossing outcome also
carries the score the decision reaches when it is taken in the last round (the round cap
ends the game before the next Fire turn's engines-lost step); ``-1`` when it does not
cross. The chance code is 0 for a decision with one outcome, else the die a spray needs
(2..6): the first outcome is the hit, with chance ``(7 - need) / 6``.

Fire's turn is one decision among the positions it can end in (as in :mod:`.layered`):
wind, each grow and each intensify with every split of its tokens, the splits listed as
the distinct end positions (:func:`_intensify_ends`) and duplicates dropped.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numba  # type: ignore[import-not-found, unused-ignore]
import numpy as np
import platformdirs


def cache_dir() -> Path:
    """Where the compiled kernels are kept (as for BLITZ!'s kernel: ``NUMBA_CACHE_DIR`` if
    set, else fireground's folder in the user cache)."""
    own = os.environ.get("NUMBA_CACHE_DIR")
    return Path(own) if own else Path(platformdirs.user_cache_dir("fireground")) / "numba"


numba.config.CACHE_DIR = str(cache_dir())  # type: ignore[attr-defined, unused-ignore]

# positions in the parameter vector P (bulk.params fills it)
P_N = 0  # squares
P_E = 1  # engines
P_CAP = 2  # engine.capacity
P_MOVE = 3  # engine.move
P_WIND = 4  # wind.squares
P_RANGE = 5  # spray.range
P_AT = 6  # burn_out.at
P_RAT = 7  # burn_out.rightmost_at_total (0 = off)
P_VP_SQUARE = 8
P_VP_TOWN = 9
P_VP_ENGINE = 10
P_VP_WIN = 11
P_VP_MARGINAL = 12
P_SORT = 13  # 1: engines in canonical order at the start of Fire's turn
P_NEED = 14  # P_NEED + d: the die a spray at distance d needs (7 = cannot hit), d <= range
P_SIZE = P_NEED + 16

#: phase kinds in a key
K_FIRE, K_LOAD, K_ACT, K_SPRAY = 0, 1, 2, 3

#: outcome kinds of a resolution: a node of this round, of the next round, a score
T_NODE, T_CROSS, T_SCORE = 0, 1, 2

#: build status
DONE, GROW_NODES, GROW_DECISIONS, GROW_ENDS = 0, 1, 2, 3

njit = numba.njit(cache=True, nogil=True)  # type: ignore[call-overload, unused-ignore]


@njit  # type: ignore[misc, untyped-decorator, unused-ignore]
def score_code(vp: int, P: Any) -> int:
    """0 a Chief victory, 1 marginal, 2 total (the index of :data:`.layered.SCORES`)."""
    if vp >= P[P_VP_WIN]:
        return 2
    if vp >= P[P_VP_MARGINAL]:
        return 1
    return 0


@njit  # type: ignore[misc, untyped-decorator, unused-ignore]
def vp_of(burnt: Any, dead: Any, P: Any) -> int:
    vp = 0
    for i in range(P[P_N]):
        if burnt[i]:
            vp += P[P_VP_TOWN] if i == 0 else P[P_VP_SQUARE]
    for j in range(P[P_E]):
        if dead[j]:
            vp += P[P_VP_ENGINE]
    return vp


@njit  # type: ignore[misc, untyped-decorator, unused-ignore]
def encode(tok: Any, burnt: Any, esq: Any, ew: Any, dead: Any, kind: int, eng: int,
           P: Any, codes: Any) -> Any:  # fmt: skip
    """The key of a position (see the module docstring); ``codes`` is scratch (E ints)."""
    n = P[P_N]
    e = P[P_E]
    key = 0
    for i in range(n):
        v = 15 if burnt[i] else tok[i]
        key |= v << (4 * i)
    for j in range(e):
        if dead[j]:
            codes[j] = 1
        else:
            codes[j] = ((esq[j] - 1) << 5) | (ew[j] << 1)
    if kind == K_FIRE and P[P_SORT]:
        for j in range(1, e):  # insertion sort: (square, water, lost) ascending
            c = codes[j]
            k = j - 1
            while k >= 0 and codes[k] > c:
                codes[k + 1] = codes[k]
                k -= 1
            codes[k + 1] = c
    off = 4 * n
    for j in range(e):
        key |= codes[j] << (off + 9 * j)
    off += 9 * e
    key |= (kind | (eng << 2)) << off
    return key


@njit  # type: ignore[misc, untyped-decorator, unused-ignore]
def decode(key: int, P: Any, tok: Any, burnt: Any, esq: Any, ew: Any, dead: Any) -> Any:
    """Fill the arrays from ``key``; return (phase kind, acting engine)."""
    n = P[P_N]
    e = P[P_E]
    for i in range(n):
        v = (key >> (4 * i)) & 15
        if v == 15:
            burnt[i] = 1
            tok[i] = 0
        else:
            burnt[i] = 0
            tok[i] = v
    off = 4 * n
    for j in range(e):
        c = (key >> (off + 9 * j)) & 511
        esq[j] = (c >> 5) + 1
        ew[j] = (c >> 1) & 15
        dead[j] = c & 1
    off += 9 * e
    ph = (key >> off) & 15
    return ph & 3, ph >> 2


@njit  # type: ignore[misc, untyped-decorator, unused-ignore]
def _hash(key: int) -> Any:
    x = np.uint64(key)
    x ^= x >> np.uint64(33)
    x *= np.uint64(0xFF51AFD7ED558CCD)
    x ^= x >> np.uint64(33)
    x *= np.uint64(0xC4CEB9FE1A85EC53)
    x ^= x >> np.uint64(33)
    return np.int64(x >> np.uint64(1))


@njit  # type: ignore[misc, untyped-decorator, unused-ignore]
def node_of(key: int, keys: Any, table: Any, cnt: Any) -> Any:
    """The node of ``key``, added (as the last node) if new. ``cnt[0]`` counts the nodes."""
    mask = table.size - 1
    h = _hash(key) & mask
    while True:
        idx = table[h]
        if idx < 0:
            idx = cnt[0]
            keys[idx] = key
            table[h] = idx
            cnt[0] += 1
            return idx
        if keys[idx] == key:
            return idx
        h = (h + 1) & mask


@njit  # type: ignore[misc, untyped-decorator, unused-ignore]
def rehash(keys: Any, count: int, table: Any) -> None:
    """Fill an empty ``table`` (all -1) with the first ``count`` keys."""
    mask = table.size - 1
    for idx in range(count):
        h = _hash(keys[idx]) & mask
        while table[h] >= 0:
            h = (h + 1) & mask
        table[h] = idx


@njit  # type: ignore[misc, untyped-decorator, unused-ignore]
def _after_engine(after: int, tok: Any, burnt: Any, esq: Any, ew: Any, dead: Any, P: Any,
                  s_dead: Any, codes: Any) -> Any:  # fmt: skip
    """:func:`~.steps._next_engine`: (outcome kind, key or score code, cap score code)."""
    n = P[P_N]
    e = P[P_E]
    total = 0
    for i in range(n):
        total += tok[i]
    vp = vp_of(burnt, dead, P)
    if total == 0:
        return T_SCORE, score_code(vp, P), -1
    for j in range(after + 1, e):
        if dead[j]:
            continue
        kind = K_LOAD if esq[j] == 1 and ew[j] < P[P_CAP] else K_ACT
        return T_NODE, encode(tok, burnt, esq, ew, dead, kind, j, P, codes), -1
    # the round ends: the cap's score, else the next Fire turn's engines-lost step
    cap = score_code(vp, P)
    for j in range(e):
        s_dead[j] = dead[j]
    for j in range(e):
        if not s_dead[j] and tok[esq[j] - 1] > 0:
            s_dead[j] = 1
            vp += P[P_VP_ENGINE]
            if vp >= P[P_VP_WIN]:
                return T_SCORE, score_code(vp, P), cap
    return T_CROSS, encode(tok, burnt, esq, ew, s_dead, K_FIRE, 0, P, codes), cap


@njit  # type: ignore[misc, untyped-decorator, unused-ignore]
def _fire_end(tok: Any, burnt: Any, esq: Any, ew: Any, dead: Any, P: Any, s_dead: Any,
              codes: Any) -> Any:  # fmt: skip
    """:func:`~.steps._end_fire_turn` on ``tok``/``burnt`` (changed in place): the end's
    code for de-duplication, a key (>= 0) or ``-1 - score code``."""
    n = P[P_N]
    at = P[P_AT]
    vp = vp_of(burnt, dead, P)
    for i in range(n):
        if tok[i] >= at:
            tok[i] = 0
            burnt[i] = 1
            vp += P[P_VP_TOWN] if i == 0 else P[P_VP_SQUARE]
            if vp >= P[P_VP_WIN]:
                return -1 - score_code(vp, P)
    if P[P_RAT] > 0:
        total = 0
        right = -1
        for i in range(n):
            total += tok[i]
            if tok[i]:
                right = i
        if total >= P[P_RAT]:
            tok[right] = 0
            burnt[right] = 1
            vp += P[P_VP_TOWN] if right == 0 else P[P_VP_SQUARE]
            if vp >= P[P_VP_WIN]:
                return -1 - score_code(vp, P)
    t, v, _cap = _after_engine(-1, tok, burnt, esq, ew, dead, P, s_dead, codes)
    if t == T_SCORE:
        return -1 - v
    return v


@njit  # type: ignore[misc, untyped-decorator, unused-ignore]
def _intensify_ends(tok: Any, burnt: Any, esq: Any, ew: Any, dead: Any, P: Any, sq: int,
                    ends: Any, ne: int, s_tok: Any, s_burnt: Any, s_dead: Any,
                    codes: Any) -> int:  # fmt: skip
    """Append to ``ends`` (from ``ne``) every end of intensifying square ``sq`` (0-based);
    the new count, or -1 if ``ends`` is too small. A split is listed by what it leaves:
    on each square within reach, ``x`` tokens more, where ``x = at - c`` stands for any
    count that burns the square out; the extra tokens of a split land on such a square
    and change nothing, so every split's end is listed once."""
    n = P[P_N]
    at = P[P_AT]
    cnt = tok[sq]
    vp = vp_of(burnt, dead, P) + (P[P_VP_TOWN] if sq == 0 else P[P_VP_SQUARE])
    if vp >= P[P_VP_WIN]:  # burning the square wins before a token is placed
        if ne >= ends.size:
            return -1
        ends[ne] = -1 - score_code(vp, P)
        return ne + 1
    budget = 2 * cnt
    squares = np.empty(n, np.int64)
    top = np.empty(n, np.int64)
    k = 0
    for s in range(max(0, sq - cnt), min(n - 1, sq + cnt) + 1):
        if s != sq and not burnt[s]:
            squares[k] = s
            top[k] = max(0, at - tok[s])
            k += 1
    if k == 0:  # the tokens have no legal square: lost
        for i in range(n):
            s_tok[i] = tok[i]
            s_burnt[i] = burnt[i]
        s_tok[sq] = 0
        s_burnt[sq] = 1
        if ne >= ends.size:
            return -1
        ends[ne] = _fire_end(s_tok, s_burnt, esq, ew, dead, P, s_dead, codes)
        return ne + 1
    x = np.full(k, -1, np.int64)
    used = np.zeros(k + 1, np.int64)
    burns = np.zeros(k + 1, np.int64)
    d = 0
    while d >= 0:
        x[d] += 1
        if x[d] > top[d] or used[d] + x[d] > budget:
            d -= 1
            continue
        used[d + 1] = used[d] + x[d]
        burns[d + 1] = burns[d] | (1 if x[d] == top[d] else 0)
        if d < k - 1:
            d += 1
            x[d] = -1
            continue
        if used[k] == budget or burns[k]:
            for i in range(n):
                s_tok[i] = tok[i]
                s_burnt[i] = burnt[i]
            s_tok[sq] = 0
            s_burnt[sq] = 1
            for j in range(k):
                s_tok[squares[j]] += x[j]
            if ne >= ends.size:
                return -1
            ends[ne] = _fire_end(s_tok, s_burnt, esq, ew, dead, P, s_dead, codes)
            ne += 1
    return ne


@njit  # type: ignore[misc, untyped-decorator, unused-ignore]
def _spray_targets(tok: Any, sq: int, P: Any, out: Any) -> int:
    """:func:`~.steps.spray_targets` of an engine on ``sq`` (1-based) into ``out`` (0-based
    squares); their number."""
    n = P[P_N]
    r = P[P_RANGE]
    k = 0
    for s in range(max(1, sq - r), min(n, sq + r) + 1):
        if tok[s - 1] and P[P_NEED + abs(s - sq)] <= 6:
            out[k] = s - 1
            k += 1
    return k


@njit  # type: ignore[misc, untyped-decorator, unused-ignore]
def _spray_outcome(tok: Any, burnt: Any, esq: Any, ew: Any, dead: Any, j: int, P: Any,
                   s_dead: Any, codes: Any, targets: Any) -> Any:  # fmt: skip
    """After a spray (water already spent, a hit already removed): spray again, or the
    next engine (:func:`~.steps._resolve_act`)."""
    if ew[j] and _spray_targets(tok, esq[j], P, targets) > 0:
        return T_NODE, encode(tok, burnt, esq, ew, dead, K_SPRAY, j, P, codes), -1
    return _after_engine(j, tok, burnt, esq, ew, dead, P, s_dead, codes)


@njit  # type: ignore[misc, untyped-decorator, unused-ignore]
def _ref(t: int, v: int, keys: Any, table: Any, cnt: Any) -> Any:
    if t == T_SCORE:
        return -1 - v
    return 2 * node_of(v, keys, table, cnt) + (1 if t == T_CROSS else 0)


@njit  # type: ignore[misc, untyped-decorator, unused-ignore]
def build(P: Any, keys: Any, table: Any, cnt: Any, first: Any, out1: Any, out2: Any,
          cap1: Any, cap2: Any, pcode: Any, ends: Any) -> int:  # fmt: skip
    """Expand nodes ``cnt[1]..`` until all are done (return ``DONE``) or an array is too
    small for the next node (return what to grow; the node is left unexpanded).
    ``cnt`` = [nodes, next node to expand, decisions]."""
    n = P[P_N]
    e = P[P_E]
    tok = np.zeros(n, np.int64)
    burnt = np.zeros(n, np.int64)
    esq = np.zeros(e, np.int64)
    ew = np.zeros(e, np.int64)
    dead = np.zeros(e, np.int64)
    s_tok = np.zeros(n, np.int64)
    s_burnt = np.zeros(n, np.int64)
    s_dead = np.zeros(e, np.int64)
    codes = np.zeros(e, np.int64)
    targets = np.zeros(n, np.int64)
    margin = ends.size + 64
    while cnt[1] < cnt[0]:
        i = cnt[1]
        if cnt[0] + margin > keys.size or 2 * (cnt[0] + margin) > table.size:
            return GROW_NODES
        if cnt[2] + margin > out1.size:
            return GROW_DECISIONS
        kind, j = decode(keys[i], P, tok, burnt, esq, ew, dead)
        m = cnt[2]
        first[i] = m
        if kind == K_FIRE:
            ne = 0
            # wind (FF-1)
            left = 0
            while tok[left] == 0:
                left += 1
            for q in range(n):
                s_tok[q] = tok[q]
                s_burnt[q] = burnt[q]
            for k in range(1, P[P_WIND] + 1):
                s = left - k
                if s >= 0 and not s_burnt[s]:
                    s_tok[s] += 1
            ends[ne] = _fire_end(s_tok, s_burnt, esq, ew, dead, P, s_dead, codes)
            ne += 1
            for sq in range(n):
                if tok[sq] == 0:
                    continue
                for q in range(n):  # grow
                    s_tok[q] = tok[q]
                    s_burnt[q] = burnt[q]
                s_tok[sq] += 1
                if ne >= ends.size:
                    return GROW_ENDS
                ends[ne] = _fire_end(s_tok, s_burnt, esq, ew, dead, P, s_dead, codes)
                ne += 1
                ne = _intensify_ends(tok, burnt, esq, ew, dead, P, sq, ends, ne, s_tok,
                                     s_burnt, s_dead, codes)  # fmt: skip
                if ne < 0:
                    return GROW_ENDS
            uniq = np.unique(ends[:ne])
            for c in uniq:
                if c < 0:
                    out1[m] = c
                    cap1[m] = -1
                else:
                    kk, _ = decode(c, P, s_tok, s_burnt, esq, ew, s_dead)
                    if kk == K_FIRE:  # no engine left to act: the round ends
                        out1[m] = 2 * node_of(c, keys, table, cnt) + 1
                        cap1[m] = score_code(vp_of(s_burnt, s_dead, P), P)
                    else:
                        out1[m] = 2 * node_of(c, keys, table, cnt)
                        cap1[m] = -1
                out2[m] = -1
                cap2[m] = -1
                pcode[m] = 0
                m += 1
        elif kind == K_LOAD:
            w0 = ew[j]
            for a in range(P[P_CAP] - w0 + 1):
                ew[j] = w0 + a
                out1[m] = 2 * node_of(encode(tok, burnt, esq, ew, dead, K_ACT, j, P, codes),
                                      keys, table, cnt)  # fmt: skip
                cap1[m] = -1
                out2[m] = -1
                cap2[m] = -1
                pcode[m] = 0
                m += 1
        else:
            sq0 = esq[j]
            w0 = ew[j]
            if kind == K_ACT:
                reach = max(0, P[P_MOVE] - w0)
                for s in range(max(1, sq0 - reach), min(n, sq0 + reach) + 1):
                    esq[j] = s
                    t, v, c = _after_engine(j, tok, burnt, esq, ew, dead, P, s_dead, codes)
                    out1[m] = _ref(t, v, keys, table, cnt)
                    cap1[m] = c
                    out2[m] = -1
                    cap2[m] = -1
                    pcode[m] = 0
                    m += 1
                esq[j] = sq0
            else:  # stop
                t, v, c = _after_engine(j, tok, burnt, esq, ew, dead, P, s_dead, codes)
                out1[m] = _ref(t, v, keys, table, cnt)
                cap1[m] = c
                out2[m] = -1
                cap2[m] = -1
                pcode[m] = 0
                m += 1
            if w0 > 0:
                nt = _spray_targets(tok, sq0, P, targets)
                tl = targets[:nt].copy()
                for s in tl:
                    need = P[P_NEED + abs(s + 1 - sq0)]
                    ew[j] = w0 - 1
                    tok[s] -= 1  # the hit
                    t, v, c = _spray_outcome(tok, burnt, esq, ew, dead, j, P, s_dead, codes,
                                             targets)  # fmt: skip
                    out1[m] = _ref(t, v, keys, table, cnt)
                    cap1[m] = c
                    tok[s] += 1
                    if need <= 1:
                        out2[m] = -1
                        cap2[m] = -1
                        pcode[m] = 0
                    else:  # the miss
                        t, v, c = _spray_outcome(tok, burnt, esq, ew, dead, j, P, s_dead,
                                                 codes, targets)  # fmt: skip
                        out2[m] = _ref(t, v, keys, table, cnt)
                        cap2[m] = c
                        pcode[m] = need
                    ew[j] = w0
                    m += 1
        cnt[2] = m
        cnt[1] = i + 1
    first[cnt[0]] = cnt[2]
    return DONE


@njit  # type: ignore[misc, untyped-decorator, unused-ignore]
def ranks(keys: Any, count: int, P: Any) -> Any:
    """Each node's place in a pass: children of this round always rank higher (Fire's
    turn 0, then per engine load, act, spray with water falling), so a pass evaluates the
    nodes by falling rank. Also whether Fire decides at each node."""
    n = P[P_N]
    e = P[P_E]
    off = 4 * n + 9 * e
    rank = np.empty(count, np.int64)
    fire = np.empty(count, np.bool_)
    for i in range(count):
        key = keys[i]
        ph = (key >> off) & 15
        kind = ph & 3
        j = ph >> 2
        fire[i] = kind == K_FIRE
        if kind == K_FIRE:
            rank[i] = 0
        else:
            w = (key >> (4 * n + 9 * j + 1)) & 15
            stage = 1 + 3 * j + (kind - 1)
            rank[i] = stage * 16 + (15 - w if kind == K_SPRAY else 0)
    return rank, fire


@njit  # type: ignore[misc, untyped-decorator, unused-ignore]
def renumber(order: Any, first: Any, out1: Any, out2: Any, cap1: Any, cap2: Any,
             pcode: Any) -> Any:  # fmt: skip
    """The graph with node ``order[t]`` renamed ``t`` and its decisions moved to match, so
    that a pass reads the decisions and writes the values in sequence."""
    count = order.size
    m = out1.size
    new_id = np.empty(count, np.int64)
    for t in range(count):
        new_id[order[t]] = t
    nfirst = np.empty(count + 1, np.int64)
    o1 = np.empty(m, out1.dtype)
    o2 = np.empty(m, out2.dtype)
    c1 = np.empty(m, cap1.dtype)
    c2 = np.empty(m, cap2.dtype)
    pc = np.empty(m, pcode.dtype)
    d = 0
    for t in range(count):
        v = order[t]
        nfirst[t] = d
        for k in range(first[v], first[v + 1]):
            r = out1[k]
            o1[d] = r if r < 0 else 2 * new_id[r >> 1] + (r & 1)
            r = out2[k]
            o2[d] = r if r < 0 else 2 * new_id[r >> 1] + (r & 1)
            c1[d] = cap1[k]
            c2[d] = cap2[k]
            pc[d] = pcode[k]
            d += 1
    nfirst[count] = d
    return new_id, nfirst, o1, o2, c1, c2, pc


@njit  # type: ignore[misc, untyped-decorator, unused-ignore]
def _value(r: int, c: int, last: bool, cur: Any, prev: Any, scores: Any) -> Any:
    if last and c >= 0:
        return scores[c]
    if r < 0:
        return scores[-1 - r]
    if r & 1:
        return prev[r >> 1]
    return cur[r >> 1]


@njit  # type: ignore[misc, untyped-decorator, unused-ignore]
def evaluate(fire: Any, first: Any, out1: Any, out2: Any, cap1: Any, cap2: Any, pcode: Any,
             rounds: int, scores: Any, keep: Any, use_keep: bool) -> Any:  # fmt: skip
    """Every node's value with ``rounds`` rounds left, one pass a round (see
    :meth:`.layered.Graph.evaluate`), the nodes renumbered so that node ``t``'s children of
    the same round come before it. ``keep`` (per decision, read if ``use_keep``) leaves out
    the decisions a held side does not take. A pass that changes no value (bit for bit)
    is a fixed point: every later pass would repeat it, so the passes stop there.
    Returns the values and the number of passes run."""
    count = first.size - 1
    cur = np.zeros(count)
    prev = np.zeros(count)
    passes = 0
    for k in range(1, rounds + 1):
        last = k == 1
        if not last:
            cur, prev = prev, cur
        for v in range(count):
            fv = fire[v]
            best = -1.0 if fv else 2.0
            for d in range(first[v], first[v + 1]):
                if use_keep and not keep[d]:
                    continue
                a = _value(out1[d], cap1[d], last, cur, prev, scores)
                if pcode[d]:
                    p = (7 - pcode[d]) / 6.0
                    b = _value(out2[d], cap2[d], last, cur, prev, scores)
                    a = p * a + (1.0 - p) * b
                if fv:
                    if a > best:
                        best = a
                elif a < best:
                    best = a
            cur[v] = best
        passes = k
        if not last:
            same = True
            for v in range(count):
                if cur[v] != prev[v]:
                    same = False
                    break
            if same:
                break
    return cur, passes


@njit  # type: ignore[misc, untyped-decorator, unused-ignore]
def find(key: int, keys: Any, table: Any) -> Any:
    """The node of ``key``, or -1 if it is not in the graph."""
    mask = table.size - 1
    h = _hash(key) & mask
    while True:
        idx = table[h]
        if idx < 0:
            return -1
        if keys[idx] == key:
            return idx
        h = (h + 1) & mask
