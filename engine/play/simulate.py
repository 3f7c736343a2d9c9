"""Play a scenario turn by turn: :func:`new_game` for code, :func:`cli_simulate` for
``fireground simulate``.

>>> from fireground.engine.board.model import Scenario
>>> game = new_game(Scenario(name="empty", bombing=False), seed=1)
>>> game.run(2)[-1].turn
2
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..board.graph import MapGraph, build_graph
from ..board.model import Scenario
from ..core.dice import Dice
from ..core.log import dumps, log_object
from ..core.ruleset import Ruleset, RulesetError, load_ruleset
from ..core.turn import Step, TurnContext, TurnLog, play_turn, share_memos
from ..games.blitz.score import scorecard
from ..games.blitz.state import GameState, initial_state
from ..games.blitz.steps import policies, steps

#: the orders API, imported only when a game is given an orders file
_ORDERS = "fireground.engine.games.blitz.orders.apply"


@dataclass
class Game:
    """One game in progress: the state after the last turn played, and every turn's log."""

    scenario: Scenario
    seed: int | None
    ctx: TurnContext
    state: GameState
    logs: list[TurnLog] = field(default_factory=list)
    orders: Any = None
    #: the step table the turn driver plays (BLITZ!'s ten steps)
    plan: list[tuple[int, Step]] = field(default_factory=steps)

    @property
    def rules(self) -> Ruleset:
        return self.ctx.rules

    @property
    def graph(self) -> MapGraph:
        return self.ctx.graph

    def step(self) -> TurnLog:
        """Play the next turn."""
        if self.orders is not None:
            _apply_orders(self)
        log = play_turn(self.ctx, self.state, self.plan)
        self.logs.append(log)
        return log

    def run(self, turns: int) -> list[TurnLog]:
        """Play ``turns`` more turns; the logs of those turns."""
        return [self.step() for _ in range(turns)]

    def score(self) -> dict[str, Any]:
        return scorecard(self.scenario, self.state, self.ctx.rules)

    def log_obj(self) -> dict[str, Any]:
        return log_object(self.scenario.name, self.seed, self.logs, self.score())

    def log_json(self) -> str:
        """The turn log as JSON text, byte-for-byte reproducible."""
        return dumps(self.log_obj())


def new_game(
    scenario: Scenario,
    seed: int | None = None,
    *,
    graph: MapGraph | None = None,
    dice: Dice | None = None,
    rules: Ruleset | None = None,
    log_events: bool = True,
    shared_memos: dict[str, Any] | None = None,
) -> Game:
    """A game at turn 0 of ``scenario`` (seed defaults to the scenario's, then 0).

    ``log_events=False`` is for Monte Carlo: the game rolls the same dice in the same order
    and ends in the same state as the logged one, but keeps no events and no per-turn state
    (its turn logs are empty). ``shared_memos``: a dict kept across games of the same
    scenario, graph and ruleset, for the memos that follow from the map alone (see
    :func:`share_memos`).
    """
    if seed is None:
        seed = scenario.seed if scenario.seed is not None else 0
    rules = rules or load_ruleset(scenario.ruleset, scenario.house_rules)
    graph = graph or build_graph(scenario)
    ctx = TurnContext(
        scenario, graph, rules, dice or Dice(seed), log_events=log_events, policies=policies()
    )
    if shared_memos is not None:
        share_memos(ctx, shared_memos)
    return Game(scenario, seed, ctx, initial_state(scenario, rules))


def _apply_orders(game: Game) -> None:
    try:
        orders_mod = importlib.import_module(_ORDERS)
    except ImportError:
        return
    apply = getattr(orders_mod, "apply_orders", None)
    if apply is not None:
        apply(game, game.orders)


# -- command line ----------------------------------------------------------------------------
def _summary_line(log: TurnLog) -> str:
    st = log.state
    fires = st["fires"]
    hottest = max((f["fire"] for f in fires), default=0)
    destroyed = sum(1 for d in st["damage"] if d["damage"] >= 5)
    rules: dict[str, int] = {}
    for ev in log.events:
        if ev.get("success") and ev.get("need") != "table":
            rules[ev["rule"]] = rules.get(ev["rule"], 0) + 1
    shown = ", ".join(f"{k} {v}" for k, v in sorted(rules.items()))
    bomb = next((ev.get("result") for ev in log.events if ev["rule"] == "bomb_run"), None)
    extra = f"; bombing: {bomb}" if bomb and bomb != "nothing" else ""
    return (
        f"turn {log.turn:3d}: {len(fires)} burning (max {hottest}), {len(st['embers'])} embers, "
        f"{destroyed} destroyed, {len(st['casualties'])} casualties"
        + (f"; {shown}" if shown else "")
        + extra
    )


def _findings_errors(scenario: Scenario, path: str) -> list[str]:
    """The check errors of a scenario as ``FILE:LINE:COL: CODE message`` lines."""
    from ..games.blitz.checks.run import error_lines

    return error_lines(scenario, path)


def cli_simulate(args: argparse.Namespace) -> int:
    """``fireground simulate FILE [--turns N] [--seed S] [--log F] [--orders F] [--json]``."""
    from ..scenario.io import load_scenario

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
        orders_mod = importlib.import_module(_ORDERS)
        game.orders = orders_mod.load_orders(args.orders)
    out = sys.stdout
    if not args.json:
        print(f"{scenario.name or path}: {turns} turns, seed {game.seed}", file=out)
    for _ in range(turns):
        log = game.step()
        if not args.json:
            print(_summary_line(log), file=out)
    score = game.score()
    if args.log:
        from ..scenario.io import atomic_write

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
