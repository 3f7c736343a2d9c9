"""The games of an analysis: many full autopilot games on the reference engine (in the
quiet mode, on every core) or many games of fire, bombs and collapse alone on the fast
core, and what each game leaves behind (:class:`Outcomes`)."""

from __future__ import annotations

import gc
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ..board.model import Location, Scenario
from ..core.collector import collector_paused
from ..core.memo import Memo

#: score fields, in the order the scorecard prints them
SCORE_FIELDS = ("destroyed", "burning", "dead", "injured", "rescued", "buried", "units_lost")
#: full games per worker job; fixed, so a seed gives the same games on any number of workers
FULL_CHUNK = 20

Progress = Callable[[int], None]


# -- what games leave behind -----------------------------------------------------------------
@dataclass
class Outcomes:
    """Per-game results of either mode, arrays ``[games, locations]`` or ``[games]``."""

    locations: list[Location]
    burned: npt.NDArray[np.bool_]
    destroyed: npt.NDArray[np.bool_]
    first_alight: npt.NDArray[np.int16]
    all_clear_turn: npt.NDArray[np.int16]
    score: dict[str, npt.NDArray[np.int64]]
    objectives: npt.NDArray[np.bool_]  # [games, objectives] met
    turns: int
    #: [games, objectives] the figure each objective is judged on: locations destroyed
    #: (protect, contain) or civilians rescued alive (rescue)
    figures: npt.NDArray[np.int64] | None = None

    @property
    def games(self) -> int:
        return int(self.burned.shape[0])


def _objectives_judged(
    scenario: Scenario,
    destroyed: npt.NDArray[np.bool_],
    locs: list[Location],
    rescued: npt.NDArray[np.int64],
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.int64]]:
    """Each objective per game: (met, the figure it is judged on), as the scorecard does."""
    games = destroyed.shape[0]
    met = np.zeros((games, len(scenario.objectives)), dtype=bool)
    figures = np.zeros((games, len(scenario.objectives)), dtype=np.int64)
    area_of = np.array([a for a, _ in locs], dtype=object)
    for k, obj in enumerate(scenario.objectives):
        if obj.type == "protect":
            if obj.building is not None:
                areas = {a.id for a in scenario.areas if a.building == obj.building}
            else:
                areas = {obj.area} if obj.area else set()
            cols = np.array([a in areas for a in area_of], dtype=bool)
            figures[:, k] = destroyed[:, cols].sum(axis=1)
            met[:, k] = figures[:, k] == 0
        elif obj.type == "contain":
            limit = obj.max_destroyed if obj.max_destroyed is not None else 0
            figures[:, k] = destroyed.sum(axis=1)
            met[:, k] = figures[:, k] <= limit
        elif obj.type == "rescue":
            figures[:, k] = rescued
            met[:, k] = rescued >= (obj.at_least or 0)
    return met, figures


def no_response_outcomes(
    scenario: Scenario,
    games: int,
    turns: int,
    seed: int | None,
    workers: int = 1,
    progress: Progress | None = None,
) -> Outcomes:
    """Fire, bombs and collapse alone, on the vectorised core."""
    from ..games.blitz.fastsim.runner import run_games

    r = run_games(scenario, games, turns, seed, workers=workers, progress=progress)
    from ..board.graph import build_graph

    locs = list(build_graph(scenario).locations)
    zeros = np.zeros(r.games, dtype=np.int64)
    score = {
        "destroyed": r.destroyed.sum(axis=1).astype(np.int64),
        "burning": (r.fire > 0).sum(axis=1).astype(np.int64),
        "dead": r.dead.astype(np.int64),
        "injured": zeros,
        "rescued": zeros,
        "buried": r.buried.astype(np.int64),
        "units_lost": zeros,
    }
    met, figures = _objectives_judged(scenario, r.destroyed, locs, zeros)
    return Outcomes(
        locations=locs,
        burned=r.burned,
        destroyed=r.destroyed,
        first_alight=r.first_alight,
        all_clear_turn=r.all_clear_turn,
        score=score,
        objectives=met,
        turns=turns,
        figures=figures,
    )


def game_seeds(seed: int | None, games: int) -> list[int]:
    """One reference-engine seed per game, the same whatever the number of workers."""
    words = np.random.SeedSequence(seed).generate_state(max(games, 1), dtype=np.uint64)
    return [int(w) for w in words[:games]]


#: a scenario made ready for full games: (scenario, graph, ruleset, shared map memos)
Prepared = tuple[Scenario, Any, Any, dict[Memo[Any], Any]]


def prepare(scenario: Scenario) -> Prepared:
    """The graph, the ruleset and the map-only memos every full game of ``scenario`` shares
    (filled by the first games; a game's result does not depend on them being warm)."""
    from ..board.graph import build_graph
    from ..core.ruleset import load_ruleset

    rules = load_ruleset(scenario.ruleset, dict(scenario.house_rules))
    return (scenario, build_graph(scenario), rules, {})


def play_full(
    scenario: Scenario, seeds: list[int], turns: int, prepared: Prepared | None = None
) -> dict[str, Any]:
    """Play one full autopilot game of ``turns`` turns per seed (a chunk of an analysis);
    ``prepared``: the graph, ruleset and shared memos to play on, whose first item must be
    ``scenario`` itself (else they are made afresh). The chunk's arrays, for
    :func:`join_parts`."""
    from .simulate import new_game

    if prepared is None or prepared[0] is not scenario:
        prepared = prepare(scenario)
    _, graph, rules, memos = prepared
    locs = list(graph.locations)
    index = {loc: k for k, loc in enumerate(locs)}
    destroyed_at = rules.int("damage.destroyed")
    g, n = len(seeds), len(locs)
    first = np.full((g, n), -1, dtype=np.int16)
    for fv in scenario.start.fires:
        if fv.location in index:
            first[:, index[fv.location]] = 0
    destroyed = np.zeros((g, n), dtype=bool)
    clear = np.full(g, 0 if scenario.start.all_clear else -1, dtype=np.int16)
    score = {f: np.zeros(g, dtype=np.int64) for f in SCORE_FIELDS}
    objectives = np.zeros((g, len(scenario.objectives)), dtype=bool)
    figures = np.zeros((g, len(scenario.objectives)), dtype=np.int64)
    # the collector's scans between games skip what was there when a game ended (the
    # map, the ruleset, the shared memos the games fill, the modules: long-lived, never
    # garbage): frozen (gc.freeze) after each game and put back as the chunk ends; not
    # when a caller has frozen objects of its own (left as they are)
    freeze = gc.get_freeze_count() == 0
    try:
        for j, s in enumerate(seeds):
            game = new_game(
                scenario, s, graph=graph, rules=rules, log_events=False, shared_memos=memos
            )
            row = first[j]
            seen = {loc for loc in index if row[index[loc]] >= 0}  # alight before turn 1
            with collector_paused():  # a game's objects are freed by reference counts
                for t in range(1, turns + 1):
                    game.step()
                    new = game.state.fire.keys() - seen
                    if new:
                        seen |= new
                        for loc in new:
                            row[index[loc]] = t
                    if clear[j] < 0 and game.state.all_clear:
                        clear[j] = t
                if freeze:
                    gc.freeze()  # (reference counts still free what is frozen)
            for loc, v in game.state.damage.items():
                if v >= destroyed_at and loc in index:
                    destroyed[j, index[loc]] = True
            card = game.score()
            for f in SCORE_FIELDS:
                score[f][j] = int(card.get(f, 0))
            for k, o in enumerate(card["objectives"]):
                objectives[j, k] = bool(o.get("met"))
                figures[j, k] = int(o.get("rescued", o.get("destroyed", 0)))
    finally:
        if freeze:
            gc.unfreeze()  # whatever cycles the games left are collected as usual
    return {
        "first": first,
        "destroyed": destroyed,
        "clear": clear,
        "score": score,
        "objectives": objectives,
        "figures": figures,
    }


#: in a worker process of :func:`autopilot_outcomes` only: its prepared scenario, made once
#: by :func:`_init_worker` so that every job of the worker reuses the graph and warm memos
_WORKER: list[Prepared] = []


def _init_worker(scenario: Scenario) -> None:
    if _WORKER and _WORKER[0][0] == scenario:
        return  # forked from a parent that prepared it: the graph comes along
    _WORKER[:] = [prepare(scenario)]


def _worker_job(job: tuple[list[int], int]) -> dict[str, Any]:
    prepared = _WORKER[0]
    return play_full(prepared[0], job[0], job[1], prepared)


def autopilot_outcomes(
    scenario: Scenario,
    games: int,
    turns: int,
    seed: int | None,
    workers: int = 1,
    progress: Progress | None = None,
    chunk: int = FULL_CHUNK,
) -> Outcomes:
    """Full games with the standing-orders autopilot of the reference engine."""
    seeds = game_seeds(seed, games)
    jobs = [(seeds[a:b], turns) for a, b in chunk_bounds(games, chunk, workers)]
    parts: list[dict[str, Any]] = []
    done = 0
    prepared = prepare(scenario)  # one graph and one set of memos for every chunk
    graph = prepared[1]
    if workers <= 1 or len(jobs) <= 1:
        results: Any = (play_full(scenario, sd, t, prepared) for sd, t in jobs)
        for part in results:
            parts.append(part)
            done += len(part["clear"])
            if progress is not None:
                progress(done)
    else:
        import multiprocessing as mp
        from concurrent.futures import ProcessPoolExecutor

        fork = "fork" in mp.get_all_start_methods()
        ctx = mp.get_context("fork" if fork else "spawn")
        if fork:
            _WORKER[:] = [prepared]  # the workers start with the parent's graph
        try:
            with ProcessPoolExecutor(
                max_workers=workers, mp_context=ctx, initializer=_init_worker, initargs=(scenario,)
            ) as pool:
                for part in pool.map(_worker_job, jobs):
                    parts.append(part)
                    done += len(part["clear"])
                    if progress is not None:
                        progress(done)
        finally:
            _WORKER.clear()
    return join_parts(scenario, list(graph.locations), parts, turns)


def chunk_bounds(games: int, chunk: int, workers: int) -> list[tuple[int, int]]:
    """(first, past the last) game of each chunk of ``games`` games, in order: ``chunk``
    games each, except that on several workers the last ``chunk`` games per worker go in
    chunks a quarter as long. A worker then waits at the end for at most the rest of a
    short chunk, not of a whole one (about 10 games of 1,000 on two workers, 1% of the
    run). Which games a chunk holds changes no game: each has its own seed."""
    tail = games - chunk * workers if workers > 1 else games
    out: list[tuple[int, int]] = []
    start = 0
    while start < games:
        size = chunk if start < tail else max(1, chunk // 4)
        out.append((start, min(start + size, games)))
        start += size
    return out


def join_parts(
    scenario: Scenario, locs: list[Location], parts: list[dict[str, Any]], turns: int
) -> Outcomes:
    """The :class:`Outcomes` of the chunks ``parts`` (results of :func:`play_full`, in seed
    order) of games of ``scenario`` on a map whose locations are ``locs``."""
    n = len(locs)
    if not parts:
        parts = [play_full(scenario, [], turns)]
    first = np.concatenate([p["first"] for p in parts]).reshape(-1, n)
    played = sum(len(p["clear"]) for p in parts)  # reshape(-1, 0) fails: no objectives
    return Outcomes(
        locations=locs,
        burned=first >= 0,
        destroyed=np.concatenate([p["destroyed"] for p in parts]).reshape(-1, n),
        first_alight=first,
        all_clear_turn=np.concatenate([p["clear"] for p in parts]),
        score={f: np.concatenate([p["score"][f] for p in parts]) for f in SCORE_FIELDS},
        objectives=np.concatenate([p["objectives"] for p in parts]).reshape(
            played, len(scenario.objectives)
        ),
        turns=turns,
        figures=np.concatenate([p["figures"] for p in parts]).reshape(
            played, len(scenario.objectives)
        ),
    )
