"""Many games of the fast core: the numba kernel on every thread, or the numpy path in fixed
chunks on every process; either way a seed gives the same games whatever the number of
workers."""

from __future__ import annotations

from typing import Any, cast

import numpy as np
import numpy.typing as npt

from ....board.graph import build_graph
from ....board.model import Scenario
from .batch import Batch
from .model import (
    CLIMB,
    JUMP,
    WOOD,
    FastModel,
    FastResult,
    build_model,
    csr_by_dst,
    d6_at_most,
    two_d6_at_least,
)


def kernels() -> Any:
    """The numba kernels, or None (numba missing, or ``FIREGROUND_NO_NUMBA=1``)."""
    import os

    if os.environ.get("FIREGROUND_NO_NUMBA"):
        return None
    try:
        from . import numba_kernels as _fastkernels
    except ImportError:
        return None
    return _fastkernels


# --------------------------------------------------------------------------------------
# many games: fixed chunks, each with its own spawned seed

CHUNK = 256  # games per chunk; fixed so that a seed gives the same games on any worker count


def chunk_sizes(games: int, chunk: int = CHUNK) -> list[int]:
    return [min(chunk, games - k) for k in range(0, games, chunk)]


def chunk_seeds(seed: int | None, n: int) -> list[np.random.SeedSequence]:
    return np.random.SeedSequence(seed).spawn(n)


def run_chunk(model: FastModel, games: int, turns: int, seed: np.random.SeedSequence) -> FastResult:
    """Play ``games`` games of ``turns`` turns with the generator of one chunk."""
    batch = Batch(model, games, np.random.Generator(np.random.Philox(seed)))
    for _ in range(turns):
        batch.play_turn()
    return batch.result()


_WORKER_MODEL: FastModel | None = None


def _worker_init(scenario: Scenario) -> None:
    global _WORKER_MODEL
    _WORKER_MODEL = build_model(scenario)


def _worker_run(job: tuple[int, int, np.random.SeedSequence]) -> FastResult:
    assert _WORKER_MODEL is not None
    games, turns, seed = job
    return run_chunk(_WORKER_MODEL, games, turns, seed)


def kernel_tables(model: FastModel) -> dict[str, Any]:
    """The model packed for :func:`._fastkernels.play_games` (cached on the model)."""
    cached = model.extra.get("kernel")
    if cached is not None:
        return cast(dict[str, Any], cached)
    from . import numba_kernels as fk

    p, m = model.params, model
    vec = np.zeros(fk.P_SIZE, dtype=np.int64)
    for pos, value in (
        (fk.P_FIRE_START, p.fire_start),
        (fk.P_FIRE_MAX, p.fire_max),
        (fk.P_DAMP_PER_LEVEL, p.damp_per_level),
        (fk.P_EMBERS_MOD, p.embers_mod),
        (fk.P_CLIMB_MIN, p.climb_min_fire),
        (fk.P_DAMP_LOSS, p.damp_loss),
        (fk.P_JUMP_MIN, p.jump_min_fire),
        (fk.P_JUMP_MAX, p.jump_max),
        (fk.P_GROWTH_ON, p.growth_on),
        (fk.P_GROWTH_NB, p.growth_neighbour),
        (fk.P_GROWTH_WOOD, p.growth_wood),
        (fk.P_REIGNITE_ON, p.reignite_on),
        (fk.P_OIL_FIRE, p.oil_fire),
        (fk.P_OIL_SPREAD_FIRE, p.oil_spread_fire),
        (fk.P_PETROL_FIRE, p.petrol_fire),
        (fk.P_PETROL_EXPLODES, int(p.petrol_explodes)),
        (fk.P_ROAD_MAX, p.road_max_fire),
        (fk.P_ROAD_TURNS, p.road_burn_turns),
        (fk.P_ALL_CLEAR_MAX, p.all_clear_max),
        (fk.P_STICK_ON, p.stick_on),
        (fk.P_REDROP, p.redrop_limit),
        (fk.P_HE_DESTROYED_ON, p.he_destroyed_on),
        (fk.P_DAMAGE_FIRE, p.damage_fire),
        (fk.P_DAMAGE_ADD_ON, p.damage_add_on),
        (fk.P_DESTROYED, p.destroyed),
        (fk.P_HEAVY, p.heavy),
        (fk.P_RUBBLE_DAMAGE, p.rubble_damage),
        (fk.P_BOMBING, int(m.bombing)),
        (fk.P_START_ALL_CLEAR, int(m.start_all_clear)),
    ):
        vec[pos] = value
    area_ptr = np.zeros(len(m.area_locs) + 1, dtype=np.int64)
    np.cumsum([len(x) for x in m.area_locs], out=area_ptr[1:])
    he_ptr = np.zeros(len(m.he_targets) + 1, dtype=np.int64)
    np.cumsum([len(x) for x in m.he_targets], out=he_ptr[1:])
    in_dst = np.repeat(np.arange(m.n, dtype=np.int64), np.diff(m.in_ptr))
    out_dst, out_ptr = csr_by_dst(in_dst, m.in_src, m.n)  # grouped by source
    nb_row = np.repeat(np.arange(m.n, dtype=np.int64), np.diff(m.nb_ptr))
    nbr_idx, nbr_ptr = csr_by_dst(nb_row, m.nb_idx, m.n)  # who lists each cell
    parts: dict[int, Any] = {
        fk.M_BUILDING: m.building,
        fk.M_ROAD: m.road,
        fk.M_WATER: m.water,
        fk.M_STORE: m.store,
        fk.M_NB_PTR: m.nb_ptr,
        fk.M_NB_IDX: m.nb_idx,
        fk.M_IN_PTR: m.in_ptr,
        fk.M_IN_SRC: m.in_src,
        fk.M_IN_THR: np.select(
            [m.in_kind == CLIMB, m.in_kind == JUMP], [p.climb_min_fire, p.jump_min_fire], 1
        ).astype(np.int8),
        fk.M_IN_ADD: (np.where(m.in_kind == JUMP, p.jump_max, 0) - m.in_wind).astype(np.int8),
        fk.M_IN_USE_FA: (m.in_kind != JUMP).astype(np.int8),
        fk.M_LOC_LEVEL: m.loc_level,
        fk.M_NBR_PTR: nbr_ptr,
        fk.M_NBR_IDX: nbr_idx,
        fk.M_OUT_PTR: out_ptr,
        fk.M_OUT_DST: out_dst,
        fk.M_AREA_PTR: area_ptr,
        fk.M_AREA_IDX: np.array([k for x in m.area_locs for k in x], dtype=np.int64),
        fk.M_AREA_TOP: m.area_top,
        fk.M_AREA_GROUND: m.area_ground,
        fk.M_LOC_AREA: m.loc_area,
        fk.M_ABOVE_PTR: m.above_ptr,
        fk.M_ABOVE_IDX: m.above_idx,
        fk.M_ADJ_PTR: m.adj_ptr,
        fk.M_ADJ_SRC: m.adj_src,
        fk.M_HE_PTR: he_ptr,
        fk.M_HE_IDX: np.array([k for x in m.he_targets for k in x], dtype=np.int64),
        fk.M_STORE_MOD: np.array(p.store_mod, dtype=np.int64)[m.store.astype(np.int64)],
        fk.M_WOOD: m.store == WOOD,
        fk.M_BOMB_CDF: m.bomb_cdf.astype(np.float64),
        fk.M_LOAD: np.array(p.load, dtype=np.int64).reshape(6, 2),
        fk.M_OCCUPANTS: m.occupants,
    }
    assert sorted(parts) == list(range(fk.M_SIZE))
    road0 = np.where(m.road & ~m.start_rubble & (m.start_fire > 0), 0, -1)
    start = np.stack(
        [m.start_fire, m.start_embers, m.start_damp, m.start_damage, m.start_rubble, road0]
    ).astype(np.int16)
    chances = np.zeros(fk.F_SIZE, dtype=np.float64)
    chances[fk.F_FAIL : fk.F_FAIL + 7] = 1.0 - np.arange(7) / 6.0
    for nbf in (0, 1):
        for wf in (0, 1):
            need = p.growth_on - nbf * p.growth_neighbour - wf * p.growth_wood
            chances[fk.F_GROW + 2 * nbf + wf] = 1.0 - d6_at_most(need - 1)
    chances[fk.F_DAMAGE] = 1.0 - d6_at_most(p.damage_add_on - 1)
    chances[fk.F_REIGNITE] = two_d6_at_least(p.reignite_on)
    tables: dict[str, Any] = {
        "P": vec,
        "F": chances,
        "M": tuple(np.ascontiguousarray(parts[k]) for k in range(fk.M_SIZE)),
        "start": start,
        "bomb_lost": float(m.bomb_lost),
    }
    model.extra["kernel"] = tables
    return tables


def run_key(seed: int | None) -> tuple[np.uint64, np.uint64]:
    """The two words that key every game's stream of a run (games are numbered 0, 1, ...)."""
    words = np.random.SeedSequence(seed).generate_state(2, dtype=np.uint64)
    return np.uint64(words[0]), np.uint64(words[1])


def run_kernel(
    model: FastModel,
    games: int,
    turns: int,
    key: tuple[np.uint64, np.uint64],
    first_game: int = 0,
    threads: int = 1,
    states: npt.NDArray[np.int16] | None = None,
) -> FastResult:
    """Games ``first_game`` .. ``first_game + games - 1`` of the run keyed ``key`` on the
    numba kernel, spread over ``threads`` threads. ``states`` (``[games, rows, N]``, see
    :func:`kernel_state`) receives each game's final state when given."""
    import numba  # type: ignore[import-not-found, unused-ignore]

    from . import numba_kernels as fk

    t = kernel_tables(model)
    n = model.n
    out = FastResult(
        burned=np.zeros((games, n), dtype=bool),
        destroyed=np.zeros((games, n), dtype=bool),
        first_alight=np.zeros((games, n), dtype=np.int16),
        fire=np.zeros((games, n), dtype=np.int8),
        all_clear_turn=np.zeros(games, dtype=np.int16),
        dead=np.zeros(games, dtype=np.int64),
        buried=np.zeros(games, dtype=np.int64),
        turns=turns,
    )
    if games == 0:
        return out
    numba.set_num_threads(max(1, min(threads, int(getattr(numba.config, "NUMBA_NUM_THREADS", 1)))))
    # small chunks of games handed out as threads come free: a thread slowed down by other
    # work on the machine does not hold the others up
    chunksize = numba.set_parallel_chunksize(8)
    try:
        fk.play_games(
            t["P"], t["F"], t["M"], t["start"], t["bomb_lost"], key[0], key[1], first_game,
            turns, out.burned, out.destroyed, out.first_alight, out.fire, out.all_clear_turn,
            out.dead, out.buried,
            states if states is not None else np.zeros((0, fk.S_ROWS, n), np.int16),
        )  # fmt: skip
    finally:
        numba.set_parallel_chunksize(chunksize)
    return out


def kernel_state(
    model: FastModel, games: int, turns: int, seed: int | None = None
) -> tuple[FastResult, dict[str, npt.NDArray[np.int16]]]:
    """Play on the kernel and keep every game's final state, by name (``fire``, ``damp``,
    ``damage``, ``rubble``, ``fate``, ...; each ``[games, N]``): for tests and debugging."""
    from . import numba_kernels as fk

    states = np.zeros((games, fk.S_ROWS, model.n), dtype=np.int16)
    result = run_kernel(model, games, turns, run_key(seed), states=states)
    rows = {name[2:].lower(): getattr(fk, name) for name in dir(fk) if name.startswith("S_")}
    return result, {k: states[:, r, :] for k, r in rows.items() if k != "rows"}


KERNEL_CHUNK = 1024  # games per kernel call (progress is reported between calls)


def run_games(
    scenario: Scenario,
    games: int,
    turns: int,
    seed: int | None = None,
    workers: int = 1,
    progress: Any = None,
    model: FastModel | None = None,
) -> FastResult:
    """Play ``games`` games without any response; the same result for a seed whatever
    ``workers`` is. ``progress(done_games)`` is called as chunks finish.

    With numba the whole games run in :mod:`._fastkernels` on ``workers`` threads, each game
    on its own stream; without it, on the numpy :class:`Batch` in ``workers`` processes. The
    two paths play the same rules with different streams: statistically equal, not
    game-identical.
    """
    if kernels() is not None:
        model = model or build_model(scenario)
        key = run_key(seed)
        kparts: list[FastResult] = []
        for start in range(0, games, KERNEL_CHUNK):
            size = min(KERNEL_CHUNK, games - start)
            kparts.append(run_kernel(model, size, turns, key, start, threads=workers))
            if progress is not None:
                progress(start + size)
        if not kparts:
            return run_kernel(model, 0, turns, key)
        return kparts[0] if len(kparts) == 1 else FastResult.concat(kparts)
    return run_games_numpy(scenario, games, turns, seed, workers, progress, model)


def run_games_numpy(
    scenario: Scenario,
    games: int,
    turns: int,
    seed: int | None = None,
    workers: int = 1,
    progress: Any = None,
    model: FastModel | None = None,
) -> FastResult:
    """:func:`run_games` on the numpy :class:`Batch`: fixed chunks of games, each with its own
    spawned generator, played in ``workers`` processes."""
    sizes = chunk_sizes(games)
    seeds = chunk_seeds(seed, len(sizes))
    jobs = [(n, turns, s) for n, s in zip(sizes, seeds, strict=True)]
    parts: list[FastResult] = []
    done = 0
    if workers <= 1 or len(jobs) <= 1:
        model = model or build_model(scenario)
        for n, t, s in jobs:
            parts.append(run_chunk(model, n, t, s))
            done += n
            if progress is not None:
                progress(done)
    else:
        import multiprocessing as mp
        from concurrent.futures import ProcessPoolExecutor

        ctx = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
        with ProcessPoolExecutor(
            max_workers=workers, mp_context=ctx, initializer=_worker_init, initargs=(scenario,)
        ) as pool:
            for part in pool.map(_worker_run, jobs):
                parts.append(part)
                done += part.games
                if progress is not None:
                    progress(done)
    if not parts:
        n = len(build_graph(scenario).locations)
        empty = Batch(model or build_model(scenario), 0, np.random.default_rng(0)).result()
        assert empty.burned.shape == (0, n)
        return empty
    return FastResult.concat(parts)
