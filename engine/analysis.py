"""Monte Carlo balance analysis: ``fireground analyze`` (issue 6).

Plays many games of a scenario, either in full with the autopilot of the reference engine
or, with ``--no-response``, fire, bombs and collapse alone on the vectorised core
(:mod:`.fastsim`), and reports what a designer needs to judge it:

* per location, the chance it burns, the chance it is destroyed and the mean turn it is first
  seen alight;
* the scorecard's distribution, each objective's chance with a 95% Wilson interval, and the
  chance the All Clear has sounded by each turn;
* a short verdict in words naming the places that matter;
* with ``--against``, which differences between two versions of a scenario are significant
  (two-proportion z-tests, Holm's step-down correction over the whole family).

The result is plain data (:class:`AnalysisReport`, ``to_json()``); the PDF is drawn by the
export layer from that data.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from .errors import UsageError
from .scenario import AreaKind, Location, Scenario

Z95 = 1.959963984540054
#: score fields, in the order the scorecard prints them
SCORE_FIELDS = ("destroyed", "burning", "dead", "injured", "rescued", "buried", "units_lost")
#: full games per worker job; fixed, so a seed gives the same games on any number of workers
FULL_CHUNK = 20

Progress = Callable[[int], None]


# -- statistics ----------------------------------------------------------------------------
def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for ``k`` successes in ``n`` trials (default 95%)."""
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def two_proportion_z(k1: int, n1: int, k2: int, n2: int) -> tuple[float, float]:
    """(z, two-sided p-value) of the pooled two-proportion z-test; (0, 1) when undefined."""
    if n1 <= 0 or n2 <= 0:
        return (0.0, 1.0)
    pool = (k1 + k2) / (n1 + n2)
    se = math.sqrt(pool * (1 - pool) * (1 / n1 + 1 / n2))
    if se == 0:
        return (0.0, 1.0)
    z = (k1 / n1 - k2 / n2) / se
    return (z, math.erfc(abs(z) / math.sqrt(2)))


def holm(pvalues: list[float], alpha: float = 0.05) -> list[bool]:
    """Holm's step-down test: which hypotheses are rejected at family-wise level ``alpha``."""
    order = sorted(range(len(pvalues)), key=lambda i: pvalues[i])
    out = [False] * len(pvalues)
    m = len(pvalues)
    for rank, i in enumerate(order):
        if pvalues[i] > alpha / (m - rank):
            break
        out[i] = True
    return out


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

    @property
    def games(self) -> int:
        return int(self.burned.shape[0])


def _objective_met(
    scenario: Scenario,
    destroyed: npt.NDArray[np.bool_],
    locs: list[Location],
    rescued: npt.NDArray[np.int64],
) -> npt.NDArray[np.bool_]:
    games = destroyed.shape[0]
    out = np.zeros((games, len(scenario.objectives)), dtype=bool)
    area_of = np.array([a for a, _ in locs], dtype=object)
    for k, obj in enumerate(scenario.objectives):
        if obj.type == "protect":
            if obj.building is not None:
                areas = {a.id for a in scenario.areas if a.building == obj.building}
            else:
                areas = {obj.area} if obj.area else set()
            cols = np.array([a in areas for a in area_of], dtype=bool)
            out[:, k] = ~destroyed[:, cols].any(axis=1)
        elif obj.type == "contain":
            limit = obj.max_destroyed if obj.max_destroyed is not None else 0
            out[:, k] = destroyed.sum(axis=1) <= limit
        elif obj.type == "rescue":
            out[:, k] = rescued >= (obj.at_least or 0)
    return out


def no_response_outcomes(
    scenario: Scenario,
    games: int,
    turns: int,
    seed: int | None,
    workers: int = 1,
    progress: Progress | None = None,
) -> Outcomes:
    """Fire, bombs and collapse alone, on the vectorised core."""
    from .fastsim import run_games

    r = run_games(scenario, games, turns, seed, workers=workers, progress=progress)
    from .graph import build_graph

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
    return Outcomes(
        locations=locs,
        burned=r.burned,
        destroyed=r.destroyed,
        first_alight=r.first_alight,
        all_clear_turn=r.all_clear_turn,
        score=score,
        objectives=_objective_met(scenario, r.destroyed, locs, zeros),
        turns=turns,
    )


def game_seeds(seed: int | None, games: int) -> list[int]:
    """One reference-engine seed per game, the same whatever the number of workers."""
    words = np.random.SeedSequence(seed).generate_state(max(games, 1), dtype=np.uint64)
    return [int(w) for w in words[:games]]


#: a scenario made ready for full games: (scenario, graph, ruleset, shared map memos)
Prepared = tuple[Scenario, Any, Any, dict[str, Any]]


def _prepare(scenario: Scenario) -> Prepared:
    """The graph, the ruleset and the map-only memos every full game of ``scenario`` shares
    (filled by the first games; a game's result does not depend on them being warm)."""
    from .graph import build_graph
    from .ruleset import load_ruleset

    rules = load_ruleset(scenario.ruleset, dict(scenario.house_rules))
    return (scenario, build_graph(scenario), rules, {})


def _play_full(
    scenario: Scenario, seeds: list[int], turns: int, prepared: Prepared | None = None
) -> dict[str, Any]:
    from .simulate import new_game

    if prepared is None or prepared[0] is not scenario:
        prepared = _prepare(scenario)
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
    for j, s in enumerate(seeds):
        game = new_game(scenario, s, graph=graph, rules=rules, log_events=False, shared_memos=memos)
        row = first[j]
        seen = {loc for loc in index if row[index[loc]] >= 0}  # alight before turn 1
        for t in range(1, turns + 1):
            game.step()
            new = game.state.fire.keys() - seen
            if new:
                seen |= new
                for loc in new:
                    row[index[loc]] = t
            if clear[j] < 0 and game.state.all_clear:
                clear[j] = t
        for loc, v in game.state.damage.items():
            if v >= destroyed_at and loc in index:
                destroyed[j, index[loc]] = True
        card = game.score()
        for f in SCORE_FIELDS:
            score[f][j] = int(card.get(f, 0))
        for k, o in enumerate(card["objectives"]):
            objectives[j, k] = bool(o.get("met"))
    return {
        "first": first,
        "destroyed": destroyed,
        "clear": clear,
        "score": score,
        "objectives": objectives,
    }


#: in a worker process of :func:`autopilot_outcomes` only: its prepared scenario, made once
#: by :func:`_init_worker` so that every job of the worker reuses the graph and warm memos
_WORKER: list[Prepared] = []


def _init_worker(scenario: Scenario) -> None:
    if _WORKER and _WORKER[0][0] == scenario:
        return  # forked from a parent that prepared it: the graph comes along
    _WORKER[:] = [_prepare(scenario)]


def _worker_job(job: tuple[list[int], int]) -> dict[str, Any]:
    prepared = _WORKER[0]
    return _play_full(prepared[0], job[0], job[1], prepared)


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
    jobs = [(seeds[k : k + chunk], turns) for k in range(0, games, chunk)]
    parts: list[dict[str, Any]] = []
    done = 0
    prepared = _prepare(scenario)  # one graph and one set of memos for every chunk
    graph = prepared[1]
    if workers <= 1 or len(jobs) <= 1:
        results: Any = (_play_full(scenario, sd, t, prepared) for sd, t in jobs)
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
    locs = list(graph.locations)
    n = len(locs)
    if not parts:
        parts = [_play_full(scenario, [], turns)]
    first = np.concatenate([p["first"] for p in parts]).reshape(-1, n)
    return Outcomes(
        locations=locs,
        burned=first >= 0,
        destroyed=np.concatenate([p["destroyed"] for p in parts]).reshape(-1, n),
        first_alight=first,
        all_clear_turn=np.concatenate([p["clear"] for p in parts]),
        score={f: np.concatenate([p["score"][f] for p in parts]) for f in SCORE_FIELDS},
        objectives=np.concatenate([p["objectives"] for p in parts]).reshape(
            -1, len(scenario.objectives)
        ),
        turns=turns,
    )


# -- the report --------------------------------------------------------------------------------
@dataclass
class LocationStat:
    area: str
    level: int
    name: str
    burn: float
    destroyed: float
    first_alight: float | None  # mean turn first alight, over the games it burned


@dataclass
class ObjectiveStat:
    label: str
    type: str
    met: int
    games: int
    chance: float
    low: float
    high: float


@dataclass
class ScoreStat:
    name: str
    mean: float
    values: list[int]
    counts: list[int]


@dataclass
class Difference:
    what: str  # "location" | "objective"
    label: str
    chance: float  # this scenario
    other: float  # the other one
    z: float
    p_value: float
    significant: bool = False


@dataclass
class AnalysisReport:
    """Everything ``fireground analyze`` reports, as plain data."""

    scenario: str
    file: str | None
    mode: str  # "autopilot" | "no-response"
    games: int
    turns: int
    seed: int | None
    locations: list[LocationStat]
    scorecard: list[ScoreStat]
    objectives: list[ObjectiveStat]
    all_clear_by_turn: list[float]  # index t: chance the All Clear has sounded by turn t
    verdict: str
    comparison: list[Difference] | None = None
    against: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def location(self, area: str, level: int) -> LocationStat:
        for s in self.locations:
            if s.area == area and s.level == level:
                return s
        raise KeyError((area, level))

    def to_json(self) -> dict[str, Any]:
        def r(x: float | None) -> float | None:
            return None if x is None else round(float(x), 6)

        return {
            "scenario": self.scenario,
            "file": self.file,
            "mode": self.mode,
            "games": self.games,
            "turns": self.turns,
            "seed": self.seed,
            "locations": [
                {
                    "area": s.area,
                    "level": s.level,
                    "name": s.name,
                    "burn": r(s.burn),
                    "destroyed": r(s.destroyed),
                    "first_alight": r(s.first_alight),
                }
                for s in self.locations
            ],
            "scorecard": {
                s.name: {
                    "mean": r(s.mean),
                    "histogram": dict(zip(map(str, s.values), s.counts, strict=True)),
                }
                for s in self.scorecard
            },
            "objectives": [
                {
                    "label": o.label,
                    "type": o.type,
                    "met": o.met,
                    "games": o.games,
                    "chance": r(o.chance),
                    "low": r(o.low),
                    "high": r(o.high),
                }
                for o in self.objectives
            ],
            "all_clear_by_turn": [r(x) for x in self.all_clear_by_turn],
            "verdict": self.verdict,
            "against": self.against,
            "comparison": None
            if self.comparison is None
            else [
                {
                    "what": d.what,
                    "label": d.label,
                    "chance": r(d.chance),
                    "other": r(d.other),
                    "z": r(d.z),
                    "p_value": r(d.p_value),
                    "significant": d.significant,
                }
                for d in self.comparison
            ],
        }


def place_name(scenario: Scenario, area_id: str) -> str:
    """A readable name for an area: its own name, or its building's, with the id."""
    a = scenario.area_by_id.get(area_id)
    if a is None:
        return area_id
    if a.name:
        return f"{a.name} ({area_id})"
    b = scenario.building_of(area_id)
    if b is not None and b.name:
        return f"{b.name} ({area_id})"
    return area_id


def objective_label(scenario: Scenario, k: int) -> str:
    o = scenario.objectives[k]
    if o.type == "protect":
        if o.building is not None:
            b = scenario.building_by_id.get(o.building)
            return f"protect {b.name if b is not None and b.name else o.building}"
        return f"protect {place_name(scenario, o.area or '')}"
    if o.type == "rescue":
        return f"rescue at least {o.at_least or 0}"
    if o.type == "contain":
        return f"at most {o.max_destroyed or 0} locations destroyed"
    return o.type


def summarise(
    scenario: Scenario, out: Outcomes, mode: str, seed: int | None, file: str | None = None
) -> AnalysisReport:
    """Turn per-game outcomes into the report."""
    g = max(out.games, 1)
    burn = out.burned.mean(axis=0) if out.games else np.zeros(len(out.locations))
    dest = out.destroyed.mean(axis=0) if out.games else np.zeros(len(out.locations))
    locs: list[LocationStat] = []
    for k, (a, lv) in enumerate(out.locations):
        lit = out.first_alight[:, k]
        lit = lit[lit >= 0]
        locs.append(
            LocationStat(
                a,
                lv,
                place_name(scenario, a),
                float(burn[k]),
                float(dest[k]),
                float(lit.mean()) if len(lit) else None,
            )
        )
    cards: list[ScoreStat] = []
    for f in SCORE_FIELDS:
        v = out.score[f]
        values, counts = np.unique(v, return_counts=True)
        cards.append(
            ScoreStat(
                f,
                float(v.mean()) if len(v) else 0.0,
                [int(x) for x in values],
                [int(c) for c in counts],
            )
        )
    objs: list[ObjectiveStat] = []
    for k, o in enumerate(scenario.objectives):
        met = int(out.objectives[:, k].sum())
        lo, hi = wilson(met, out.games)
        objs.append(
            ObjectiveStat(objective_label(scenario, k), o.type, met, out.games, met / g, lo, hi)
        )
    ac = out.all_clear_turn
    by_turn = [float(((ac >= 0) & (ac <= t)).sum() / g) for t in range(out.turns + 1)]
    report = AnalysisReport(
        scenario=scenario.name,
        file=file,
        mode=mode,
        games=out.games,
        turns=out.turns,
        seed=seed,
        locations=locs,
        scorecard=cards,
        objectives=objs,
        all_clear_by_turn=by_turn,
        verdict="",
    )
    report.verdict = verdict(scenario, report, out)
    return report


def _area_table(report: AnalysisReport) -> dict[str, tuple[float, float]]:
    """Per area, the worst level's (burn chance, destruction chance)."""
    table: dict[str, tuple[float, float]] = {}
    for s in report.locations:
        b, d = table.get(s.area, (0.0, 0.0))
        table[s.area] = (max(b, s.burn), max(d, s.destroyed))
    return table


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def verdict(scenario: Scenario, report: AnalysisReport, out: Outcomes) -> str:
    """One paragraph in words: how hard, what is lost, where the fire comes from."""
    if out.games == 0:
        return "No games were played."
    buildings = {a.id for a in scenario.areas if a.kind is AreaKind.BUILDING}
    table = {a: v for a, v in _area_table(report).items() if a in buildings}
    parts: list[str] = []
    objs = report.objectives
    if objs:
        mean = sum(o.chance for o in objs) / len(objs)
        grade = (
            "Easy"
            if mean >= 0.75
            else "Fair"
            if mean >= 0.4
            else "Hard"
            if mean >= 0.15
            else "Very hard"
        )
        worst = min(objs, key=lambda o: o.chance)
        half = (worst.high - worst.low) / 2
        parts.append(
            f"{grade}: the hardest objective ({worst.label}) is met in "
            f"{_pct(worst.chance)} ± {_pct(half)} of games."
        )
    else:
        frac = float(out.destroyed.mean()) if out.destroyed.size else 0.0
        parts.append(
            f"No objectives are set; on average {_pct(frac)} of the locations are "
            "destroyed by the end."
        )
    if report.mode == "no-response":
        parts[-1] = parts[-1].rstrip(".") + " with no fire service at all."
    if table:
        ranked = sorted(table.items(), key=lambda kv: (-kv[1][1], -kv[1][0], kv[0]))
        worst_area, (wb, wd) = ranked[0]
        parts.append(
            f"The worst place is {place_name(scenario, worst_area)}: it burns in "
            f"{_pct(wb)} of games and is destroyed in {_pct(wd)}."
        )
        others = [place_name(scenario, a) for a, (_, d) in ranked[1:4] if d >= 0.25]
        if others:
            parts.append("Also often lost: " + ", ".join(others) + ".")
        safe = [place_name(scenario, a) for a, (b, _) in sorted(table.items()) if b < 0.05]
        if safe:
            shown = ", ".join(safe[:3]) + (" and others" if len(safe) > 3 else "")
            parts.append(f"Rarely touched: {shown}.")
    starts = sorted({f.area for f in scenario.start.fires})
    if starts:
        early = [
            s
            for s in report.locations
            if s.first_alight is not None
            and s.burn >= 0.5
            and s.area not in starts
            and s.area in buildings
        ]
        early.sort(key=lambda s: (s.first_alight or 0.0, s.area, s.level))
        names = ", ".join(place_name(scenario, a) for a in starts[:3])
        text = f"Losses start from the fires at {names}"
        if early:
            e = early[0]
            text += (
                f"; the fire usually reaches {place_name(scenario, e.area)} first "
                f"(about turn {e.first_alight:.0f})"
            )
        parts.append(text + ".")
    if report.all_clear_by_turn and scenario.bombing and not scenario.start.all_clear:
        parts.append(
            f"The All Clear has sounded by the last turn in "
            f"{_pct(report.all_clear_by_turn[-1])} of games."
        )
    return " ".join(parts)


def compare(
    a: AnalysisReport, oa: Outcomes, b: AnalysisReport, ob: Outcomes, alpha: float = 0.05
) -> list[Difference]:
    """Per-location burn and destruction chances and objective chances of two versions,
    each tested with a two-proportion z-test, significance by Holm over the whole family."""
    diffs: list[Difference] = []
    bi = {loc: k for k, loc in enumerate(ob.locations)}
    for k, loc in enumerate(oa.locations):
        j = bi.get(loc)
        if j is None:
            continue
        for what, xa, xb in (
            ("burns", oa.burned, ob.burned),
            ("destroyed", oa.destroyed, ob.destroyed),
        ):
            ka, kb = int(xa[:, k].sum()), int(xb[:, j].sum())
            if ka == 0 and kb == 0:
                continue
            z, p = two_proportion_z(ka, oa.games, kb, ob.games)
            diffs.append(
                Difference(
                    "location",
                    f"{loc[0]} level {loc[1]} {what}",
                    ka / max(oa.games, 1),
                    kb / max(ob.games, 1),
                    z,
                    p,
                )
            )
    for obj in a.objectives:
        match = next((o for o in b.objectives if o.label == obj.label), None)
        if match is None:
            continue
        z, p = two_proportion_z(obj.met, obj.games, match.met, match.games)
        diffs.append(Difference("objective", obj.label, obj.chance, match.chance, z, p))
    for d, sig in zip(diffs, holm([d.p_value for d in diffs], alpha), strict=True):
        d.significant = sig
    return diffs


# -- running -----------------------------------------------------------------------------------
def outcomes(
    scenario: Scenario,
    games: int,
    turns: int,
    seed: int | None,
    no_response: bool,
    workers: int = 1,
    progress: Progress | None = None,
) -> Outcomes:
    run = no_response_outcomes if no_response else autopilot_outcomes
    return run(scenario, games, turns, seed, workers=workers, progress=progress)


def analyze(
    scenario: Scenario,
    games: int = 1000,
    turns: int | None = None,
    seed: int | None = None,
    no_response: bool = False,
    workers: int = 1,
    progress: Progress | None = None,
    file: str | None = None,
) -> tuple[AnalysisReport, Outcomes]:
    """Play ``games`` games and report on them (``seed`` defaults to the scenario's, then 0).

    Raises ValueError, with the reason, for fewer than one game, negative turns or seed,
    and a map with no locations to burn."""
    if seed is None:
        seed = scenario.seed if scenario.seed is not None else 0
    turns = scenario.turns if turns is None else turns
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    if turns < 0:
        raise ValueError(f"turns must be 0 or more, not {turns}")
    if seed < 0:
        raise ValueError(f"the seed must be 0 or more, not {seed}")
    if not any(True for _ in scenario.locations()):
        raise ValueError(f"{scenario.name or 'the scenario'} has no locations to play on")
    out = outcomes(scenario, games, turns, seed, no_response, workers, progress)
    mode = "no-response" if no_response else "autopilot"
    return summarise(scenario, out, mode, seed, file), out


class ProgressBar:
    """A one-line bar on stderr, drawn only on a terminal."""

    def __init__(self, total: int, label: str, stream: Any = None) -> None:
        self.total = max(total, 1)
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.on = bool(getattr(self.stream, "isatty", lambda: False)())

    def __call__(self, done: int) -> None:
        if not self.on:
            return
        width = 30
        fill = int(width * done / self.total)
        self.stream.write(
            f"\r{self.label} [{'#' * fill}{'.' * (width - fill)}] {done}/{self.total} games"
        )
        if done >= self.total:
            self.stream.write("\n")
        self.stream.flush()


def _print_text(report: AnalysisReport) -> None:
    w = sys.stdout.write
    w(
        f"{report.scenario or report.file}: {report.games} games of {report.turns} turns "
        f"({report.mode}), seed {report.seed}\n\n"
    )
    w(report.verdict + "\n\n")
    if report.objectives:
        w("objectives (chance met, 95% interval):\n")
        for o in report.objectives:
            w(f"  {o.label:40s} {_pct(o.chance):>5s}  [{_pct(o.low)}, {_pct(o.high)}]\n")
        w("\n")
    w(
        "scorecard (mean):  "
        + ", ".join(f"{s.name} {s.mean:.1f}" for s in report.scorecard)
        + "\n\n"
    )
    ranked = sorted(report.locations, key=lambda s: (-s.destroyed, -s.burn, s.area, s.level))
    w("locations most at risk (burns, destroyed, mean first turn alight):\n")
    for s in ranked[:15]:
        first = "-" if s.first_alight is None else f"{s.first_alight:.1f}"
        w(
            f"  {s.area:>10s} level {s.level:2d}  {_pct(s.burn):>5s} {_pct(s.destroyed):>5s}  "
            f"{first:>5s}  {s.name}\n"
        )
    if report.comparison is not None:
        sig = [d for d in report.comparison if d.significant]
        w(
            f"\nagainst {report.against}: {len(sig)} significant of {len(report.comparison)} "
            "differences (Holm, 5%)\n"
        )
        for d in sorted(sig, key=lambda d: d.p_value)[:20]:
            w(f"  {d.label:40s} {_pct(d.chance):>5s} vs {_pct(d.other):>5s}  z={d.z:+.1f}\n")


def cli_analyze(
    args: argparse.Namespace,
    write_pdf: Callable[[AnalysisReport, Scenario, str], None] | None = None,
) -> int:
    """``fireground analyze FILE [--games N] [--seed S] [--turns T] [--no-response]
    [--against OTHER] [--out REPORT.pdf] [--json]``."""
    from .io import load_scenario

    games = int(args.games)
    if games < 1:
        raise UsageError(f"{args.file}: --games must be at least 1")
    turns = getattr(args, "turns", None)
    if turns is not None and turns < 0:
        raise UsageError(f"{args.file}: --turns must be 0 or more")
    from .checks import error_lines

    if args.out and write_pdf is None:
        raise UsageError(f"{args.file}: --out needs the PDF writer of fireground.export")
    scenario = load_scenario(args.file)
    other = load_scenario(args.against) if args.against else None
    errors = error_lines(scenario, args.file)
    if other is not None:
        errors += error_lines(other, args.against)
    if errors:
        for line in errors:
            print(line, file=sys.stderr)
        return 1
    workers = int(os.environ.get("FIREGROUND_WORKERS", "0")) or (os.cpu_count() or 1)
    bar = ProgressBar(games * (2 if other else 1), "analyze")
    report, out = analyze(
        scenario, games, turns, args.seed, args.no_response, workers, bar, file=args.file
    )
    if other is not None:
        rep_b, out_b = analyze(
            other,
            games,
            turns if turns is not None else report.turns,
            report.seed,
            args.no_response,
            workers,
            lambda d: bar(games + d),
            file=args.against,
        )
        report = replace(
            report, comparison=compare(report, out, rep_b, out_b), against=args.against
        )
    if args.out and write_pdf is not None:
        # the PDF is drawn by the export layer (reportlab lives there, never in the engine)
        write_pdf(report, scenario, args.out)
    if args.json:
        print(json.dumps(report.to_json(), indent=2))
    else:
        _print_text(report)
        if args.out:
            print(f"\nreport written to {args.out}")
    return 0
