"""`fireground sweep`: every combination of the varied values, N games each on the same
seeds, each objective's chance per variant (engine/sweep.py plays and counts; the PDF is
drawn by export/sweep_report.py; this module joins them and prints)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from fireground.analyze import check_out


def _cell(o: Any, pad: bool = False) -> str:
    """ "48% [41-55]": the chance and its 95% interval (``pad``: the chance right-aligned)."""
    chance = f"{100 * o.chance:.0f}%"
    return (
        f"{chance:>4s} [{100 * o.low:.0f}-{100 * o.high:.0f}]"
        if pad
        else f"{chance} [{100 * o.low:.0f}-{100 * o.high:.0f}]"
    )


def print_table(rep: Any, out: Any = None) -> None:
    """The sweep's table: one row per variant, a column per varied key and per objective."""
    w = (out or sys.stdout).write
    n = len(rep.variants)
    w(
        f"{rep.scenario or rep.file}: {n} variant{'s' * (n != 1)} x {rep.games} games, "
        f"seed {rep.seed}, the same seeds for every variant ({rep.where})\n\n"
    )
    if not rep.objectives:
        w("the scenario sets no objectives: nothing to compare\n")
        return
    w("objectives (chance met, 95% interval):\n")
    for k, label in enumerate(rep.objectives):
        w(f"  [{k + 1}] {label}\n")
    w("\n")
    widths = [max(len(key), *(len(dict(v.values)[key]) for v in rep.variants)) for key in rep.keys]
    cells = [[_cell(o, pad=True) for o in v.objectives] for v in rep.variants]
    cw = max(len(c) for row in cells for c in row) if cells and cells[0] else 4
    head = "  ".join(k.ljust(wd) for k, wd in zip(rep.keys, widths, strict=True))
    head += "  " + "  ".join(f"[{k + 1}]".ljust(cw) for k in range(len(rep.objectives)))
    w(head.rstrip() + "\n")
    for v, row in zip(rep.variants, cells, strict=True):
        vals = dict(v.values)
        line = "  ".join(vals[k].ljust(wd) for k, wd in zip(rep.keys, widths, strict=True))
        w((line + "  " + "  ".join(c.ljust(cw) for c in row)).rstrip() + "\n")
    w("\nclosest to 50%:\n")
    for k, label in enumerate(rep.objectives):
        best = rep.closest(k, 1)[0]
        w(f"  [{k + 1}] {label}: {best.label} ({_cell(best.objectives[k])})\n")
    if len(rep.objectives) > 1:
        fair = rep.most_balanced(1)[0]
        cells_text = ", ".join(f"[{k + 1}] {_cell(o)}" for k, o in enumerate(fair.objectives))
        w(f"  every objective at once: {fair.label} ({cells_text})\n")


def cmd_sweep(args: argparse.Namespace) -> int:
    from fireground.analyze import ProgressBar
    from fireground.engine.core.errors import UsageError
    from fireground.engine.games.blitz.checks.run import error_lines
    from fireground.engine.play.sweep import expand, parse_vary, sweep
    from fireground.engine.scenario.io import load_scenario

    if args.games < 1:
        raise UsageError(f"{args.file}: --games must be at least 1")
    if not args.vary:
        raise UsageError(f"{args.file}: give at least one --vary KEY=V1,V2,...")
    if args.out:
        check_out(args.out)
    try:
        varies = [parse_vary(text) for text in args.vary]
    except UsageError as e:
        raise UsageError(f"{args.file}: {e}") from None
    scenario = load_scenario(args.file)
    if not any(True for _ in scenario.locations()):
        print(f"{args.file}: nothing to sweep: the scenario has no areas yet", file=sys.stderr)
        return 1
    errors = error_lines(scenario, args.file)
    if errors:
        for line in errors:
            print(line, file=sys.stderr)
        return 1
    try:
        variants = expand(scenario, varies)
    except UsageError as e:
        raise UsageError(f"{args.file}: {e}") from None
    for v in variants:  # a variant must be as playable as the file
        bad = error_lines(v.scenario, args.file)
        if bad:
            raise UsageError(f"{args.file}: the variant {v.label} is not playable: {bad[0]}")
    workers = int(os.environ.get("FIREGROUND_WORKERS", "0")) or (os.cpu_count() or 1)
    bar = ProgressBar(args.games * len(variants), "sweep")
    rep, _ = sweep(
        scenario,
        varies,
        args.games,
        args.seed,
        args.turns,
        workers,
        bar,
        args.scheduler,
        file=args.file,
    )
    if args.out:
        from fireground.export.sweep_report import write_sweep_report

        write_sweep_report(rep, args.out)
    if args.json:
        print(json.dumps(rep.to_json(), indent=2))
    else:
        print_table(rep)
        if args.out:
            print(f"\nreport written to {args.out}")
    return 0
