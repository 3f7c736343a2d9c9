"""Draw a scenario map from a character grid and write it as format-v1 YAML.

A map is a list of strings, one character per ``CELL`` x ``CELL`` cm square of the table,
north at the top. Each character other than ``.`` names a *region* (a street, a court, a
building...) in a legend. A region is cut into areas of about 10 cm: first into rectangles
(greedy, row by row), then each rectangle into bays. Because every corner lies on the 5 cm
grid, neighbouring areas share exact edges: no slivers, no overlaps, and the only corner
contacts are where four rectangles meet on the grid.

Only the standard library is used, so the generator runs with any Python 3.11.
"""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

CELL = 5  # cm of table per map character
TARGET_CELLS = 4  # a nominal 10 cm area is 2 x 2 cells


@dataclass(frozen=True)
class Region:
    """What one map character stands for.

    ``mode`` chooses how rectangles are cut: ``grid`` into bays of about 10 x 10 cm,
    ``strip`` only across the long side (streets and alleys: one slice per 10 cm of length,
    or per 20 cm for a 5 cm alley), ``whole`` not at all.
    """

    kind: str
    prefix: str
    building: str | None = None
    name: str = ""
    mode: str = "grid"


@dataclass(frozen=True)
class Cut:
    """One area drawn from the grid: rows r0..r1-1 and columns c0..c1-1."""

    area_id: str
    key: str
    r0: int
    c0: int
    r1: int
    c1: int


def _rectangles(cells: set[tuple[int, int]]) -> list[tuple[int, int, int, int]]:
    """Greedy cover of a cell set by rectangles: widest run first, then as deep as it goes."""
    left = set(cells)
    out = []
    for r, c in sorted(cells):
        if (r, c) not in left:
            continue
        c1 = c
        while (r, c1) in left:
            c1 += 1
        r1 = r + 1
        while all((r1, x) in left for x in range(c, c1)):
            r1 += 1
        for rr in range(r, r1):
            for x in range(c, c1):
                left.discard((rr, x))
        out.append((r, c, r1, c1))
    return out


def _parts(n_cells: int, n_parts: int) -> list[int]:
    """Split a length into n near-equal integer parts, the longer ones first."""
    base, extra = divmod(n_cells, n_parts)
    return [base + (1 if i < extra else 0) for i in range(n_parts)]


def _bays(rect: tuple[int, int, int, int], mode: str) -> list[tuple[int, int, int, int]]:
    r0, c0, r1, c1 = rect
    h, w = r1 - r0, c1 - c0
    if mode == "whole":
        nx = ny = 1
    elif mode == "strip":
        short = min(h, w)
        piece = -(-TARGET_CELLS // short)  # ceil: 4 cells for a 5 cm alley, 2 for a street
        nx, ny = (max(1, w // piece), 1) if w >= h else (1, max(1, h // piece))
    elif mode == "grid":
        nx, ny = max(1, w // 2), max(1, h // 2)
    else:
        raise ValueError(f"unknown mode {mode!r}")
    out = []
    r = r0
    for dh in _parts(h, ny):
        c = c0
        for dw in _parts(w, nx):
            out.append((r, c, r + dh, c + dw))
            c += dw
        r += dh
    return out


class Map:
    """The areas of one character map, with look-ups by grid cell."""

    def __init__(self, grid: Sequence[str], legend: dict[str, Region]) -> None:
        width = len(grid[0])
        for i, row in enumerate(grid):
            if len(row) != width:
                raise ValueError(f"map row {i} has {len(row)} cells, not {width}")
        self.grid = list(grid)
        self.legend = legend
        self.height = len(grid)
        cells: dict[str, set[tuple[int, int]]] = {k: set() for k in legend}
        for r, row in enumerate(grid):
            for c, ch in enumerate(row):
                if ch == ".":
                    continue
                if ch not in legend:
                    raise ValueError(f"map cell ({r}, {c}) uses {ch!r}, not in the legend")
                cells[ch].add((r, c))
        self.cuts: list[Cut] = []
        self._owner: dict[tuple[int, int], str] = {}
        for key, region in legend.items():
            if not cells[key]:
                raise ValueError(f"legend entry {key!r} is not on the map")
            bays = [b for rect in _rectangles(cells[key]) for b in _bays(rect, region.mode)]
            bays.sort()
            for n, (r0, c0, r1, c1) in enumerate(bays, 1):
                # a region of one area (a terrace house) is named by its prefix alone
                area_id = region.prefix if len(bays) == 1 else f"{region.prefix}{n}"
                cut = Cut(area_id, key, r0, c0, r1, c1)
                self.cuts.append(cut)
                for rr in range(r0, r1):
                    for cc in range(c0, c1):
                        self._owner[(rr, cc)] = cut.area_id
        ids = [c.area_id for c in self.cuts]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(f"area ids drawn twice: {dupes}")

    def at(self, row: int, col: int) -> str:
        """Id of the area that covers map cell (row, col)."""
        return self._owner[(row, col)]

    def areas_of(self, key: str) -> list[str]:
        return [c.area_id for c in self.cuts if c.key == key]

    def polygon(self, cut: Cut) -> list[list[int]]:
        """Corners in table cm, counter-clockwise from the south-west, y to the north."""
        x0, x1 = cut.c0 * CELL, cut.c1 * CELL
        y0, y1 = (self.height - cut.r1) * CELL, (self.height - cut.r0) * CELL
        return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]


# -- YAML writing -------------------------------------------------------------------------

_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_YAML_WORDS = {"y", "n", "yes", "no", "on", "off", "true", "false", "null"}


def scalar(value: Any) -> str:
    """One YAML scalar: ids plain when safe, other text double-quoted (JSON escapes)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    if value is None:
        return "null"
    text = str(value)
    if _PLAIN.fullmatch(text) and text.lower() not in _YAML_WORDS:
        return text
    return json.dumps(text, ensure_ascii=False)


def flow(mapping: dict[str, Any]) -> str:
    """A one-line YAML mapping, keys in the given order, None values left out."""
    parts = []
    for k, v in mapping.items():
        if v is None:
            continue
        if isinstance(v, list):
            parts.append(f"{k}: [{', '.join(_point(p) for p in v)}]")
        else:
            parts.append(f"{k}: {scalar(v)}")
    return "{" + ", ".join(parts) + "}"


def _point(p: Any) -> str:
    if isinstance(p, list):
        return "[" + ", ".join(scalar(x) for x in p) + "]"
    return scalar(p)


@dataclass
class Doc:
    """Everything of a scenario file except the map, in the order the format lists it."""

    name: str
    description: str
    turns: int
    seed: int
    wind: dict[str, Any]
    bombing: bool
    mains: str
    buildings: list[dict[str, Any]]
    features: list[dict[str, Any]] = field(default_factory=list)
    fires: list[dict[str, Any]] = field(default_factory=list)
    embers: list[dict[str, Any]] = field(default_factory=list)
    damp: list[dict[str, Any]] = field(default_factory=list)
    damage: list[dict[str, Any]] = field(default_factory=list)
    rubble: list[str] = field(default_factory=list)
    craters: list[str] = field(default_factory=list)
    forces: list[dict[str, Any]] = field(default_factory=list)
    objectives: list[dict[str, Any]] = field(default_factory=list)
    house_rules: dict[str, Any] = field(default_factory=dict)


def _block_list(key: str, items: Iterable[dict[str, Any]], indent: str = "") -> list[str]:
    items = list(items)
    if not items:
        return [f"{indent}{key}: []"]
    return [f"{indent}{key}:"] + [f"{indent}  - {flow(it)}" for it in items]


def render(doc: Doc, m: Map, schema: str = "../docs/scenario.schema.json") -> str:
    """The scenario file text: deterministic, one area per block, features one a line."""
    out = [f"# yaml-language-server: $schema={schema}", "fireground: 1"]
    out.append(f"name: {scalar(doc.name)}")
    out.append("description: |")
    for para in doc.description.strip().split("\n\n"):
        out.extend("  " + line for line in textwrap.wrap(" ".join(para.split()), 92))
        out.append("")
    out.pop()
    out.append("ruleset: blitz")
    out.append("house_rules: " + (flow(doc.house_rules) if doc.house_rules else "{}"))
    out.append("scale:")
    out.append("  area_cm: 10")
    out.append("  figure_mm: 25")
    out.append(f"turns: {doc.turns}")
    out.append(f"seed: {doc.seed}")
    out.append(f"wind: {flow(doc.wind)}")
    out.append(f"bombing: {scalar(doc.bombing)}")
    out.append(f"mains: {doc.mains}")
    out.append("")
    out.append("buildings:")
    for b in doc.buildings:
        out.append(f"  - id: {scalar(b['id'])}")
        out.append(f"    name: {scalar(b['name'])}")
        out.append(f"    levels: {b['levels']}")
        out.append(f"    basement: {scalar(b.get('basement', False))}")
    out.append("")
    out.append("areas:")
    last_key = None
    bnames = {b["id"]: b["name"] for b in doc.buildings}
    for cut in m.cuts:
        region = m.legend[cut.key]
        if cut.key != last_key:
            what = region.name or bnames.get(region.building or "", cut.key)
            out.append(f"  # {what} ({region.kind})")
            last_key = cut.key
        out.append(f"  - id: {scalar(cut.area_id)}")
        out.append(f"    kind: {region.kind}")
        if region.building:
            out.append(f"    building: {scalar(region.building)}")
        if region.name and region.kind != "building":
            out.append(f"    name: {scalar(region.name)}")
        out.append(f"    polygon: [{', '.join(_point(p) for p in m.polygon(cut))}]")
    out.append("")
    out.extend(_block_list("features", doc.features))
    out.append("")
    out.append("start:")
    out.extend(_block_list("fires", doc.fires, "  "))
    out.extend(_block_list("embers", doc.embers, "  "))
    out.extend(_block_list("damp", doc.damp, "  "))
    out.extend(_block_list("damage", doc.damage, "  "))
    out.append(f"  rubble: [{', '.join(scalar(a) for a in doc.rubble)}]")
    out.append(f"  craters: [{', '.join(scalar(a) for a in doc.craters)}]")
    out.append("  all_clear: false")
    out.append("")
    out.extend(_block_list("forces", doc.forces))
    out.append("")
    out.extend(_block_list("objectives", doc.objectives))
    return "\n".join(out) + "\n"
