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
import os
import sys
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ..board.model import Scenario
from ..core.errors import UsageError
from .montecarlo import (
    FULL_CHUNK,
    SCORE_FIELDS,
    Outcomes,
    Progress,
    autopilot_outcomes,
    game_seeds,
    no_response_outcomes,
)
from .report import (
    Z95,
    AnalysisReport,
    Difference,
    LocationStat,
    ObjectiveStat,
    ScoreStat,
    compare,
    holm,
    judged_text,
    objective_label,
    percent,
    place_name,
    summarise,
    two_proportion_z,
    verdict,
    wilson,
)

__all__ = [
    "FULL_CHUNK",
    "SCORE_FIELDS",
    "Z95",
    "AnalysisReport",
    "Difference",
    "LocationStat",
    "ObjectiveStat",
    "Outcomes",
    "ProgressBar",
    "ScoreStat",
    "analyze",
    "autopilot_outcomes",
    "cli_analyze",
    "compare",
    "game_seeds",
    "holm",
    "judged_text",
    "no_response_outcomes",
    "objective_label",
    "outcomes",
    "place_name",
    "summarise",
    "two_proportion_z",
    "verdict",
    "wilson",
]


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
        w("objectives (chance met, 95% interval; what it is judged on, mean per game):\n")
        for o in report.objectives:
            judged = "  " + judged_text(o) if o.mean is not None else ""
            w(
                f"  {o.label:40s} {percent(o.chance):>5s}  "
                f"[{percent(o.low)}, {percent(o.high)}]{judged}\n"
            )
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
            f"  {s.area:>10s} level {s.level:2d}  {percent(s.burn):>5s} {percent(s.destroyed):>5s}  "
            f"{first:>5s}  {s.name}\n"
        )
    if report.comparison is not None:
        sig = [d for d in report.comparison if d.significant]
        w(
            f"\nagainst {report.against}: {len(sig)} significant of {len(report.comparison)} "
            "differences (Holm, 5%)\n"
        )
        for d in sorted(sig, key=lambda d: d.p_value)[:20]:
            w(f"  {d.label:40s} {percent(d.chance):>5s} vs {percent(d.other):>5s}  z={d.z:+.1f}\n")


def cli_analyze(
    args: argparse.Namespace,
    write_pdf: Callable[[AnalysisReport, Scenario, str], None] | None = None,
) -> int:
    """``fireground analyze FILE [--games N] [--seed S] [--turns T] [--no-response]
    [--against OTHER] [--out REPORT.pdf] [--json]``."""
    from ..scenario.io import load_scenario

    games = int(args.games)
    if games < 1:
        raise UsageError(f"{args.file}: --games must be at least 1")
    turns = getattr(args, "turns", None)
    if turns is not None and turns < 0:
        raise UsageError(f"{args.file}: --turns must be 0 or more")
    from ..games.blitz.checks.run import error_lines

    if args.out and write_pdf is None:
        raise UsageError(f"{args.file}: --out needs the PDF writer of fireground.export")
    scenario = load_scenario(args.file)
    other = load_scenario(args.against) if args.against else None
    for loaded, name in ((scenario, args.file), (other, args.against)):
        if loaded is not None and not any(True for _ in loaded.locations()):
            # the tables are per location: a fresh sketch has nothing to analyse
            print(f"{name}: nothing to analyse: the scenario has no areas yet", file=sys.stderr)
            return 1
    errors = error_lines(scenario, args.file)
    if other is not None:
        errors += error_lines(other, args.against)
    if errors:
        for line in errors:
            print(line, file=sys.stderr)
        return 1
    if args.no_response:
        from ..games.blitz.fastsim.runner import kernels

        fk = kernels()
        if fk is not None and not fk.compiled():
            print(
                "fireground: compiling the fast simulation kernel (once per install; about 15 s)…",
                file=sys.stderr,
            )
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
