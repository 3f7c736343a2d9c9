"""The whole play-aid pack: ``fireground export`` and the function the demo and the
editor call. The plans are the shared exporter's; the game's documents come from its export
module (:func:`fireground.export.games.export_module`; a polygon map, v1 ``Scenario``, is
the default game's).

>>> # export_pack(scenario, Path("out"), only=["plans", "cards"], paper="letter")
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from fireground.engine.board.model import Scenario
from fireground.engine.core.errors import UsageError
from fireground.engine.core.packs import DEFAULT_GAME

from .games import export_module
from .plansel import parse_buildings, parse_levels

#: the game whose documents a polygon map (v1 ``Scenario``, no ``game:`` key) prints
GAME = export_module(DEFAULT_GAME)
KINDS: tuple[str, ...] = ("plans", *GAME.DOCUMENTS)
DEFAULT_TURNS = 6


def slug(text: str) -> str:
    """A file-name-safe stem: ASCII letters, digits and dashes."""
    s = re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()
    return s[:60] or "scenario"


def parse_only(only: str | Iterable[str] | None) -> list[str]:
    if only is None:
        return list(KINDS)
    items = [p.strip() for p in (only.split(",") if isinstance(only, str) else only)]
    items = [p for p in items if p]
    for p in items:
        if p not in KINDS:
            import difflib

            close = difflib.get_close_matches(p, KINDS, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise UsageError(
                f"--only: unknown document {p!r}{hint}; choose from {', '.join(KINDS)}"
            )
    return [k for k in KINDS if k in items]


def export_pack(
    scenario: Scenario,
    out_dir: Path | str,
    *,
    only: str | Iterable[str] | None = None,
    paper: str = "a4",
    turns: int | None = None,
    seed: int | None = None,
    fit: bool = False,
    bleed: bool = False,
    fmt: str = "pdf",
    stem: str | None = None,
    dpi: int = 100,
    levels: str | Sequence[int] | None = None,
    buildings: str | Sequence[str] | None = None,
    with_start: bool = False,
    report: Callable[[str], None] | None = None,
    counter_games: int | None = None,
) -> list[Path]:
    """Write the chosen documents into ``out_dir``; their paths, in pack order. Each name
    starts with its kind (``plans-…pdf``). ``fmt`` svg/png applies to the plans;
    ``levels``, ``buildings`` and ``with_start`` choose what the plans show, and ``report``
    hears their page count per level before they are written. ``counter_games``: autopilot
    games played to measure the counter mix (BLITZ!: default
    :data:`fireground.export.games.blitz.countmix.GAMES`; 0 estimates it from the map)."""
    from .plans import write_plans

    kinds = parse_only(only)
    if paper.lower() not in ("a4", "letter"):
        raise UsageError(f"--paper: unknown paper {paper!r} (a4 or letter)")
    if turns is not None and turns < 1:
        raise UsageError("--turns must be at least 1")
    if fmt not in ("pdf", "svg", "png"):
        raise UsageError(f"--format: unknown format {fmt!r}")
    if not 10 <= dpi <= 1200:
        raise UsageError(f"--dpi must be between 10 and 1200, got {dpi}")
    if counter_games is not None and not 0 <= counter_games <= 1000:
        raise UsageError(f"--counter-games must be between 0 and 1000, got {counter_games}")
    if fit and fmt != "pdf" and "plans" in kinds:
        raise UsageError(
            f"--fit applies to PDF plans only; {fmt.upper()} plans are always at table scale"
        )
    level_list = parse_levels(levels)
    building_list = parse_buildings(buildings)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    base = stem or slug(
        Path(scenario.source_file).name.split(".")[0] if scenario.source_file else scenario.name
    )
    paper = paper.lower()
    written: list[Path] = []
    for kind in kinds:
        path = out / f"{kind}-{base}.pdf"
        if kind == "plans":
            if fmt == "pdf":
                written.append(
                    write_plans(
                        scenario,
                        path,
                        paper,
                        fit=fit,
                        levels=level_list,
                        buildings=building_list,
                        with_start=with_start,
                        report=report,
                    )
                )
            else:
                from .plans_image import export_plan_images

                written += export_plan_images(
                    scenario,
                    out,
                    base,
                    fmt,
                    dpi,
                    levels=level_list,
                    buildings=building_list,
                    with_start=with_start,
                )
        else:
            n = turns if turns is not None else min(DEFAULT_TURNS, scenario.turns)
            written.append(
                GAME.write_document(
                    kind,
                    scenario,
                    path,
                    paper,
                    bleed=bleed,
                    seed=seed,
                    turns=n,
                    counter_games=counter_games,
                )
            )
    return written


def cli_export(args: argparse.Namespace) -> int:
    """``fireground export FILE --out DIR [...]``: print each file written."""
    from fireground.engine.scenario.io import load_scenario

    only = parse_only(args.only)  # bad usage before any work
    parse_levels(getattr(args, "levels", None))
    parse_buildings(getattr(args, "buildings", None))
    scenario = load_scenario(args.file)
    errors = GAME.error_lines(scenario, args.file)
    if errors:  # an unplayable scenario makes misleading play aids: refuse, as simulate does
        for line in errors:
            print(line, file=sys.stderr)
        return 1
    paths = export_pack(
        scenario,
        Path(args.out),
        only=only,
        paper=args.paper,
        turns=args.turns,
        seed=args.seed,
        fit=bool(getattr(args, "fit", False)),
        bleed=bool(getattr(args, "bleed", False)),
        fmt=getattr(args, "format", "pdf") or "pdf",
        dpi=int(getattr(args, "dpi", 100)),
        levels=getattr(args, "levels", None),
        buildings=getattr(args, "buildings", None),
        with_start=bool(getattr(args, "with_start", False)),
        report=lambda line: print(line, file=sys.stderr, flush=True),
        counter_games=getattr(args, "counter_games", None),
    )
    for p in paths:
        print(p)
    sys.stdout.flush()
    return 0
