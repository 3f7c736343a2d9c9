"""``fireground play start|turn|undo|show``: a game at the table (the engine's
:mod:`fireground.engine.play` does the work; this module reads the options and prints)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, TextIO

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


def add_commands(sub: Any, handler: Any) -> None:
    """The ``play`` command and its four subcommands (called by :mod:`fireground.cli`)."""
    p = sub.add_parser("play", help="play a game at the table (the umpire's assistant)",
                       description="play a game at the table, turn by turn")  # fmt: skip
    psub = p.add_subparsers(dest="play_command", metavar="SUBCOMMAND")
    p.set_defaults(handler=handler("fireground.play", "cmd_play_help"), play_parser=p)

    c = psub.add_parser("start", help="begin a game: write the game file")
    c.add_argument("file", metavar="FILE")
    c.add_argument("--out", required=True, metavar="GAME.fgame.yaml")
    c.add_argument("--seed", type=int, default=None)
    c.set_defaults(handler=handler("fireground.play", "cmd_play_start"))

    c = psub.add_parser("turn", help="resolve the next turn and save the game")
    c.add_argument("game", metavar="GAME")
    c.add_argument("--orders", metavar="ORDERS.yaml", default=None)
    c.add_argument("--sheet", metavar="SHEET.pdf", default=None, help="write the turn sheet")
    c.add_argument("--manual", action="store_true",
                   help="roll real dice: type each roll the turn needs (Enter: the program rolls)")  # fmt: skip
    c.set_defaults(handler=handler("fireground.play", "cmd_play_turn"))

    c = psub.add_parser("undo", help="take back the last turn")
    c.add_argument("game", metavar="GAME")
    c.set_defaults(handler=handler("fireground.play", "cmd_play_undo"))

    c = psub.add_parser("show", help="show the state of the game")
    c.add_argument("game", metavar="GAME")
    c.add_argument("--json", action="store_true")
    c.set_defaults(handler=handler("fireground.play", "cmd_play_show"))


def cmd_play_help(args: argparse.Namespace) -> int:
    args.play_parser.print_help(sys.stderr)
    return EXIT_USAGE


def cmd_play_start(args: argparse.Namespace) -> int:
    from fireground.engine.core.errors import UsageError
    from fireground.engine.games.blitz.checks.run import error_lines
    from fireground.engine.play.gamefile import save_game
    from fireground.engine.play.table import start_game
    from fireground.engine.scenario.io import load_scenario

    if args.seed is not None and args.seed < 0:
        raise UsageError(f"--seed must be 0 or more, got {args.seed}")
    if os.path.exists(args.out):
        raise UsageError(f"{args.out}: already exists (not overwritten; a game in progress?)")
    scenario = load_scenario(args.file)
    errors = error_lines(scenario, args.file)
    if errors:
        for line in errors:
            print(line, file=sys.stderr)
        return EXIT_FINDINGS
    tg = start_game(scenario, args.seed)
    save_game(tg, args.out, backup=False)
    print(f"{args.out}: {scenario.name or args.file}, seed {tg.seed}, ready for turn 1")
    return EXIT_OK


def _load(path: str) -> Any:
    from fireground.engine.play.gamefile import load_game

    return load_game(path)


def _ask_terminal(stream_in: TextIO, stream_out: TextIO) -> Any:
    """The umpire's dice from the terminal: each roll named, the dice typed (``3`` or
    ``4 2``); an empty line lets the program roll that one, ``auto`` all the rest."""
    from fireground.engine.play.table import RollRequest

    state = {"auto": False}

    def ask(req: RollRequest) -> list[int] | None:
        if state["auto"]:
            return None
        while True:
            stream_out.write(f"roll {req.index + 1}: {req.label()}? ")
            stream_out.flush()
            line = stream_in.readline()
            if not line:  # end of input: the program rolls the rest
                state["auto"] = True
                return None
            text = line.strip()
            if text == "":
                return None
            if text == "auto":
                state["auto"] = True
                return None
            parts = text.replace(",", " ").split()
            if len(parts) == req.dice and all(p in "123456" and len(p) == 1 for p in parts):
                return [int(p) for p in parts]
            stream_out.write(f"  type {req.dice} number{'s' * (req.dice > 1)} from 1 to 6 "
                             "(Enter: the program rolls; auto: it rolls the rest)\n")  # fmt: skip

    return ask


def cmd_play_turn(args: argparse.Namespace) -> int:
    from fireground.engine.core.errors import ScenarioError, UsageError
    from fireground.engine.games.blitz.delta import delta_lines, table_delta
    from fireground.engine.games.blitz.events import OrderEvent
    from fireground.engine.games.blitz.orders.file import load_orders
    from fireground.engine.play.gamefile import save_game

    if args.sheet is not None:
        folder = os.path.dirname(os.path.abspath(args.sheet))
        if os.path.isdir(args.sheet) or not os.path.isdir(folder):
            raise UsageError(f"{args.sheet}: cannot write the turn sheet there")
    tg = _load(args.game)
    number = tg.turn + 1
    orders = []
    if args.orders:
        book = load_orders(args.orders)
        for o in book.orders:
            if o.turn != number:
                raise ScenarioError.at(
                    *_where(o.where, args.orders),
                    f"an order for turn {o.turn}, but the game plays turn {number}",
                )
        orders = book.orders
    if tg.turn >= tg.scenario.turns:
        print(f"{args.game}: the scenario's {tg.scenario.turns} turns are played; "
              "playing on", file=sys.stderr)  # fmt: skip
    manual = _ask_terminal(sys.stdin, sys.stderr) if args.manual else None
    before = tg.state_log()
    rec = tg.play(orders, manual)
    save_game(tg, args.game)
    assert rec.log is not None
    changes = table_delta(before, rec.log.state)
    out = sys.stdout
    refused = [e for e in rec.log.events if isinstance(e, OrderEvent) and e.refused is not None]
    manual_n = sum(1 for r in rec.rolls if r.get("manual"))
    print(f"turn {rec.turn}: {len(rec.rolls)} rolls ({manual_n} at the table), "
          f"{len(orders)} orders ({len(refused)} refused)", file=out)  # fmt: skip
    for e in refused:
        print(f"  order refused: {e.unit} {e.order}: {e.refused}", file=out)
    if changes:
        print("on the table:", file=out)
        for line in delta_lines(changes):
            print(f"  {line}", file=out)
    else:
        print("on the table: nothing changes", file=out)
    if args.sheet:
        from fireground.export.games.blitz.turn_sheet import write_turn_sheet

        write_turn_sheet(tg, changes, args.sheet)
        print(f"{args.sheet}: turn sheet written", file=out)
    return EXIT_OK


def _where(where: str, fallback: str) -> tuple[str, int, int]:
    parts = where.rsplit(":", 2)
    if len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit():
        return parts[0], int(parts[1]), int(parts[2])
    return fallback, 0, 0


def cmd_play_undo(args: argparse.Namespace) -> int:
    from fireground.engine.core.errors import UsageError
    from fireground.engine.play.gamefile import save_game
    from fireground.engine.play.table import undo

    tg = _load(args.game)
    if not tg.turns:
        raise UsageError(f"{args.game}: nothing to undo (the game is at turn 0)")
    from fireground.engine.games.blitz.delta import delta_lines, table_delta

    back = undo(tg)
    save_game(back, args.game)
    print(f"{args.game}: turn {tg.turn} taken back; ready for turn {back.turn + 1}")
    lines = delta_lines(table_delta(tg.state_log(), back.state_log()))
    if lines:
        print("to put the table back:")
        for line in lines:
            print(f"  {line}")
    return EXIT_OK


def cmd_play_show(args: argparse.Namespace) -> int:
    tg = _load(args.game)
    state = tg.state_log()
    score = tg.score()
    if args.json:
        print(json.dumps({"scenario": tg.scenario.name, "seed": tg.seed, "turn": tg.turn,
                          "state": state, "score": score}, indent=2, sort_keys=True))  # fmt: skip
        return EXIT_OK
    print(f"{tg.scenario.name}: turn {tg.turn} of {tg.scenario.turns}, seed {tg.seed}")
    fires = state["fires"]
    print(f"burning: {len(fires)} locations"
          + (f" (max fire {max(f['fire'] for f in fires)})" if fires else ""))  # fmt: skip
    from fireground.engine.board.model import place

    for f in fires:
        print(f"  {place(f)}: fire {f['fire']}")
    units = [u for u in state["units"] if "area" in u]
    print(f"units on the table: {len(units)}")
    for u in units:
        extra = f", {u['fatigue']}" if "fatigue" in u else ""
        print(f"  {u['id']} ({u['type']}) at {place(u)}: {u['task']}, {u['status']}{extra}")
    for c in state["casualties"]:
        print(f"  casualty {c['id']} at {place(c)}: {c['status'].replace('_', ' ')}")
    print(f"score: {score['destroyed']} destroyed, {score['burning']} burning, "
          f"{score['dead']} dead, {score['injured']} injured, {score['rescued']} rescued, "
          f"{score['units_lost']} units lost")  # fmt: skip
    return EXIT_OK
