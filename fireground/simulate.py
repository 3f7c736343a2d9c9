"""`fireground simulate`: play a scenario turn by turn with the autopilot (or an orders
file) and print a line a turn and the scorecard; the engine plays (``new_game``), this
module prints."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from fireground.engine.board.model import Scenario
from fireground.engine.core.ruleset import RulesetError
from fireground.engine.core.turn import TurnLog
from fireground.engine.games.blitz.events import BombRun
from fireground.engine.play.simulate import new_game


def _summary_line(log: TurnLog) -> str:
    st = log.state
    fires = st["fires"]
    hottest = max((f["fire"] for f in fires), default=0)
    destroyed = sum(1 for d in st["damage"] if d["damage"] >= 5)
    rules: dict[str, int] = {}
    for ev in log.events:
        if ev.success and ev.need != "table":
            rules[ev.rule] = rules.get(ev.rule, 0) + 1
    shown = ", ".join(f"{k} {v}" for k, v in sorted(rules.items()))
    bomb = next((ev.result for ev in log.events if isinstance(ev, BombRun)), None)
    extra = f"; bombing: {bomb}" if bomb and bomb != "nothing" else ""
    return (
        f"turn {log.turn:3d}: {len(fires)} burning (max {hottest}), {len(st['embers'])} embers, "
        f"{destroyed} destroyed, {len(st['casualties'])} casualties"
        + (f"; {shown}" if shown else "")
        + extra
    )


def _findings_errors(scenario: Scenario, path: str) -> list[str]:
    """The check errors of a scenario as ``FILE:LINE:COL: CODE message`` lines."""
    from fireground.engine.games.blitz.checks.run import error_lines

    return error_lines(scenario, path)


def cmd_simulate(args: argparse.Namespace) -> int:
    """``fireground simulate FILE [--turns N] [--seed S] [--log F] [--orders F] [--json]``."""
    from fireground.engine.scenario.io import load_scenario

    path: str = args.file
    scenario = load_scenario(path)
    errors = _findings_errors(scenario, path)
    if errors:
        for line in errors:
            print(line, file=sys.stderr)
        return 1
    turns = args.turns if args.turns is not None else scenario.turns
    if turns < 0:
        print(f"{path}: --turns must be 0 or more", file=sys.stderr)
        return 2
    if args.log:  # refuse a bad --log before playing, not after
        log_path = Path(args.log)
        if log_path.is_dir() or not log_path.resolve().parent.is_dir():
            print(f"{args.log}: cannot write the log there", file=sys.stderr)
            return 2
    try:
        game = new_game(scenario, args.seed)
    except RulesetError as exc:
        print(f"{path}: {exc}", file=sys.stderr)
        return 1
    if getattr(args, "orders", None):
        from fireground.engine.games.blitz.orders.file import load_orders

        game.orders = load_orders(args.orders)
    out = sys.stdout
    if not args.json:
        print(f"{scenario.name or path}: {turns} turns, seed {game.seed}", file=out)
    for _ in range(turns):
        log = game.step()
        if not args.json:
            print(_summary_line(log), file=out)
    score = game.score()
    if args.log:
        from fireground.engine.scenario.io import atomic_write

        atomic_write(args.log, game.log_json().encode("utf-8"), backup=False)
    if args.json:
        print(json.dumps(score, indent=2, sort_keys=True), file=out)
    else:
        print(
            f"score: {score['destroyed']} destroyed, {score['burning']} burning, "
            f"{score['dead']} dead, {score['injured']} injured, {score['rescued']} rescued, "
            f"{score['units_lost']} units lost",
            file=out,
        )
        for o in score["objectives"]:
            print(f"  objective {o['type']}: {'met' if o['met'] else 'failed'}", file=out)
    return 0
