"""`fireground analyze`: the engine's Monte Carlo analysis, with the PDF drawn by export.

The engine never imports the export layer; this CLI module joins the two.
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import sys
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from fireground.engine.board.model import Scenario
from fireground.engine.core.errors import UsageError
from fireground.engine.play.analysis import analyze
from fireground.engine.play.report import AnalysisReport, compare, judged_text, percent


def check_out(out: str) -> None:
    """Fail before the (long) Monte Carlo run if the report could not be written there."""
    if os.path.isdir(out):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), out)
    if not os.path.isdir(os.path.dirname(os.path.abspath(out))):
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), out)


def cmd_analyze(args: argparse.Namespace) -> int:
    if args.out:
        check_out(args.out)
    writer = None
    if args.out:
        from fireground.export.analysis_report import write_analysis_report

        writer = write_analysis_report
    rc: int = _analyze(args, write_pdf=writer)
    return rc


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


def _analyze(
    args: argparse.Namespace,
    write_pdf: Callable[[AnalysisReport, Scenario, str], None] | None = None,
) -> int:
    """``fireground analyze FILE [--games N] [--seed S] [--turns T] [--no-response]
    [--against OTHER] [--out REPORT.pdf] [--json]``."""
    from fireground.engine.scenario.io import load_scenario

    games = int(args.games)
    if games < 1:
        raise UsageError(f"{args.file}: --games must be at least 1")
    turns = getattr(args, "turns", None)
    if turns is not None and turns < 0:
        raise UsageError(f"{args.file}: --turns must be 0 or more")
    from fireground.engine.games.blitz.checks.run import error_lines

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
        from fireground.engine.games.blitz.fastsim.runner import kernels

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
