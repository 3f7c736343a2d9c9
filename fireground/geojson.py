"""Exchanging the map with GIS tools (QGIS) as GeoJSON (cli.md, issue 8; docs/geojson.md).

One Polygon Feature per area (properties ``id``, ``kind``, ``building``, ``levels``,
``name``; also ``basement`` and ``building_name`` so buildings survive a round trip) and one
Point Feature per map feature (``type``, ``area`` and the feature's own keys).

Importing reads a FeatureCollection as QGIS writes it, in a projected CRS in metres (e.g.
EPSG:27700) or plain coordinates (a file in longitude/latitude is projected locally, with a
warning, and exported back to degrees). The map's south-west corner is moved to (0, 0) and
metres become table cm (``metres_per_cm``, default 0.5: a 5 m bay is a 10 cm area). Where the
map came from is kept in the scenario's ``geo`` key (a format extension, :class:`.Geo`)::

    geo: {origin: [532100, 181200], metres_per_cm: 0.5, crs: "urn:ogc:def:crs:EPSG::27700"}

and exporting puts the map back there, so import → export → import gives the same scenario.
Files written by earlier versions kept this as a last ``description`` line
(``[geojson origin=532100,181200 metres_per_cm=0.5 crs=…]``); export still reads that line
when there is no ``geo`` key, but import no longer writes it.
A point feature goes to the area that contains it. Problems are reported as
``FILE:LINE:COL: feature N: message`` with N counting the features from 1 (the line is
found by reading the file again with the position-keeping reader of :mod:`.yamlsafe`, as
JSON is YAML, only when there is something to report).

This module holds the public API and the command line; the work is done in
:mod:`.geojson_write`, :mod:`.geojson_read` (collection, CRS, polygons) and
:mod:`.geojson_props` (properties to scenario entries).

>>> s = from_geojson('''{"type": "FeatureCollection", "features": [
...   {"type": "Feature", "properties": {"id": "R1", "kind": "street"},
...    "geometry": {"type": "Polygon",
...                 "coordinates": [[[100, 200], [105, 200], [105, 205], [100, 200]]]}}]}''')
>>> s.scenario.areas[0].polygon
((0.0, 0.0), (10.0, 0.0), (10.0, 10.0))
>>> to_geojson(s.scenario)["features"][0]["geometry"]["coordinates"]
[[[100.0, 200.0], [105.0, 200.0], [105.0, 205.0], [100.0, 200.0]]]
"""

from __future__ import annotations

import argparse
import math
import os
import sys

from fireground.engine.core.errors import Diagnostic, UsageError
from fireground.engine.scenario.geojson.common import DEFAULT_METRES_PER_CM
from fireground.engine.scenario.geojson.read import (
    REPAIR_TOLERANCE,
    Imported,
    from_geojson,
    load_geojson,
)
from fireground.engine.scenario.geojson.write import (
    GeoReference,
    dumps_geojson,
    georeference,
    to_geojson,
)
from fireground.engine.scenario.io import atomic_write, load_scenario, save_scenario

__all__ = [
    "DEFAULT_METRES_PER_CM",
    "REPAIR_TOLERANCE",
    "GeoReference",
    "Imported",
    "cli_export_geojson",
    "cli_import_geojson",
    "dumps_geojson",
    "from_geojson",
    "georeference",
    "load_geojson",
    "to_geojson",
]


def cli_import_geojson(args: argparse.Namespace) -> int:
    """``fireground import-geojson FILE --out FILE.fg.yaml [--metres-per-cm M]``."""
    k = args.metres_per_cm
    if not (k > 0 and math.isfinite(k)):
        raise UsageError(f"--metres-per-cm must be a positive number, got {k}")
    _refuse_same_file(args.file, args.out)
    imported = load_geojson(args.file, metres_per_cm=k)
    for w in imported.warnings:
        print(_warning(w), file=sys.stderr)
    s = imported.scenario
    save_scenario(s, args.out)
    print(
        f"{args.out}: {_count(len(s.areas), 'area')}, {_count(len(s.buildings), 'building')}, "
        f"{_count(len(s.features), 'feature')} from {args.file}"
    )
    return 0


def cli_export_geojson(args: argparse.Namespace) -> int:
    """``fireground export-geojson FILE.fg.yaml --out FILE.geojson [--metres-per-cm M]``."""
    s = load_scenario(args.file)
    scale = getattr(args, "metres_per_cm", None)
    if scale is not None and not (math.isfinite(scale) and scale > 0):
        raise UsageError(f"{args.file}: --metres-per-cm must be a positive number")
    _refuse_same_file(args.file, args.out)
    data = to_geojson(s, scale)
    try:
        text = dumps_geojson(data)
    except ValueError:
        raise UsageError(
            f"{args.file}: --metres-per-cm {scale} makes coordinates too large to write"
        ) from None
    atomic_write(args.out, text.encode("utf-8"))  # a GeoJSON it replaces stays as .bak
    print(f"{args.out}: {len(data['features'])} GeoJSON features from {args.file}")
    return 0


def _refuse_same_file(src: str, out: str) -> None:
    """Writing the converted map over its own source would lose the source."""
    if os.path.exists(out) and os.path.samefile(src, out):
        raise UsageError(f"{out}: --out is the input file; write the converted map elsewhere")


def _warning(d: Diagnostic) -> str:
    where = f"{d.file}:{d.line}:{d.col}" if d.line else d.file
    return f"{where}: warning: {d.message}"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
