"""The ``fireground`` command line (see spec/cli.md).

Start-up must stay fast (``--help`` in well under 0.3 s): every heavy import (Qt,
reportlab, shapely, numpy) happens inside the command that needs it.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence

from fireground import __version__

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2

Handler = Callable[[argparse.Namespace], int]


def _lazy(module: str, func: str) -> Handler:
    """A handler that imports its module only when the command runs."""

    def run(args: argparse.Namespace) -> int:
        import importlib

        mod = importlib.import_module(module)
        result: int = getattr(mod, func)(args)
        return result

    return run


def _peek_game(path: str) -> str:
    """The game a scenario file is for (its top-level ``game:`` key; BLITZ! when none).
    An unreadable file, or a bad ``game:`` value, goes to BLITZ!'s loader, which reports
    the problem with its place."""
    from fireground.engine.core.errors import ScenarioError
    from fireground.engine.scenario.envelope import game_of

    try:
        with open(path, "rb") as f:
            data = f.read(1 << 20)
        return game_of(data, path)
    except (OSError, ScenarioError):
        return "blitz"


def _routed(command: str, blitz: Handler) -> Handler:
    """A handler that hands a scenario of another game to its pack's ``cli_<command>``
    and keeps BLITZ!'s own path unchanged."""

    def run(args: argparse.Namespace) -> int:
        game = _peek_game(args.file)
        if game == "blitz":
            if getattr(args, "policy", None):
                from fireground.engine.core.errors import UsageError

                raise UsageError("--policy: BLITZ! plays by standing orders and has no sides")
            if command == "analyze" and args.games is None:
                args.games = 1000
            return blitz(args)
        from fireground.engine.core.packs import load_pack

        result: int = getattr(load_pack(game), f"cli_{command}")(args)
        return result

    return run


def _routed_export(args: argparse.Namespace) -> int:
    """The printed aids of the file's game: its export module (export/games/<id>/, named by
    its pack's ``export_tools`` hook) writes them with its own ``cli_export`` when its board
    is its own (Forest Fire's track); otherwise the shared polygon-map exporter writes the
    plans and asks that module for the game's documents (BLITZ!)."""
    game = _peek_game(args.file)
    from fireground.engine.core.errors import UsageError
    from fireground.export.games import export_module

    try:
        module = export_module(game)  # an unknown game is refused by name
    except LookupError as e:
        raise UsageError(str(e)) from None
    own = getattr(module, "cli_export", None)
    if own is not None:
        return int(own(args))
    return _lazy("fireground.export.pack", "cli_export")(args)


def _routed_edit(args: argparse.Namespace) -> int:
    """The polygon map editor, or the window of its own that a file's game has (Forest
    Fire's track): its editor module's ``cli_edit`` (editor/games/<id>/, named by the pack)."""
    game = _peek_game(args.file) if args.file else "blitz"
    if game != "blitz":
        from fireground.editor.games import editor_module

        try:
            own = getattr(editor_module(game), "cli_edit", None)
        except (LookupError, ImportError, ValueError):
            own = None  # an unknown game: the editor's loader reports it with its place
        if own is not None:
            return int(own(args))
    return _lazy("fireground.editor.app", "cli_edit")(args)


def _cmd_new(args: argparse.Namespace) -> int:
    if args.game == "blitz":
        return _lazy("fireground.commands", "cmd_new")(args)
    from fireground.engine.core.errors import UsageError
    from fireground.engine.core.packs import load_pack

    pack = load_pack(args.game)
    if args.template != "blank":
        raise UsageError(f"--template: {args.game} has no templates (leave it out)")
    text = pack.new_scenario({})
    try:
        fd = os.open(args.file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except FileExistsError:
        raise UsageError(f"{args.file}: already exists (not overwritten)") from None
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"{args.file}: new {pack.title} scenario")
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="fireground",
        description="Scenario editor and printable play aids for BLITZ!, "
        "firefighting in the London Blitz.",
    )
    p.add_argument("--version", action="version", version=f"fireground {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    def cmd(name: str, handler: Handler, help: str) -> argparse.ArgumentParser:
        sp = sub.add_parser(name, help=help, description=help)
        sp.set_defaults(handler=handler)
        return sp

    c = cmd(
        "demo",
        _lazy("fireground.demo", "cmd_demo"),
        "check, simulate and export the play-aid pack for the bundled example",
    )
    c.add_argument("--out", default="fireground-demo", help="output folder")

    c = cmd(
        "check",
        _routed("check", _lazy("fireground.commands", "cmd_check")),
        "validate a scenario",
    )
    c.add_argument("file")
    c.add_argument("--json", action="store_true", help="print findings as JSON")

    c = cmd(
        "simulate",
        _routed("simulate", _lazy("fireground.simulate", "cmd_simulate")),
        "play turns with the standing-orders autopilot (or, for a game with sides, "
        "with a policy per side)",
    )
    c.add_argument("file")
    c.add_argument("--turns", type=int, default=None)
    c.add_argument("--seed", type=int, default=None)
    c.add_argument("--log", metavar="FILE.json", default=None, help="write the turn log")
    c.add_argument("--orders", metavar="FILE", default=None, help="explicit player orders")
    c.add_argument("--json", action="store_true", help="print the scorecard as JSON")
    c.add_argument(
        "--policy",
        action="append",
        metavar="SIDE=NAME",
        help="a side's player, e.g. fire=search (games with sides, such as forestfire)",
    )

    c = cmd("export", _routed_export, "write the play-aid PDFs")
    c.add_argument("file")
    c.add_argument("--out", required=True, metavar="DIR")
    c.add_argument(
        "--only", default=None, help="comma list of plans,cards,reference,counters,turns,briefing"
    )
    c.add_argument("--paper", choices=["a4", "letter"], default="a4")
    c.add_argument("--turns", type=int, default=None)
    c.add_argument("--seed", type=int, default=None)
    c.add_argument("--fit", action="store_true", help="plans: whole map on one page")
    c.add_argument("--bleed", action="store_true", help="cards: 3 mm bleed")
    c.add_argument(
        "--format",
        choices=["pdf", "svg", "png"],
        default="pdf",
        help="plans as PDF (default), SVG or PNG (one file per level)",
    )
    c.add_argument("--dpi", type=int, default=100, help="PNG plans: dots per inch of table")
    c.add_argument(
        "--levels", default=None, metavar="L,…", help="plans: only these levels (-1 basement)"
    )
    c.add_argument(
        "--buildings",
        default=None,
        metavar="ID,…",
        help="plans: only these buildings, with the streets around them",
    )
    c.add_argument("--with-start", action="store_true", help="plans: draw the start situation too")
    c.add_argument(
        "--counter-games",
        type=int,
        default=None,
        metavar="N",
        help="counters: autopilot games to measure the mix (default 20; 0: estimate from the map)",
    )

    c = cmd(
        "analyze",
        _routed("analyze", _lazy("fireground.analyze", "cmd_analyze")),
        "Monte Carlo balance analysis",
    )
    c.add_argument("file")
    c.add_argument(
        "--games", type=int, default=None, help="games (per policy pair); default 1000 (BLITZ!)"
    )
    c.add_argument(
        "--policy",
        action="append",
        metavar="SIDE=NAME",
        help="a side's player (forestfire); without it, every pair of policies",
    )
    c.add_argument("--seed", type=int, default=None)
    c.add_argument("--turns", type=int, default=None)
    c.add_argument("--no-response", action="store_true")
    c.add_argument("--against", default=None, metavar="OTHER")
    c.add_argument("--out", default=None, metavar="REPORT.pdf")
    c.add_argument("--json", action="store_true")

    c = cmd(
        "sweep",
        _lazy("fireground.sweep", "cmd_sweep"),
        "Monte Carlo over every combination of varied house rules and scenario keys",
    )
    c.add_argument("file")
    c.add_argument(
        "--vary",
        action="append",
        default=[],
        metavar="KEY=V1,V2,...",
        help="a house rule (growth.on) or scenario key (forces.GA1.count, start.fires, "
        "wind.strong, ...) and its values; repeat for more keys",
    )
    c.add_argument("--games", type=int, default=400, help="games per variant (default 400)")
    c.add_argument("--seed", type=int, default=None)
    c.add_argument("--turns", type=int, default=None)
    c.add_argument(
        "--scheduler",
        default=None,
        metavar="tcp://HOST:PORT",
        help="run the games on this Dask scheduler's workers (needs fireground[cluster])",
    )
    c.add_argument("--out", default=None, metavar="REPORT.pdf")
    c.add_argument("--json", action="store_true")

    c = cmd("edit", _routed_edit, "open the scenario editor")
    c.add_argument("file", nargs="?")
    c.add_argument(
        "--screenshot",
        metavar="PNG",
        default=None,
        help="save a picture of the editor window (1500 x 950) to PNG and exit",
    )

    c = cmd(
        "convert",
        _lazy("fireground.commands", "cmd_convert"),
        "migrate a scenario to the current format version",
    )
    c.add_argument("input", metavar="IN")
    c.add_argument("output", metavar="OUT", nargs="?")

    c = cmd("new", _cmd_new, "start a scenario from a template")
    c.add_argument("file")
    c.add_argument("--template", default="blank")
    c.add_argument("--game", default="blitz", help="the game pack (see `fireground games`)")

    c = cmd(
        "import-geojson",
        _lazy("fireground.commands", "cmd_import_geojson"),
        "read areas and features from GeoJSON",
    )
    c.add_argument("file")
    c.add_argument("--out", required=True)
    c.add_argument("--metres-per-cm", type=float, default=0.5)

    c = cmd(
        "export-geojson",
        _lazy("fireground.commands", "cmd_export_geojson"),
        "write the map as GeoJSON",
    )
    c.add_argument("file")
    c.add_argument("--out", required=True)
    c.add_argument(
        "--metres-per-cm",
        type=float,
        default=None,
        help="scale of the written map (default: the scale it was imported at, else 0.5)",
    )

    from fireground.play import add_commands

    add_commands(sub, _lazy)

    cmd(
        "games",
        _lazy("fireground.commands", "cmd_games"),
        "list the installed games (id and version)",
    )

    cmd(
        "schema",
        _lazy("fireground.commands", "cmd_schema"),
        "print the JSON Schema of the scenario format",
    )
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Handler | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return EXIT_USAGE
    problem = _out_of_range(args)
    if problem:
        print(f"fireground {args.command}: {problem}", file=sys.stderr)
        return EXIT_USAGE
    try:
        return handler(args)
    except KeyboardInterrupt:
        print("fireground: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # the last line of defence: never a traceback for bad input
        if os.environ.get("FIREGROUND_DEBUG"):
            raise
        return _report(exc)


#: The longest game the scenario format allows (``turns`` in engine/model_schema.py RANGES);
#: written out here so that start-up never imports the engine.
MAX_TURNS = 500
#: More games than this would run for days: surely a typing slip.
MAX_GAMES = 1_000_000
#: The PNG resolution export accepts (export/pack.py).
DPI_RANGE = (10, 1200)


def _out_of_range(args: argparse.Namespace) -> str | None:
    """Why a numeric option is unusable (a huge --turns would run for ever), or None.

    Lower bounds that the commands already check themselves are left to them."""
    turns = getattr(args, "turns", None)
    if turns is not None and turns > MAX_TURNS:
        return f"--turns must be at most {MAX_TURNS}, got {turns}"
    if args.command in ("analyze", "sweep"):
        if args.games is not None and args.games > MAX_GAMES:
            return f"--games must be at most {MAX_GAMES:,}, got {args.games}"
        if args.seed is not None and args.seed < 0:
            return f"--seed must be 0 or more, got {args.seed}"
    if args.command == "export":
        if not DPI_RANGE[0] <= args.dpi <= DPI_RANGE[1]:
            return f"--dpi must be between {DPI_RANGE[0]} and {DPI_RANGE[1]}, got {args.dpi}"
        if args.only is not None and not args.only.replace(",", "").strip():
            return "--only names no document (e.g. --only plans,cards)"
    return None


def _report(exc: Exception) -> int:
    from fireground.engine.core.errors import ScenarioError, UsageError

    if isinstance(exc, ScenarioError | UsageError):
        print(str(exc), file=sys.stderr)
        return EXIT_USAGE
    if isinstance(exc, OSError):
        where = exc.filename or ""
        print(f"{where}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE
    from fireground.engine.core.packs import UnknownGameError

    if isinstance(exc, UnknownGameError):
        print(f"fireground: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if isinstance(exc, ValueError):
        print(f"fireground: {exc}", file=sys.stderr)
        return EXIT_FINDINGS
    print(
        f"fireground: internal error ({type(exc).__name__}: {exc}); "
        "set FIREGROUND_DEBUG=1 to see the traceback",
        file=sys.stderr,
    )
    return EXIT_FINDINGS
