"""Optional numba kernels for the hot loops of :mod:`.fastsim` (used when numba imports).

Each kernel does for one step what the numpy path does, cell by cell, drawing from the
chunk's own numpy Generator (numba reads its bit generator), so a seed still gives the same
games whatever the number of workers.
"""

from __future__ import annotations

from typing import Any

import numba  # type: ignore[import-not-found, unused-ignore]


@numba.njit(cache=True)  # type: ignore[misc, unused-ignore]
def spread(
    fire: Any, damp: Any, embers: Any, rubble: Any, building: Any, road: Any, in_ptr: Any,
    in_src: Any, in_kind: Any, in_wind: Any, store_mod: Any, climb_min: int, jump_min: int,
    jump_max: int, damp_per_level: int, embers_mod: int, rng: Any, out: Any, lose: Any,
) -> Any:  # fmt: skip
    """Cells that catch (into ``out``) and unlit damp cells that may lose damp (``lose``)."""
    games, n = fire.shape
    k = 0
    m = 0
    for g in range(games):
        for b in range(n):
            if fire[g, b] > 0:
                continue
            if not (building[b] or (road[b] and rubble[g, b])):
                continue
            dmp = damp[g, b] * damp_per_level
            base = dmp + store_mod[b]
            if embers[g, b]:
                base += embers_mod
            q = 1.0
            qd = 1.0
            seen = False
            for e in range(in_ptr[b], in_ptr[b + 1]):
                fa = fire[g, in_src[e]]
                kind = in_kind[e]
                if kind == 0:
                    if fa <= 0:
                        continue
                    lim = fa
                elif kind == 1:
                    if fa < climb_min:
                        continue
                    lim = fa
                else:
                    if fa < jump_min:
                        continue
                    lim = jump_max
                seen = True
                t = lim - base - in_wind[e]
                t = min(max(t, 0), 6)
                q *= 1.0 - t / 6.0
                td = min(max(lim - base - in_wind[e] + dmp, 0), 6)
                qd *= 1.0 - td / 6.0
            if not seen:
                continue
            u = rng.random()
            if u < 1.0 - q:
                out[k, 0] = g
                out[k, 1] = b
                k += 1
            elif qd < q:
                lose[m, 0] = g
                lose[m, 1] = b
                m += 1
    return k, m


@numba.njit(cache=True)  # type: ignore[misc, unused-ignore]
def growth(
    fire: Any, road_age: Any, nb_ptr: Any, nb_idx: Any, wood: Any, fire_max: int,
    road_max: int, on: int, nb_bonus: int, wood_bonus: int, rng: Any,
) -> None:  # fmt: skip
    """Each fire below its cap rolls to grow one (in place: growth never lights a cell)."""
    games, n = fire.shape
    for g in range(games):
        for b in range(n):
            f = fire[g, b]
            if f <= 0:
                continue
            cap = road_max if road_age[g, b] >= 0 else fire_max
            if f >= cap:
                continue
            mod = wood_bonus if wood[b] else 0
            for e in range(nb_ptr[b], nb_ptr[b + 1]):
                if fire[g, nb_idx[e]] > 0:
                    mod += nb_bonus
                    break
            need = on - mod  # the die must show at least this
            chance = min(max(7 - need, 0), 6) / 6.0
            if rng.random() < chance:
                fire[g, b] = f + 1


@numba.njit(cache=True)  # type: ignore[misc, unused-ignore]
def damage(
    fire: Any, damage_: Any, building: Any, fire_for_roll: int, add_on: int, destroyed: int,
    rng: Any, out: Any,
) -> Any:  # fmt: skip
    """Fires at ``fire_for_roll`` add one damage on ``add_on``+; cells that reach
    ``destroyed`` are returned in ``out`` (their collapse is worked off afterwards)."""
    games, n = fire.shape
    chance = min(max(7 - add_on, 0), 6) / 6.0
    k = 0
    for g in range(games):
        for b in range(n):
            if fire[g, b] < fire_for_roll or not building[b] or damage_[g, b] >= destroyed:
                continue
            if rng.random() < chance:
                damage_[g, b] += 1
                if damage_[g, b] >= destroyed:
                    out[k, 0] = g
                    out[k, 1] = b
                    k += 1
    return k
