"""Optional numba kernel for :mod:`.fastsim` (used when numba imports): whole games.

:func:`play_games` plays every turn of a batch of games, one game per loop iteration, the
games spread over threads (``prange``). Each game draws from its own counter-based stream
(SplitMix64 keyed by the run's key and the game's number), so a game is the same whatever
the number of threads, chunks or processes. The rules are the ones the numpy path of
:mod:`.fastsim` plays (its docstring explains the one-draw-per-threatened-cell trick).

A game only visits the cells that can change:

* the **frontier**: unlit cells with at least one burning source on an in-edge (a count per
  cell, kept up to date when a cell lights or goes out) are the only spread candidates;
* the **active** list: burning cells that can still grow or take fire damage; a cell at its
  fire cap that can take no more damage drops out for good (fires only go out on roads,
  which are handled by their own pass).

The rare events (stores catching, bombs, collapse chains) run on small work lists.

The model comes packed by :func:`.fastsim.kernel_tables` as the tuple ``M`` (positions
``M_*``) and the rule numbers ``P`` (positions ``P_*``). A game's state is one ``int16``
matrix ``S`` (rows ``S_*``) so that it stays in the first-level cache.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numba  # type: ignore[import-not-found, unused-ignore]
import numpy as np
import platformdirs


def cache_dir() -> Path:
    """Where the compiled kernel is kept: numba's own folder when the user set one
    (``NUMBA_CACHE_DIR``), else fireground's folder in the user cache. An installed wheel's
    site-packages may not be writable, and an editable install's tree is no place for it."""
    own = os.environ.get("NUMBA_CACHE_DIR")
    return Path(own) if own else Path(platformdirs.user_cache_dir("fireground")) / "numba"


def compiled() -> bool:
    """True when the kernel was compiled and cached before (for this numba, this file and
    this CPU, as numba's index records): the first run of an install compiles for a while."""
    return any(cache_dir().rglob(f"{Path(__file__).stem}.play_games-*.nbi"))


# read when each function below is decorated: set before them
numba.config.CACHE_DIR = str(cache_dir())  # type: ignore[attr-defined, unused-ignore]

# positions in the parameter vector P (fastsim.kernel_tables fills it)
P_FIRE_START = 0
P_FIRE_MAX = 1
P_DAMP_PER_LEVEL = 2
P_EMBERS_MOD = 3
P_CLIMB_MIN = 4
P_DAMP_LOSS = 5
P_JUMP_MIN = 6
P_JUMP_MAX = 7
P_GROWTH_ON = 8
P_GROWTH_NB = 9
P_GROWTH_WOOD = 10
P_REIGNITE_ON = 11
P_OIL_FIRE = 12
P_OIL_SPREAD_FIRE = 13
P_PETROL_FIRE = 14
P_PETROL_EXPLODES = 15
P_ROAD_MAX = 16
P_ROAD_TURNS = 17
P_ALL_CLEAR_MAX = 18
P_STICK_ON = 19
P_REDROP = 20
P_HE_DESTROYED_ON = 21
P_DAMAGE_FIRE = 22
P_DAMAGE_ADD_ON = 23
P_DESTROYED = 24
P_HEAVY = 25
P_RUBBLE_DAMAGE = 26
P_BOMBING = 27
P_START_ALL_CLEAR = 28
P_SIZE = 29

# positions in the chance vector F (fastsim.kernel_tables fills it)
F_FAIL = 0  # 7 entries: the chance that 1d6 fails to roll at most k, k = 0..6
F_GROW = 7  # 4 entries: the chance to grow by (a neighbour burns) * 2 + (wood store)
F_DAMAGE = 11  # the chance a fire adds one damage
F_REIGNITE = 12  # the chance embers flare up
F_SIZE = 13

# positions in the model tuple M (fastsim.kernel_tables builds it)
M_BUILDING = 0  # bool[N]
M_ROAD = 1  # bool[N]
M_WATER = 2  # bool[N]
M_STORE = 3  # int8[N] store code
M_NB_PTR = 4  # CSR: each cell's neighbours (growth: "a neighbour burns")
M_NB_IDX = 5
M_IN_PTR = 6  # CSR by destination: spread edges into each cell
M_IN_SRC = 7
M_IN_THR = 8  # int8: the source's fire needed for the edge to roll (1; climb; jump)
M_IN_ADD = 9  # int8: the edge's roll limit is use_fa * source fire + add - cell modifiers
M_OUT_PTR = 10  # CSR by source: the destinations of each cell's spread edges
M_OUT_DST = 11
M_AREA_PTR = 12  # CSR: each area's locations by ascending level
M_AREA_IDX = 13
M_AREA_TOP = 14
M_AREA_GROUND = 15
M_LOC_AREA = 16
M_ABOVE_PTR = 17  # CSR: the locations above each location in its area
M_ABOVE_IDX = 18
M_ADJ_PTR = 19  # CSR: adjacent areas
M_ADJ_SRC = 20
M_HE_PTR = 21  # CSR: the locations an HE bomb in each area strikes
M_HE_IDX = 22
M_STORE_MOD = 23  # int64[N]: the spread modifier of each cell's store
M_WOOD = 24  # bool[N]
M_BOMB_CDF = 25  # float64[A]
M_LOAD = 26  # int64[6, 2]: (HE, incendiaries) for each stick die
M_OCCUPANTS = 27  # int64[N]
M_IN_USE_FA = 28  # int8: 1 (the source's fire is the limit) or 0 (a jump: fixed limit)
M_LOC_LEVEL = 29  # int64[N]
M_NBR_PTR = 30  # CSR: the cells that count each cell among their neighbours
M_NBR_IDX = 31
M_SIZE = 32

# rows of a game's state matrix S
S_FIRE = 0
S_EMBERS = 1
S_DAMP = 2
S_DAMAGE = 3
S_RUBBLE = 4
S_ROAD_AGE = 5  # turns a road incendiary has burned (-1: not one)
S_FATE = 6
S_PENDING = 7  # damp lost this turn (applied in step 4)
S_COUNT = 8  # burning sources on in-edges
S_IN_FRONT = 9
S_IN_ACTIVE = 10
S_FIRST = 11  # turn first alight (-1: never)
S_NB_BURNING = 12  # burning neighbours (growth: "a neighbour burns")
S_ROWS = 13

# the list lengths in L
L_FRONT = 0
L_ACTIVE = 1

OIL, PETROL = 1, 2
SAFE, BURIED, KILLED = 0, 1, 2

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_TO_UNIT = 1.0 / 9007199254740992.0  # 2**-53

# The helpers run without numba's reference counting: they allocate nothing, and counting
# the arrays they are handed (an atomic operation per array and call) would cost more than
# their work on the hot paths.
njit = numba.njit(cache=True, nogil=True, _nrt=False)  # type: ignore[call-overload, unused-ignore]


@njit  # type: ignore[misc, untyped-decorator, unused-ignore]
def mix64(z: Any) -> Any:
    """The SplitMix64 output function (a bijection of 64-bit words)."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit  # type: ignore[misc, untyped-decorator, unused-ignore]
def game_state(key0: Any, key1: Any, game: int) -> Any:
    """The first state of game ``game``'s stream under the run key ``(key0, key1)``."""
    return mix64(key0 ^ mix64(key1 + np.uint64(game) * _GAMMA))


@njit  # type: ignore[misc, untyped-decorator, unused-ignore]
def uniform(rs: Any) -> float:
    """The next number in [0, 1) of the stream whose state is ``rs[0]``."""
    s = rs[0] + _GAMMA
    rs[0] = s
    return float(mix64(s) >> _S11) * _TO_UNIT


@njit  # type: ignore[misc, untyped-decorator, unused-ignore]
def die(rs: Any) -> int:
    """1d6."""
    return 1 + int(uniform(rs) * 6.0)


# -- lighting and putting out --------------------------------------------------------------
@njit  # type: ignore[misc, untyped-decorator, unused-ignore]
def _kindle(
    b: int, level: int, turn: int, S: Any, Fl: Any, Al: Any, L: Any, building: Any, road: Any,
    out_ptr: Any, out_dst: Any, nbr_ptr: Any, nbr_idx: Any,
) -> None:  # fmt: skip
    """Cell ``b`` (unlit) starts burning at ``level``; the counts and lists follow."""
    S[S_FIRE, b] = level
    S[S_EMBERS, b] = 0
    S[S_DAMP, b] = 0
    S[S_PENDING, b] = 0
    if S[S_FIRST, b] < 0:
        S[S_FIRST, b] = turn
    for e in range(out_ptr[b], out_ptr[b + 1]):
        d = out_dst[e]
        S[S_COUNT, d] += 1
        if S[S_IN_FRONT, d] == 0 and S[S_FIRE, d] == 0 and (building[d] or road[d]):
            S[S_IN_FRONT, d] = 1
            Fl[L[L_FRONT]] = d
            L[L_FRONT] += 1
    for e in range(nbr_ptr[b], nbr_ptr[b + 1]):
        S[S_NB_BURNING, nbr_idx[e]] += 1
    if S[S_IN_ACTIVE, b] == 0:
        S[S_IN_ACTIVE, b] = 1
        Al[L[L_ACTIVE]] = b
        L[L_ACTIVE] += 1


@njit  # type: ignore[misc, untyped-decorator, unused-ignore]
def _douse(
    b: int, S: Any, Fl: Any, L: Any, out_ptr: Any, out_dst: Any, nbr_ptr: Any, nbr_idx: Any
) -> None:
    """Cell ``b`` goes out (a road incendiary burned down)."""
    S[S_FIRE, b] = 0
    S[S_ROAD_AGE, b] = -1
    for e in range(out_ptr[b], out_ptr[b + 1]):
        S[S_COUNT, out_dst[e]] -= 1
    for e in range(nbr_ptr[b], nbr_ptr[b + 1]):
        S[S_NB_BURNING, nbr_idx[e]] -= 1
    if S[S_COUNT, b] > 0 and S[S_IN_FRONT, b] == 0:
        S[S_IN_FRONT, b] = 1
        Fl[L[L_FRONT]] = b
        L[L_FRONT] += 1


@njit  # type: ignore[misc, untyped-decorator, unused-ignore]
def _light(
    b: int, level: int, turn: int, S: Any, Fl: Any, Al: Any, L: Any, building: Any, road: Any,
    out_ptr: Any, out_dst: Any, nbr_ptr: Any, nbr_idx: Any, store: Any, stack: Any, sp: int,
) -> int:  # fmt: skip
    """Set an unlit cell alight; a store there goes on the stack. Returns the stack size."""
    if S[S_FIRE, b] != 0:
        return sp
    _kindle(b, level, turn, S, Fl, Al, L, building, road, out_ptr, out_dst, nbr_ptr, nbr_idx)
    st = store[b]
    if st in (OIL, PETROL):
        stack[sp] = b
        sp += 1
    return sp


# -- the rare paths: stores, bombs, collapse --------------------------------------------------
@njit  # type: ignore[misc, untyped-decorator, unused-ignore]
def _collapse(
    qa: Any, ql: Any, qn: int, S: Any, P: Any, building: Any, water: Any, above_ptr: Any,
    above_idx: Any, adj_ptr: Any, adj_src: Any, area_ground: Any, loc_area: Any,
) -> None:  # fmt: skip
    """Work off the collapse queue: area ``qa[i]`` falls from its location ``ql[i]`` upwards;
    rubble strikes the ground level of each neighbouring area (which may fall in turn).

    The queue is worked in waves, as the numpy path does: every collapse of a wave brings
    its levels down before any of its rubble lands, so rubble never strikes a level that
    falls in the same wave."""
    destroyed = P[P_DESTROYED]
    heavy = P[P_HEAVY]
    i = 0
    while i < qn:
        end = qn
        for j in range(i, end):
            low = ql[j]
            S[S_DAMAGE, low] = destroyed
            if S[S_FATE, low] == SAFE:
                S[S_FATE, low] = BURIED
            for e in range(above_ptr[low], above_ptr[low + 1]):
                k = above_idx[e]
                S[S_DAMAGE, k] = destroyed
                if S[S_FATE, k] == SAFE:
                    S[S_FATE, k] = BURIED
        for j in range(i, end):
            area = qa[j]
            for e in range(adj_ptr[area], adj_ptr[area + 1]):
                ground = area_ground[adj_src[e]]
                if water[ground]:
                    continue
                if building[ground]:
                    old = S[S_DAMAGE, ground]
                    new = min(old + P[P_RUBBLE_DAMAGE], destroyed)
                    if new <= old:
                        continue
                    S[S_DAMAGE, ground] = new
                    if new >= destroyed:
                        qa[qn] = loc_area[ground]
                        ql[qn] = ground
                        qn += 1
                    elif new >= heavy and S[S_FATE, ground] == SAFE:
                        S[S_FATE, ground] = BURIED
                else:
                    S[S_RUBBLE, ground] = 1
        i = end


@njit  # type: ignore[misc, untyped-decorator, unused-ignore]
def _he_blast(
    area: int, keep: int, S: Any, P: Any, M: Any, qa: Any, ql: Any, rs: Any
) -> None:  # fmt: skip
    """An HE bomb (or an exploding petrol store, ``keep`` >= 0) goes off in ``area``."""
    building = M[M_BUILDING]
    water = M[M_WATER]
    area_ptr = M[M_AREA_PTR]
    area_idx = M[M_AREA_IDX]
    he_ptr = M[M_HE_PTR]
    he_idx = M[M_HE_IDX]
    loc_area = M[M_LOC_AREA]
    destroyed = P[P_DESTROYED]
    for e in range(area_ptr[area], area_ptr[area + 1]):
        k = area_idx[e]
        if S[S_FATE, k] == SAFE:
            S[S_FATE, k] = KILLED
    low = area_idx[area_ptr[area]]
    if building[low]:
        qa[0] = area
        ql[0] = low
        _collapse(
            qa, ql, 1, S, P, building, water, M[M_ABOVE_PTR], M[M_ABOVE_IDX], M[M_ADJ_PTR],
            M[M_ADJ_SRC], M[M_AREA_GROUND], loc_area,
        )  # fmt: skip
    for e in range(he_ptr[area], he_ptr[area + 1]):
        nb = he_idx[e]
        if water[nb]:
            continue
        score = die(rs)
        result = destroyed if score >= P[P_HE_DESTROYED_ON] else score
        if building[nb] and result > S[S_DAMAGE, nb]:
            S[S_DAMAGE, nb] = result
            if result >= destroyed:
                qa[0] = loc_area[nb]
                ql[0] = nb
                _collapse(
                    qa, ql, 1, S, P, building, water, M[M_ABOVE_PTR], M[M_ABOVE_IDX],
                    M[M_ADJ_PTR], M[M_ADJ_SRC], M[M_AREA_GROUND], loc_area,
                )  # fmt: skip
            elif result >= P[P_HEAVY] and S[S_FATE, nb] == SAFE:
                S[S_FATE, nb] = BURIED
    if keep >= 0:
        S[S_FIRE, keep] = P[P_PETROL_FIRE]


@njit  # type: ignore[misc, untyped-decorator, unused-ignore]
def _stores(
    stack: Any, sp: int, turn: int, S: Any, Fl: Any, Al: Any, L: Any, P: Any, M: Any,
    qa: Any, ql: Any, rs: Any,
) -> None:  # fmt: skip
    """Stores that just caught: oil flares and lights its neighbours, petrol explodes."""
    building = M[M_BUILDING]
    road = M[M_ROAD]
    store = M[M_STORE]
    nb_ptr = M[M_NB_PTR]
    nb_idx = M[M_NB_IDX]
    loc_area = M[M_LOC_AREA]
    while sp > 0:
        sp -= 1
        b = stack[sp]
        if store[b] == OIL:
            S[S_FIRE, b] = P[P_OIL_FIRE]
            for e in range(nb_ptr[b], nb_ptr[b + 1]):
                nb = nb_idx[e]
                if S[S_FIRE, nb] == 0 and (building[nb] or (road[nb] and S[S_RUBBLE, nb])):
                    sp = _light(
                        nb, P[P_OIL_SPREAD_FIRE], turn, S, Fl, Al, L, building, road,
                        M[M_OUT_PTR], M[M_OUT_DST], M[M_NBR_PTR], M[M_NBR_IDX], store, stack,
                        sp,
                    )  # fmt: skip
        else:
            S[S_FIRE, b] = P[P_PETROL_FIRE]
            if P[P_PETROL_EXPLODES]:
                _he_blast(loc_area[b], b, S, P, M, qa, ql, rs)


# -- step 1 ------------------------------------------------------------------------------------
@njit  # type: ignore[misc, untyped-decorator, unused-ignore]
def _spread(
    S: Any, Fl: Any, L: Any, P: Any, building: Any, road: Any, in_ptr: Any, in_src: Any,
    in_thr: Any, in_add: Any, in_use_fa: Any, store_mod: Any, fail: Any, caught: Any, rs: Any,
) -> tuple[int, bool]:  # fmt: skip
    """The frontier cells that catch (into ``caught``, decided on the fires at the start of
    the step) and the damp lost by those that did not. Returns (caught, any damp lost).

    An edge rolls when its source burns at ``in_thr`` or more; its limit before the cell's
    own modifiers is ``in_use_fa * fire + in_add`` (the wind is folded into ``in_add``);
    the edge loop has no branch on the sources' fires (they are unpredictable)."""
    damp_per_level = P[P_DAMP_PER_LEVEL]
    nc = 0
    lost = False
    w = 0
    for i in range(L[L_FRONT]):
        b = Fl[i]
        if S[S_FIRE, b] != 0 or S[S_COUNT, b] <= 0:
            S[S_IN_FRONT, b] = 0
            continue
        Fl[w] = b
        w += 1
        if not (building[b] or (road[b] and S[S_RUBBLE, b])):
            continue
        dmp = S[S_DAMP, b] * damp_per_level
        base = dmp + store_mod[b]
        if S[S_EMBERS, b]:
            base += P[P_EMBERS_MOD]
        q = 1.0
        qd = 1.0
        for e in range(in_ptr[b], in_ptr[b + 1]):
            fa = np.int64(S[S_FIRE, in_src[e]])
            on = fa >= in_thr[e]
            t = in_use_fa[e] * fa + in_add[e] - base
            k = min(max(t, 0), 6) if on else 0
            q *= fail[k]
            if dmp:
                qd *= fail[min(max(t + dmp, 0), 6) if on else 0]
            else:
                qd = q
        if q < 1.0 and uniform(rs) < 1.0 - q:
            caught[nc] = b
            nc += 1
        elif qd < q:
            # damp lost: each failed roll that only the damp stopped costs one
            cnt = 0
            for e in range(in_ptr[b], in_ptr[b + 1]):
                fa = np.int64(S[S_FIRE, in_src[e]])
                if fa < in_thr[e]:
                    continue
                raw = in_use_fa[e] * fa + in_add[e] - base
                t = min(max(raw, 0), 6)
                td = min(max(raw + dmp, 0), 6)
                # given that the roll failed (die > t), it would have passed without damp
                if td > t and uniform(rs) < (td - t) / (6.0 - t):
                    cnt += 1
            if cnt:
                S[S_PENDING, b] += cnt
                lost = True
    L[L_FRONT] = w
    return nc, lost


# -- steps 2 and 7 -----------------------------------------------------------------------------
@njit  # type: ignore[misc, untyped-decorator, unused-ignore]
def _active(
    S: Any, Al: Any, L: Any, P: Any, F: Any, wood: Any, building: Any, loc_area: Any,
    grow: bool, damage: bool, qa: Any, ql: Any, rs: Any,
) -> int:  # fmt: skip
    """One pass over the active cells: growth (step 2) and/or fire damage (step 7).

    With both, a cell grows and then rolls for damage on its new fire (as the two steps do
    when nothing happens in between). The damage pass drops the cells that can no longer
    change and queues those that reached "destroyed" (``qa``/``ql``; returns how many).
    A cell draws one number for each roll it makes."""
    fire_max = P[P_FIRE_MAX]
    road_max = P[P_ROAD_MAX]
    damage_fire = P[P_DAMAGE_FIRE]
    destroyed = P[P_DESTROYED]
    heavy = P[P_HEAVY]
    damage_chance = F[F_DAMAGE]
    qn = 0
    w = 0
    for i in range(L[L_ACTIVE]):
        b = Al[i]
        f = np.int64(S[S_FIRE, b])
        if f <= 0:
            if damage:
                S[S_IN_ACTIVE, b] = 0
            continue
        cap = road_max if S[S_ROAD_AGE, b] >= 0 else fire_max
        if grow and f < cap:
            nbf = 2 if S[S_NB_BURNING, b] > 0 else 0
            f += uniform(rs) < F[F_GROW + nbf + (1 if wood[b] else 0)]
            S[S_FIRE, b] = f
        if damage:
            dmg = np.int64(S[S_DAMAGE, b])
            rolls = (f >= damage_fire) & building[b] & (dmg < destroyed)
            hit = False
            if rolls:
                hit = uniform(rs) < damage_chance
            if hit:
                dmg += 1
                S[S_DAMAGE, b] = dmg
                if dmg >= destroyed:
                    qa[qn] = loc_area[b]
                    ql[qn] = b
                    qn += 1
                elif dmg >= heavy and S[S_FATE, b] == SAFE:
                    S[S_FATE, b] = BURIED
            if f >= cap and not (rolls and dmg < destroyed):
                S[S_IN_ACTIVE, b] = 0
                continue
            Al[w] = b
            w += 1
    if damage:
        L[L_ACTIVE] = w
    return qn


@njit  # type: ignore[misc, untyped-decorator, unused-ignore]
def _lowest_per_area(qa: Any, ql: Any, qn: int, loc_level: Any) -> int:
    """Keep, of the queued collapses of each area, the one from its lowest level."""
    w = 0
    for i in range(qn):
        keep = True
        for j in range(qn):
            if j != i and qa[j] == qa[i]:
                lj, li = loc_level[ql[j]], loc_level[ql[i]]
                if lj < li or (lj == li and j < i):
                    keep = False
                    break
        if keep:
            qa[qn + w] = qa[i]
            ql[qn + w] = ql[i]
            w += 1
    for i in range(w):
        qa[i] = qa[qn + i]
        ql[i] = ql[qn + i]
    return w


# -- whole games -------------------------------------------------------------------------------
@njit  # type: ignore[misc, untyped-decorator, unused-ignore]
def play_one(
    S: Any, Fl: Any, Al: Any, L: Any, P: Any, F: Any, M: Any, start: Any, bomb_lost: float,
    turns: int, rs: Any, scratch: Any, all_clear_turn: Any, g: int,
) -> None:  # fmt: skip
    """Play one game of ``turns`` turns on the state matrix ``S`` (filled here from the
    start rows ``start``); the All Clear's turn goes to ``all_clear_turn[g]``."""
    building = M[M_BUILDING]
    road = M[M_ROAD]
    water = M[M_WATER]
    wood = M[M_WOOD]
    store = M[M_STORE]
    nbr_ptr = M[M_NBR_PTR]
    nbr_idx = M[M_NBR_IDX]
    in_ptr = M[M_IN_PTR]
    in_src = M[M_IN_SRC]
    in_thr = M[M_IN_THR]
    in_add = M[M_IN_ADD]
    in_use_fa = M[M_IN_USE_FA]
    store_mod = M[M_STORE_MOD]
    out_ptr = M[M_OUT_PTR]
    out_dst = M[M_OUT_DST]
    above_ptr = M[M_ABOVE_PTR]
    above_idx = M[M_ABOVE_IDX]
    adj_ptr = M[M_ADJ_PTR]
    adj_src = M[M_ADJ_SRC]
    area_ground = M[M_AREA_GROUND]
    area_top = M[M_AREA_TOP]
    loc_level = M[M_LOC_LEVEL]
    loc_area = M[M_LOC_AREA]
    bomb_cdf = M[M_BOMB_CDF]
    load = M[M_LOAD]
    n = S.shape[1]
    n_areas = len(bomb_cdf)
    fire_start = P[P_FIRE_START]
    heavy = P[P_HEAVY]
    road_max = P[P_ROAD_MAX]
    caught = scratch[0]
    stack = scratch[1]
    qa = scratch[2]
    ql = scratch[3]
    fail = F[F_FAIL : F_FAIL + 7]
    reignite_chance = F[F_REIGNITE]

    # the start
    L[L_FRONT] = 0
    L[L_ACTIVE] = 0
    has_embers = False
    has_road = False
    for b in range(n):
        for r in range(S_ROWS):
            S[r, b] = 0
        S[S_DAMP, b] = start[2, b]
        S[S_DAMAGE, b] = start[3, b]
        S[S_RUBBLE, b] = start[4, b]
        S[S_ROAD_AGE, b] = start[5, b]
        S[S_FIRST, b] = -1
        if start[1, b] and start[0, b] == 0:
            S[S_EMBERS, b] = 1
            has_embers = True
        if start[5, b] >= 0:
            has_road = True
    for b in range(n):
        if start[0, b] > 0 and S[S_FIRE, b] == 0:
            _kindle(
                b, start[0, b], 0, S, Fl, Al, L, building, road, out_ptr, out_dst, nbr_ptr, nbr_idx
            )
    clear = P[P_START_ALL_CLEAR] != 0
    all_clear_turn[g] = 0 if clear else -1

    for turn in range(1, turns + 1):
        # step 1: spread
        nc, lost_damp = _spread(
            S, Fl, L, P, building, road, in_ptr, in_src, in_thr, in_add, in_use_fa, store_mod,
            fail, caught, rs,
        )  # fmt: skip
        if nc:
            sp = 0
            for i in range(nc):
                sp = _light(
                    caught[i], fire_start, turn, S, Fl, Al, L, building, road, out_ptr,
                    out_dst, nbr_ptr, nbr_idx, store, stack, sp,
                )  # fmt: skip
            if sp:
                _stores(stack, sp, turn, S, Fl, Al, L, P, M, qa, ql, rs)

        # step 2: growth of the fires below their cap; when neither embers nor bombs can
        # change anything before step 7, the damage rolls go in the same pass
        fused = not has_embers and (clear or not P[P_BOMBING])
        qn = _active(S, Al, L, P, F, wood, building, loc_area, True, fused, qa, ql, rs)
        # road incendiaries age and burn out, leaving no embers
        if has_road:
            has_road = False
            for b in range(n):
                if S[S_ROAD_AGE, b] >= 0:
                    S[S_ROAD_AGE, b] += 1
                    if S[S_ROAD_AGE, b] >= P[P_ROAD_TURNS]:
                        _douse(b, S, Fl, L, out_ptr, out_dst, nbr_ptr, nbr_idx)
                    else:
                        has_road = True

        # step 3: embers may flare up again
        if has_embers:
            has_embers = False
            nc = 0
            for b in range(n):
                if S[S_EMBERS, b]:
                    has_embers = True
                    if uniform(rs) < reignite_chance:
                        caught[nc] = b
                        nc += 1
            sp = 0
            for i in range(nc):
                sp = _light(
                    caught[i], fire_start, turn, S, Fl, Al, L, building, road, out_ptr,
                    out_dst, nbr_ptr, nbr_idx, store, stack, sp,
                )  # fmt: skip
            if sp:
                _stores(stack, sp, turn, S, Fl, Al, L, P, M, qa, ql, rs)

        # step 4: damp lost to failed rolls, where nothing caught
        if lost_damp:
            for b in range(n):
                if S[S_PENDING, b] > 0:
                    if S[S_FIRE, b] == 0:
                        S[S_DAMP, b] = max(S[S_DAMP, b] - S[S_PENDING, b] * P[P_DAMP_LOSS], 0)
                    S[S_PENDING, b] = 0

        # step 5: the raid goes on (or the All Clear sounds)
        if P[P_BOMBING] and not clear:
            run = die(rs) + die(rs)
            if run <= P[P_ALL_CLEAR_MAX]:
                clear = True
                all_clear_turn[g] = turn
            if run >= P[P_STICK_ON]:
                row = die(rs) - 1
                for j in range(load[row, 0] + load[row, 1]):
                    if bomb_lost > 0 and uniform(rs) < bomb_lost:
                        continue  # missed every area too often
                    area = np.searchsorted(bomb_cdf, uniform(rs), side="right")
                    area = min(area, n_areas - 1)
                    if j < load[row, 0]:
                        _he_blast(area, -1, S, P, M, qa, ql, rs)
                        continue
                    b = area_top[area]
                    if water[b] or S[S_FIRE, b] > 0:
                        continue
                    if road[b] and not S[S_RUBBLE, b]:
                        _kindle(
                            b, min(fire_start, road_max), turn, S, Fl, Al, L, building, road,
                            out_ptr, out_dst, nbr_ptr, nbr_idx,
                        )  # fmt: skip
                        S[S_ROAD_AGE, b] = 0
                        has_road = True
                        continue
                    sp = _light(
                        b, fire_start, turn, S, Fl, Al, L, building, road, out_ptr, out_dst,
                        nbr_ptr, nbr_idx, store, stack, 0,
                    )  # fmt: skip
                    if sp:
                        _stores(stack, sp, turn, S, Fl, Al, L, P, M, qa, ql, rs)

        # step 7: the hottest fires damage buildings; cells that can no longer change leave
        # the active list
        if not fused:
            qn = _active(S, Al, L, P, F, wood, building, loc_area, False, True, qa, ql, rs)
        if qn:
            # as the rules work through the burning locations in order, a level brought
            # down by the collapse of a lower one no longer rolls: one collapse per area
            qn = _lowest_per_area(qa, ql, qn, loc_level)
            _collapse(
                qa, ql, qn, S, P, building, water, above_ptr, above_idx, adj_ptr, adj_src,
                area_ground, loc_area,
            )  # fmt: skip
        if turn == 1:  # heavy damage from the start buries its occupants
            for b in range(n):
                if S[S_FATE, b] == SAFE and S[S_DAMAGE, b] >= heavy:
                    S[S_FATE, b] = BURIED


@numba.njit(cache=True, nogil=True, parallel=True)  # type: ignore[misc, untyped-decorator, unused-ignore]
def play_games(
    P: Any, F: Any, M: Any, start: Any, bomb_lost: float, key0: Any, key1: Any, first_game: int,
    turns: int, burned: Any, destroyed_out: Any, first_alight: Any, fire_out: Any,
    all_clear_turn: Any, dead: Any, buried: Any, states: Any,
) -> None:  # fmt: skip
    """Play ``len(burned)`` games of ``turns`` turns (games ``first_game``, ``first_game+1``,
    ... of the run keyed ``key0, key1``), filling the ``[games, N]`` and ``[games]`` outputs.
    ``start`` holds the start rows: fire, embers, damp, damage, rubble, road age. When
    ``states`` has a row per game (``[games, S_ROWS, N]``) each game plays in its row, which
    keeps its final state for inspection; otherwise (``[0, S_ROWS, N]``) in scratch space."""
    games, n = burned.shape
    occupants = M[M_OCCUPANTS]
    destroyed = P[P_DESTROYED]
    for g in numba.prange(games):
        S = states[g] if len(states) else np.empty((S_ROWS, n), dtype=np.int16)
        Fl = np.empty(n, dtype=np.int64)
        Al = np.empty(n, dtype=np.int64)
        L = np.zeros(2, dtype=np.int64)
        scratch = np.empty((4, 2 * n + 2), dtype=np.int64)
        rs = np.empty(1, dtype=np.uint64)
        rs[0] = game_state(key0, key1, first_game + g)
        play_one(S, Fl, Al, L, P, F, M, start, bomb_lost, turns, rs, scratch, all_clear_turn, g)
        nd = 0
        nbu = 0
        for b in range(n):
            fire_out[g, b] = S[S_FIRE, b]
            first_alight[g, b] = S[S_FIRST, b]
            burned[g, b] = S[S_FIRST, b] >= 0
            destroyed_out[g, b] = S[S_DAMAGE, b] >= destroyed
            if S[S_FATE, b] == KILLED:
                nd += occupants[b]
            elif S[S_FATE, b] == BURIED:
                nbu += occupants[b]
        dead[g] = nd
        buried[g] = nbu
