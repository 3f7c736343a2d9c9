#!/usr/bin/env python3
"""Balance the bundled BLITZ! examples with ``fireground sweep`` and write the result.

    python tools/examples/balance.py                 # sweep, choose, write, verify (~25 min)
    python tools/examples/balance.py --coarse 30 --games 100   # a quicker, rougher run

For each example (examples/*.fg.yaml as drawn by build_examples.py, without balance.json):

1. **Coarse sweep**: every combination of the candidate levers below (forces' counts, start
   fires; never the rules), ``--coarse`` games each, the same seeds for every variant.
2. **Thresholds from the figures**: the autopilot never reads a rescue's ``at_least`` or a
   contain's ``max_destroyed`` (only which buildings are protected), so one set of games
   gives the chance of every threshold: the share of games whose figure (civilians rescued,
   locations destroyed) passes it. Each variant gets the thresholds nearest its target.
3. **Choice**: the variant with the fewest objectives outside 25-75%, then the one whose
   objective furthest from the target is nearest it (ties: the next furthest, and so on;
   then the first in sweep order). The target is 50% for the showpieces and ``EASY_TARGET`` for
   the tutorial, so that Stepney is the easiest.
4. **Verify**: ``--games`` games (400) of the chosen levers, thresholds chosen again from
   those games' figures, balance.json written, examples/ rebuilt, and the final table
   printed from those games judged by the files as written. Exit 1 if an objective is
   outside 25-75% or the tutorial is not the easiest.

Deterministic: the same rules, seed and options give the same balance.json.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import build_examples as be

from fireground.engine.board.model import Scenario
from fireground.engine.play.montecarlo import Outcomes
from fireground.engine.play.sweep import Vary, apply_value, objective_stats, sweep
from fireground.engine.scenario.io import load_scenario

#: the tutorial aims here (inside 25-75%, above the showpieces' 50%): the easiest example
EASY_TARGET = 0.65
TARGET = {"stepney": EASY_TARGET, "paternoster": 0.5, "surrey_docks": 0.5}
LOW, HIGH = 0.25, 0.75

#: the levers a designer may pull, per example: sweep keys and candidate values
LEVERS: dict[str, list[tuple[str, tuple[str, ...]]]] = {
    "stepney": [  # a fire upstairs next door to the pub, and in the pub itself
        ("start.fires.H8.1", ("0", "3")),
        ("start.fires.PUB1.1", ("0", "1", "2", "3")),
    ],
    "paternoster": [  # the first N start fires (7 leaves out Amen Corner and St Paul's),
        ("start.fires", ("5", "7", "9")),  # the fire at Simpkin's beside Stationers' Hall,
        ("start.fires.SM2.4", ("0", "2")),  # and the number of appliances
        ("forces.general_appliance.count", ("2", "4")),
    ],
    "surrey_docks": [  # the first N start fires (4: the timber yard's; 5: and the transit
        ("start.fires", ("4", "5")),  # shed), a fire in the dock office beside the oil
        ("start.fires.DO2.0", ("0", "1", "2")),  # tank, and the appliances
        ("forces.general_appliance.count", ("4", "6")),
    ],
}


@dataclass
class Choice:
    """A variant's lever values, its thresholds and the chance of each objective."""

    levers: list[tuple[str, str]]
    thresholds: list[tuple[str, str]]
    chances: list[float]
    target: float

    @property
    def worst(self) -> float:
        return max((abs(c - self.target) for c in self.chances), default=0.0)

    @property
    def distances(self) -> list[float]:
        """Each objective's distance from the target, furthest first."""
        return sorted((abs(c - self.target) for c in self.chances), reverse=True)


def threshold_chances(kind: str, figures: np.ndarray) -> list[tuple[int, float]]:
    """Every useful threshold of a rescue (``at_least``, 1 up) or contain
    (``max_destroyed``, 0 up) objective and its chance met over ``figures``."""
    top = int(figures.max(initial=0))
    if kind == "rescue":
        return [(t, float((figures >= t).mean())) for t in range(1, top + 2)]
    return [(t, float((figures <= t).mean())) for t in range(0, top + 1)]


def pick_threshold(kind: str, figures: np.ndarray, target: float) -> tuple[int, float]:
    """The threshold whose chance is nearest ``target`` (ties: the harder one)."""
    options = threshold_chances(kind, figures)
    # harder: a higher at_least, a lower max_destroyed
    sign = -1 if kind == "rescue" else 1
    return min(options, key=lambda tc: (abs(tc[1] - target), sign * tc[0]))


def judge(
    scenario: Scenario, out: Outcomes, levers: list[tuple[str, str]], target: float
) -> Choice:
    """Thresholds nearest ``target`` for this variant's games, and every objective's chance."""
    assert out.figures is not None
    thresholds: list[tuple[str, str]] = []
    chances: list[float] = []
    for k, o in enumerate(scenario.objectives):
        if o.type in ("rescue", "contain"):
            t, c = pick_threshold(o.type, out.figures[:, k], target)
            key = "at_least" if o.type == "rescue" else "max_destroyed"
            thresholds.append((f"objectives.{k + 1}.{key}", str(t)))
        else:
            c = float(out.objectives[:, k].mean())
        chances.append(c)
    return Choice(levers, thresholds, chances, target)


def outside(c: Choice) -> int:
    """How many of the variant's objectives are outside the fair band (25-75%)."""
    return sum(1 for x in c.chances if not LOW <= x <= HIGH)


def choose(choices: list[Choice]) -> Choice:
    """The variant with the fewest objectives outside 25-75%, then the one whose objective
    furthest from its target *among those inside the band* is nearest it, then the next
    furthest, and so on; then the first in sweep order. Objectives outside the band are
    only counted: one that no lever moves, met in 0% or 2% of games, must not decide by
    its noise."""
    return min(enumerate(choices), key=lambda ic: (outside(ic[1]), inside_distances(ic[1]), ic[0]))[
        1
    ]


def inside_distances(c: Choice) -> list[float]:
    """The distances from the target of ``c``'s objectives inside 25-75%, furthest first."""
    return sorted((abs(x - c.target) for x in c.chances if LOW <= x <= HIGH), reverse=True)


def rejudge(scenario: Scenario, out: Outcomes) -> Outcomes:
    """``out`` judged by ``scenario``'s objectives (thresholds changed, same games)."""
    assert out.figures is not None
    met = out.objectives.copy()
    for k, o in enumerate(scenario.objectives):
        if o.type == "contain":
            met[:, k] = out.figures[:, k] <= (o.max_destroyed or 0)
        elif o.type == "rescue":
            met[:, k] = out.figures[:, k] >= (o.at_least or 0)
    return replace(out, objectives=met)


def _progress(label: str, total: int) -> Callable[[int], None]:
    start = time.monotonic()

    def show(done: int) -> None:
        if sys.stderr.isatty():
            t = time.monotonic() - start
            print(f"\r  {label}: {done}/{total} games, {t:.0f} s", end="", file=sys.stderr)

    return show


def _end_progress() -> None:
    if sys.stderr.isatty():
        print(file=sys.stderr)


def balance_one(
    slug: str, base: Scenario, coarse: int, games: int, seed: int, workers: int
) -> tuple[list[tuple[str, str]], Outcomes, Scenario]:
    target = TARGET[slug]
    varies = [Vary(k, vs) for k, vs in LEVERS[slug]]
    n = 1
    for v in varies:
        n *= len(v.values)
    t0 = time.monotonic()
    rep, outs = sweep(
        base, varies, coarse, seed=seed, workers=workers,
        progress=_progress(f"{slug} coarse", n * coarse),
    )  # fmt: skip
    _end_progress()
    choices = []
    for v, out in zip(rep.variants, outs, strict=True):
        scen = base
        for k, raw in v.values:
            scen = apply_value(scen, k, raw)
        choices.append(judge(scen, out, list(v.values), target))
    print(f"{slug}: coarse sweep, {n} variants x {coarse} games ({time.monotonic() - t0:.0f} s)")
    for c in choices:
        vals = ", ".join(f"{k}={v}" for k, v in c.levers + c.thresholds)
        print(f"  {vals}: " + "  ".join(f"{x:4.0%}" for x in c.chances))
    best = choose(choices)
    # verify the levers with more games; thresholds again from those games' figures
    t0 = time.monotonic()
    one = [Vary(k, (v,)) for k, v in best.levers]
    _, vouts = sweep(
        base, one, games, seed=seed, workers=workers,
        progress=_progress(f"{slug} verify", games),
    )  # fmt: skip
    _end_progress()
    scen = base
    for k, raw in best.levers:
        scen = apply_value(scen, k, raw)
    final = judge(scen, vouts[0], best.levers, target)
    pairs = best.levers + final.thresholds
    print(f"{slug}: chose {', '.join(f'{k}={v}' for k, v in pairs)} "
          f"({games} games, {time.monotonic() - t0:.0f} s)")  # fmt: skip
    return pairs, vouts[0], scen


def table(rows: list[tuple[str, Scenario, Outcomes]], games: int, seed: int) -> list[str]:
    lines = [f"{games} autopilot games per example, seed {seed}, the files as written:", ""]
    for slug, scen, out in rows:
        lines.append(f"{scen.name} (examples/{slug}.fg.yaml)")
        for o in objective_stats(scen, out):
            judged = f"{o.measure} {o.mean:.2f}" if o.mean is not None else ""
            lines.append(f"  {o.label:<48} {o.chance:4.0%} [{o.low:.0%}-{o.high:.0%}]  {judged}")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--coarse", type=int, default=40, help="games per variant in the sweep")
    ap.add_argument("--games", type=int, default=400, help="games to verify the choice")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument(
        "--workers", type=int, default=int(os.environ.get("FIREGROUND_WORKERS", "0")) or 2
    )
    ap.add_argument("--only", choices=sorted(LEVERS), action="append", help="these examples")
    args = ap.parse_args(argv)
    start = time.monotonic()
    slugs = args.only or list(LEVERS)
    chosen = be.load_balance()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        if be.main(["--unbalanced", "--out", tmp]) != 0:
            return 2
        for slug in slugs:
            base = load_scenario(Path(tmp) / f"{slug}.fg.yaml")
            pairs, out, _ = balance_one(
                slug, base, args.coarse, args.games, args.seed, args.workers
            )
            chosen[slug] = pairs
            rows.append((slug, out))
    blocks = [
        f"  {json.dumps(s)}: [\n"
        + ",\n".join(f"    {json.dumps(list(p))}" for p in chosen[s])
        + "\n  ]"
        for s in LEVERS
        if s in chosen
    ]  # one [key, value] a line
    be.BALANCE_FILE.write_text("{\n" + ",\n".join(blocks) + "\n}\n", encoding="utf-8")
    be.main([])
    judged = []
    for slug, out in rows:  # the verifying games, judged by the files as written
        scen = load_scenario(be.EXAMPLES / f"{slug}.fg.yaml")
        judged.append((slug, scen, rejudge(scen, out)))
    print()
    print("\n".join(table(judged, args.games, args.seed)))
    bad = [
        f"{slug}: {o.label} {o.chance:.0%}"
        for slug, scen, out in judged
        for o in objective_stats(scen, out)
        if not LOW <= o.chance <= HIGH
    ]
    means = {
        slug: float(np.mean([o.chance for o in objective_stats(scen, out)]))
        for slug, scen, out in judged
    }
    if "stepney" in means and any(
        means["stepney"] <= m for s, m in means.items() if s != "stepney"
    ):
        bad.append(f"the tutorial is not the easiest (mean chance per example: {means})")
    print(f"\ntook {time.monotonic() - start:.0f} s")
    for b in bad:
        print(f"OUT OF BALANCE: {b}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
