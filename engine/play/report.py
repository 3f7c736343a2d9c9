"""The analysis report: statistics over the games (Wilson intervals, two-proportion tests
with Holm's correction), per-location, objective and score figures, the verdict in words,
and the comparison of two versions of a scenario. Plain data; the PDF is drawn by the
export layer."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..board.model import AreaKind, Scenario
from .montecarlo import SCORE_FIELDS, Outcomes

Z95 = 1.959963984540054


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
    #: the mean of what the objective is judged on, and what that is ("destroyed":
    #: locations lost, for protect and contain; "rescued": civilians found alive)
    mean: float | None = None
    measure: str = ""


def judged_text(o: ObjectiveStat) -> str:
    """What an objective is judged on, as its mean per game ("destroyed 8.4", "rescued
    0.05"; two decimals below one so that a rare loss does not read as none); "" if unknown."""
    if o.mean is None:
        return ""
    m = o.mean
    return f"{o.measure} {m:.1f}" if m == 0 or m >= 1 else f"{o.measure} {m:.2f}"


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
                    "mean": r(o.mean),
                    "measure": o.measure,
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
        mean = None if out.figures is None else float(out.figures[:, k].mean())
        measure = "rescued" if o.type == "rescue" else "destroyed"
        objs.append(
            ObjectiveStat(
                objective_label(scenario, k), o.type, met, out.games, met / g, lo, hi, mean, measure
            )
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


def percent(x: float) -> str:
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
            f"{percent(worst.chance)} ± {percent(half)} of games."
        )
    else:
        frac = float(out.destroyed.mean()) if out.destroyed.size else 0.0
        parts.append(
            f"No objectives are set; on average {percent(frac)} of the locations are "
            "destroyed by the end."
        )
    if report.mode == "no-response":
        parts[-1] = parts[-1].rstrip(".") + " with no fire service at all."
    if table:
        ranked = sorted(table.items(), key=lambda kv: (-kv[1][1], -kv[1][0], kv[0]))
        worst_area, (wb, wd) = ranked[0]
        parts.append(
            f"The worst place is {place_name(scenario, worst_area)}: it burns in "
            f"{percent(wb)} of games and is destroyed in {percent(wd)}."
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
            f"{percent(report.all_clear_by_turn[-1])} of games."
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
