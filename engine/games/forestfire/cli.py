"""The Forest Fire side of the ``fireground`` commands (spec/cli.md): check, simulate,
analyze and new for a scenario with ``game: forestfire``."""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import tempfile
from typing import Any

from ...core.errors import UsageError
from .analysis import Cell, difference, matrix
from .checks import check_setup
from .play import play_game
from .policies import POLICIES
from .report import board_line, describe_turn
from .scenario import Setup, default_setup, dump_setup, load_setup
from .state import CHIEF, FIRE, SIDES
from .steps import BANDS

DEFAULT_POLICY = "greedy"
DEFAULT_GAMES = 200


def atomic_write_text(path: str, text: str) -> None:
    """Write ``path`` so that a crash leaves the old file or the new one, never half."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".fg-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def parse_policies(specs: list[str] | None, *, fill: bool = True) -> dict[str, str]:
    """``["fire=search", "chief=greedy"]`` -> ``{"fire": "search", "chief": "greedy"}``."""
    out: dict[str, str] = {}
    for spec in specs or []:
        side, sep, name = spec.partition("=")
        side, name = side.strip().lower(), name.strip().lower()
        if not sep or side not in SIDES:
            raise UsageError(
                f"--policy {spec!r}: expected SIDE=NAME with SIDE one of {', '.join(SIDES)}"
            )
        if name not in POLICIES:
            raise UsageError(
                f"--policy {spec!r}: unknown policy {name!r} (policies: {', '.join(POLICIES)})"
            )
        out[side] = name
    if fill:
        for side in SIDES:
            out.setdefault(side, DEFAULT_POLICY)
    return out


def _load_playable(path: str, turns: int | None = None) -> Setup:
    s = load_setup(path)
    errors = [f for f in check_setup(s) if f.severity == "error"]
    if errors:
        lines = [f"{path}:{f.line or 0}:{f.col or 0}: {f.code} {f.message}" for f in errors]
        raise UsageError("the scenario cannot be played:\n" + "\n".join(lines))
    if turns is not None:
        s.house_rules = {**s.house_rules, "rounds.max": turns}
    return s


# -- new, check ---------------------------------------------------------------------------


def new_text(options: dict[str, object]) -> str:
    squares = int(str(options.get("squares", 11)))
    cm = float(str(options.get("square_cm", 5.0)))
    return dump_setup(default_setup(squares, cm))


def cli_check(args: argparse.Namespace) -> int:
    s = load_setup(args.file)
    findings = check_setup(s)
    errors = [f for f in findings if f.severity == "error"]
    warnings = [f for f in findings if f.severity != "error"]
    if getattr(args, "json", False):

        def d(f: Any) -> dict[str, Any]:
            return {"code": f.code, "severity": f.severity, "message": f.message,
                    "area": None, "level": None, "line": f.line}  # fmt: skip

        print(json.dumps({"errors": [d(f) for f in errors], "warnings": [d(f) for f in warnings]},
                         indent=2))  # fmt: skip
    else:
        for f in findings:
            where = f"{args.file}:{f.line}:{f.col}" if f.line else args.file
            print(f"{where}: {f.code} {f.message}")
        print(f"{args.file}: {len(errors)} error{'s' * (len(errors) != 1)}, "
              f"{len(warnings)} warning{'s' * (len(warnings) != 1)}", file=sys.stderr)  # fmt: skip
    return 1 if errors else 0


# -- simulate -----------------------------------------------------------------------------


def game_log(s: Setup, seed: int, policies: dict[str, str], rec: Any) -> dict[str, Any]:
    """The turn log file of one game (spec section 7)."""
    return {
        "game": "forestfire",
        "scenario": s.name,
        "seed": seed,
        "policies": policies,
        "house_rules": s.house_rules,
        "squares": s.squares,
        "turns": rec.log,
        "result": {"vp": rec.vp, "band": rec.result, "reason": rec.reason, "rounds": rec.rounds},
    }


def cli_simulate(args: argparse.Namespace) -> int:
    s = _load_playable(args.file, args.turns)
    rules = s.rules()
    policies = parse_policies(args.policy)
    seed = args.seed if args.seed is not None else 0
    rec = play_game(s, rules, dict(policies), seed, log=True)
    log = game_log(s, seed, policies, rec)
    if args.log:
        atomic_write_text(args.log, json.dumps(log, indent=1) + "\n")
    if args.json:
        print(json.dumps(log["result"] | {"policies": policies, "seed": seed}, indent=2))
        return 0
    print(f"{s.name}: fire={policies[FIRE]} chief={policies[CHIEF]} seed {seed}")
    for entry in rec.log:
        head = "start" if entry["side"] == "start" else f"round {entry['round']} {entry['side']}"
        what = "; ".join(describe_turn(entry))
        print(f"{head:>15}: {what}" if what else f"{head:>15}")
        print(f"{'':>15}  {board_line(entry['state'], s.squares)}  VP {entry['state']['vp']}")
    print(f"result: {rec.result} with {rec.vp} VP after {rec.rounds} round(s) ({rec.reason})")
    if args.log:
        print(f"log: {args.log}")
    return 0


# -- analyze ------------------------------------------------------------------------------


def _pct(x: float) -> str:
    return f"{100 * x:5.1f}"


def _cell_row(c: Cell) -> str:
    parts = [f"{c.fire:>7} {c.chief:>7}"]
    for band in BANDS:
        sh, lo, hi = c.share(band)
        parts.append(f"{_pct(sh)} [{_pct(lo)}-{_pct(hi)}]")
    cap = c.capped / c.games if c.games else 0.0
    parts.append(f"{c.mean_rounds:6.1f} {_pct(cap)}")
    return "  ".join(parts)


HEADER = ("   fire   chief  Fire total % [95%]    Fire marginal %        Chief victory %    "
          "  rounds  cap %")  # fmt: skip


def _progress(label: str) -> Any:
    if not sys.stderr.isatty():
        return None

    def show(i: int, n: int) -> None:
        print(f"\r{label} {i}/{n}", end="" if i < n else "\n", file=sys.stderr, flush=True)

    return show


def cli_analyze(args: argparse.Namespace) -> int:
    s = _load_playable(args.file, args.turns)
    games = args.games if args.games is not None else DEFAULT_GAMES
    if games < 1:
        raise UsageError(f"--games must be at least 1, got {games}")
    seed = args.seed if args.seed is not None else 0
    chosen = parse_policies(getattr(args, "policy", None), fill=False)
    names = list(POLICIES)
    if chosen:
        pairs = [(chosen.get(FIRE, DEFAULT_POLICY), chosen.get(CHIEF, DEFAULT_POLICY))]
    else:
        pairs = [(f, c) for f in names for c in names]
    rules = s.rules()
    cells = matrix(s, rules, names, games, seed, _progress(s.name), pairs)
    out: dict[str, Any] = {"scenario": s.name, "games": games, "seed": seed,
                           "matrix": [c.as_dict() for c in cells]}  # fmt: skip
    other_cells: list[Cell] = []
    if args.against:
        o = _load_playable(args.against, args.turns)
        other_cells = matrix(o, o.rules(), names, games, seed, _progress(o.name), pairs)
        out["against"] = {"scenario": o.name, "house_rules": o.house_rules,
                          "matrix": [c.as_dict() for c in other_cells]}  # fmt: skip
    first: list[tuple[Cell, Cell]] = []
    if getattr(args, "first", True):
        flipped = dataclasses.replace(s, house_rules={**s.house_rules, "rounds.chief_first": 1})
        diag = [(f, c) for f, c in pairs if f == c] or pairs[:1]
        fc = matrix(flipped, flipped.rules(), names, games, seed, _progress("chief first"), diag)
        first = [(next(c for c in cells if (c.fire, c.chief) == (x.fire, x.chief)), x) for x in fc]
        out["chief_first"] = [x.as_dict() for _, x in first]
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"{s.name}: {games} games per pair, seeds {seed}-{seed + games - 1}")
    print(HEADER)
    for c in cells:
        print(_cell_row(c))
    if other_cells:
        print(f"\nagainst {o.name} (house rules {o.house_rules}), same seeds:")
        print(HEADER)
        for c in other_cells:
            print(_cell_row(c))
        print("\nFire victory (total or marginal), variant minus base, 95% interval:")
        for a, b in zip(cells, other_cells, strict=True):
            d, lo, hi = difference(a, b)
            print(
                f"{a.fire:>7} {a.chief:>7}  {100 * d:+6.1f} points [{100 * lo:+.1f}, {100 * hi:+.1f}]"
            )
    if first:
        print(
            "\nwho moves first (rounds.chief_first: 1 lets the Chief open each round), same seeds:"
        )
        for a, b in first:
            d, lo, hi = difference(a, b)
            print(
                f"{a.fire:>7} {a.chief:>7}  Fire victory {_pct(a.fire_wins / a.games)}% with Fire "
                f"first, {_pct(b.fire_wins / b.games)}% with the Chief first: "
                f"{100 * d:+.1f} points [{100 * lo:+.1f}, {100 * hi:+.1f}]"
            )
    return 0
