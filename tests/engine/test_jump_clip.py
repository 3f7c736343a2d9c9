"""The R-5 jump lines with convex areas' lengths clipped (``JumpFinder``) are the lines
GEOS's lengths give (``exact=True``), on every loadable scenario of the project."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import shapely

from fireground.engine.board.graph import build_graph
from fireground.engine.board.jumps import JumpFinder
from fireground.engine.board.model import Area, AreaKind
from fireground.engine.scenario.io import load_scenario

ROOT = Path(__file__).resolve().parents[2]


def _scenarios() -> list[Path]:
    found = set()
    for where in ("examples", "benchmarks/baseline_examples", "tests"):
        found.update((ROOT / where).rglob("*.yaml"))
    return sorted(found)


def _finders(areas: list[Area]) -> tuple[JumpFinder, JumpFinder]:
    geoms = np.array([a.shape for a in areas], dtype=object)
    tree = shapely.STRtree(geoms)
    return (
        JumpFinder(areas, geoms, tree, frozenset()),
        JumpFinder(areas, geoms, tree, frozenset(), exact=True),
    )


def test_clipped_lines_are_geos_lines_on_every_scenario() -> None:
    areas_seen = lines_seen = 0
    for path in _scenarios():
        try:
            scenario = load_scenario(path)
        except Exception:  # not every YAML under tests/ is a scenario
            continue
        g = build_graph(scenario)
        tree = shapely.STRtree(g.shapes)
        fast = JumpFinder(scenario.areas, g.shapes, tree, frozenset())
        ref = JumpFinder(scenario.areas, g.shapes, tree, frozenset(), exact=True)
        for i in range(len(scenario.areas)):
            got = fast.lines(i, ())  # no area left out as adjacent: every line compared
            assert got == ref.lines(i, ()), (path.name, scenario.areas[i].id)
            areas_seen += 1
            lines_seen += len(got)
    assert areas_seen >= 700 and lines_seen >= 3000  # the scenarios were found and loaded


@pytest.mark.parametrize(
    "gap",
    [
        ((10, 0), (20, 0), (20, 10), (10, 10)),  # convex: clipped
        ((10, 0), (20, 0), (20, 10), (15, 6), (10, 10)),  # concave: GEOS
    ],
)
def test_lines_through_a_corner_and_along_an_edge(gap: tuple[tuple[int, int], ...]) -> None:
    """A line along the gap's edge (y = 0 from A to B) and a line grazing its corner:
    the clipped answer is GEOS's."""
    areas = [
        Area("A", AreaKind.BUILDING, ((0, -5), (10, -5), (10, 5), (0, 5))),
        Area("G", AreaKind.STREET, gap),
        Area("B", AreaKind.BUILDING, ((20, -5), (30, -5), (30, 5), (20, 5))),
        Area("S", AreaKind.STREET, ((10, -10), (20, -10), (20, 0), (10, 0))),
        Area("C", AreaKind.BUILDING, ((20, 10), (30, 10), (30, 20), (20, 20))),
        Area("D", AreaKind.BUILDING, ((0, 10), (10, 10), (10, 20), (0, 20))),
    ]
    fast, ref = _finders(areas)
    for i in range(len(areas)):
        assert fast.lines(i, ()) == ref.lines(i, ())
    assert 2 not in dict(ref.lines(0, ()))  # along both streets: counted twice, no line
