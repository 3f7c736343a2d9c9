"""``fireground export`` for a Forest Fire scenario: every printed aid into one folder."""

from __future__ import annotations

import argparse
from pathlib import Path

from fireground.engine.games.forestfire.cli import game_log, parse_policies
from fireground.engine.games.forestfire.play import play_game
from fireground.engine.games.forestfire.scenario import Setup, load_setup

from .board import write_board
from .counters import write_counters
from .texts import write_briefing, write_cards, write_turns

KINDS = ("plans", "counters", "cards", "briefing", "turns")
SAMPLE_POLICIES = ["fire=search", "chief=greedy"]


def export_all(s: Setup, out: Path, only: list[str] | None = None, paper: str = "a4",
               fit: bool = False, seed: int = 0, policies: list[str] | None = None) -> list[Path]:  # fmt: skip
    """Write the chosen aids (default all) into ``out``; returns the files written."""
    out.mkdir(parents=True, exist_ok=True)
    stem = Path(s.filename).name.removesuffix(".fg.yaml") if s.filename else "forestfire"
    files: list[Path] = []
    todo = only or list(KINDS)
    if "plans" in todo:
        p = out / f"plans-{stem}{'-fit' if fit else ''}.pdf"
        write_board(s, p, paper, fit)
        files.append(p)
    if "counters" in todo:
        p = out / f"counters-{stem}.pdf"
        write_counters(s, p, paper)
        files.append(p)
    if "cards" in todo or "reference" in todo:
        p = out / f"cards-{stem}.pdf"
        write_cards(s, p, paper)
        files.append(p)
    if "briefing" in todo:
        p = out / f"briefing-{stem}.pdf"
        write_briefing(s, p, paper)
        files.append(p)
    if "turns" in todo:
        pol = parse_policies(policies or SAMPLE_POLICIES)
        rec = play_game(s, s.rules(), dict(pol), seed, log=True)
        p = out / f"turns-{stem}.pdf"
        write_turns(s, p, game_log(s, seed, pol, rec), paper)
        files.append(p)
    return files


def cli_export(args: argparse.Namespace) -> int:
    s = load_setup(args.file)
    only = [k.strip() for k in args.only.split(",")] if args.only else None
    unknown = sorted(set(only or []) - set(KINDS) - {"reference"})
    if unknown:
        from fireground.engine.core.errors import UsageError

        raise UsageError(f"--only: {', '.join(unknown)} (Forest Fire prints {', '.join(KINDS)})")
    for f in export_all(s, Path(args.out), only, args.paper, args.fit,
                        args.seed or 0, getattr(args, "policy", None)):  # fmt: skip
        print(f)
    return 0
