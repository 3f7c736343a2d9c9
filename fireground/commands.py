"""Handlers of the file-level commands: check, convert, schema, new, GeoJSON.

Each ``cmd_*(args) -> int`` returns the exit code of cli.md. Bad files raise
:class:`~fireground.engine.core.errors.ScenarioError`, which :func:`fireground.cli.main` prints
as ``FILE:LINE:COL: message`` with exit code 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from importlib import resources
from typing import Any

from fireground.engine.board.model import FORMAT_VERSION
from fireground.engine.core.errors import ScenarioError, UsageError
from fireground.engine.scenario.emit import dump_scenario
from fireground.engine.scenario.io import atomic_write, json_schema, load_scenario

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


# -- check -------------------------------------------------------------------------------


def _finding_dict(f: Any) -> dict[str, Any]:
    return {
        "code": f.code,
        "severity": f.severity,
        "message": f.message,
        "area": f.area,
        "level": f.level,
        "line": f.line,
    }


def cmd_check(args: argparse.Namespace) -> int:
    """Load FILE (format errors: exit 2), run the checks (errors: exit 1)."""
    from fireground.engine.games.blitz.checks.run import (  # only `check` needs them
        check,
        finding_position,
    )

    try:
        s = load_scenario(args.file)
    except ScenarioError as e:
        if args.json:
            errors = [
                {"code": "FG001", "severity": "error", "message": d.message, "area": None,
                 "level": None, "line": d.line or None}
                for d in e.diagnostics
            ]  # fmt: skip
            print(json.dumps({"errors": errors, "warnings": []}, indent=2))
        raise
    findings = list(check(s))
    findings.sort(key=lambda f: (f.line or 0, f.code, str(f.area), f.level or 0, f.message))
    errors = [f for f in findings if f.severity == "error"]
    warnings = [f for f in findings if f.severity != "error"]
    if args.json:
        out = {
            "errors": [_finding_dict(f) for f in errors],
            "warnings": [_finding_dict(f) for f in warnings],
        }
        print(json.dumps(out, indent=2))
    else:
        for f in findings:
            line, col = finding_position(s, f)
            where = f"{args.file}:{line}:{col}" if line else args.file
            print(f"{where}: {f.code} {f.message}")
        print(
            f"{args.file}: {len(errors)} error{'s' * (len(errors) != 1)}, "
            f"{len(warnings)} warning{'s' * (len(warnings) != 1)}",
            file=sys.stderr,
        )
    return EXIT_FINDINGS if errors else EXIT_OK


# -- convert, schema, new ----------------------------------------------------------------


def cmd_convert(args: argparse.Namespace) -> int:
    """Load IN (migrating it), write OUT or IN in place, atomically, keeping a .bak."""
    s = load_scenario(args.input)
    target = args.output or args.input
    atomic_write(target, dump_scenario(s).encode("utf-8"))
    print(f"{target}: written in format {FORMAT_VERSION}")
    return EXIT_OK


def cmd_schema(args: argparse.Namespace) -> int:
    """Print the JSON Schema of the scenario format."""
    print(json.dumps(json_schema(), indent=2, ensure_ascii=False))
    return EXIT_OK


def cmd_games(args: argparse.Namespace) -> int:
    """``fireground games``: every installed game pack as ``ID VERSION``, one a line, found
    through its ``fireground.games`` entry point (no pack is imported)."""
    from fireground.engine.core.packs import available_packs

    for game_id, version in sorted(available_packs().items()):
        print(f"{game_id} {version}")
    return 0


def template_names() -> list[str]:
    root = resources.files("fireground.templates")
    return sorted(
        p.name.removesuffix(".fg.yaml") for p in root.iterdir() if p.name.endswith(".fg.yaml")
    )


def cmd_new(args: argparse.Namespace) -> int:
    """Write a new scenario FILE from a starter template; never overwrite a file."""
    names = template_names()
    if args.template not in names:
        raise UsageError(
            f"unknown template '{args.template}' (templates: {', '.join(names) or 'none'})"
        )
    data = resources.files("fireground.templates").joinpath(f"{args.template}.fg.yaml").read_bytes()
    try:
        fd = os.open(args.file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except FileExistsError:
        raise UsageError(f"{args.file}: already exists (not overwritten)") from None
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    print(f"{args.file}: new scenario from template '{args.template}'")
    return EXIT_OK


# -- GeoJSON (issue 8) -------------------------------------------------------------------


def cmd_import_geojson(args: argparse.Namespace) -> int:
    """Make a scenario from a GeoJSON FeatureCollection (engine/geojson.py does the work)."""
    from fireground.geojson import cli_import_geojson

    rc: int = cli_import_geojson(args)
    return rc


def cmd_export_geojson(args: argparse.Namespace) -> int:
    """Write the map of a scenario as GeoJSON (engine/geojson.py does the work)."""
    from fireground.geojson import cli_export_geojson

    rc: int = cli_export_geojson(args)
    return rc
